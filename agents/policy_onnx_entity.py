"""The entity network (:mod:`.policy_entity`) as ONNX nodes: observation -> logits.

The same arithmetic as :class:`~.policy_entity.EntityPolicy`, op for op: ``Pad`` adds the
zero that index -1 reads, ``Gather`` builds each token group's features, ``MatMul``/``Add``
and the activation encode them, ``Reshape``/``Concat`` flatten them with the global
features into the trunk (``Gemm``), and the pointer's one-hot context selects the token
each pointed action reads. :mod:`.policy_onnx` adds the mask and writes the file.
"""

from __future__ import annotations

from typing import Any

import numpy as np

OBSERVATION = "observation"


class _Graph:
    """Nodes and initializers under construction, with fresh names."""

    def __init__(self, activation: str) -> None:
        from onnx import helper, numpy_helper

        self.helper, self.numpy_helper = helper, numpy_helper
        self.nodes: list[Any] = []
        self.initializers: list[Any] = []
        self.activation = {"tanh": "Tanh", "relu": "Relu"}[activation]
        self._count = 0

    def const(self, name: str, array: np.ndarray) -> str:
        self.initializers.append(self.numpy_helper.from_array(array, name))
        return name

    def op(self, kind: str, inputs: list[str], **attributes: Any) -> str:
        self._count += 1
        out = f"{kind.lower()}_{self._count}"
        self.nodes.append(self.helper.make_node(kind, inputs, [out], **attributes))
        return out

    def act(self, x: str) -> str:
        return self.op(self.activation, [x])

    def shape(self, name: str, dims: list[int]) -> str:
        return self.const(name, np.asarray(dims, dtype=np.int64))


def _f32(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float32)


def _i64(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.int64)


def _tokens(g: _Graph, t: dict[str, np.ndarray], groups: list[str]) -> dict[str, str]:
    pads = g.const("pad_one_zero", np.asarray([0, 0, 0, 1], dtype=np.int64))
    padded = g.op("Pad", [OBSERVATION, pads])
    out = {}
    for name in groups:
        index = g.const(f"index_{name}", _i64(t[f"index_{name}"]))
        gathered = g.op("Gather", [padded, index], axis=1)  # (B, T, F)
        weight = g.const(f"encoders.{name}.weight_t", _f32(t[f"encoders.{name}.weight"].T))
        encoded = g.op("MatMul", [gathered, weight])
        bias = _f32(t[f"encoders.{name}.bias"] + t[f"positions.{name}"])
        out[name] = g.act(g.op("Add", [encoded, g.const(f"encoders.{name}.bias_pos", bias)]))
    return out


def _trunk(g: _Graph, t: dict, groups: list[str], tokens: dict[str, str], depth: int) -> str:
    flat = g.shape("flat_shape", [0, -1])
    parts = [g.op("Reshape", [tokens[name], flat]) for name in groups]
    parts.append(g.op("Gather", [OBSERVATION, g.const("rest", _i64(t["rest"]))], axis=1))
    h = g.op("Concat", parts, axis=1)
    for i in range(depth):
        w = g.const(f"trunk.{i}.weight", _f32(t[f"trunk.{i}.weight"]))
        b = g.const(f"trunk.{i}.bias", _f32(t[f"trunk.{i}.bias"]))
        h = g.act(g.op("Gemm", [h, w, b], transB=1))
    return h


def _pointer(g: _Graph, t: dict, h: str, token: str, num_actions: int) -> str:
    """The pointed actions' extra logits, scattered to all ``num_actions`` columns."""
    actions = t["pointer_actions"]
    k = len(actions)
    tokens = t["pointer_select"].shape[1] // k
    a = g.op("Gather", [OBSERVATION, g.const("ctx_a", _i64(t["pointer_context_a"]))], axis=1)
    b = g.op("Gather", [OBSERVATION, g.const("ctx_b", _i64(t["pointer_context_b"]))], axis=1)
    a = g.op("Unsqueeze", [a, g.shape("axis_2", [2])])
    b = g.op("Unsqueeze", [b, g.shape("axis_1", [1])])
    context = g.op("Reshape", [g.op("Mul", [a, b]), g.shape("flat_context", [0, -1])])
    select = g.op("MatMul", [context, g.const("pointer_select", _f32(t["pointer_select"]))])
    select = g.op("Reshape", [select, g.shape("select_shape", [0, k, tokens])])
    dest = g.op("MatMul", [select, token])  # (B, k, token_dim)
    wd = g.const("pointer_dest_t", _f32(t["pointer_dest.weight"].T))
    wh = g.const("pointer_hidden_t", _f32(t["pointer_hidden.weight"].T))
    hidden = g.op("Unsqueeze", [g.op("MatMul", [h, wh]), g.shape("axis_1b", [1])])
    q = g.op("Add", [g.op("MatMul", [dest, wd]), hidden])
    q = g.act(g.op("Add", [q, g.const("pointer_action", _f32(t["pointer_action"]))]))
    score = g.op("MatMul", [q, g.const("pointer_out_t", _f32(t["pointer_out.weight"].T))])
    score = g.op("Reshape", [score, g.shape("score_shape", [0, k])])
    scatter = np.zeros((k, num_actions), dtype=np.float32)
    scatter[np.arange(k), actions] = 1.0
    return g.op("MatMul", [score, g.const("pointer_scatter", scatter)])


def entity_nodes(policy: Any) -> tuple[list[Any], list[Any], str, str]:
    """(nodes, initializers, name of the logits, name of the raw value head ``[N, 1]``)
    of an :class:`EntityPolicy`; the value nodes are only kept if their output is used."""
    t, meta = policy.t, policy.meta
    g = _Graph(meta["activation"])
    tokens = _tokens(g, t, policy.groups)
    h = _trunk(g, t, policy.groups, tokens, policy.trunk_depth)
    pi_w, pi_b = g.const("pi.weight", _f32(t["pi.weight"])), g.const("pi.bias", _f32(t["pi.bias"]))
    logits = g.op("Gemm", [h, pi_w, pi_b], transB=1)
    if policy.pointer_group is not None:
        extra = _pointer(g, t, h, tokens[policy.pointer_group], meta["num_actions"])
        logits = g.op("Add", [logits, extra])
    vf_w, vf_b = g.const("vf.weight", _f32(t["vf.weight"])), g.const("vf.bias", _f32(t["vf.bias"]))
    value = g.op("Gemm", [h, vf_w, vf_b], transB=1)
    return g.nodes, g.initializers, logits, value
