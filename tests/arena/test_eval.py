"""art-gallery eval: seat rotation, reproducibility, statistics, result files, CLI errors."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections import Counter

import pytest

from art_gallery_env.agents.registry import agent_names
from art_gallery_env.arena.evaluate import (
    MatchConfig,
    MatchError,
    agent_labels,
    lineup,
    make_tasks,
    mean_ci,
    run_games,
    run_match,
    unseen_table_notes,
    wilson_interval,
)
from art_gallery_env.cli import main

TIMING_KEYS = {"think_s", "ms_per_decision", "wall_s"}


def _strip_timing(obj):
    if isinstance(obj, dict):
        return {k: _strip_timing(v) for k, v in obj.items() if k not in TIMING_KEYS}
    if isinstance(obj, list):
        return [_strip_timing(v) for v in obj]
    return obj


def _match_json(config: MatchConfig) -> dict:
    data = run_match(config, progress=False).to_json(include_actions=True)
    data["config"].pop("workers")
    return _strip_timing(data)


@pytest.mark.parametrize("k,n", [(2, 2), (3, 3), (4, 4), (6, 6), (2, 4), (3, 5), (1, 3)])
def test_lineup_balances_seats(k, n):
    counts = Counter()
    for g in range(2 * n):
        order = lineup(k, n, g)
        assert len(order) == n
        # every agent is seated as often as the cycled base line-up says
        assert Counter(order) == Counter(s % k for s in range(n))
        counts.update((seat, agent) for seat, agent in enumerate(order))
    for agent in range(k):
        per_seat = {counts[(seat, agent)] for seat in range(n)}
        assert len(per_seat) == 1, f"agent {agent} is not seated equally: {counts}"


def test_lineup_meets_neighbours_on_both_sides():
    left_of = Counter()
    for g in range(6):
        order = lineup(3, 3, g)
        for seat in range(3):
            left_of[(order[seat], order[(seat + 1) % 3])] += 1
    assert set(left_of) == {(a, b) for a in range(3) for b in range(3) if a != b}


def test_tasks_seed_every_game_and_seat_differently():
    tasks = make_tasks(MatchConfig(4, ("random",), games=8, seed=3))
    assert len({t.seed for t in tasks}) == 8
    assert len({s for t in tasks for s in t.agent_seeds}) == 32
    assert make_tasks(MatchConfig(4, ("random",), games=8, seed=3)) == tasks
    assert make_tasks(MatchConfig(4, ("random",), games=8, seed=4))[0].seed != tasks[0].seed


def test_duplicate_specs_are_reported_apart():
    assert agent_labels(["random", "random", "heuristic"]) == ["random", "random#2", "heuristic"]


@pytest.mark.slow
@pytest.mark.parametrize("players,agents", [(2, ("random", "random")), (4, ("random", "random"))])
def test_reproducible_and_independent_of_workers(players, agents):
    one = _match_json(MatchConfig(players, agents, games=8, seed=11, workers=1))
    two = _match_json(MatchConfig(players, agents, games=8, seed=11, workers=2))
    assert one == two
    assert [g["index"] for g in one["games"]] == list(range(8))
    other_seed = _match_json(MatchConfig(players, agents, games=8, seed=12, workers=1))
    assert other_seed["games"] != one["games"]


def test_summary_statistics_are_consistent():
    config = MatchConfig(4, ("random", "random"), games=8, seed=5)
    result = run_match(config, progress=False)
    assert [s.agent for s in result.summaries] == ["random", "random#2"]
    total_wins = sum(s.wins for s in result.summaries)
    assert total_wins == pytest.approx(8)  # shared wins split 1/k, so one win per game
    for s in result.summaries:
        assert s.seat_games == 16  # two seats each in every game (cycled line-up)
        assert s.seat_counts == [4, 4, 4, 4]
        assert 0 <= s.win_ci_low <= s.win_share <= s.win_ci_high <= 1
        assert s.score_ci > 0
        parts = s.mean_parts
        assert parts["rows"] + parts["souvenirs"] + parts["hand"] + parts["start_card"] == (
            pytest.approx(s.mean_score)
        )
        assert 1 <= s.mean_rank <= 4
        assert s.rating_sigma > 0
        assert s.rating_ordinal == pytest.approx(s.rating_mu - 3 * s.rating_sigma)
        assert s.decisions > 0 and s.ms_per_decision >= 0
    # the start card goes to exactly one seat per game
    assert sum(s.mean_parts["start_card"] * s.seat_games for s in result.summaries) == 3 * 8


def test_confidence_intervals():
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    low, high = wilson_interval(0, 10)
    assert low == 0 and 0 < high < 0.35
    assert wilson_interval(10, 10)[1] == pytest.approx(1)
    mean, half = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and half == pytest.approx(1.96 * (1.6667 / 4) ** 0.5, rel=1e-3)
    assert mean_ci([5.0]) == (5.0, 0.0)


def test_results_files_written_and_parseable(tmp_path, capsys):
    out, games = tmp_path / "out", tmp_path / "games"
    code = main(
        [
            "eval", "--players", "3", "--agents", "random", "random", "--games", "4",
            "--seed", "2", "--workers", "1", "--out", str(out), "--save-games", str(games),
            "--no-progress",
        ]
    )  # fmt: skip
    assert code == 0
    text = capsys.readouterr().out
    assert "win share" in text and "random#2" in text and "rating" in text
    data = json.loads((out / "results.json").read_text())
    assert data["config"]["num_players"] == 3 and data["config"]["games"] == 4
    assert [a["agent"] for a in data["agents"]] == ["random", "random#2"]
    assert len(data["games"]) == 4 and len(data["games"][0]["totals"]) == 3
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert [r["agent"] for r in rows] == ["random", "random#2"]
    assert float(rows[0]["win_ci_low"]) <= float(rows[0]["win_share"])
    seat_rows = list(csv.DictReader((out / "games.csv").open()))
    assert len(seat_rows) == 4 * 3
    records = sorted(games.glob("*.json"))
    assert len(records) == 4
    from art_gallery_env.arena.records import load_record, replay_record

    record = load_record(records[1])
    final = replay_record(record)
    assert [b["total"] for b in final.score_breakdown()] == data["games"][1]["totals"]


def test_run_games_results_sorted_by_index():
    results = run_games(MatchConfig(2, ("random",), games=5, seed=1, workers=2))
    assert [r["index"] for r in results] == [0, 1, 2, 3, 4]


def test_match_config_validation():
    with pytest.raises(MatchError, match="at most 2 agent specs"):
        MatchConfig(2, ("random", "random", "random"), games=1)
    with pytest.raises(MatchError, match="2..6"):
        MatchConfig(7, ("random",), games=1)
    with pytest.raises(MatchError, match="at least 1"):
        MatchConfig(2, ("random",), games=0)


@pytest.mark.parametrize(
    "argv,expected",
    [
        (["--players", "7", "--agents", "random"], ["players", "2..6", "Art Gallery"]),
        (["--players", "1", "--agents", "random"], ["2..6", "got 1"]),
        (["--game", "gallerist", "--players", "5", "--agents", "random"], ["1..4", "Gallerist"]),
        (["--game", "chess", "--agents", "random"], ["--game", "art_gallery", "gallerist"]),
        (["--game", "gallerist", "--agents", "bidder"], ["bidder", "known agents", "heuristic"]),
        (
            ["--game", "gallerist", "--zero-is-ten", "--agents", "random"],
            ["no variant 'zero_is_ten'", "none"],
        ),
        (["--agents", "random", "--games", "0"], ["--games", "1..10000000", "got '0'"]),
        (["--agents", "random", "--games", "x"], ["--games", "whole number"]),
        (["--agents", "random", "--workers", "0"], ["--workers"]),
        (["--agents", "nosuchagent"], ["nosuchagent", "known agents", "random"]),
        (["--agents", "random:foo=1"], ["random:foo=1", "valid options"]),
        (["--agents", "random", "random", "random"], ["3 agents", "table of 2", "at most 2"]),
        ([], ["--agents"]),
    ],
)
def test_bad_cli_arguments_name_the_problem(argv, expected, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["eval", *argv])
    assert exc.value.code != 0
    err = capsys.readouterr().err
    for word in expected:
        assert word in err, err


def test_help_lists_the_commands(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for command in ("demo", "eval", "play", "replay"):
        assert command in out


@pytest.mark.slow
@pytest.mark.skipif("heuristic" not in agent_names(), reason="heuristic agent not registered")
def test_heuristic_against_random_is_reproducible():
    config = MatchConfig(3, ("heuristic", "random"), games=3, seed=0, workers=1)
    one = _match_json(config)
    assert one == _match_json(MatchConfig(3, ("heuristic", "random"), games=3, seed=0, workers=2))
    assert [a["seat_games"] for a in one["agents"]] == [6, 3]


def test_in_process_evaluation_leaves_the_callers_thread_count_alone(tmp_path):
    """A trainer evaluating with eval.workers=1 runs the games in its own process; that
    must not cut the trainer's torch threads (it used to set them to 1)."""
    torch = pytest.importorskip("torch")
    from art_gallery_env.agents.policy import export_torch_mlp
    from art_gallery_env.games.art_gallery.env.observation import OBSERVATION_SIZE
    from art_gallery_env.games.art_gallery.rules.actions import NUM_ACTIONS

    weights = export_torch_mlp(
        torch.nn.Sequential(torch.nn.Linear(OBSERVATION_SIZE, NUM_ACTIONS)),
        tmp_path / "p.safetensors",
    )
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        run_match(MatchConfig(2, (str(weights), "random"), games=2, workers=1), progress=False)
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


@pytest.mark.slow
def test_evaluation_workers_use_one_thread_each():
    """The worker initializer sets one thread, in the worker (checked in a subprocess)."""
    pytest.importorskip("torch")
    code = (
        "import torch; torch.set_num_threads(2); "
        "from art_gallery_env.arena.evaluate import init_worker; init_worker(); "
        "import os; print(torch.get_num_threads(), os.environ['OMP_NUM_THREADS'])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["1", "1"]


def test_only_checkpoints_never_trained_at_the_table_size_get_a_note(tmp_path) -> None:
    import shutil
    from pathlib import Path

    checkpoints = Path(__file__).resolve().parents[2] / "checkpoints"
    bare = tmp_path / "bare.safetensors"  # no run metadata beside it: nothing to say
    shutil.copy(checkpoints / "ppo_2p.safetensors", bare)
    two, every = str(checkpoints / "ppo_2p.safetensors"), str(checkpoints / "ppo_all.safetensors")
    agents = (two, every, str(bare))
    at_three = MatchConfig(num_players=3, agents=agents, games=1)
    assert unseen_table_notes(at_three) == [
        f"{two} was trained at tables of 2 player(s) only; this match seats 3"
    ]
    at_two = MatchConfig(num_players=2, agents=agents, games=1, round_robin=True)
    assert unseen_table_notes(at_two) == []
