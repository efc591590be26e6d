"""Uniformly random legal play: the floor every other agent must beat."""

from __future__ import annotations

import numpy as np

from art_gallery_env.rules.hidden import PlayerView

from .base import Agent


class RandomAgent(Agent):
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView | None = None
    ) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("the action mask has no legal action; is it this seat's turn?")
        return int(self._rng.choice(legal))
