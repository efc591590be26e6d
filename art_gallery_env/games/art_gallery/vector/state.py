"""Structure-of-arrays state of B games of one table size (the compiled engine's data).

One array per field of :class:`~art_gallery_env.games.art_gallery.rules.state.GameState`, with the
game
index first. Lists become fixed-size arrays plus a length (piles, tiles, collections) or
a count (marker bars). Entries past a length are 0, so two slots hold the same game
exactly when their arrays are equal (the random streams aside).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..rules.actions import NUM_CARD_VALUES
from ..rules.board import MARKER_BAR_SIZE, MAX_AREAS, MAX_PLAYERS, PILE_SIZES
from ..rules.cards import NUM_PAINTINGS

I8 = np.int8


class VecState(NamedTuple):
    phase: np.ndarray  # (B,) int8, rules.state MOVE..GAME_OVER
    current_player: np.ndarray  # (B,) int8
    round: np.ndarray  # (B,) int32
    turn: np.ndarray  # (B,) int8
    round_starter: np.ndarray  # (B,) int8
    start_player: np.ndarray  # (B,) int8
    position: np.ndarray  # (B, 6) int8
    hands: np.ndarray  # (B, 6, 9) int8
    moved: np.ndarray  # (B, 6, 9) int8
    bid_count: np.ndarray  # (B, 9) int8: markers on each area's bar
    bid_player: np.ndarray  # (B, 9, 6) int8: owner of marker k
    bid_value: np.ndarray  # (B, 9, 6) int8: the card under marker k
    gallery_painting: np.ndarray  # (B, 9) int8, 0 = empty (always 0 for the Shop)
    painting_pile: np.ndarray  # (B, 48) int8, top = last
    painting_pile_len: np.ndarray  # (B,) int8
    tile_piles: np.ndarray  # (B, 4, 18) int8, top = last
    tile_pile_len: np.ndarray  # (B, 4) int8
    tiles_held: np.ndarray  # (B, 6, 48) int8, in the order taken
    tiles_held_len: np.ndarray  # (B, 6) int8
    collections: np.ndarray  # (B, 6, 48) int8, in the order won
    collection_len: np.ndarray  # (B, 6) int8
    dist_area: np.ndarray  # (B,) int8
    dist_stage: np.ndarray  # (B,) int8
    dist_marker: np.ndarray  # (B,) int8
    space_cards: np.ndarray  # (B, 9) int8
    deal_rng: np.ndarray  # (B,) uint64: splitmix64 state for new deals
    action_rng: np.ndarray  # (B,) uint64: splitmix64 state for random_actions


def allocate(num_envs: int) -> VecState:
    """Zeroed arrays for ``num_envs`` games (padded to 6 seats and 9 areas)."""
    b, s, a, v, p = num_envs, MAX_PLAYERS, MAX_AREAS, NUM_CARD_VALUES, NUM_PAINTINGS
    z = np.zeros
    return VecState(
        phase=z(b, I8),
        current_player=z(b, I8),
        round=z(b, np.int32),
        turn=z(b, I8),
        round_starter=z(b, I8),
        start_player=z(b, I8),
        position=z((b, s), I8),
        hands=z((b, s, v), I8),
        moved=z((b, s, v), I8),
        bid_count=z((b, a), I8),
        bid_player=z((b, a, MARKER_BAR_SIZE), I8),
        bid_value=z((b, a, MARKER_BAR_SIZE), I8),
        gallery_painting=z((b, a), I8),
        painting_pile=z((b, p), I8),
        painting_pile_len=z(b, I8),
        tile_piles=z((b, len(PILE_SIZES), max(PILE_SIZES)), I8),
        tile_pile_len=z((b, len(PILE_SIZES)), I8),
        tiles_held=z((b, s, p), I8),
        tiles_held_len=z((b, s), I8),
        collections=z((b, s, p), I8),
        collection_len=z((b, s), I8),
        dist_area=z(b, I8),
        dist_stage=z(b, I8),
        dist_marker=z(b, I8),
        space_cards=z((b, v), I8),
        deal_rng=z(b, np.uint64),
        action_rng=z(b, np.uint64),
    )


def nbytes(state: VecState) -> int:
    return sum(array.nbytes for array in state)
