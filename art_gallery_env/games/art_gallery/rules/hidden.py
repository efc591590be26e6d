"""What each seat may see (R8) and determinization for search agents.

During the turns of a round, a player's hand and face-down bids are hidden from the others,
but their multiset is public (every hand is public at the start of a round). From the start
card comparison on (R4.7) hands are public; a bid becomes public when the distribution
reveals its area (R5). Pile order and tiles below each pile's top are hidden from everyone.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from art_gallery_env.core.view import PlayerView as _CorePlayerView

from .actions import NUM_CARD_VALUES
from .phases import PICK, SHOP

if TYPE_CHECKING:
    from .state import GameState


def is_distributing(state: GameState) -> bool:
    return state.phase in (SHOP, PICK)


def bid_is_hidden(state: GameState, area: int) -> bool:
    """True while the cards at ``area`` are still face down for everyone but their owners."""
    return not is_distributing(state) or area > state.dist_area


def bid_visible(state: GameState, area: int, owner: int, viewer: int | None) -> bool:
    """Whether ``viewer`` (None: a spectator who sees all) may see the value of a bid by
    ``owner`` at ``area``: its owner always, everyone once the distribution reveals it."""
    return viewer is None or owner == viewer or not bid_is_hidden(state, area)


def hand_visible(state: GameState, player: int, viewer: int | None) -> bool:
    """Whether ``viewer`` may see ``player``'s hand card by card: from the start card
    comparison (R4.7) to the end of the round, and at game over, hands are public."""
    return viewer is None or player == viewer or is_distributing(state) or state.is_over


def hidden_card_counts(state: GameState, player: int) -> list[int]:
    """Per value, how many of ``player``'s cards others know exist but cannot locate."""
    counts = [0] * NUM_CARD_VALUES
    for area, bids in enumerate(state.bids):
        if bid_is_hidden(state, area):
            for owner, value in bids:
                if owner == player:
                    counts[value] += 1
    if not is_distributing(state):
        for value, n in enumerate(state.hands[player]):
            counts[value] += n
    return counts


def visible_events(state: GameState, observer: int) -> list[tuple[str, dict[str, Any]]]:
    """The event log with others' still-hidden bid values replaced by None."""
    hidden_markers = {
        (area, marker)
        for area, bids in enumerate(state.bids)
        if bid_is_hidden(state, area)
        for marker, (owner, _) in enumerate(bids)
        if owner != observer
    }
    shown = list(state.events)
    if shown and shown[0][0] == "setup":  # the seed would reveal every hidden card
        shown[0] = ("setup", {**shown[0][1], "seed": None})
    for i in range(len(shown) - 1, -1, -1):  # only this round's bids can still be hidden
        kind, data = shown[i]
        if kind == "round_start":
            break
        if kind == "bid" and (data["area"], data["marker"]) in hidden_markers:
            shown[i] = (kind, {**data, "value": None})
    return shown


def _shuffle_tiles_below_tops(world: GameState, rng: random.Random) -> None:
    """Deal the tiles below every pile's top afresh; each top (public) stays put."""
    below_top = sorted(tile for pile in world.tile_piles for tile in pile[:-1])
    rng.shuffle(below_top)
    for pile in world.tile_piles:
        if len(pile) > 1:
            keep_top = pile[-1]
            pile[:] = below_top[: len(pile) - 1] + [keep_top]
            del below_top[: len(pile) - 1]


def _resample_cards(world: GameState, player: int, rng: random.Random) -> None:
    """Redeal ``player``'s cards that nobody else can locate over their hidden bids and,
    before the distribution (when hands are hidden), their hand."""
    distributing = is_distributing(world)
    slots = [
        (area, marker)
        for area, bids in enumerate(world.bids)
        if bid_is_hidden(world, area)
        for marker, (owner, _) in enumerate(bids)
        if owner == player
    ]
    pool = [world.bids[a][m][1] for a, m in slots]
    hand = world.hands[player]
    hand_size = 0 if distributing else sum(hand)
    if not distributing:
        pool += [v for v in range(NUM_CARD_VALUES) for _ in range(hand[v])]
    pool.sort()
    rng.shuffle(pool)
    if not distributing:
        hand[:] = [0] * NUM_CARD_VALUES
        for value in pool[len(slots) : len(slots) + hand_size]:
            hand[value] += 1
    for (area, marker), value in zip(slots, pool):
        world.bids[area][marker] = (player, value)


def determinize(state: GameState, observer: int, rng: random.Random) -> GameState:
    """A copy where everything hidden from ``observer`` is resampled consistently (R8).

    Resampled: the painting pile's order, the tiles below each pile's top, and for every
    other player which of their locatable-by-nobody cards are in hand and which under
    each of their hidden bids. Everything ``observer`` has seen is kept.
    """
    if not 0 <= observer < state.num_players:
        raise ValueError(f"observer must be a seat in 0..{state.num_players - 1}, got {observer}")
    world = state.clone()
    # Everything is sorted before shuffling, so the result depends only on what
    # ``observer`` knows and on ``rng``: two states in one information set give one world.
    # The order of the draws below (pile, tiles, then seat by seat) is part of the result.
    world.painting_pile.sort()
    rng.shuffle(world.painting_pile)
    _shuffle_tiles_below_tops(world, rng)
    for player in range(world.num_players):
        if player != observer:
            _resample_cards(world, player, rng)

    world.events = visible_events(state, observer)
    world._legal = None
    return world


PlayerView = _CorePlayerView
"""What one seat is entitled to (R8): the core's view, whose worlds are :func:`determinize`'s."""
