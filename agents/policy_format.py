"""The weights-only policy checkpoint format and its numpy inference.

Checkpoint format (``.safetensors``, see ``docs/agents.md``): the tensors of an MLP,
``layers.{i}.weight`` with shape ``(out, in)`` and ``layers.{i}.bias`` with shape ``(out,)``
for ``i = 0..L-1``, plus one JSON string in the safetensors metadata under the key
``art_gallery_policy``::

    {"format": "art-gallery-policy", "version": 1, "game": "<a registered game>",
     "obs_size": <its size>, "num_actions": <its actions>, "hidden_sizes": [64, 64],
     "activation": "tanh",
     "layout_fingerprint": "<layout_fingerprint()>", "name": "...", ...}

``game`` names the registered game whose observations the policy reads (a header without
one is the default game's, :func:`~art_gallery_env.core.registry.default_game`: every file
written before games were named); its size, action count and layout fingerprint must be
that game's (``GameSpec.layout_fingerprint``). The network maps the observation vector to
one logit per action. Loading never unpickles anything, and inference needs only numpy and
``safetensors`` (the ``[tools]`` extra), not torch. :mod:`.policy` plays it (and SB3 zips,
through :mod:`.run_checkpoint`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from art_gallery_env.files import atomic_write_bytes

from .policy_header import (  # re-exported: the names this module always had
    ENTITY_VERSION,
    FORMAT,
    METADATA_KEY,
    SUFFIX,
    VERSION,
    CheckpointError,
    PolicyLayout,
    check_layout,
    header_game,
    layout_fingerprint,
    policy_layout,
)
from .policy_header import layout_header as _layout_header
from .policy_header import safetensors_numpy as _safetensors_numpy

ACTIVATIONS = ("tanh", "relu", "identity")
__all__ = [
    "ENTITY_VERSION",
    "FORMAT",
    "METADATA_KEY",
    "SUFFIX",
    "VERSION",
    "CheckpointError",
    "PolicyLayout",
    "check_layout",
    "header_game",
    "layout_fingerprint",
    "policy_layout",
]


def _activation(name: str):
    if name == "tanh":
        return np.tanh
    if name == "relu":
        return lambda x: np.maximum(x, 0.0)
    return lambda x: x


class MLPPolicy:
    """Numpy inference of the checkpoint's MLP: observation(s) -> one logit per action.

    ``value_weights`` is an optional critic (observation -> one value) with the same
    activation; the weights-only file holds none, an SB3 zip's policy carries one."""

    def __init__(
        self,
        weights: list[tuple[np.ndarray, np.ndarray]],
        meta: dict[str, Any],
        value_weights: list[tuple[np.ndarray, np.ndarray]] | None = None,
    ):
        self.layers = _float32_layers(weights)
        self.value_layers = None if value_weights is None else _float32_layers(value_weights)
        self.meta = dict(meta)
        self._act = _activation(meta["activation"])

    @property
    def has_value_head(self) -> bool:
        return self.value_layers is not None

    @property
    def game(self) -> str:
        """The registered game whose observations this policy reads."""
        return header_game(self.meta)

    def logits(self, observation: np.ndarray) -> np.ndarray:
        return self._forward(self.layers, observation)

    def value(self, observation: np.ndarray) -> float | None:
        """The critic's estimate of the observing seat's return, or None without one."""
        if self.value_layers is None:
            return None
        return float(self._forward(self.value_layers, observation).reshape(-1)[0])

    def values(self, observation: np.ndarray) -> np.ndarray | None:
        """The critic of each row of a batch ``(B, obs_size)``: shape ``(B,)``, or None
        without a critic."""
        if self.value_layers is None:
            return None
        return self._forward(self.value_layers, observation).reshape(-1)

    def _forward(self, layers: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=np.float32)
        last = len(layers) - 1
        for i, (w, b) in enumerate(layers):
            x = x @ w.T + b
            if i < last:
                x = self._act(x)
        return x


def _float32_layers(
    weights: list[tuple[np.ndarray, np.ndarray]],
) -> list[tuple[np.ndarray, np.ndarray]]:
    return [
        (np.ascontiguousarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32))
        for w, b in weights
    ]


def save_policy_weights(
    weights: Mapping[str, np.ndarray], meta: Mapping[str, Any], path: str | os.PathLike[str]
) -> Path:
    """Write an MLP checkpoint: ``weights`` named ``layers.{i}.weight``/``.bias``; ``meta``
    needs ``hidden_sizes`` and ``activation``, and may name its ``game`` (default: the
    default game); the layout fields of that game are filled in here.

    The file is checked by loading it back, so a bad export fails here and not at play time.
    """
    safetensors_numpy = _safetensors_numpy()
    path = Path(path)
    if path.suffix != SUFFIX:
        raise CheckpointError(f"{path}: a policy checkpoint must end in {SUFFIX}")
    header = {**_layout_header(meta.get("game")), **dict(meta)}
    tensors = {name: np.ascontiguousarray(a, dtype=np.float32) for name, a in weights.items()}
    _check(str(path), header, tensors)
    data = safetensors_numpy.save(tensors, metadata={METADATA_KEY: json.dumps(header)})
    atomic_write_bytes(path, data)
    load_weights(path)
    return path


def torch_mlp_weights(
    module: Any, *, activation: str | None = None
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """(weights, meta) of a torch MLP in the checkpoint layout: its ``nn.Linear`` layers in
    order, one activation between them (default: the first Tanh/ReLU in the module)."""
    import torch.nn as nn  # torch is only needed to export, never to play

    linears = [m for m in module.modules() if isinstance(m, nn.Linear)]
    if not linears:
        raise CheckpointError("the module has no nn.Linear layer to export")
    if activation is None:
        activation = "identity"
        for m in module.modules():
            if isinstance(m, nn.Tanh):
                activation = "tanh"
                break
            if isinstance(m, nn.ReLU):
                activation = "relu"
                break
    weights = {}
    for i, layer in enumerate(linears):
        weights[f"layers.{i}.weight"] = layer.weight.detach().cpu().numpy()
        bias = layer.bias
        out = layer.weight.shape[0]
        weights[f"layers.{i}.bias"] = (
            np.zeros(out, np.float32) if bias is None else bias.detach().cpu().numpy()
        )
    meta = {
        "hidden_sizes": [int(layer.weight.shape[0]) for layer in linears[:-1]],
        "activation": activation,
    }
    return weights, meta


def policy_from_torch_mlp(
    module: Any,
    *,
    activation: str | None = None,
    extra_meta: Mapping[str, Any] | None = None,
    critic: Any = None,
) -> MLPPolicy:
    """The in-memory :class:`MLPPolicy` of a torch MLP, checked like a file would be (for a
    loader of another checkpoint type, e.g. the SB3 ``.zip`` hook). ``critic``, a torch MLP
    from the observation to one value with the same activation, becomes its value head."""
    weights, meta = torch_mlp_weights(module, activation=activation)
    extra = dict(extra_meta or {})
    header = {**_layout_header(extra.get("game")), **meta, **extra}
    tensors = {name: np.ascontiguousarray(a, dtype=np.float32) for name, a in weights.items()}
    obs_size = header["obs_size"]
    value = None
    if critic is not None:
        critic_weights, _ = torch_mlp_weights(critic, activation=header["activation"])
        count = len(critic_weights) // 2
        value = [
            (critic_weights[f"layers.{i}.weight"], critic_weights[f"layers.{i}.bias"])
            for i in range(count)
        ]
        if value[0][0].shape[1] != obs_size or value[-1][0].shape[0] != 1:
            raise CheckpointError(
                f"the critic must map {obs_size} observation values to 1 value, "
                f"got {value[0][0].shape[1]} -> {value[-1][0].shape[0]}"
            )
    return MLPPolicy(_check("<torch module>", header, tensors), header, value)


def policy_from_network(
    tensors: Mapping[str, np.ndarray],
    header: Mapping[str, Any],
    value: list[tuple[np.ndarray, np.ndarray]] | None = None,
) -> Any:
    """The in-memory numpy policy of a structured network's export (``net.export_tensors()``
    and ``net.header()`` plus the caller's meta): an entity network's own format, or the
    MLP format (an embedding-bag network is an MLP to play) with ``value`` as its critic."""
    if dict(header.get("network") or {}).get("type") == "entity":
        from .policy_entity import policy_from_entity_tensors

        return policy_from_entity_tensors(tensors, header)
    full = {**_layout_header(header.get("game")), **dict(header)}
    arrays = {name: np.ascontiguousarray(a, dtype=np.float32) for name, a in tensors.items()}
    return MLPPolicy(_check("<torch module>", full, arrays), full, value)


def save_network_weights(
    tensors: Mapping[str, np.ndarray], header: Mapping[str, Any], path: str | os.PathLike[str]
) -> Path:
    """Write a structured network's export as a weights-only checkpoint: an entity network
    as format version 2 (int32 index tensors kept), the rest in the MLP format. The file
    is loaded back, so a bad export fails here and not at play time."""
    if dict(header.get("network") or {}).get("type") != "entity":
        return save_policy_weights(tensors, header, path)
    from .policy_entity import INDEX_DTYPES, check_entity, entity_header

    path = Path(path)
    if path.suffix != SUFFIX:
        raise CheckpointError(f"{path}: a policy checkpoint must end in {SUFFIX}")
    full = entity_header(header)
    arrays = {
        k: np.ascontiguousarray(v, np.int32 if v.dtype in INDEX_DTYPES else np.float32)
        for k, v in tensors.items()
    }
    check_entity(str(path), full, arrays)
    data = _safetensors_numpy().save(arrays, metadata={METADATA_KEY: json.dumps(full)})
    atomic_write_bytes(path, data)
    load_weights(path)
    return path


def export_torch_mlp(
    module: Any,
    path: str | os.PathLike[str],
    *,
    activation: str | None = None,
    extra_meta: Mapping[str, Any] | None = None,
) -> Path:
    """Export a torch MLP (its ``nn.Linear`` layers in order, one activation between them)
    as a checkpoint. ``activation`` defaults to the first Tanh/ReLU found in the module."""
    weights, meta = torch_mlp_weights(module, activation=activation)
    return save_policy_weights(weights, {**meta, **dict(extra_meta or {})}, path)


def load_weights(path: str | os.PathLike[str]) -> MLPPolicy:
    """Load and check a weights-only ``.safetensors`` policy checkpoint."""
    path = Path(path)
    if path.suffix != SUFFIX:
        raise CheckpointError(f"{path}: a policy checkpoint must end in {SUFFIX}")
    if not path.is_file():
        raise CheckpointError(f"{path}: no such checkpoint file")
    safetensors_numpy = _safetensors_numpy()
    from safetensors import safe_open

    where = str(path)
    try:
        with safe_open(where, framework="numpy") as handle:
            metadata = handle.metadata() or {}
        tensors = safetensors_numpy.load_file(where)
    except Exception as exc:  # safetensors raises its own error types for bad files
        raise CheckpointError(
            f"{where}: not a readable safetensors file (corrupted or truncated?): {exc}"
        ) from exc
    if METADATA_KEY not in metadata:
        raise CheckpointError(
            f"{where}: no '{METADATA_KEY}' metadata; this is not an art-gallery policy checkpoint"
        )
    try:
        meta = json.loads(metadata[METADATA_KEY])
    except json.JSONDecodeError as exc:
        raise CheckpointError(f"{where}: the '{METADATA_KEY}' metadata is not JSON: {exc}") from exc
    if not isinstance(meta, dict):
        raise CheckpointError(f"{where}: the '{METADATA_KEY}' metadata must be a JSON object")
    if meta.get("format") == FORMAT and meta.get("version") == ENTITY_VERSION:
        from .policy_entity import check_entity  # the structured network (version 2)

        return check_entity(where, meta, tensors)  # type: ignore[return-value]
    layers = _check(where, meta, tensors)
    return MLPPolicy(layers, meta)


def check_header(where: str, meta: dict[str, Any]) -> list[int]:
    """Validate a policy header (format, layout, activation, hidden sizes); returns the
    layer sizes ``[obs_size, *hidden_sizes, num_actions]``. Also used for ONNX exports,
    which carry the same header."""
    if meta.get("format") != FORMAT or meta.get("version") != VERSION:
        raise CheckpointError(
            f"{where}: format {meta.get('format')!r} version {meta.get('version')!r} is not "
            f"supported (expected {FORMAT!r} version {VERSION})"
        )
    layout = check_layout(where, meta)
    activation = meta.get("activation")
    if activation not in ACTIVATIONS:
        raise CheckpointError(
            f"{where}: activation {activation!r} is not one of {', '.join(ACTIVATIONS)}"
        )
    hidden = meta.get("hidden_sizes")
    if not isinstance(hidden, Sequence) or not all(
        isinstance(h, int) and not isinstance(h, bool) and h > 0 for h in hidden
    ):
        raise CheckpointError(f"{where}: hidden_sizes must be a list of positive ints")
    return [layout.obs_size, *hidden, layout.num_actions]


def _check(
    where: str, meta: dict[str, Any], tensors: Mapping[str, np.ndarray]
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Validate a header and its tensors; returns the (weight, bias) pairs in order."""
    sizes = check_header(where, meta)
    expected = {}
    for i in range(len(sizes) - 1):
        expected[f"layers.{i}.weight"] = (sizes[i + 1], sizes[i])
        expected[f"layers.{i}.bias"] = (sizes[i + 1],)
    extra = sorted(set(tensors) - set(expected))
    if extra:
        raise CheckpointError(f"{where}: unexpected tensor {extra[0]!r}")
    layers = []
    for name, shape in expected.items():
        if name not in tensors:
            raise CheckpointError(f"{where}: tensor {name!r} is missing")
        array = tensors[name]
        if tuple(array.shape) != shape:
            raise CheckpointError(
                f"{where}: tensor {name!r} has shape {tuple(array.shape)}, expected {shape} "
                f"(from obs_size, hidden_sizes and num_actions)"
            )
        if not np.all(np.isfinite(array)):
            raise CheckpointError(f"{where}: tensor {name!r} holds NaN or infinite values")
    for i in range(len(sizes) - 1):
        layers.append((tensors[f"layers.{i}.weight"], tensors[f"layers.{i}.bias"]))
    return layers
