"""The warm start's teacher games on the compiled engine: the same kind of rows as the
Python loop's, labelled by the compiled heuristic, and the Python loop where the engine
has no compiled twin of the teacher."""

from __future__ import annotations

import numpy as np
import pytest

from art_gallery_env.core.registry import get_game
from art_gallery_env.training.warm_start_vector import compiled_collect, compiled_engine

pytest.importorskip("numba")

SPEC = get_game("art_gallery")
VARIANTS = {"zero_is_ten": False}


def test_rows_are_legal_seeded_teacher_decisions_with_each_seats_final_reward():
    data = compiled_collect(SPEC, "heuristic", [2, 3], 3, 5, "score_margin", VARIANTS, 0.0)
    assert data is not None
    rows = len(data["action"])
    assert data["obs"].shape == (rows, SPEC.observation_size)
    assert data["obs"].dtype == np.float16
    assert data["mask"][np.arange(rows), data["action"]].all()
    assert sorted(np.unique(data["game"])) == list(range(6))
    assert set(np.unique(data["players"])) == {2, 3}
    assert not data["student"].any()
    for game in range(6):  # one final reward per seat of a game; margins sum to <= 0
        in_game = data["game"] == game
        assert 1 <= len(np.unique(data["value"][in_game])) <= data["players"][in_game][0]
    again = compiled_collect(SPEC, "heuristic", [2, 3], 3, 5, "score_margin", VARIANTS, 0.0)
    assert np.array_equal(again["action"], data["action"])
    assert np.array_equal(again["obs"], data["obs"])


def test_explore_changes_the_games_but_not_the_labels_legality():
    plain = compiled_collect(SPEC, "heuristic", [2], 2, 1, "win", VARIANTS, 0.0)
    noisy = compiled_collect(SPEC, "heuristic", [2], 2, 1, "win", VARIANTS, 0.5)
    rows = len(noisy["action"])
    assert noisy["mask"][np.arange(rows), noisy["action"]].all()
    assert rows != len(plain["action"]) or not np.array_equal(noisy["obs"], plain["obs"])
    assert set(np.unique(noisy["value"])) <= {-1.0, 0.5, 1.0}


def test_a_teacher_without_a_compiled_twin_is_left_to_the_python_loop():
    assert compiled_engine(SPEC, "random") is None
    assert compiled_collect(SPEC, "random", [2], 1, 0, "win", VARIANTS, 0.0) is None
    assert compiled_engine(SPEC, "heuristic") is not None
