"""art-gallery eval over a folder of checkpoints: expansion, the round robin that rates
them with fixed anchors, clear errors, and the rating-vs-steps plot."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from art_gallery_env.agents.policy_format import save_policy_weights
from art_gallery_env.arena.evaluate import (
    MatchConfig,
    MatchError,
    expand_agent_specs,
    lineup,
)
from art_gallery_env.cli import main
from art_gallery_env.games.art_gallery.env.observation import OBSERVATION_SIZE
from art_gallery_env.games.art_gallery.rules.actions import NUM_ACTIONS


def _checkpoint(path: Path, steps: int | None, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    weights = {
        "layers.0.weight": rng.normal(size=(8, OBSERVATION_SIZE)),
        "layers.0.bias": np.zeros(8),
        "layers.1.weight": rng.normal(size=(NUM_ACTIONS, 8)),
        "layers.1.bias": np.zeros(NUM_ACTIONS),
    }
    meta = {"hidden_sizes": [8], "activation": "tanh", "name": path.stem}
    if steps is not None:
        meta["steps"] = steps
    path.parent.mkdir(parents=True, exist_ok=True)
    return save_policy_weights(weights, meta, path)


def _run_folder(root: Path) -> Path:
    """A training run's layout: best/latest links into checkpoints/, snapshots in pool/."""
    run = root / "run"
    step = _checkpoint(run / "checkpoints" / "step_300" / "policy.safetensors", 300, seed=3)
    (run / "best.safetensors").symlink_to(step)
    (run / "latest.safetensors").symlink_to(step)  # the same checkpoint: listed once
    _checkpoint(run / "pool" / "snap_0000000100.safetensors", None, seed=1)
    _checkpoint(run / "pool" / "snap_0000000200.safetensors", 200, seed=2)
    return run


def test_a_run_folder_expands_to_its_checkpoints_once_each(tmp_path):
    run = _run_folder(tmp_path)
    specs = expand_agent_specs([str(run), "heuristic", "random"])
    assert specs == [
        str(run / "best.safetensors"),
        str(run / "pool" / "snap_0000000100.safetensors"),
        str(run / "pool" / "snap_0000000200.safetensors"),
        "heuristic",
        "random",
    ]
    assert expand_agent_specs(["heuristic", "random"]) == ["heuristic", "random"]


def test_an_empty_folder_is_an_error_naming_it(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(MatchError, match="empty: a folder given as an agent"):
        expand_agent_specs([str(tmp_path / "empty"), "random"])


def test_a_corrupt_checkpoint_in_the_folder_is_named(tmp_path, capsys):
    folder = tmp_path / "pool"
    _checkpoint(folder / "a.safetensors", 10)
    (folder / "b.safetensors").write_bytes(b"not a checkpoint")
    with pytest.raises(SystemExit):
        main(["eval", "--agents", str(folder), "random", "--games", "2", "--workers", "1"])
    err = capsys.readouterr().err
    assert "b.safetensors" in err and "bad agent spec" in err


def test_round_robin_seats_every_subset_and_every_seat_evenly():
    k, n = 4, 2
    tables = Counter()
    seats = Counter()
    for g in range(2 * n * 6):  # C(4, 2) = 6 tables, each for n games, twice
        order = lineup(k, n, g)
        assert len(set(order)) == n
        tables[tuple(sorted(order))] += 1
        seats.update((agent, seat) for seat, agent in enumerate(order))
    assert set(tables) == set(combinations(range(k), n))
    assert set(tables.values()) == {4}
    assert set(seats.values()) == {6}  # each agent 6 times in each seat
    with pytest.raises(MatchError, match="round robin"):
        MatchConfig(num_players=2, agents=("random", "heuristic", "random#x"), games=2)


def test_eval_of_a_run_folder_rates_all_and_plots_rating_vs_steps(tmp_path, capsys):
    run = _run_folder(tmp_path)
    out = tmp_path / "out"
    code = main(
        [
            "eval", "--players", "2", "--agents", str(run), "random", "--games", "8",
            "--workers", "1", "--no-progress", "--out", str(out),
        ]
    )  # fmt: skip
    assert code == 0
    data = json.loads((out / "results.json").read_text())
    assert len(data["agents"]) == 4
    assert data["config"]["round_robin"] is True
    assert sum(a["seat_games"] for a in data["agents"]) == 16
    assert all(a["seat_games"] > 0 for a in data["agents"])
    assert main(["plot", str(out / "results.json")]) == 0
    png = out / "rating_vs_steps.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_refuses_results_without_checkpoints(tmp_path, capsys):
    out = tmp_path / "out"
    main(["eval", "--agents", "random", "heuristic", "--games", "2", "--workers", "1",
          "--no-progress", "--out", str(out)])  # fmt: skip
    with pytest.raises(SystemExit):
        main(["plot", str(out / "results.json")])
    assert "no agent is a checkpoint" in capsys.readouterr().err
