"""scripts/gallerist_measure.py: the end reasons it reports (G15.1 / G17.5 conditions, the
G15.3 safety triggers) and its --smoke run."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "gallerist_measure.py"


def _load():
    spec = importlib.util.spec_from_file_location("gallerist_measure", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_end_reasons_are_counted_per_game():
    measure = _load()
    results = [measure.play(["random", "random"], measure.SEED_BASE + g) for g in range(2)]
    assert all(r["reason"] in ("conditions", "no_action", "round_limit") for r in results)
    ends = measure._ends(results, 2)
    assert sum(ends["end_reasons"].values()) == pytest.approx(1.0)
    assert ends["max_rounds"] >= ends["mean_rounds"] > 0


def test_apprentice_conditions_are_the_first_goal_levels_shares():
    """The report names the G17.6 Apprentice conditions from the rules (each with the value
    asked) and counts the share of games meeting each."""
    measure = _load()
    goal = measure.new_game(1, 0).data.solo_goals[0]
    met = {
        "curator_goals": 1, "curator_top": False, "dealer_goals": 1, "curator": 8, "dealer": 6,
        "reputation_tiles": 4, "masterpieces": 1, "total": 160,
    }  # fmt: skip
    poor = {**met, "dealer_goals": 0, "reputation_tiles": 3, "total": 159}
    shares = measure.apprentice_conditions(goal, [met, poor, poor, met])
    assert shares == {
        "1+ Curator goals": 1.0,
        "1+ Art Dealer goals": 0.5,
        "4+ reputation tiles": 0.5,
        "1+ masterpieces": 1.0,
        "160+ money": 0.5,
    }


def test_a_checkpoint_of_another_layout_is_reported_not_raised(tmp_path):
    measure = _load()
    bad = tmp_path / "missing.safetensors"
    out = measure.policy(1, "random", str(bad), 1)
    assert "error" in out and "self-play" not in out


@pytest.mark.slow
def test_smoke_runs_every_part(tmp_path, capsys):
    measure = _load()
    assert measure.main(["--smoke", "--json", str(tmp_path / "out.json")]) == 0
    text = capsys.readouterr().out
    assert "heuristic 4p:" in text and "end triggered by" in text
