"""The agent protocol every player (random, heuristic, search, trained policy) follows,
in every game."""

from __future__ import annotations

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
