"""The weights-only policy checkpoint format and its numpy inference.

Checkpoint format (``.safetensors``, see ``docs/agents.md``): the tensors of an MLP,
``layers.{i}.weight`` with shape ``(out, in)`` and ``layers.{i}.bias`` with shape ``(out,)``
for ``i = 0..L-1``, plus one JSON string in the safetensors metadata under the key
``art_gallery_policy``::

    {"format": "art-gallery-policy", "version": 1,
     "obs_size": 2221, "num_actions": 47, "hidden_sizes": [64, 64], "activation": "tanh",
     "layout_fingerprint": "<layout_fingerprint()>", "name": "...", ...}

The network maps the observation vector to 47 action logits. Loading never unpickles
anything, and inference needs only numpy and ``safetensors`` (the ``[tools]`` extra), not
torch. :mod:`.policy` plays it (and SB3 zips, through :mod:`.run_checkpoint`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from art_gallery_env.env.observation import FIELDS, OBSERVATION_SIZE
from art_gallery_env.files import atomic_write_bytes
from art_gallery_env.rules.actions import NUM_ACTIONS

FORMAT = "art-gallery-policy"
VERSION = 1
METADATA_KEY = "art_gallery_policy"
ACTIVATIONS = ("tanh", "relu", "identity")
SUFFIX = ".safetensors"


DEFAULT_GAME = "art_gallery"  # the game of a header that names none (every file before 0.2)
GAMES = ("art_gallery", "gallerist")


class CheckpointError(ValueError):
    """A checkpoint that cannot be used; the message names the file and the problem."""


@dataclass(frozen=True)
class PolicyLayout:
    """What a policy maps between, for one game: observation size, number of actions and
    the fingerprint of both layouts (a checkpoint names its game in the header)."""

    game: str
    obs_size: int
    num_actions: int
    fingerprint: str


@cache
def policy_layout(game: str = DEFAULT_GAME) -> PolicyLayout:
    """The layout of ``game``'s observation and action encoding."""
    if game == "art_gallery":
        return PolicyLayout(game, OBSERVATION_SIZE, NUM_ACTIONS, layout_fingerprint())
    if game == "gallerist":
        from art_gallery_env.gallerist.env import observation_fields
        from art_gallery_env.gallerist.rules.actions import NUM_ACTIONS as GALLERIST_ACTIONS

        return PolicyLayout(
            game,
            observation_fields.OBSERVATION_SIZE,
            GALLERIST_ACTIONS,
            observation_fields.layout_fingerprint(),
        )
    raise CheckpointError(f"unknown game {game!r}; policies exist for: {', '.join(GAMES)}")


def layout_fingerprint() -> str:
    """A stable id of the observation and action layout a policy was trained on.

    sha256 of the field names and shapes, in order, and the number of actions; any change
    to either layout changes it, so an old checkpoint is rejected instead of misread.
    """
    layout = [[f.name, list(f.shape)] for f in FIELDS] + [NUM_ACTIONS]
    text = json.dumps(layout, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _activation(name: str):
    if name == "tanh":
        return np.tanh
    if name == "relu":
        return lambda x: np.maximum(x, 0.0)
    return lambda x: x


class MLPPolicy:
    """Numpy inference of the checkpoint's MLP: observation(s) -> 47 logits.

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
        """The game whose observations this policy reads (``art_gallery``, ``gallerist``)."""
        return self.meta.get("game", DEFAULT_GAME)

    def logits(self, observation: np.ndarray) -> np.ndarray:
        return self._forward(self.layers, observation)

    def value(self, observation: np.ndarray) -> float | None:
        """The critic's estimate of the observing seat's return, or None without one."""
        if self.value_layers is None:
            return None
        return float(self._forward(self.value_layers, observation).reshape(-1)[0])

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


def _layout_header(game: str = DEFAULT_GAME) -> dict[str, Any]:
    layout = policy_layout(game)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "obs_size": layout.obs_size,
        "num_actions": layout.num_actions,
        "layout_fingerprint": layout.fingerprint,
    }


def save_policy_weights(
    weights: Mapping[str, np.ndarray], meta: Mapping[str, Any], path: str | os.PathLike[str]
) -> Path:
    """Write an MLP checkpoint: ``weights`` named ``layers.{i}.weight``/``.bias``; ``meta``
    needs ``hidden_sizes`` and ``activation``, and may name its ``game`` (default Art
    Gallery); the layout fields of that game are filled in here.

    The file is checked by loading it back, so a bad export fails here and not at play time.
    """
    safetensors_numpy = _safetensors_numpy()
    path = Path(path)
    if path.suffix != SUFFIX:
        raise CheckpointError(f"{path}: a policy checkpoint must end in {SUFFIX}")
    header = {**_layout_header(meta.get("game", DEFAULT_GAME)), **dict(meta)}
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
    header = {**_layout_header(extra.get("game", DEFAULT_GAME)), **meta, **extra}
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


def _safetensors_numpy():
    try:
        import safetensors.numpy
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise CheckpointError(
            "policy checkpoints need the 'safetensors' package: "
            "pip install 'art-gallery-env[tools]'"
        ) from exc
    return safetensors.numpy


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
    game = meta.get("game", DEFAULT_GAME)
    if game not in GAMES:
        raise CheckpointError(f"{where}: game {game!r} is not one of {', '.join(GAMES)}")
    layout = policy_layout(game)
    if meta.get("layout_fingerprint") != layout.fingerprint:
        raise CheckpointError(
            f"{where}: the checkpoint was made for observation/action layout "
            f"{meta.get('layout_fingerprint')!r}, but this env's layout is "
            f"{layout.fingerprint!r} (the observation or action encoding changed); retrain "
            f"or re-export the policy for this version"
        )
    if meta.get("obs_size") != layout.obs_size or meta.get("num_actions") != layout.num_actions:
        raise CheckpointError(
            f"{where}: obs_size {meta.get('obs_size')!r} / num_actions "
            f"{meta.get('num_actions')!r} do not match this env ({layout.obs_size} / "
            f"{layout.num_actions})"
        )
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
