"""The fast observation encoder gives exactly what the plain reference encoder gives.

The fast encoder (``gallerist.env.observation.ObservationEncoder``) rewrites only the parts
of the vector whose inputs changed since it last encoded for the same observer; the
reference (``observation_reference.encode_reference``) writes every entry every time. The
tests feed the fast one sequences built to catch a stale part: several games interleaved
through one encoder, observers chosen at random, determinized worlds (hidden parts
differ), states visited out of order and a state edited by hand. The golden playthroughs
(tests/gallerist/test_gallerist_golden.py) pin a hash of every observation as well.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from art_gallery_env.games.gallerist.env.observation import OBSERVATION_SIZE, ObservationEncoder
from art_gallery_env.games.gallerist.env.observation_reference import encode_reference
from art_gallery_env.games.gallerist.rules.state import GameState, new_game


def assert_same(encoder: ObservationEncoder, s: GameState, observer: int, where: str) -> None:
    fast = encoder.encode(s, observer)
    reference = encode_reference(s, observer)
    assert fast.dtype == np.float32 and fast.shape == (OBSERVATION_SIZE,)
    if not np.array_equal(fast, reference):
        bad = np.flatnonzero(fast != reference)[:5].tolist()
        pytest.fail(f"{where}: fast and reference differ at {bad}")


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_fast_encoder_equals_reference_along_interleaved_games(n: int) -> None:
    rng = random.Random(n)
    encoder = ObservationEncoder()
    games = [new_game(n, 30 + n), new_game(n, 60 + n)]
    step = 0
    while not all(g.is_over for g in games):
        g = rng.choice([g for g in games if not g.is_over])
        observer = g.current_player if rng.random() < 0.7 else rng.randrange(n)
        assert_same(encoder, g, observer, f"{n} players, step {step}")
        if rng.random() < 0.05:  # a world of the observer's information set
            assert_same(encoder, g.determinize(observer, rng), observer, f"world at {step}")
        g.apply(rng.choice(g.legal_actions()))
        step += 1
    for g in games:
        for observer in range(n):
            assert_same(encoder, g, observer, f"{n} players, game over")


def test_fast_encoder_on_states_out_of_order_and_edited_by_hand() -> None:
    rng = random.Random(5)
    s = new_game(3, 5)
    states = []
    while not s.is_over:
        states.append(s.clone())
        s.apply(rng.choice(s.legal_actions()))
    encoder = ObservationEncoder()
    for s in rng.sample(states, 80):
        assert_same(encoder, s, rng.randrange(3), "out of order")
    s = states[len(states) // 2]
    encoder.encode(s, 0)
    edited = s.clone()
    edited.money[1] += 7  # the same lists' values change under the encoder's memo
    edited.fame[edited.work_artist[edited.gallery[0][0]] if edited.gallery[0] else 0] += 1
    edited.contracts[2][0][2] ^= 1
    assert_same(encoder, edited, 0, "edited state")
    encoder.reset()
    assert_same(encoder, s, 0, "after reset")


def test_an_encoder_pickles_and_copies_and_then_encodes_as_before() -> None:
    """OpenSpiel serialises states and envs are deep-copied: the encoder's memo of last
    vectors (memoryviews) is a cache left out of a copy, not an error."""
    import copy
    import pickle

    state = new_game(2, seed=3)
    encoder = ObservationEncoder()
    first = encoder.encode(state, 0)
    for twin in (pickle.loads(pickle.dumps(encoder)), copy.deepcopy(encoder)):
        assert np.array_equal(twin.encode(state, 0), first)
        assert np.array_equal(twin.encode(state, 1), encoder.encode(state, 1))


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_fast_encoder_equals_reference_whenever_reputation_tiles_are_held(n: int) -> None:
    """The encoder keeps each memo's reputation scores until an attribute their tiles'
    units read changes (observation._UNIT_READS); a unit reading something the table does
    not name would leave a stale score. Random games with every decision checked while
    some seat holds a tile, one encoder for all of them (as an env keeps it across games)."""
    rng = random.Random(100 + n)
    encoder = ObservationEncoder()
    checked = 0
    for game in range(3):
        s = new_game(n, 1000 * n + game)
        while not s.is_over:
            if any(t != -1 for board in s.spaces for t in board):
                assert_same(encoder, s, s.current_player, f"{n} players, game {game}")
                checked += 1
            else:
                encoder.encode(s, s.current_player)
            s.apply(rng.choice(s.legal_actions()))
    assert checked > 50  # the games did reach the tiles


def test_an_env_keeps_its_encoder_across_games_and_stays_exact() -> None:
    """reset() of the seat observer keeps the encoder's last vectors (they are exact for
    any state): a second game's observations are the reference's from the first decision."""
    from art_gallery_env.games.gallerist import raw_env

    e = raw_env(num_players=2)
    rng = random.Random(7)
    for seed in (1, 2):
        e.reset(seed=seed)
        for _ in range(60):
            agent = e.agent_selection
            obs = e.observe(agent)["observation"]
            assert np.array_equal(obs, encode_reference(e.state, e.agent_name_mapping[agent]))
            e.step(rng.choice(e.state.legal_actions()))
