"""benchmarks/clone_fidelity.py (a bound): its reading of an observation (which
decision kind, where a move lands) agrees with the engine, and its teacher-agreement count
sees every decision of a game."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="the benchmark clones with the [train] extra")

from art_gallery_env import raw_env  # noqa: E402
from art_gallery_env.games.art_gallery.rules.actions import BID_BASE, PICK_BASE, SHOP_BASE  # noqa: E402

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "clone_fidelity.py"


def _benchmark():
    spec = importlib.util.spec_from_file_location("clone_fidelity", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("players", [2, 4, 6])
def test_destination_is_where_the_engine_moves_the_piece(players: int) -> None:
    bench = _benchmark()
    env = raw_env(players)
    env.reset(seed=players)
    rng = random.Random(players)
    moves = 0
    while env.agents and moves < 40:
        seat = env.agent_selection
        observed = env.observe(seat)
        legal = np.flatnonzero(observed["action_mask"]).tolist()
        action = rng.choice(legal)
        player = env.agent_name_mapping[seat]
        expected = None
        if action < BID_BASE:
            expected = bench.destination(observed["observation"], action)
        env.step(action)
        if expected is not None:
            moves += 1
            assert env.state.position[player] == expected
    assert moves == 40


def test_kind_of_splits_the_action_ranges() -> None:
    bench = _benchmark()
    edges = np.asarray([0, BID_BASE - 1, BID_BASE, SHOP_BASE - 1, SHOP_BASE, PICK_BASE, 46])
    assert bench.kind_of(edges).tolist() == [0, 0, 1, 1, 2, 3, 3]


def test_teacher_agreement_counts_every_decision_once() -> None:
    bench = _benchmark()
    counts = bench.teacher_agreement(players=3, games=1)
    agreed, total = counts[:, 0], counts[:, 1]
    assert (agreed <= total).all()
    assert total[0] > 0 and total[1] > 0  # every game has moves and bids
    assert agreed.sum() >= 0.9 * total.sum()  # the heuristic hardly depends on its seed
