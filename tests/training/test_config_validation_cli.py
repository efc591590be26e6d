"""``art-gallery train`` with a bad config prints one
error line naming the file, the key path and the accepted values, exits with 2 (argparse's
status for bad input, as every config error before), prints no traceback and leaves no
file behind. ``eval``'s (and ``demo``'s, ``play``'s) numbers are checked the same way."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")

from art_gallery_env.cli import main  # noqa: E402

BASE = "name: x\ntotal_steps: 1000\n"  # every case is refused before training


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def _refused(capsys, argv: list[str]) -> str:
    """The one error line of a command that must exit with 2 before doing anything."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if not line.startswith(("usage:", " "))]
    assert len(lines) == 1, err  # after argparse's usage lines: one error line
    return lines[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("torch_threads: 100000\n", f"torch_threads: accepted 1..{os.cpu_count()} "),
        ("ppo: {learning_rate: .inf}\n", "ppo.learning_rate: inf is not a finite number"),
        ("seed: -1\n", "seed: must be a whole number in 0..4294967295"),
        ("seed: 1180591620717411303424\n", "seed: must be a whole number in 0..4294967295"),
        ("network: {hidden_sizes: [200000, 200000]}\n", "network.hidden_sizes: [200000, 200000]"),
        (
            "env: {num_players: [2, 3], player_weights: [.nan, 1]}\n",
            "env.player_weights[0]: nan is not a finite number",
        ),
        ("vec_env: vector\nenv: {game: gallerist}\n", "vec_env: vector needs a compiled"),
        ("ppo: {n_steps: 64}\nppo: {n_steps: 128}\n", "ppo is given twice (lines 3 and 4)"),
    ],
)
def test_train_refuses_a_bad_config_in_one_line_and_touches_nothing(
    tmp_path, monkeypatch, capsys, text, expected
) -> None:
    monkeypatch.chdir(tmp_path)  # the run folder would be runs/x here
    Path("c.yaml").write_text(BASE + text, encoding="utf-8")
    line = _refused(capsys, ["train", "c.yaml", "--no-progress"])
    assert line.startswith("art-gallery train: error: c.yaml: "), line
    assert expected in line, line
    assert _files(tmp_path) == ["c.yaml"]  # no runs/, no run folder


def test_train_refuses_a_file_that_is_not_utf8_or_a_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("latin1.yaml").write_bytes(BASE.encode() + "# caf\xe9\n".encode("latin-1"))
    Path("configs").mkdir()
    line = _refused(capsys, ["train", "latin1.yaml", "--no-progress"])
    offset = len(BASE) + len("# caf")
    assert line.endswith(
        f"latin1.yaml: not UTF-8 text (byte 0xe9 at offset {offset}); save the config as UTF-8"
    ), line
    line = _refused(capsys, ["train", "configs", "--no-progress"])
    assert line.endswith("configs: is a folder; give a YAML config file in it"), line
    assert _files(tmp_path) == ["configs", "latin1.yaml"]


def test_train_checks_run_dir_and_total_steps_from_the_command_line(
    tmp_path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("c.yaml").write_text(BASE)
    Path("a_file").write_text("")
    line = _refused(capsys, ["train", "c.yaml", "--run-dir", "a_file/run", "--no-progress"])
    assert "run_dir: 'a_file/run' cannot be a run folder" in line, line
    line = _refused(capsys, ["train", "c.yaml", "--total-steps", "0", "--no-progress"])
    assert "argument --total-steps: must be >= 1, got 0" in line, line
    assert _files(tmp_path) == ["a_file", "c.yaml"]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--games", "0"], "argument --games: expected a whole number in 1..10000000, got '0'"),
        (["--games", "1e3"], "argument --games: expected a whole number in 1..10000000"),
        (["--games", "100000000000"], "argument --games: expected a whole number in 1..10000000"),
        (["--workers", "0"], "argument --workers: expected a whole number in 1..256 processes"),
        (["--workers", "100000"], "argument --workers: expected a whole number in 1..256"),
        (["--workers", str(2**70)], "argument --workers: expected a whole number in 1..256"),
        (["--seed", "-1"], "argument --seed: expected a whole number in 0..9223372036854775807"),
        (
            ["--seed", str(2**70)],
            "argument --seed: expected a whole number in 0..9223372036854775807",
        ),
        (["--seed", "x" * 100], "got '" + "x" * 37 + "...'"),
    ],
)
def test_eval_numbers_are_one_line_errors(tmp_path, monkeypatch, capsys, argv, expected):
    monkeypatch.chdir(tmp_path)
    line = _refused(capsys, ["eval", "--agents", "random", "--out", "o", *argv])
    assert line.startswith("art-gallery eval: error: ") and expected in line, line
    assert _files(tmp_path) == []


@pytest.mark.parametrize("command", ["demo", "play"])
def test_demo_and_play_seeds_are_checked(capsys, command) -> None:
    line = _refused(capsys, [command, "--seed", "-1"])
    assert "argument --seed: expected a whole number in 0..9223372036854775807" in line, line
