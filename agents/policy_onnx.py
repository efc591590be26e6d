"""Policies as ONNX models: export from the weights-only format, play with onnxruntime.

The exported graph (opset :data:`OPSET`) takes

* ``observation``: float32 ``[N, obs_size]``, the game's observation vectors, and
* ``action_mask``: float32 ``[N, num_actions]``, 1 for a legal action and 0 for an illegal one,

and returns ``masked_logits``: float32 ``[N, num_actions]``, the MLP's logits where the mask is
nonzero and ``-inf`` elsewhere, so ``argmax`` is the greedy legal action and ``softmax``
the policy. A checkpoint whose meta says ``"value_kind": "win_share"`` (expert iteration's:
its value head was trained through a logistic) also returns ``value``: float32 ``[N]``, the
seat's win share in [0, 1], the head through a ``Sigmoid``, as the numpy ``values`` gives
it (the search ``search:ckpt=`` reads it); other exports hold the actor only.
It is built from the numpy weights with the ``onnx`` helper API (no torch):
one ``Gemm`` (``x @ W.T + b``) per layer, ``Tanh``/``Relu`` between them, ``Where`` for the
mask. The checkpoint's JSON header rides along in the model's metadata under
``art_gallery_policy``, so a loader checks the observation/action layout exactly as for a
``.safetensors`` file. Any ONNX runtime can play the file (C, C++, C#, Java, JavaScript,
Python); this module's :class:`OnnxPolicy` uses onnxruntime, and
:class:`~art_gallery_env.agents.policy.PolicyAgent` plays a ``.onnx`` path through it.
Needs the ``[onnx]`` extra (``onnx`` to export, ``onnxruntime`` to run).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from art_gallery_env.files import atomic_write_bytes

from .policy_format import (
    ENTITY_VERSION,
    METADATA_KEY,
    CheckpointError,
    MLPPolicy,
    check_header,
    check_layout,
    header_game,
)

ONNX_SUFFIX = ".onnx"
OPSET = 17
INPUT_OBSERVATION = "observation"
INPUT_MASK = "action_mask"
OUTPUT = "masked_logits"
OUTPUT_VALUE = "value"  # only in exports of win-share checkpoints
WIN_SHARE = "win_share"  # the meta's value_kind whose head is exported (policy_entity's)


def _require(module: str) -> Any:
    try:
        return __import__(module)
    except ImportError as exc:
        raise CheckpointError(
            f"ONNX policies need the {module!r} package: pip install 'art-gallery-env[onnx]'"
        ) from exc


def policy_to_onnx(policy: MLPPolicy) -> Any:
    """The ``onnx.ModelProto`` of ``policy`` (see the module docstring for its interface)."""
    onnx = _require("onnx")
    from onnx import TensorProto, helper, numpy_helper

    win_share = policy.meta.get("value_kind") == WIN_SHARE
    if win_share and not getattr(policy, "has_value_head", False):
        raise CheckpointError("value_kind win_share, but the checkpoint has no value head")
    if policy.meta.get("version") == ENTITY_VERSION:
        from .policy_onnx_entity import entity_nodes

        nodes, initializers, x, value = entity_nodes(policy)
    else:
        nodes, initializers, x = _mlp_nodes(policy)
        value = _mlp_value_nodes(policy, nodes, initializers) if win_share else None
    initializers.append(numpy_helper.from_array(np.array(-np.inf, np.float32), "minus_inf"))
    nodes += [
        helper.make_node("Cast", [INPUT_MASK], ["legal"], to=TensorProto.BOOL),
        helper.make_node("Where", ["legal", x, "minus_inf"], [OUTPUT]),
    ]
    obs_size, num_actions = policy.meta["obs_size"], policy.meta["num_actions"]
    outputs = [helper.make_tensor_value_info(OUTPUT, TensorProto.FLOAT, ["batch", num_actions])]
    if win_share:
        initializers.append(numpy_helper.from_array(np.array([-1], np.int64), "value_shape"))
        nodes += [
            helper.make_node("Sigmoid", [value], ["win_share_2d"]),
            helper.make_node("Reshape", ["win_share_2d", "value_shape"], [OUTPUT_VALUE]),
        ]
        outputs.append(helper.make_tensor_value_info(OUTPUT_VALUE, TensorProto.FLOAT, ["batch"]))
    else:  # the entity graph's value nodes feed nothing: left out
        used = _inputs_used(nodes, OUTPUT)
        nodes = [n for n in nodes if set(n.output) & used]
        initializers = [i for i in initializers if i.name in used]
    graph = helper.make_graph(
        nodes,
        "art_gallery_policy",
        [
            helper.make_tensor_value_info(
                INPUT_OBSERVATION, TensorProto.FLOAT, ["batch", obs_size]
            ),
            helper.make_tensor_value_info(INPUT_MASK, TensorProto.FLOAT, ["batch", num_actions]),
        ],
        outputs,
        initializers,
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", OPSET)],
        producer_name="art-gallery-env",
        doc_string=f"{policy.game} policy: observation + action mask -> masked logits",
    )
    model.ir_version = min(model.ir_version, 9)  # readable by onnxruntime >= 1.16
    helper.set_model_props(model, {METADATA_KEY: json.dumps(policy.meta)})
    onnx.checker.check_model(model, full_check=True)
    return model


def _mlp_nodes(policy: MLPPolicy) -> tuple[list[Any], list[Any], str]:
    """One ``Gemm`` per layer, the activation between them; returns the logits' name."""
    from onnx import helper, numpy_helper

    activation = {"tanh": "Tanh", "relu": "Relu", "identity": None}[policy.meta["activation"]]
    nodes, initializers = [], []
    x = INPUT_OBSERVATION
    last = len(policy.layers) - 1
    for i, (weight, bias) in enumerate(policy.layers):
        initializers += [
            numpy_helper.from_array(np.asarray(weight, np.float32), f"layers.{i}.weight"),
            numpy_helper.from_array(np.asarray(bias, np.float32), f"layers.{i}.bias"),
        ]
        out = "logits" if i == last else f"hidden_{i}"
        nodes.append(
            helper.make_node("Gemm", [x, f"layers.{i}.weight", f"layers.{i}.bias"], [out], transB=1)
        )
        x = out
        if i < last and activation is not None:
            nodes.append(helper.make_node(activation, [x], [f"{x}_act"]))
            x = f"{x}_act"
    return nodes, initializers, x


def _mlp_value_nodes(policy: MLPPolicy, nodes: list[Any], initializers: list[Any]) -> str:
    """The MLP critic's ``Gemm`` chain (appended to ``nodes``); returns the raw head's name."""
    from onnx import helper, numpy_helper

    activation = {"tanh": "Tanh", "relu": "Relu", "identity": None}[policy.meta["activation"]]
    x, layers = INPUT_OBSERVATION, policy.value_layers or []
    for i, (weight, bias) in enumerate(layers):
        w, b = f"value_layers.{i}.weight", f"value_layers.{i}.bias"
        initializers += [
            numpy_helper.from_array(np.asarray(weight, np.float32), w),
            numpy_helper.from_array(np.asarray(bias, np.float32), b),
        ]
        out = f"value_hidden_{i}"
        nodes.append(helper.make_node("Gemm", [x, w, b], [out], transB=1))
        x = out
        if i < len(layers) - 1 and activation is not None:
            nodes.append(helper.make_node(activation, [x], [f"{x}_act"]))
            x = f"{x}_act"
    return x


def _inputs_used(nodes: list[Any], output: str) -> set[str]:
    """The names (node outputs and initializers) that ``output`` is computed from."""
    producer = {name: node for node in nodes for name in node.output}
    used, todo = set(), [output]
    while todo:
        name = todo.pop()
        if name in used:
            continue
        used.add(name)
        if name in producer:
            todo.extend(producer[name].input)
    return used


def export_onnx(policy: MLPPolicy, path: str | os.PathLike[str]) -> Path:
    """Write ``policy`` as an ONNX model (atomically); checked with onnxruntime when it is
    installed: the file must load and match the numpy forward on a few observations."""
    path = Path(path)
    if path.suffix != ONNX_SUFFIX:
        raise CheckpointError(f"{path}: an ONNX policy file must end in {ONNX_SUFFIX}")
    atomic_write_bytes(path, policy_to_onnx(policy).SerializeToString())
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return path
    loaded = OnnxPolicy(path)
    probe = np.random.default_rng(0).random((8, policy.meta["obs_size"]), dtype=np.float32)
    if not np.allclose(loaded.logits(probe), policy.logits(probe), rtol=1e-4, atol=1e-4):
        raise CheckpointError(f"{path}: the exported model does not match the checkpoint")
    if loaded.has_value_head and not np.allclose(
        loaded.values(probe), policy.values(probe), rtol=0, atol=1e-5
    ):
        raise CheckpointError(f"{path}: the exported value does not match the checkpoint's")
    return path


class OnnxPolicy:
    """An ONNX policy run by onnxruntime; a drop-in for :class:`MLPPolicy` (``logits``,
    ``meta``), plus :meth:`masked_logits`, the graph's own output. The value head is there
    only in a win-share checkpoint's export (its ``value`` output, the module docstring)."""

    @property
    def game(self) -> str:
        return header_game(self.meta)

    def __init__(self, path: str | os.PathLike[str], *, threads: int = 1) -> None:
        ort = _require("onnxruntime")
        path = Path(path)
        if path.suffix != ONNX_SUFFIX:
            raise CheckpointError(f"{path}: an ONNX policy file must end in {ONNX_SUFFIX}")
        if not path.is_file():
            raise CheckpointError(f"{path}: no such ONNX policy file")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads  # one small MLP per decision: 1 is fastest
        options.inter_op_num_threads = 1
        try:
            self.session = ort.InferenceSession(
                str(path), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises its own error types for bad files
            raise CheckpointError(f"{path}: not a readable ONNX model: {exc}") from exc
        props = self.session.get_modelmeta().custom_metadata_map
        if METADATA_KEY not in props:
            raise CheckpointError(
                f"{path}: no '{METADATA_KEY}' metadata; not an art-gallery policy export"
            )
        self.meta = json.loads(props[METADATA_KEY])
        if self.meta.get("version") == ENTITY_VERSION:
            check_layout(str(path), self.meta)  # the weights are in the graph itself
        else:
            check_header(str(path), self.meta)
        names = [i.name for i in self.session.get_inputs()]
        if names != [INPUT_OBSERVATION, INPUT_MASK]:
            raise CheckpointError(f"{path}: inputs {names}, expected observation, action_mask")
        self.has_value_head = OUTPUT_VALUE in [o.name for o in self.session.get_outputs()]
        self._obs_size, self._num_actions = self.meta["obs_size"], self.meta["num_actions"]
        self._all_legal = np.ones((1, self._num_actions), np.float32)

    def masked_logits(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The graph's output for one observation ``[obs_size]`` or a batch ``[N, obs_size]``."""
        obs = np.asarray(observation, dtype=np.float32)
        single = obs.ndim == 1
        mask = np.asarray(action_mask, dtype=np.float32)
        out = self.session.run(
            [OUTPUT],
            {
                INPUT_OBSERVATION: obs.reshape(-1, self._obs_size),
                INPUT_MASK: mask.reshape(-1, self._num_actions),
            },
        )[0]
        return out[0] if single else out

    def value(self, observation: np.ndarray) -> float | None:
        """The win share of one observation (None where the export holds the actor only)."""
        out = self.values(observation)
        return None if out is None else float(out.reshape(-1)[0])

    def values(self, observation: np.ndarray) -> np.ndarray | None:
        """The ``value`` output of a batch, ``(B,)``: the win share in [0, 1]; None where
        the export holds the actor only."""
        if not self.has_value_head:
            return None
        obs = np.asarray(observation, dtype=np.float32).reshape(-1, self._obs_size)
        mask = np.ones((len(obs), self._num_actions), np.float32)
        return self.session.run([OUTPUT_VALUE], {INPUT_OBSERVATION: obs, INPUT_MASK: mask})[
            0
        ].reshape(-1)

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """Unmasked logits (every action allowed), as :meth:`MLPPolicy.logits` gives them."""
        obs = np.asarray(observation, dtype=np.float32)
        rows = 1 if obs.ndim == 1 else obs.shape[0]
        mask = self._all_legal if rows == 1 else np.ones((rows, self._num_actions), np.float32)
        return self.masked_logits(obs, mask)
