"""The observation encoder's caches (public block, marker bars, byte buffers) never
change what it returns: a long-lived encoder fed states in any order, a pickled copy,
and a fresh encoder all agree. The env's cached action masks are fresh arrays."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

from art_gallery_env import raw_env
from art_gallery_env.games.art_gallery.env.observation import ObservationEncoder
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game


def random_game_states(n: int, seed: int, every: int = 3) -> list[GameState]:
    state = new_game(n, seed)
    rng = random.Random(seed)
    states = []
    while not state.is_over:
        if rng.randrange(every) == 0:
            states.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    states.append(state.clone())
    return states


@pytest.mark.parametrize("seed", [0, 1])
def test_one_encoder_over_shuffled_states_of_many_games_matches_a_fresh_one(seed: int) -> None:
    states = [s for n in (2, 4, 6) for s in random_game_states(n, seed)]
    states += [s for s in random_game_states(4, seed + 10)]  # same size, another game
    rng = random.Random(seed)
    rng.shuffle(states)
    shared = ObservationEncoder(states[0].cards)
    checked = 0
    for state in states:
        for observer in rng.sample(range(state.num_players), 2):
            expected = ObservationEncoder(state.cards).encode(state, observer)
            assert np.array_equal(shared.encode(state, observer), expected)
            checked += 1
    assert checked > 200


def test_an_edited_clone_is_encoded_from_its_own_content() -> None:
    """Public data edited by hand on a clone (as tests and tools do) is not served from
    the original's cached public block."""
    state = random_game_states(3, 5)[40]
    encoder = ObservationEncoder(state.cards)
    before = encoder.encode(state, 0)
    edited = state.clone()
    edited.collections[1].append(edited.painting_pile.pop())
    after = encoder.encode(edited, 0)
    assert not np.array_equal(before, after)
    assert np.array_equal(after, ObservationEncoder(state.cards).encode(edited, 0))


@pytest.mark.parametrize("duplicate", [pickle.loads, copy.deepcopy], ids=["pickle", "deepcopy"])
def test_a_copied_env_keeps_encoding_correctly(duplicate) -> None:
    env = raw_env(num_players=4)
    env.reset(seed=3)
    rng = random.Random(3)
    for _ in range(25):
        env.step(rng.choice(env.state.legal_actions()))
    source = pickle.dumps(env) if duplicate is pickle.loads else env
    twin = duplicate(source)
    for _ in range(40):
        agent = env.agent_selection
        assert np.array_equal(env.observe(agent)["observation"], twin.observe(agent)["observation"])
        action = rng.choice(env.state.legal_actions())
        env.step(action)
        twin.step(action)
    fresh = ObservationEncoder(twin.state.cards).encode(twin.state, twin.state.current_player)
    assert np.array_equal(twin.observe(twin.agent_selection)["observation"], fresh)


def test_action_masks_are_fresh_arrays() -> None:
    env = raw_env(num_players=2)
    env.reset(seed=0)
    agent = env.agent_selection
    first = env.action_mask(agent)
    expected = first.copy()
    first[:] = 0  # a caller scribbling on its mask
    assert np.array_equal(env.action_mask(agent), expected)
    assert env.action_mask(agent).dtype == np.int8
