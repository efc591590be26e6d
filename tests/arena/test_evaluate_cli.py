"""``art-gallery eval`` is the Python evaluation API on the command line: the same table
for the same arguments, solo games at ``--players 1``, and the API's one-line errors."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from art_gallery_env.arena import evaluate
from art_gallery_env.cli import main

ROOT = Path(__file__).resolve().parents[2]
SOLO = str(ROOT / "checkpoints" / "gallerist_solo.safetensors")
PPO_2P = str(ROOT / "checkpoints" / "ppo_2p.safetensors")


@pytest.fixture
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decision and wall times read 0 (they differ from run to run and widen columns)."""
    monkeypatch.setattr(time, "perf_counter", lambda: 0.0)


def _eval(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(["eval", *argv, "--workers", "1", "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def test_the_command_prints_the_apis_table(frozen_clock, capsys) -> None:
    out = _eval(["--players", "3", "--agents", "random", "heuristic", "--games", "4",
                 "--seed", "11"], capsys)  # fmt: skip
    result = evaluate(["random", "heuristic"], players=3, games=4, seed=11, notes=None)
    assert out == result.table()
    assert "4 games, 3 players, seed 11" in out
    other = evaluate(["random", "heuristic"], players=3, games=4, seed=12, notes=None)
    assert other.table() != out  # the comparison can fail: another seed, another table


@pytest.mark.slow  # loads the checkpoint twice: about 10 s on 2 busy cores
def test_players_1_plays_the_solo_checkpoint_and_prints_its_goal_levels(
    frozen_clock, capsys, tmp_path
) -> None:
    argv = ["--game", "gallerist", "--players", "1", "--agents", SOLO, "--games", "3"]
    out = _eval([*argv, "--out", str(tmp_path)], capsys)
    result = evaluate([SOLO], game="gallerist", players=1, games=3, seed=0, notes=None)
    assert out.startswith(result.table())
    assert "3 solo games of The Gallerist, seed 0" in out and "goal [95% CI]" in out
    assert ">= Apprentice [95% CI]" in out  # seed 0's third game reaches Apprentice
    assert "highest goal level reached: none 2, Apprentice 1" in out
    assert (tmp_path / "results.csv").read_text().splitlines()[0].endswith("at_least_1")


GALLERIST = ["--game", "gallerist", "--players"]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--players", "1", "--agents", SOLO], ["not 'art_gallery'", "--game gallerist"]),
        ([*GALLERIST, "1", "--agents", PPO_2P], ["not 'gallerist'", "--game art_gallery"]),
        (["--players", "1", "--agents", "random"], ["Art Gallery has no solo game: ", "2..6"]),
        ([*GALLERIST, "5", "--agents", "random"],
         ["players must be in 1..4 for The Gallerist", "1: each agent plays", "got 5"]),
        ([*GALLERIST, "0", "--agents", "random"], ["1..4", "got 0"]),
        (["--players", "9", "--agents", "random"], ["must be in 2..6 for Art Gallery, got 9"]),
    ],
)  # fmt: skip
def test_wrong_input_is_one_line_naming_the_choices(argv, expected, capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["eval", *argv, "--games", "1", "--no-progress"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("art-gallery eval: error: ") and "Traceback" not in "".join(err)
    for words in expected:
        assert words in err[-1], err[-1]
