"""Real decision inputs from played games, for checking and timing policy back ends.

Random vectors are a poor test of a policy export: real observations are sparse one-hots
and small counts, with a few hundred distinct masks. :func:`observed_decisions` plays
seeded games through the one game loop and keeps what each acting seat was given.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from art_gallery_env.agents.base import Agent
from art_gallery_env.agents.registry import make_agent
from art_gallery_env.core.registry import get_game

from .loop import play_game


class _Recording(Agent):
    """Plays like ``inner`` and appends every (observation, mask) it is shown to ``sink``."""

    def __init__(self, inner: Agent, sink: list[tuple[np.ndarray, np.ndarray]]) -> None:
        self.inner, self.sink, self.name = inner, sink, inner.name

    def reset(self, seed: int | None = None) -> None:
        self.inner.reset(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: Any = None) -> int:
        self.sink.append((observation, action_mask))
        return self.inner.act(observation, action_mask, view)


def observed_decisions(
    count: int,
    *,
    players: tuple[int, ...] = (2, 4),
    agent: str = "heuristic",
    seed: int = 0,
    game: str | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``count`` (observation, action mask) pairs as float32 ``[count, observation_size]``
    and ``[count, num_actions]``, from seeded games of ``agent`` self-play of ``game``
    (None: the default game), table sizes taken in turn."""
    spec = get_game(game)
    seen: list[tuple[np.ndarray, np.ndarray]] = []
    k = 0
    while len(seen) < count:
        n = players[k % len(players)]
        agents = [
            _Recording(make_agent(agent, seed=seed + 100 * k + s, game=spec.name), seen)
            for s in range(n)
        ]
        play_game(spec.setup(n, seed + k), agents)
        k += 1
    observations = np.empty((count, spec.observation_size), np.float32)
    masks = np.empty((count, spec.num_actions), np.float32)
    for i, (observation, mask) in enumerate(seen[:count]):
        observations[i] = observation
        masks[i] = mask
    return observations, masks
