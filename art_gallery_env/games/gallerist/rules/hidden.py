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

from art_gallery_env.core.view import PlayerView as _CorePlayerView

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


PlayerView = _CorePlayerView
"""What one seat is entitled to (G18): the core's view, whose worlds are :func:`determinize`'s."""
