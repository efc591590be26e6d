"""Read-only tables the compiled kernels need, built from the rules' own definitions.

The kernels receive these as arguments rather than reading module globals: numba's
on-disk cache notices edits only to the kernels' own file, so a table passed in at run
time (observation offsets, card data) can never be stale.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..env import observation as obs
from ..env.aec import REWARD_MODES, SCORE_MARGIN_SCALE
from ..rules.actions import SHOP_CHOICE_COST, SHOP_CHOICE_PILES
from ..rules.board import (
    PILE_SIZES,
    check_num_players,
    empty_piles_ending_game,
    galleries_for,
    move_destinations,
)
from ..rules.cards import NUM_PAINTINGS, NUM_ROWS, CardSet
from ..rules.scoring import (
    MATCHED_SOUVENIR_POINTS,
    START_CARD_POINTS,
    UNMATCHED_SOUVENIR_POINTS,
)
from .kernels import OBS_FIELD_NAMES


class Tables(NamedTuple):
    """The table size, the variant and the constant arrays of one VectorGame."""

    num_players: int
    num_galleries: int
    num_areas: int
    zero_is_ten: int  # 0 or 1
    empty_piles_to_end: int  # R6.3(b)
    reward_mode: int  # index into REWARD_MODES
    card_symbol: np.ndarray  # (49, 4) int8: symbol index per painting and row, -1 if empty
    card_value: np.ndarray  # (49, 4) int8: its value (0 if empty)
    move_dest: np.ndarray  # (areas, 18) int8: where move action a lands from an area
    shop_cost: np.ndarray  # (11,) int8: summed pile marks of shop choice i
    shop_piles: np.ndarray  # (11, 2) int8: pile indices of shop choice i, -1 padded
    pile_sizes: np.ndarray  # (4,) int8: initial pile sizes (R2.3)
    score_points: np.ndarray  # (3,) int64: start card, matched and unmatched souvenir
    obs_offsets: np.ndarray  # (len(OBS_FIELD_NAMES),) int64
    scales: np.ndarray  # (3,) float64: observation chain and score scales, score margin
    count_scale: np.float32  # what the encoder multiplies card counts by (float32)


def card_arrays(cards: CardSet) -> tuple[np.ndarray, np.ndarray]:
    """Per painting number (row 0 unused) and row: symbol index (-1 if empty) and value."""
    symbol = np.full((NUM_PAINTINGS + 1, NUM_ROWS), -1, dtype=np.int8)
    value = np.zeros((NUM_PAINTINGS + 1, NUM_ROWS), dtype=np.int8)
    for painting in cards.paintings:
        for row, entry in enumerate(painting.rows):
            if entry is not None:
                symbol[painting.number, row], value[painting.number, row] = entry
    return symbol, value


def build_tables(
    num_players: int, zero_is_ten: bool, cards: CardSet, reward_mode: str = "win"
) -> Tables:
    check_num_players(num_players)
    if reward_mode not in REWARD_MODES:
        raise ValueError(f"reward_mode must be one of {list(REWARD_MODES)}, got {reward_mode!r}")
    galleries = galleries_for(num_players)
    areas = galleries + 1
    symbol, value = card_arrays(cards)
    shop_piles = np.full((len(SHOP_CHOICE_PILES), 2), -1, dtype=np.int8)
    for i, piles in enumerate(SHOP_CHOICE_PILES):
        shop_piles[i, : len(piles)] = piles
    count_scale = obs.PRIVATE_SCALE[obs.O_HAND]
    return Tables(
        num_players=num_players,
        num_galleries=galleries,
        num_areas=areas,
        zero_is_ten=int(bool(zero_is_ten)),
        empty_piles_to_end=empty_piles_ending_game(num_players),
        reward_mode=REWARD_MODES.index(reward_mode),
        card_symbol=symbol,
        card_value=value,
        move_dest=np.array(move_destinations(areas), dtype=np.int8),
        shop_cost=np.array(SHOP_CHOICE_COST, dtype=np.int8),
        shop_piles=shop_piles,
        pile_sizes=np.array(PILE_SIZES, dtype=np.int8),
        score_points=np.array(
            [START_CARD_POINTS, MATCHED_SOUVENIR_POINTS, UNMATCHED_SOUVENIR_POINTS],
            dtype=np.int64,
        ),
        obs_offsets=np.array([obs.FIELD[name].offset for name in OBS_FIELD_NAMES], np.int64),
        scales=np.array([obs.CHAIN_SCALE, obs.SCORE_SCALE, SCORE_MARGIN_SCALE]),
        count_scale=np.float32(count_scale),
    )
