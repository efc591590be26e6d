"""Board geometry (R2): the loop of areas and precomputed move destinations."""

from __future__ import annotations

from functools import cache

from art_gallery_env.core.errors import check_num_players as _check_num_players

SHOP_AREA = 0
MARKER_BAR_SIZE = 6  # R2.2, R4.5
TURNS_PER_ROUND = 4  # R4.1
MARKERS_PER_PLAYER = 4  # R1.4
PILE_SIZES = (18, 14, 10, 6)  # R2.3, R3.2
MIN_PLAYERS, MAX_PLAYERS = 2, 6
MAX_GALLERIES = 8
MAX_AREAS = MAX_GALLERIES + 1


def galleries_for(num_players: int) -> int:
    """R2.1: 4 galleries for 2-3 players, 6 for 4, 8 for 5-6."""
    check_num_players(num_players)
    return 4 if num_players <= 3 else 6 if num_players == 4 else 8


def empty_piles_ending_game(num_players: int) -> int:
    """R6.3(b): 2 empty tile piles end the game with 2-3 players, 3 with 4-6."""
    return 2 if num_players <= 3 else 3


def check_num_players(num_players: object) -> int:
    """``num_players`` if it is an int in 2..6; ValueError naming the range else."""
    return _check_num_players(num_players, MIN_PLAYERS, MAX_PLAYERS)


def step(area: int, steps: int, direction: int, num_areas: int) -> int:
    """R2.1: clockwise is increasing area index modulo the number of areas."""
    return (area + steps if direction == 0 else area - steps) % num_areas


@cache
def move_destinations(num_areas: int) -> tuple[tuple[int, ...], ...]:
    """``table[area][move_action]`` is where move action 0..17 lands from ``area`` (R4.3)."""
    return tuple(
        tuple(step(area, action // 2, action % 2, num_areas) for action in range(18))
        for area in range(num_areas)
    )
