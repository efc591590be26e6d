"""What every game's engine state and seat view provide (structural types, no base class).

The tools (the game loop, evaluation, search, records, training, the web app) use only
these members, so any game whose state has them plugs in. A game's rules doc says what
each one means for that game.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class EngineState(Protocol):
    """A game in progress: whose turn, what is legal, apply, copy, save, resample."""

    num_players: int
    current_player: int  # the seat to decide (meaningless once is_over)
    events: list[tuple[str, dict[str, Any]]]  # what happened, oldest first
    round: int  # a coarse progress count the tools report (0 if the game has none)

    @property
    def is_over(self) -> bool: ...

    @property
    def phase_name(self) -> str: ...  # the kind of decision pending ("game_over" at the end)

    def legal_actions(self) -> list[int]: ...

    def apply(self, action: int) -> None:
        """Play ``action`` for the current player; IllegalActionError leaves the state as it was."""

    def clone(self) -> EngineState: ...

    def to_dict(self) -> dict[str, Any]: ...

    def determinize(self, observer: int, rng: random.Random) -> EngineState:
        """A copy with everything hidden from ``observer`` resampled consistently."""

    def score_breakdown(self) -> list[dict[str, Any]]:
        """One dict per seat with at least ``player``, ``total`` and ``rank``."""


@runtime_checkable
class SeatView(Protocol):
    """What search agents may use of a seat's information set, never the true state."""

    seat: int

    def legal_actions(self) -> list[int]: ...

    def determinize(self, rng: random.Random) -> EngineState: ...
