"""Real decision inputs from played games, for checking and timing policy back ends.

Random vectors are a poor test of a policy export: real observations are sparse one-hots
and small counts, with a few hundred distinct masks. :func:`observed_decisions` plays
seeded games through the one game loop and keeps what each acting seat was given.
"""

from __future__ import annotations

import numpy as np

from art_gallery_env.agents.base import Agent
from art_gallery_env.agents.registry import make_agent
from art_gallery_env.env.observation import OBSERVATION_SIZE
from art_gallery_env.rules.actions import NUM_ACTIONS
from art_gallery_env.rules.hidden import PlayerView
from art_gallery_env.rules.state import new_game

from .loop import play_game


class _Recording(Agent):
    """Plays like ``inner`` and appends every (observation, mask) it is shown to ``sink``."""

    def __init__(self, inner: Agent, sink: list[tuple[np.ndarray, np.ndarray]]) -> None:
        self.inner, self.sink, self.name = inner, sink, inner.name

    def reset(self, seed: int | None = None) -> None:
        self.inner.reset(seed)

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView | None = None
    ) -> int:
        self.sink.append((observation, action_mask))
        return self.inner.act(observation, action_mask, view)


def observed_decisions(
    count: int, *, players: tuple[int, ...] = (2, 4), agent: str = "heuristic", seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """``count`` (observation, action mask) pairs as float32 ``[count, 2221]`` and
    ``[count, 47]``, from seeded games of ``agent`` self-play, table sizes taken in turn."""
    seen: list[tuple[np.ndarray, np.ndarray]] = []
    game = 0
    while len(seen) < count:
        n = players[game % len(players)]
        agents = [_Recording(make_agent(agent, seed=seed + 100 * game + s), seen) for s in range(n)]
        play_game(new_game(n, seed + game), agents)
        game += 1
    observations = np.empty((count, OBSERVATION_SIZE), np.float32)
    masks = np.empty((count, NUM_ACTIONS), np.float32)
    for i, (observation, mask) in enumerate(seen[:count]):
        observations[i] = observation
        masks[i] = mask
    return observations, masks
