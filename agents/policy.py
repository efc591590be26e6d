"""Trained policies as agents: :class:`PolicyAgent` plays a checkpoint file.

The agent plays the legal action with the highest logit (or samples from the masked
softmax with its seed when ``deterministic=False``). :func:`load_policy` dispatches on the
file suffix: weights-only ``.safetensors`` (:mod:`.policy_format`, numpy only), an SB3
``.zip`` (``art-gallery train``'s, or a plain ``model.save``: :mod:`.run_checkpoint`, needs
the ``[train]`` extra) or an ONNX export (:mod:`.policy_onnx`, run by onnxruntime, needs the
``[onnx]`` extra).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from art_gallery_env.core.protocol import SeatView

from .base import Agent, legal_from_mask
from .policy_format import (
    SUFFIX,
    CheckpointError,
    MLPPolicy,
    export_torch_mlp,
    layout_fingerprint,
    load_weights,
    policy_from_torch_mlp,
    save_policy_weights,
)
from .policy_header import wrong_game_message

TOP_ACTIONS = 5  # actions an insight lists

__all__ = [  # the format's names are re-exported: this is the module users import
    "CheckpointError",
    "MLPPolicy",
    "PolicyAgent",
    "export_torch_mlp",
    "layout_fingerprint",
    "load_policy",
    "policy_from_torch_mlp",
    "save_policy_weights",
]


def load_policy(path: str | os.PathLike[str]) -> MLPPolicy:
    """Load a checkpoint for play, dispatching on the suffix."""
    path = Path(path)
    if path.suffix == ".zip":
        from .run_checkpoint import load_zip_policy  # needs the [train] extra

        return load_zip_policy(path)
    if path.suffix == ".onnx":
        from .policy_onnx import OnnxPolicy  # needs the [onnx] extra

        return OnnxPolicy(path)  # type: ignore[return-value] - same logits/meta interface
    if path.suffix != SUFFIX:
        raise CheckpointError(
            f"{path}: unknown checkpoint type; expected a {SUFFIX}, .zip or .onnx file"
        )
    return load_weights(path)


class PolicyAgent(Agent):
    """Plays a checkpoint: masked argmax of the logits, or a seeded masked softmax sample."""

    name = "policy"

    def __init__(
        self,
        policy: MLPPolicy | str | os.PathLike[str],
        seed: int | None = None,
        *,
        deterministic: bool = True,
        game: str | None = None,
    ) -> None:
        if isinstance(policy, (str, os.PathLike)):
            self.path: str | None = os.fspath(policy)
            policy = load_policy(policy)
        else:
            self.path = None
        if game is not None and policy.game != game:
            raise CheckpointError(wrong_game_message(self.path or "the policy", policy.game, game))
        self.game = policy.game
        self.policy = policy
        self.deterministic = bool(deterministic)
        default = Path(self.path).stem if self.path else "policy"
        self.name = str(policy.meta.get("name") or default)
        self.reset(seed)

    @property
    def trained_table_sizes(self) -> list[int] | None:
        """The table sizes its training run played, from the run's metadata beside the
        file (``NAME.json``, written by ``art-gallery train``); None when there is none."""
        if self.path is None:
            return None
        try:
            meta = json.loads(Path(self.path).with_suffix(".json").read_text(encoding="utf-8"))
            sizes = meta["config"]["env"]["num_players"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return [int(n) for n in sizes] if isinstance(sizes, list) else [int(sizes)]

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)
        self._last: tuple[np.ndarray, float | None] | None = None

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, view: SeatView | None = None
    ) -> int:
        legal_from_mask(action_mask)
        mask = np.asarray(action_mask).astype(bool)
        logits = self.policy.logits(observation).astype(np.float64)
        masked = np.where(mask, logits, -np.inf)
        value = self.policy.value(observation) if self.policy.has_value_head else None
        self._last = (masked, value)
        if self.deterministic:
            return int(np.argmax(masked))
        p = masked_softmax(masked)
        return int(self._rng.choice(len(p), p=p))

    def explain(self, top: int = TOP_ACTIONS) -> dict[str, Any] | None:
        """The last decision's ``top`` legal actions by probability (the masked softmax
        the agent samples from, or whose argmax it plays) and the value head's estimate
        (None: the checkpoint has no value head)."""
        if self._last is None:
            return None
        masked, value = self._last
        p = masked_softmax(masked)
        order = [int(a) for a in np.argsort(-p, kind="stable")[:top] if p[a] > 0]
        return {
            "kind": "policy",
            "agent": self.name,
            "top": [{"action": a, "p": round(float(p[a]), 4)} for a in order],
            "legal": int(np.count_nonzero(np.isfinite(masked))),
            "value": None if value is None else round(value, 4),
        }


def masked_softmax(masked_logits: np.ndarray) -> np.ndarray:
    """Probabilities of a logit vector whose illegal entries are -inf (they get 0)."""
    z = masked_logits - masked_logits.max()
    p = np.exp(z)
    return p / p.sum()
