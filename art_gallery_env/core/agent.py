"""The agent protocol every player (random, heuristic, search, trained policy) follows,
in every game."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

from .protocol import SeatView


def legal_from_mask(action_mask: Any) -> Any:
    """The legal action ids of a mask; an all-zero mask means the caller asked the wrong seat."""
    import numpy as np

    legal = np.flatnonzero(action_mask)
    if legal.size == 0:
        raise ValueError("the action mask has no legal action; is it this seat's turn?")
    return legal


class Agent(ABC):
    """Chooses one legal action per decision.

    ``act`` gets what the env gives the seat: the observation vector and the action mask.
    Search agents may also use ``view`` (legal actions and determinized worlds of the
    seat's information set, never the true state); others ignore it.
    """

    name: str = "agent"

    def reset(self, seed: int | None = None) -> None:  # noqa: B027 - optional hook
        """Start a new game; ``seed`` makes any randomness reproducible."""

    @abstractmethod
    def act(self, observation: Any, action_mask: Any, view: SeatView | None = None) -> int:
        """Return an action id whose mask entry is 1."""

    def explain(self) -> dict[str, Any] | None:
        """Why the last ``act`` chose what it did, as a JSON-ready dict, or None for an
        agent with nothing to show. Checkpoints give their top actions' probabilities (and
        a value estimate if they have a value head), search agents their root visit counts.
        Records (``eval --save-games --insight``) and the web app store and show it without
        knowing agent types. It is computed from the seat's own inputs only, so it is as
        private as the seat's hand until the rules make that public."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class WorldPolicyAgent(Agent):
    """Plays ``self.policy`` (an object with ``choose(state, rng) -> action``) on a
    determinized world of its seat's information set: a game's heuristic is such a policy.

    Without a ``view`` (or when the view says it is not the seat's turn) it falls back to a
    uniformly random legal action from the mask; where the world's choice and the mask
    disagree, the mask wins."""

    policy: Any

    def reset(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: Any, action_mask: Any, view: SeatView | None = None) -> int:
        legal = legal_from_mask(action_mask)
        if view is None or not getattr(view, "is_my_turn", True):
            return int(legal[self._rng.randrange(legal.size)])
        world = view.determinize(self._rng)
        action = self.policy.choose(world, self._rng)
        if not action_mask[action]:
            return int(legal[self._rng.randrange(legal.size)])
        return int(action)
