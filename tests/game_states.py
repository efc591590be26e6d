"""Shared by the tests of every folder: positions reached by random play, and states that
differ from a given one only in what a seat cannot see."""

from __future__ import annotations

import random
from typing import Any

import numpy as np


def random_moves(state: Any, moves: int, seed: int) -> Any:
    """``state`` after ``moves`` uniformly random legal actions drawn with ``seed`` (fewer if
    the game ends first); any game's state."""
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def legal_mask(state: Any, num_actions: int) -> np.ndarray:
    """The action mask of the current player's legal actions."""
    mask = np.zeros(num_actions, dtype=np.int8)
    mask[state.legal_actions()] = 1
    return mask


def gallerist_twin(state: Any, seat: int) -> Any:
    """A Gallerist state of ``seat``'s information set whose hidden parts differ: the deck and
    the bag reversed, the next rival's curator swapped with one still in the box."""
    other = state.clone()
    other.deck.reverse()
    other.bag.reverse()
    q = (seat + 1) % state.num_players
    other.curator[q], other.box_curators[0] = other.box_curators[0], other.curator[q]
    return other

