"""Agents pickle (multiprocessing, Ray and joblib hand agents to workers that way), and an
unpickled agent plays as the one it was copied from. The searches hold their game's
GameSpec, whose builders include lambdas: the spec pickles as its registered name."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from agent_test_helpers import heuristic_positions

from art_gallery_env.agents.registry import make_agent
from art_gallery_env.core.registry import game_names, get_game

EXIT = Path(__file__).resolve().parents[2] / "checkpoints" / "exit_all.safetensors"


@pytest.mark.parametrize("name", game_names())
def test_a_game_spec_pickles_as_the_registered_spec(name: str) -> None:
    spec = get_game(name)
    assert pickle.loads(pickle.dumps(spec)) is spec


@pytest.mark.parametrize(
    "spec",
    [
        "heuristic",
        "ismcts:iters=20",
        "ismcts:topk=3,iters=24",
        f"search:ckpt={EXIT},iters=16",
        f"search:ckpt={EXIT},topk=3,iters=24",
    ],
)
def test_an_unpickled_agent_chooses_as_its_original(spec: str) -> None:
    game = get_game()
    state = heuristic_positions(1, seed=7, players=(4,))[0]
    original = make_agent(spec, seed=3)
    copy = pickle.loads(pickle.dumps(make_agent(spec, seed=3)))
    inputs = game.make_observer(state).inputs(state, state.current_player)
    assert copy.act(*inputs) == original.act(*inputs)
