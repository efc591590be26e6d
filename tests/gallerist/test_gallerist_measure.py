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
