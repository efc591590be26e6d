"""Numpy inference of the entity network (``network: {type: entity}``), weights-only.

A ``.safetensors`` file of format version 2 whose header's ``network`` entry is
``{"type": "entity", "token_dim", "hidden_sizes", "pointer_dim", "groups",
"pointer_group"}`` holds the torch module's state dict (``training/networks.py``,
``EntityNet``): per token group ``index_<g>`` (observation entries, the padded zero at
``obs_size``), ``encoders.<g>.weight/bias`` and ``positions.<g>``; ``rest``; the trunk
``trunk.{i}.weight/bias``; the heads ``pi.*`` and ``vf.*``; and, with a pointer,
``pointer_actions``, ``pointer_context_a/b``, ``pointer_select`` and the pointer weights.
The index arrays travel in the file, so playing it needs neither the game's structure
module nor torch. ONNX export: :mod:`.policy_onnx`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .policy_header import ENTITY_VERSION, CheckpointError, check_layout, header_game, layout_header

INDEX_DTYPES = (np.int32, np.int64)
WIN_SHARE = "win_share"  # meta value_kind of a head trained to win shares (logistic)


def _act(name: str):
    if name == "tanh":
        return np.tanh
    return lambda x: np.maximum(x, 0.0)


class EntityPolicy:
    """The entity network in numpy: observation(s) -> logits, and its value head."""

    has_value_head = True

    def __init__(self, tensors: Mapping[str, np.ndarray], meta: dict[str, Any]) -> None:
        self.meta = dict(meta)
        self.net = dict(meta["network"])
        self.t = {
            k: (np.asarray(v, np.intp) if v.dtype in INDEX_DTYPES else np.asarray(v, np.float32))
            for k, v in tensors.items()
        }
        self._act = _act(meta["activation"])
        self.groups = list(self.net["groups"])
        self.pointer_group = self.net.get("pointer_group")
        self.trunk_depth = len(self.net["hidden_sizes"])
        self._fast = self._prepared()

    def _prepared(self) -> dict[str, np.ndarray]:
        """Weights transposed and biases merged once, for the forward pass (``self.t`` keeps
        the file's tensors as they are)."""
        t, fast = self.t, {}
        try:
            for g in self.groups:
                fast[f"enc_w_{g}"] = np.ascontiguousarray(t[f"encoders.{g}.weight"].T)
                fast[f"enc_b_{g}"] = t[f"encoders.{g}.bias"] + t[f"positions.{g}"]
            for i in range(self.trunk_depth):
                fast[f"trunk_{i}"] = np.ascontiguousarray(t[f"trunk.{i}.weight"].T)
            fast["pi"] = np.ascontiguousarray(t["pi.weight"].T)
            if self.pointer_group is not None:
                for name in ("pointer_dest", "pointer_hidden", "pointer_out"):
                    fast[name] = np.ascontiguousarray(t[f"{name}.weight"].T)
        except KeyError:
            return {}  # a file missing a tensor: check_entity's trial forward reports it
        return fast

    @property
    def game(self) -> str:
        return header_game(self.meta)

    def _trunk(self, x: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        t, f, act, rows = self.t, self._fast, self._act, x.shape[0]
        padded = np.concatenate([x, np.zeros((rows, 1), np.float32)], axis=1)
        tokens = {}
        for g in self.groups:
            index = t[f"index_{g}"]
            gathered = padded[:, index].reshape(-1, index.shape[1])  # (B * tokens, features)
            encoded = (gathered @ f[f"enc_w_{g}"]).reshape(rows, len(index), -1)
            tokens[g] = act(encoded + f[f"enc_b_{g}"])
        parts = [tokens[g].reshape(rows, -1) for g in self.groups]
        h = np.concatenate([*parts, x[:, t["rest"]]], axis=1)
        for i in range(self.trunk_depth):
            h = act(h @ f[f"trunk_{i}"] + t[f"trunk.{i}.bias"])
        return h, tokens

    def _heads(self, x: np.ndarray, h: np.ndarray, tokens: dict[str, np.ndarray]) -> np.ndarray:
        t, f, rows = self.t, self._fast, x.shape[0]
        logits = h @ f["pi"] + t["pi.bias"]
        if self.pointer_group is None:
            return logits
        context = x[:, t["pointer_context_a"]][:, :, None] * x[:, t["pointer_context_b"]][:, None]
        actions = t["pointer_actions"]
        select = (context.reshape(rows, -1) @ t["pointer_select"]).reshape(rows, len(actions), -1)
        dest = select @ tokens[self.pointer_group]
        q = self._act(
            dest @ f["pointer_dest"] + (h @ f["pointer_hidden"])[:, None, :] + t["pointer_action"]
        )
        logits[:, actions] += (q @ f["pointer_out"])[:, :, 0]
        return logits

    def _batch(self, observation: np.ndarray) -> tuple[np.ndarray, bool]:
        x = np.asarray(observation, dtype=np.float32)
        return x.reshape(1, -1) if x.ndim == 1 else x, x.ndim == 1

    def logits(self, observation: np.ndarray) -> np.ndarray:
        x, single = self._batch(observation)
        h, tokens = self._trunk(x)
        out = self._heads(x, h, tokens)
        return out[0] if single else out

    def value(self, observation: np.ndarray) -> float | None:
        return float(self.values(observation).reshape(-1)[0])

    def values(self, observation: np.ndarray) -> np.ndarray:
        """The value head of one observation or a batch, (B,). A checkpoint whose meta
        says ``"value_kind": "win_share"`` (expert iteration's) trained the head through
        a logistic: its output is the seat's win share, in [0, 1]; otherwise it is the
        raw head (PPO's return estimate)."""
        x, _ = self._batch(observation)
        h, _ = self._trunk(x)
        out = (h @ self.t["vf.weight"].T + self.t["vf.bias"]).reshape(-1)
        if self.meta.get("value_kind") == WIN_SHARE:
            out = 0.5 * (1.0 + np.tanh(0.5 * out))  # the logistic, without overflow
        return out


def check_entity(
    where: str, meta: dict[str, Any], tensors: Mapping[str, np.ndarray]
) -> EntityPolicy:
    """Validate a version-2 header and its tensors; returns the playable policy."""
    net = meta.get("network")
    if not isinstance(net, dict) or net.get("type") != "entity":
        raise CheckpointError(f"{where}: version {ENTITY_VERSION} needs network.type 'entity'")
    layout = check_layout(where, meta)
    if meta.get("activation") not in ("tanh", "relu"):
        raise CheckpointError(f"{where}: activation must be 'tanh' or 'relu'")
    for name, array in tensors.items():
        if array.dtype in INDEX_DTYPES:
            if array.size and (array.min() < 0 or array.max() > layout.obs_size):
                raise CheckpointError(f"{where}: index tensor {name!r} is out of range")
        elif not np.all(np.isfinite(array)):
            raise CheckpointError(f"{where}: tensor {name!r} holds NaN or infinite values")
    policy = EntityPolicy(tensors, meta)
    try:
        out = policy.logits(np.zeros(layout.obs_size, np.float32))
    except (KeyError, ValueError, IndexError) as err:
        raise CheckpointError(f"{where}: the entity network's tensors do not fit: {err}") from None
    if out.shape != (layout.num_actions,):
        raise CheckpointError(
            f"{where}: the network gives {out.shape[0]} logits, not {layout.num_actions}"
        )
    return policy


def entity_header(meta: Mapping[str, Any]) -> dict[str, Any]:
    """The full header of an entity policy: the game's layout, version 2, then ``meta``."""
    return {**layout_header(meta.get("game")), "version": ENTITY_VERSION, **dict(meta)}


def policy_from_entity_tensors(
    tensors: Mapping[str, np.ndarray], meta: Mapping[str, Any]
) -> EntityPolicy:
    """The in-memory policy of a torch entity network's tensors, checked like a file."""
    return check_entity("<torch module>", entity_header(meta), tensors)
