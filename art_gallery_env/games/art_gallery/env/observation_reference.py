"""The observation written plainly: no caches, one field at a time, to be read.

:class:`~art_gallery_env.games.art_gallery.env.observation.ObservationEncoder` is the fast encoder
the env
uses (cached public block, marker bars patched bid by bid, byte buffers). This module is
its oracle: it fills the same layout (:data:`FIELDS`) straight from the state and the
hidden-information rules (R8), and ``tests/test_observation_reference.py`` checks the two
agree bit for bit. Count fields are stored as ``count * float32(1/6)``, as the fast encoder
computes them, so that the comparison can be exact.
"""

from __future__ import annotations

import numpy as np

from ..rules.board import MAX_PLAYERS, PILE_SIZES
from ..rules.cards import MAX_SYMBOLS_PER_ROW, NUM_PAINTINGS
from ..rules.hidden import bid_is_hidden, hidden_card_counts, is_distributing
from ..rules.phases import GAME_OVER
from ..rules.scoring import chain_summary, souvenir_points, start_card_points
from ..rules.state import GameState
from .observation import CHAIN_SCALE, COUNT_SCALE, FIELDS, OBSERVATION_SIZE, SCORE_SCALE

_COUNT = np.float32(COUNT_SCALE)


Fields = dict[str, np.ndarray]


def encode_reference(state: GameState, observer: int) -> np.ndarray:
    """The observation of ``observer`` (seat 0 of the layout is the observer)."""
    vec = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    field = {f.name: vec[f.offset : f.offset + f.size].reshape(f.shape) for f in FIELDS}
    n = state.num_players
    seats = [(observer + r) % n for r in range(n)]  # relative seat r -> player
    relative = {player: r for r, player in enumerate(seats)}
    _encode_turn(state, seats, field)
    _encode_bids(state, observer, relative, field)
    _encode_cards(state, seats, field)
    _encode_public(state, seats, relative, field)
    return vec


def _encode_turn(state: GameState, seats: list[int], field: Fields) -> None:
    """Table size, phase, round, turn and where every piece stands."""
    n = state.num_players
    field["num_players"][n - 2] = 1
    field["seat_active"][:n] = 1
    if state.phase != GAME_OVER:
        field["phase"][state.phase] = 1
    field["round"][0] = min(state.round, 20) / 20.0
    field["turns_done"][0] = state.turn / (4.0 * n)
    field["area_exists"][: state.num_areas] = 1
    for r, player in enumerate(seats):
        field["position"][r, state.position[player]] = 1


def _encode_bids(state: GameState, observer: int, relative: dict[int, int], field: Fields) -> None:
    """Marker bars (a value only where ``observer`` may see it, R8) and the distribution."""
    for area, bids in enumerate(state.bids):
        for marker, (owner, value) in enumerate(bids):
            field["marker_owner"][area, marker, relative[owner]] = 1
            if owner == observer or not bid_is_hidden(state, area):
                field["bid_value"][area, marker, value] = 1
    if is_distributing(state):
        field["resolving_area"][state.dist_area] = 1
        field["resolving_marker"][state.dist_marker] = 1
        field["space_cards"][:] = _counts(state.space_cards)


def _encode_cards(state: GameState, seats: list[int], field: Fields) -> None:
    """Hands where known, the cards others hold hidden, and the cards played face up."""
    over = state.phase == GAME_OVER
    distributing = is_distributing(state)
    for r, player in enumerate(seats):
        # R8: an own hand is always known; others' hands once public (from R4.7 on).
        if r == 0 or distributing or over:
            field["hand"][r] = _counts(state.hands[player])
        if r > 0 and not over:
            field["hidden_cards"][r] = _counts(hidden_card_counts(state, player))
        field["moved_cards"][r] = _counts(state.moved[player])


def _encode_public(
    state: GameState,
    seats: list[int],
    relative: dict[int, int],
    field: Fields,
) -> None:
    """Start card, galleries, collections, tiles, piles and scores: what everyone sees."""
    field["start_card"][relative[state.start_player]] = 1
    _encode_galleries(state, relative, field)
    for r, player in enumerate(seats):
        _encode_holdings(state, r, player, field)
    for i, (pile, size) in enumerate(zip(state.tile_piles, PILE_SIZES)):
        field["pile_size"][i] = len(pile) / size
        if pile:
            field["pile_top"][i, pile[-1] - 1] = 1
    field["painting_pile"][0] = len(state.painting_pile) / float(NUM_PAINTINGS)


def _encode_galleries(state: GameState, relative: dict[int, int], field: Fields) -> None:
    """Each gallery's painting (its rows' symbols and values) and where its tile is."""
    holder = {tile: relative[p] for p, held in enumerate(state.tiles_held) for tile in held}
    pile_of_top = {pile[-1]: i for i, pile in enumerate(state.tile_piles) if pile}
    for gallery in range(state.num_galleries):
        number = state.gallery_painting[gallery + 1]
        if not number:
            continue
        row = field["gallery_painting"][gallery]
        row[0] = 1
        for r, entry in enumerate(state.cards.painting(number).rows):
            if entry is not None:
                symbol, value = entry
                row[1 + r * MAX_SYMBOLS_PER_ROW + symbol] = value / 3.0
        if number in holder:
            field["gallery_tile"][gallery, holder[number]] = 1
        elif number in pile_of_top:
            field["gallery_tile"][gallery, MAX_PLAYERS + pile_of_top[number]] = 1


def _encode_holdings(state: GameState, r: int, player: int, field: Fields) -> None:
    """Relative seat ``r``'s chains, collection, tiles and score so far."""
    collection = state.collections[player]
    summary = chain_summary(collection, state.cards)
    for row in range(len(summary.best)):
        field["chain_best"][r, row] = summary.best[row] / CHAIN_SCALE
        if summary.open_sum[row]:
            field["chain_open"][r, row, summary.open_symbol[row]] = 1
            field["chain_open"][r, row, MAX_SYMBOLS_PER_ROW] = summary.open_sum[row] / CHAIN_SCALE
    for number in collection:
        field["collection"][r, number - 1] = 1
    for tile in state.tiles_held[player]:
        field["tiles"][r, tile - 1] = 1
    score = sum(summary.best) + souvenir_points(state.tiles_held[player], collection)
    score += start_card_points(state, player)
    field["score"][r] = score / SCORE_SCALE


def _counts(counts: list[int]) -> np.ndarray:
    return np.asarray(counts, dtype=np.float32) * _COUNT
