"""Art Gallery's observation as tokens for a structured policy network (``network`` capability).

Tokens (:mod:`art_gallery_env.core.structure`): one per area (the Shop and 8 galleries:
which pieces stand there, its marker bar, its painting and tile), one per relative seat
(its cards, chains, collection, tiles, score, piece), one per tile pile. The action pointer
gives each move action the area it lands in (R4.3: a function of the observer's area, the
card and the direction, for 5, 7 or 9 areas) and each bid the observer's own area, so a
network scores a move by reading the token of its destination instead of learning the
modular lookup from examples (docs/training.md, "The clone's moves").
"""

from __future__ import annotations

from functools import cache

import numpy as np

from art_gallery_env.core.structure import ActionPointer, NetworkStructure, TokenGroup
from art_gallery_env.games.art_gallery.env.observation import FIELD, OBSERVATION_SIZE
from art_gallery_env.games.art_gallery.rules.actions import BID_BASE, NUM_ACTIONS, NUM_CARD_VALUES
from art_gallery_env.games.art_gallery.rules.board import (
    MAX_AREAS,
    MAX_GALLERIES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    galleries_for,
    move_destinations,
)

A, S, G = MAX_AREAS, MAX_PLAYERS, MAX_GALLERIES
MOVES = 2 * NUM_CARD_VALUES


def _entries(name: str) -> np.ndarray:
    """The observation indices of a field, in its shape."""
    field = FIELD[name]
    return np.arange(field.offset, field.offset + field.size).reshape(field.shape)


def _none(count: int) -> np.ndarray:
    return np.full(count, -1, dtype=np.int64)


def _area_token(area: int) -> np.ndarray:
    gallery = area - 1  # the Shop (area 0) has no painting and no tile
    painting = _entries("gallery_painting")
    tile = _entries("gallery_tile")
    parts = [
        _entries("area_exists")[area : area + 1],
        _entries("position")[:, area],
        _entries("marker_owner")[area].ravel(),
        _entries("bid_value")[area].ravel(),
        _entries("resolving_area")[area : area + 1],
        painting[gallery] if gallery >= 0 else _none(painting.shape[1]),
        tile[gallery] if gallery >= 0 else _none(tile.shape[1]),
    ]
    return np.concatenate(parts)


def _seat_token(seat: int) -> np.ndarray:
    names = ("hand", "hidden_cards", "moved_cards", "chain_best", "collection", "tiles")
    parts = [_entries("seat_active")[seat : seat + 1], _entries("start_card")[seat : seat + 1]]
    parts += [_entries(name)[seat].ravel() for name in names]
    parts += [
        _entries("chain_open")[seat].ravel(),
        _entries("score")[seat : seat + 1],
        _entries("position")[seat],
        _entries("gallery_tile")[:, seat],  # the galleries whose tile this seat holds
    ]
    return np.concatenate(parts)


def _pile_token(pile: int) -> np.ndarray:
    parts = [
        _entries("pile_size")[pile : pile + 1],
        _entries("pile_top")[pile],
        _entries("gallery_tile")[:, S + pile],  # the galleries whose tile tops this pile
    ]
    return np.concatenate(parts)


def _pointer() -> ActionPointer:
    """Moves 0..17 point to their destination area, bids 18..26 to the observer's area."""
    sizes = range(MIN_PLAYERS, MAX_PLAYERS + 1)
    actions = np.arange(MOVES + NUM_CARD_VALUES)
    table = np.full((A, len(sizes), len(actions)), -1, dtype=np.int64)
    for j, players in enumerate(sizes):
        areas = galleries_for(players) + 1
        for here, row in enumerate(move_destinations(areas)):
            table[here, j, :MOVES] = row
            table[here, j, MOVES:] = here
    assert actions[MOVES] == BID_BASE
    return ActionPointer(
        group="area",
        actions=actions,
        context_a=_entries("position")[0],
        context_b=_entries("num_players"),
        table=table,
    )


@cache
def network_structure() -> NetworkStructure:
    """Art Gallery's token groups (area, seat, pile) and its move/bid pointer."""
    groups = (
        TokenGroup("area", np.stack([_area_token(a) for a in range(A)])),
        TokenGroup("seat", np.stack([_seat_token(s) for s in range(S)])),
        TokenGroup("pile", np.stack([_pile_token(p) for p in range(4)])),
    )
    return NetworkStructure(OBSERVATION_SIZE, NUM_ACTIONS, groups, _pointer()).check()
