"""What each seat may see (G18) and determinization for search agents.

Hidden from a seat: the other players' Curator and Art Dealer cards (and which cards stayed
in the box), the order of the contract deck, the works below the top of each stack, and the
order of the visitor bag. Everything else is public: every decision is made in the open,
the bag's contents follow from what is on the board, and the works in a stack are the
form's works not seen elsewhere.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import GameState


def visible_events(state: GameState, observer: int) -> list[tuple[str, dict[str, Any]]]:
    """The event log as ``observer`` may see it: the setup seed would reveal everything."""
    del observer  # every logged event after the setup is public
    shown = list(state.events)
    if shown and shown[0][0] == "setup":
        shown[0] = ("setup", {**shown[0][1], "seed": None})
    return shown


def determinize(state: GameState, observer: int, rng: random.Random) -> GameState:
    """A copy where everything hidden from ``observer`` is resampled consistently (G18).

    Sorting before shuffling makes the result depend only on what ``observer`` knows and on
    ``rng``: two states in one information set give the same world.
    """
    if not 0 <= observer < state.num_players:
        raise ValueError(f"observer must be a seat in 0..{state.num_players - 1}, got {observer}")
    w = state.clone()
    others = [q for q in range(w.num_players) if q != observer]
    for dealt, box in ((w.curator, w.box_curators), (w.dealer, w.box_dealers)):
        pool = sorted([dealt[q] for q in others] + box)
        rng.shuffle(pool)
        for q in others:
            dealt[q] = pool.pop()
        box[:] = sorted(pool)
    w.deck.sort()
    rng.shuffle(w.deck)
    for stack in w.stacks:
        if len(stack) > 1:
            below = sorted(stack[:-1])
            rng.shuffle(below)
            stack[:-1] = below
    w.bag.sort()
    rng.shuffle(w.bag)
    w.events = visible_events(state, observer)
    w._legal = None
    return w


class PlayerView:
    """What one seat is entitled to, for agents that search: its legal actions and
    determinized worlds (G18). It never exposes the true state."""

    __slots__ = ("_state", "player")

    def __init__(self, state: GameState, player: int) -> None:
        self._state = state
        self.player = player

    @property
    def seat(self) -> int:
        """The seat this view is of (the name :class:`~art_gallery_env.core.protocol.SeatView`
        gives it; ``player`` is the same)."""
        return self.player

    @property
    def num_players(self) -> int:
        return self._state.num_players

    @property
    def is_my_turn(self) -> bool:
        return not self._state.is_over and self._state.current_player == self.player

    def legal_actions(self) -> list[int]:
        return list(self._state.legal_actions()) if self.is_my_turn else []

    def determinize(self, rng: random.Random) -> GameState:
        """A full state consistent with everything this seat has seen."""
        return determinize(self._state, self.player, rng)
