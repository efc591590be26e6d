"""A seat's view of a game, for agents that search: every game's ``PlayerView``.

Pure Python (the rules engines use it, and they import no RL library, nor numpy).
"""

from __future__ import annotations

import random
from typing import Any


class PlayerView:
    """What one seat is entitled to: its legal actions and determinized worlds (the
    engine's ``determinize``, which resamples what the seat cannot see). It never exposes
    the true state."""

    __slots__ = ("_state", "player")

    def __init__(self, state: Any, player: int) -> None:
        self._state = state
        self.player = player

    @property
    def seat(self) -> int:
        """The seat this view is of (the name :class:`~.protocol.SeatView` gives it;
        ``player`` is the same)."""
        return self.player

    @property
    def num_players(self) -> int:
        return self._state.num_players

    @property
    def is_my_turn(self) -> bool:
        return not self._state.is_over and self._state.current_player == self.player

    def legal_actions(self) -> list[int]:
        return list(self._state.legal_actions()) if self.is_my_turn else []

    def determinize(self, rng: random.Random) -> Any:
        """A full state consistent with everything this seat has seen."""
        return self._state.determinize(self.player, rng)
