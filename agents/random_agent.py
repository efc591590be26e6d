"""Uniformly random legal play, in any game: the floor every other agent must beat."""

from __future__ import annotations

import numpy as np

from art_gallery_env.core.protocol import SeatView

from .base import Agent, legal_from_mask


class RandomAgent(Agent):
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, view: SeatView | None = None
    ) -> int:
        legal = legal_from_mask(action_mask)
        return int(self._rng.choice(legal))
