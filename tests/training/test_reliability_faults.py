"""Faults of the machine are one line naming the path and what to do, exit 1,
and nothing written before is damaged.

A full disk is simulated in this process (``os.fsync`` fails with ENOSPC, as it does on a
full disk with delayed allocation) and, where this machine lets the test mount one (root),
on a real 600 kB tmpfs; read-only folders on a tmpfs remounted read-only. Permission
errors need a user that permissions stop: as root they are simulated.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import yaml
from training_helpers import tiny_config_dict

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")

from art_gallery_env.cli import main  # noqa: E402
from art_gallery_env.training.config import config_from_dict  # noqa: E402
from art_gallery_env.training.run_folder import verify_checkpoint  # noqa: E402
from art_gallery_env.training.sb3_trainer import train  # noqa: E402


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    return code, capsys.readouterr().err


def one_error(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if "error" in line.lower()]
    assert len(lines) == 1, stderr
    return lines[0]


def write_config(path: Path, run_dir: Path | str, total_steps: int) -> Path:
    path.write_text(yaml.safe_dump(tiny_config_dict(run_dir, total_steps)))
    return path


@pytest.fixture(scope="module")
def trained_run(tmp_path_factory) -> Path:
    run = tmp_path_factory.mktemp("faults") / "run"
    train(config_from_dict(tiny_config_dict(run, 128)), progress_bar=False)
    return run


# -- a full disk, simulated in this process -----------------------------------------------
def test_a_full_disk_during_training_is_one_line_and_the_saved_checkpoint_stays_whole(
    tmp_path, capsys, monkeypatch
):
    run = tmp_path / "run"
    config = write_config(tmp_path / "c.yaml", run, 512)
    fsync = os.fsync

    def full_after_the_first_checkpoint(fd: int) -> None:
        if (run / "eval.csv").is_file():  # the first checkpoint and its row are written
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        fsync(fd)

    monkeypatch.setattr(os, "fsync", full_after_the_first_checkpoint)
    code, err = run_cli(["train", str(config), "--no-progress"], capsys)
    monkeypatch.setattr(os, "fsync", fsync)
    assert code == 1
    line = one_error(err)
    assert f"{run}/" in line and "No space left on device (ENOSPC)" in line, line
    assert "free some space" in line and f"--resume {run}" in line, line
    assert verify_checkpoint(run / "latest.json")["steps"] == 128, "the saved one is whole"
    assert verify_checkpoint(run / "best.json")["steps"] == 128
    assert (run / "eval.csv").read_text().splitlines()[1].startswith("128,")
    assert not [p for p in (run / "checkpoints").iterdir() if p.name.startswith(".pending")]


def test_a_full_disk_while_eval_writes_records_is_one_line_and_keeps_whole_records(
    tmp_path, capsys, monkeypatch
):
    games = tmp_path / "games"
    fsync, calls = os.fsync, []

    def full_after_five_records(fd: int) -> None:
        calls.append(fd)
        if len(list(games.glob("game_*.json"))) >= 5:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        fsync(fd)

    monkeypatch.setattr(os, "fsync", full_after_five_records)
    code, err = run_cli(["eval", "--agents", "random", "random", "--games", "12", "--workers",
                         "1", "--save-games", str(games), "--no-progress"], capsys)  # fmt: skip
    monkeypatch.setattr(os, "fsync", fsync)
    assert code == 1
    line = one_error(err)
    assert f"{games}/game_0005.json" in line and "ENOSPC" in line, line
    records = sorted(games.glob("game_*.json"))
    assert len(records) == 5 and all(json.loads(p.read_text())["actions"] for p in records)
    assert not [p for p in games.iterdir() if p.name.endswith(".tmp")], "no temporary left"


def test_a_forbidden_folder_is_one_line_naming_it(tmp_path, capsys, monkeypatch):
    """Permission denied (EACCES): simulated, since root may write anywhere."""
    run = tmp_path / "locked"
    run.mkdir()
    config = write_config(tmp_path / "c.yaml", run, 256)
    real_open = os.open

    def forbidden(path, flags, *args, **kwargs):
        if str(path).startswith(str(run)):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", forbidden)
    code, err = run_cli(["train", str(config), "--no-progress"], capsys)
    monkeypatch.setattr(os, "open", real_open)
    assert code == 1
    line = one_error(err)
    assert str(run) in line and "Permission denied (EACCES)" in line and "writable" in line
    assert list(run.iterdir()) == []


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes anywhere")
def test_a_read_only_run_folder_by_permissions_is_one_line(trained_run, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(trained_run, run, symlinks=True)
    config = write_config(tmp_path / "c.yaml", run, 512)
    run.chmod(0o555)
    try:
        code, err = run_cli(["train", str(config), "--resume", str(run)], capsys)
    finally:
        run.chmod(0o755)
    assert code == 1 and str(run) in one_error(err)


# -- real file systems: a full tmpfs, a read-only one ---------------------------------------
def _mount(target: Path, options: str) -> None:
    if sys.platform != "linux" or not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root on Linux; the simulated cases above run")
    target.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(target)],
                          capture_output=True, text=True)  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")


@pytest.fixture
def tmpfs(tmp_path):
    """mount(size, read_only=False, fill=None) -> a fresh tmpfs folder, unmounted after."""
    mounted: list[Path] = []

    def mount(size: str, copy: Path | None = None, read_only: bool = False) -> Path:
        target = tmp_path / f"mnt-{uuid.uuid4().hex[:6]}"
        _mount(target, f"size={size}")
        mounted.append(target)
        if copy is not None:
            shutil.copytree(copy, target / copy.name, symlinks=True)
        if read_only:
            subprocess.run(["mount", "-o", "remount,ro", str(target)], check=True)
        return target

    yield mount
    for target in mounted:
        subprocess.run(["umount", "-l", str(target)], capture_output=True)


def _snapshot(folder: Path) -> dict[str, bytes | str]:
    found: dict[str, bytes | str] = {}
    for root, _, files in os.walk(folder):
        for name in files:
            path = Path(root, name)
            found[str(path)] = os.readlink(path) if path.is_symlink() else path.read_bytes()
    return found


@pytest.mark.parametrize("command", ["train", "resume", "overwrite", "plot", "serve"])
def test_a_read_only_folder_is_one_line_for_each_command(
    trained_run, tmp_path, tmpfs, capsys, command
):
    mnt = tmpfs("5m", copy=trained_run, read_only=True)
    run = mnt / "run"
    before = _snapshot(mnt)
    config = write_config(tmp_path / "c.yaml", run, 512)
    argv = {
        "train": ["train", str(write_config(tmp_path / "n.yaml", mnt / "new", 256))],
        "resume": ["train", str(config), "--resume", str(run)],
        "overwrite": ["train", str(config), "--overwrite"],
        "plot": ["plot", str(run)],
        "serve": ["serve", "--data", str(mnt / "web"), "--port", "1"],
    }[command]
    if command == "serve":
        pytest.importorskip("uvicorn", reason="serve needs the [web] extra")
    code, err = run_cli(argv, capsys)
    assert code == 1
    line = one_error(err)
    assert str(mnt) in line and "Read-only file system (EROFS)" in line, line
    assert _snapshot(mnt) == before


@pytest.mark.slow
def test_training_on_a_really_full_disk_is_one_line_and_resumes_after(tmp_path, tmpfs, monkeypatch):
    mnt = tmpfs("600k")
    config = write_config(tmp_path / "c.yaml", "run", 512)
    command = [sys.executable, "-m", "art_gallery_env.cli", "train", str(config), "--no-progress"]
    done = subprocess.run(command, cwd=mnt, capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stderr
    line = one_error(done.stderr)
    assert "No space left on device (ENOSPC)" in line and "--resume run" in line, line
    steps = verify_checkpoint(mnt / "run" / "latest.json")["steps"]
    assert steps >= 128, "a checkpoint fitted before the disk filled; it is whole"
    big = tmpfs("20m")
    shutil.copytree(mnt / "run", big / "run", symlinks=True)
    again = subprocess.run([*command, "--resume", "run"], cwd=big, capture_output=True,
                           text=True, timeout=600)  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert verify_checkpoint(big / "run" / "latest.json")["steps"] == 512


@pytest.mark.slow
def test_eval_on_a_really_full_disk_is_one_line_and_keeps_whole_records(tmp_path, tmpfs):
    mnt = tmpfs("200k")
    done = subprocess.run(
        [sys.executable, "-m", "art_gallery_env.cli", "eval", "--agents", "random", "random",
         "--games", "300", "--workers", "2", "--save-games", str(mnt / "g"), "--no-progress"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 1
    line = one_error(done.stderr)
    assert f"{mnt}/g/game_" in line and "ENOSPC" in line
    records = sorted((mnt / "g").glob("game_*.json"))
    assert 0 < len(records) < 300
    for path in records:
        json.loads(path.read_text())


# -- bad encodings -------------------------------------------------------------------------
def test_a_log_that_is_not_utf8_is_one_line_naming_it_for_plot(trained_run, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(trained_run, run, symlinks=True)
    (run / "logs" / "progress.csv").write_bytes(b"\xff\xfe\x00 not a log \xff\n")
    code, err = run_cli(["plot", str(run)], capsys)
    assert code == 2
    line = one_error(err)
    assert f"{run}/logs/progress.csv: not a CSV log" in line and "restore" in line
    (run / "logs" / "progress.csv").write_text("time/total_timesteps,rollout/ep_rew_mean\nx,1\n")
    code, err = run_cli(["plot", str(run)], capsys)
    assert code == 2 and "not a number" in one_error(err)


def test_a_record_that_is_not_utf8_is_one_line_naming_it(tmp_path, capsys):
    record = tmp_path / "game.json"
    record.write_bytes(b'\xff\xfe{"format": 1}')
    code, err = run_cli(["replay", str(record)], capsys)
    assert code == 2
    assert f"{record}: not UTF-8 text" in one_error(err)
