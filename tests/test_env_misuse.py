"""Misuse cases that name one game's fields (the game-free ones are in
tests/conformance/test_env_contract.py): states edited in memory, the Gallerist's
``over`` flag, and the vector engine's argument checks."""

from __future__ import annotations

import random

import numpy as np
import pytest

from art_gallery_env import raw_env
from art_gallery_env.core.single_agent import SingleAgentEnv
from art_gallery_env.games.art_gallery.rules.state import new_game
from art_gallery_env.games.gallerist.rules.serialize import StateFormatError
from art_gallery_env.games.gallerist.rules.state import GameState as GalleristState
from art_gallery_env.games.gallerist.rules.state import new_game as gallerist_game


def played(state, decisions: int, seed: int = 0):
    rng = random.Random(seed)
    for _ in range(decisions):
        state.apply(rng.choice(state.legal_actions()))
    return state


def tampered_art_gallery_states():
    """A mid-game state with a position off the board, and one with a negative hand."""
    off_board = played(new_game(3, seed=4), 6)
    off_board.position[0] = 99
    negative = played(new_game(3, seed=4), 6)
    negative.hands[1][2] = -1
    return {"position 99": off_board, "negative hand": negative}


@pytest.mark.parametrize("case", ["position 99", "negative hand"])
def test_a_tampered_state_is_refused_by_the_aec_and_single_agent_envs(case: str) -> None:
    state = tampered_art_gallery_states()[case]
    field = "position[0]: 99" if case == "position 99" else "hands[1][2]: -1"
    with pytest.raises(ValueError, match=rf"not a state of Art Gallery: {re_escape(field)}"):
        raw_env(num_players=3).reset(options={"state": state})
    with pytest.raises(ValueError, match=re_escape(field)):
        SingleAgentEnv("art_gallery", 3, opponents=_first()).reset(options={"state": state})


def re_escape(text: str) -> str:
    import re

    return re.escape(text)


def _first():
    from art_gallery_env.core.agent import Agent, legal_from_mask

    class First(Agent):
        def act(self, observation, action_mask, view=None) -> int:  # noqa: ANN001
            return int(legal_from_mask(action_mask)[0])

    return First()


def test_the_gallerist_reader_refuses_over_on_a_mid_game_state() -> None:
    state = played(gallerist_game(2, seed=1), 10)
    data = state.to_dict()
    data["over"] = True
    with pytest.raises(StateFormatError, match="over: the game is over, but"):
        GalleristState.from_dict(data)
    finished = gallerist_game(2, seed=1)
    rng = random.Random(2)
    while not finished.is_over:
        finished.apply(rng.choice(finished.legal_actions()))
    assert GalleristState.from_dict(finished.to_dict()).is_over  # a real end still loads


# -- the vector engine -----------------------------------------------------------------
@pytest.fixture(scope="module")
def vector_game():
    pytest.importorskip("numba")
    from art_gallery_env.games.art_gallery.vector.game import VectorGame

    return VectorGame


def test_the_vector_engine_takes_numpy_integers(vector_game) -> None:
    game = vector_game(np.int64(4), np.int64(3), seed=np.int64(2))
    assert (game.num_envs, game.num_players) == (4, 3)
    assert type(game.num_envs) is int and game.observe().shape[0] == 4
    for bad in (True, 0, -1, 2.0, "4"):
        with pytest.raises(ValueError, match="num_envs must be a positive int"):
            vector_game(bad, 3)


def test_a_seats_array_of_the_wrong_shape_is_a_clear_error(vector_game) -> None:
    game = vector_game(4, 3, seed=0)
    for seats in ([0, 1], np.zeros(5, dtype=np.int64), np.zeros((4, 1), dtype=np.int64)):
        with pytest.raises(ValueError, match=r"seats must be one int or one per game, shape"):
            game.observe(seats=seats)
    assert game.observe(seats=1).shape == game.observe(seats=[0, 1, 2, 0]).shape


@pytest.mark.parametrize("case", ["position 99", "negative hand"])
def test_set_state_refuses_a_tampered_state(vector_game, case: str) -> None:
    game = vector_game(2, 3, seed=0)
    before = game.to_state(0).to_dict()
    with pytest.raises(ValueError, match="position|hands"):
        game.set_state(0, tampered_art_gallery_states()[case])
    assert game.to_state(0).to_dict() == before  # nothing was written
