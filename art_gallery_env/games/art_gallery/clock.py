"""The game's clock (how close the R6.3 end is) and the standings (R7 so far), from public facts.

Both read only what every seat may know (R8), so an agent may compute them on a
determinized world: two states in one information set give the same numbers.

**Clock.** R6.3 ends the game at a round's end when (a) the painting pile cannot refill the
empty painting spaces or (b) 2 (2-3 players) or 3 (4-6 players) tile piles are empty. In
practice (b) ends almost every game: Shop markers take the cheap piles (marks 1 and 3, then
5) first. So the clock counts the tiles still to be taken until enough piles are empty, if
markers take them half from each of the two cheapest non-empty piles (a marker takes at most
one tile per pile, R5.1), and compares them with the tiles taken per round (those taken so
far, blended with a prior for the table size). This round's Shop takes at least what the
markers already placed there take; while the Shop is being resolved, only its remaining
markers take tiles. The result is the chance that the game ends at this round's end
(``p_end``, a logistic of this round's expected takes minus the tiles still needed; certain
once the Shop has been resolved) and the expected number of rounds after this one
(``later``: at least one if the game goes on; R6.3(a) bounds it too).

**Standings.** Each seat's R7 score so far with the functions of
:mod:`art_gallery_env.games.art_gallery.rules.scoring`: rows (R7.1), souvenirs (R7.2), the hand
(R7.3) counting
every card the seat owns (hand, face-up and face-down cards: which of them are in hand is
hidden, R8, but their multiset is public) and the start card (R7.4).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import NamedTuple

from art_gallery_env.games.art_gallery.rules.board import (
    PILE_SIZES,
    SHOP_AREA,
    empty_piles_ending_game,
)
from art_gallery_env.games.art_gallery.rules.cards import CardSet
from art_gallery_env.games.art_gallery.rules.phases import PICK, SHOP, STAGE_PICK
from art_gallery_env.games.art_gallery.rules.scoring import (
    ChainSummary,
    hand_points,
    souvenir_points,
    start_card_points,
)
from art_gallery_env.games.art_gallery.rules.state import GameState

# Tiles taken per round before there is any history: measured in self-play of the
# heuristics (about 7 at 2 players; the Shop bar's six markers take up to 12 at 3+).
TILE_RATE_PRIOR = {2: 7.0}
TILE_RATE_PRIOR_MANY = 10.0
TILES_PER_SHOP_MARKER = 1.9  # a card of 4 or more takes two tiles (R5.1)
END_SOFTNESS = 1.5  # tiles: how sure "this round's Shop empties the last pile needed" is


class Clock(NamedTuple):
    """How close the end of the game is (R6.3)."""

    p_end: float
    """Chance that the game ends at the end of this round."""
    later: float
    """Expected rounds after this one (0 when the game surely ends this round)."""
    tile_rate: float
    """Estimated tiles taken per round."""


def tiles_to_end(sizes: Sequence[float], needed: int) -> float:
    """How many more tiles Shop markers take until ``needed`` piles are empty, if they take
    them half from each of the two cheapest non-empty piles (a marker takes at most one tile
    per pile, R5.1), spilling over to the next pile when one runs out."""
    left = list(sizes)
    empty = sum(1 for size in left if size <= 0)
    taken = 0.0
    while empty < needed:
        first = second = -1
        for i, size in enumerate(left):
            if size > 0:
                if first < 0:
                    first = i
                else:
                    second = i
                    break
        if second < 0:  # one pile left (only when all four must empty)
            taken += left[first]
            left[first] = 0
            empty += 1
            continue
        drain = min(left[first], left[second])  # until the smaller one is empty
        left[first] -= drain
        left[second] -= drain
        taken += 2 * drain
        empty += (left[first] <= 0) + (left[second] <= 0)
    return taken


def read_clock(state: GameState) -> Clock:
    """The clock of ``state`` (see the module docstring)."""
    n = state.num_players
    distributing = state.phase in (SHOP, PICK)
    resolved = distributing and (state.dist_area > SHOP_AREA or state.dist_stage == STAGE_PICK)
    rounds_done = state.round - 1 + (1 if resolved else 0)
    sizes = [len(pile) for pile in state.tile_piles]
    rate = (sum(PILE_SIZES) - sum(sizes) + TILE_RATE_PRIOR.get(n, TILE_RATE_PRIOR_MANY)) / (
        rounds_done + 1
    )
    to_end = tiles_to_end(sizes, empty_piles_ending_game(n))
    if resolved:  # this round's Shop is done: the piles are final for R6.3(b)
        this_round = 0.0
        p_tiles = 1.0 if to_end <= 0 else 0.0
    else:
        markers = len(state.bids[SHOP_AREA])
        if distributing:  # the Shop's markers from the one choosing now on still take tiles
            this_round = TILES_PER_SHOP_MARKER * (markers - state.dist_marker)
        else:
            this_round = max(rate, TILES_PER_SHOP_MARKER * markers)
        p_tiles = logistic((this_round - to_end) / END_SOFTNESS)
    galleries = state.num_galleries
    pile = len(state.painting_pile)
    # R6.3(a): assume every gallery's painting is taken each round.
    p_end = 1.0 if pile < galleries else p_tiles
    paint_rounds = (pile - galleries) // galleries + 1 if pile >= galleries else 0
    tile_rounds = max(1.0, (to_end - this_round) / rate)
    later = (1.0 - p_end) * min(tile_rounds, paint_rounds)
    return Clock(p_end, later, rate)


def logistic(x: float) -> float:
    """1 / (1 + e^-x), safe for any x."""
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def standings(
    state: GameState, summary: Callable[[Sequence[int], CardSet], ChainSummary]
) -> list[int]:
    """Each seat's R7 score so far (see the module docstring); ``summary`` is
    :func:`~art_gallery_env.games.art_gallery.rules.scoring.chain_summary` or a cached
    equivalent."""
    out = []
    for seat in range(state.num_players):
        counts = [h + m for h, m in zip(state.hands[seat], state.moved[seat])]
        for bids in state.bids:
            for owner, value in bids:
                if owner == seat:
                    counts[value] += 1
        collection = state.collections[seat]
        out.append(
            sum(summary(collection, state.cards).best)
            + souvenir_points(state.tiles_held[seat], collection)
            + hand_points(counts)
            + start_card_points(state, seat)
        )
    return out


__all__ = ["Clock", "logistic", "read_clock", "standings", "tiles_to_end"]
