"""The fast, cached ObservationEncoder against the plain reference encoder, bit for bit.

One long-lived fast encoder (its caches warm, states from many games in shuffled order)
must give exactly what :func:`encode_reference` computes from scratch: on more than
10,000 states of 2-6 player games in both variants, including states edited by hand.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from art_gallery_env.games.art_gallery.env.observation import FIELDS, ObservationEncoder
from art_gallery_env.games.art_gallery.env.observation_reference import encode_reference
from art_gallery_env.games.art_gallery.rules.cards import default_card_set
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game

CARDS = default_card_set()


def game_states(num_players: int, seed: int, zero_is_ten: bool) -> list[GameState]:
    """Every decision point of one random game, plus its final state."""
    state = new_game(num_players, seed, zero_is_ten=zero_is_ten)
    rng = random.Random(seed)
    states = [state.clone()]
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


def edited(state: GameState, rng: random.Random) -> GameState:
    """A clone with public and private data changed by hand, as tools and tests do."""
    other = state.clone()
    n = other.num_players
    edit = rng.randrange(5)
    if edit == 0 and other.painting_pile:
        other.collections[rng.randrange(n)].append(other.painting_pile.pop())
    elif edit == 1:
        piles = [pile for pile in other.tile_piles if pile]
        if piles:
            other.tiles_held[rng.randrange(n)].append(rng.choice(piles).pop())
    elif edit == 2:
        other.start_player = rng.randrange(n)
    elif edit == 3:
        other.position[rng.randrange(n)] = rng.randrange(other.num_areas)
    else:
        player = rng.randrange(n)
        rng.shuffle(other.hands[player])
    return other


def assert_same(fast: np.ndarray, reference: np.ndarray, where: str) -> None:
    if np.array_equal(fast, reference):
        return
    for f in FIELDS:
        a, b = fast[f.offset : f.offset + f.size], reference[f.offset : f.offset + f.size]
        if not np.array_equal(a, b):
            raise AssertionError(f"{where}: field {f.name} differs: fast {a} reference {b}")
    raise AssertionError(where)


@pytest.mark.slow
def test_fast_encoder_equals_reference_on_10000_states_of_2_to_6_player_games() -> None:
    rng = random.Random(2024)
    states: list[GameState] = []
    for seed in range(6):
        for n in range(2, 7):
            states += game_states(n, seed, zero_is_ten=seed % 2 == 1)
    states += [edited(s, rng) for s in rng.sample(states, 1500)]
    rng.shuffle(states)
    assert len(states) > 10_000
    fast = ObservationEncoder(CARDS)
    for i, state in enumerate(states):
        observer = rng.randrange(state.num_players)
        assert_same(
            fast.encode(state, observer), encode_reference(state, observer), f"state {i} {state}"
        )


@pytest.mark.parametrize("num_players", [2, 5])
def test_every_observer_of_one_game_in_order(num_players: int) -> None:
    """In-order play, every seat observing every decision: the caches' usual path."""
    fast = ObservationEncoder(CARDS)
    for state in game_states(num_players, 99, zero_is_ten=False):
        for observer in range(num_players):
            assert_same(fast.encode(state, observer), encode_reference(state, observer), "")


def test_a_state_edited_in_place_after_public_changed_is_reencoded() -> None:
    """The documented contract: hand edits of public data call public_changed()."""
    state = game_states(3, 7, zero_is_ten=False)[60]
    fast = ObservationEncoder(CARDS)
    before = fast.encode(state, 1)
    state.collections[2].append(state.painting_pile.pop())
    state.public_changed()
    after = fast.encode(state, 1)
    assert not np.array_equal(before, after)
    assert_same(after, encode_reference(state, 1), "edited in place")
