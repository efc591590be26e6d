"""One owner per run folder, and a resume that never destroys.

* Concurrency: a second ``train``, ``--resume`` or ``--overwrite`` on a folder that a live
  process owns is refused at once, naming the owner's PID; the owner's files are those of
  a run alone; a crashed owner's lock is gone at once.
* Resume from a damaged or edited folder: every case of the issue is refused in one line
  before anything in the folder changes (config.yaml, the pool, the logs included).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from training_helpers import tiny_config_dict

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")

from art_gallery_env.cli import build_parser, main  # noqa: E402
from art_gallery_env.folder_lock import LOCK_NAME, FolderBusyError, FolderLock  # noqa: E402
from art_gallery_env.training.config import config_from_dict  # noqa: E402
from art_gallery_env.training.run_folder import verify_checkpoint  # noqa: E402
from art_gallery_env.training.sb3_trainer import train  # noqa: E402

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="fcntl locks and POSIX signals")
HOLDER = """
import sys, time, multiprocessing as mp
from art_gallery_env.folder_lock import FolderLock
FolderLock(sys.argv[1], sys.argv[2]).acquire()
if len(sys.argv) > 3:  # a forked child that outlives its parent
    started = mp.get_context("fork").Event()
    def child():
        started.set()
        time.sleep(60)
    mp.get_context("fork").Process(target=child, daemon=False).start()
    started.wait()  # it runs (a child closes its copy of the lock as it is forked)
print("ready", flush=True)
time.sleep(60)
"""


def snapshot(folder: Path) -> dict[str, Any]:
    """Every file's bytes and every symlink's target under ``folder`` (links not followed)."""
    found: dict[str, Any] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(root, name)
            key = str(path.relative_to(folder))
            if path.is_symlink():
                found[key] = ("link", os.readlink(path))
            elif path.is_file():
                found[key] = path.read_bytes()
    return found


def write_config(path: Path, run_dir: Path | str, total_steps: int, **changes: Any) -> Path:
    path.write_text(yaml.safe_dump(tiny_config_dict(run_dir, total_steps, **changes)))
    return path


def hold_lock(folder: Path, command: str = "train", fork_child: bool = False) -> subprocess.Popen:
    args = [sys.executable, "-c", HOLDER, str(folder), command] + (["fork"] if fork_child else [])
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True, start_new_session=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, float]:
    """(exit status, stderr, seconds) of ``art-gallery ARGV`` in this process."""
    begin = time.monotonic()
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    took = time.monotonic() - begin
    return code, capsys.readouterr().err, took


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "error" in line.lower()]


# -- Concurrency --------------------------------------------------------------------------
@POSIX
@pytest.mark.parametrize("mode", ["new", "resume", "overwrite"])
def test_a_second_train_on_a_live_folder_is_refused_at_once_naming_the_owner(
    tmp_path, capsys, mode
):
    run = tmp_path / "run"
    run.mkdir()
    (run / "keep.txt").write_text("the owner's file")
    config = write_config(tmp_path / "c.yaml", run, 256)
    holder = hold_lock(run)
    build_parser()  # the CLI's one-time imports, which any command pays before its work
    try:
        before = snapshot(run)
        argv = ["train", str(config), "--no-progress"]
        argv += {"new": [], "resume": ["--resume", str(run)], "overwrite": ["--overwrite"]}[mode]
        code, err, took = run_cli(argv, capsys)
        assert snapshot(run) == before, "the refused command changed nothing"
    finally:
        stop(holder)
    assert code == 1, err
    assert took < 1.0, f"refused after {took:.2f} s"
    assert "Traceback" not in err
    [line] = error_lines(err)
    assert f"PID {holder.pid}" in line and str(run) in line


@POSIX
def test_a_crashed_owners_lock_is_gone_at_once_even_with_a_forked_child_alive(tmp_path):
    folder = tmp_path / "run"
    holder = hold_lock(folder, fork_child=True)
    try:
        with pytest.raises(FolderBusyError, match=f"PID {holder.pid}"):
            FolderLock(folder, "train").acquire()
        os.kill(holder.pid, signal.SIGKILL)  # the owner only: its forked child lives on
        holder.wait()
        begin = time.monotonic()
        lock = FolderLock(folder, "train").acquire()  # no wait, no retry: free at once
        assert time.monotonic() - begin < 0.5
        lock.release()
    finally:
        stop(holder)


@POSIX
def test_eval_out_and_serve_data_are_refused_while_another_process_owns_them(tmp_path, capsys):
    out, data = tmp_path / "out", tmp_path / "games"
    holders = [hold_lock(out, "eval"), hold_lock(data, "serve")]
    try:
        code, err, _ = run_cli(
            ["eval", "--agents", "random", "--games", "2", "--workers", "1", "--no-progress",
             "--out", str(out)], capsys)  # fmt: skip
        assert code == 1 and f"PID {holders[0].pid}" in err and "--out" in err, err
        assert not (out / "results.json").exists()
        pytest.importorskip("uvicorn", reason="serve needs the [web] extra")
        code, err, _ = run_cli(["serve", "--data", str(data), "--port", "1"], capsys)
        assert code == 1 and f"PID {holders[1].pid}" in err and "--data" in err, err
    finally:
        for holder in holders:
            stop(holder)


def test_the_lock_leaves_no_file_behind(tmp_path):
    lock = FolderLock(tmp_path / "new", "train").acquire()
    assert (tmp_path / "new" / LOCK_NAME).read_text() == f"{os.getpid()} train\n"
    lock.release()
    assert not (tmp_path / "new").exists(), "the folder the lock made, empty, is removed"
    (tmp_path / "old").mkdir()
    with FolderLock(tmp_path / "old", "eval"):
        pass
    assert (tmp_path / "old").is_dir() and not list((tmp_path / "old").iterdir())


def _comparable(run: Path) -> dict[str, Any]:
    """A run folder's training results, byte for byte: every file except what records the
    clock (timestamps and durations in the logs, the zip's entry dates and SB3's
    start_time, TensorBoard's event file named by time and host) and the random suffix
    of the checkpoint folders' names."""
    found: dict[str, Any] = {"config.yaml": (run / "config.yaml").read_bytes()}
    for path in sorted((run / "pool").iterdir()):
        found[f"pool/{path.name}"] = path.read_bytes()
    for stem in ("latest", "best"):
        found[f"{stem}.safetensors"] = (run / f"{stem}.safetensors").read_bytes()
        with zipfile.ZipFile(run / f"{stem}.zip") as archive:
            for name in archive.namelist():
                if name.endswith(".pth"):
                    found[f"{stem}.zip:{name}"] = archive.read(name)
        meta = json.loads((run / f"{stem}.json").read_text())
        meta["sha256"].pop("policy.zip")
        found[f"{stem}.json"] = meta
    for log in ("eval.csv", "logs/progress.csv"):
        rows = (run / log).read_text().splitlines()
        header = rows[0].split(",")
        keep = [i for i, name in enumerate(header) if not name.startswith("time/time")]
        keep = [i for i in keep if header[i] not in ("time/fps", "wall_s", "eval_s")]
        found[log] = [[row.split(",")[i] for i in keep if i < len(row.split(","))] for row in rows]
    return found


@pytest.mark.slow
@POSIX
def test_two_concurrent_trains_the_second_refused_the_first_as_if_alone(
    tmp_path, capsys, monkeypatch
):
    """The issue's case: two ``train`` commands on one folder at once."""
    config = write_config(tmp_path / "c.yaml", "run", 256)
    command = [sys.executable, "-m", "art_gallery_env.cli", "train", str(config), "--no-progress"]
    solo, shared = tmp_path / "solo", tmp_path / "shared"
    solo.mkdir()
    shared.mkdir()
    subprocess.run(command, cwd=solo, check=True, capture_output=True, timeout=300)
    first = subprocess.Popen(command, cwd=shared, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        lock = shared / "run" / LOCK_NAME
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (
            lock.is_file() and lock.read_text().startswith(f"{first.pid} ")
        ):
            assert first.poll() is None, first.communicate()
            time.sleep(0.05)
        monkeypatch.chdir(shared)
        build_parser()  # the CLI's one-time imports, which any command pays before its work
        for extra in ([], ["--resume", "run"], ["--overwrite"]):
            code, err, took = run_cli(["train", str(config), "--no-progress", *extra], capsys)
            assert code == 1 and f"PID {first.pid}" in err, (extra, err)
            assert took < 1.0, f"{extra}: refused after {took:.2f} s"
            assert first.poll() is None, "the first run was still training"
        _, stderr = first.communicate(timeout=300)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == 0, stderr
    assert _comparable(shared / "run") == _comparable(solo / "run")
    assert not (shared / "run" / LOCK_NAME).exists()


# -- Resume from a damaged or edited folder -----------------------------------------------
@pytest.fixture(scope="module")
def run_with_old_best(tmp_path_factory) -> Path:
    """A run whose latest (256 steps) is newer than its best (128 steps), two snapshots."""
    run = tmp_path_factory.mktemp("resume") / "run"
    train(config_from_dict(tiny_config_dict(run, 128)), progress_bar=False)
    best = (run / "best.json").resolve()
    meta = json.loads(best.read_text())
    meta["eval"]["selection"] = 2.0  # unbeatable: best stays at 128
    best.write_text(json.dumps(meta))
    train(config_from_dict(tiny_config_dict(run, 256)), resume=run, progress_bar=False)
    assert json.loads((run / "latest.json").read_text())["steps"] == 256
    assert json.loads((run / "best.json").read_text())["steps"] == 128
    return run


@pytest.fixture
def run_copy(run_with_old_best, tmp_path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(run_with_old_best, copy, symlinks=True)
    return copy


def _edit_meta(run: Path, stem: str, change: Any) -> None:
    path = (run / f"{stem}.json").resolve()
    meta = json.loads(path.read_text())
    change(meta)
    path.write_text(json.dumps(meta))


DAMAGE = {
    "latest.json without files": (lambda r: _edit_meta(r, "latest", lambda m: m.pop("files")),
                                  "latest.json: files must be"),
    "latest.json without files.sb3": (
        lambda r: _edit_meta(r, "latest", lambda m: m["files"].pop("sb3")), "names no sb3"),
    "latest.json with game [x]": (lambda r: _edit_meta(r, "latest", lambda m: m.update(game=["x"])),
                                  "game must be a string"),
    "truncated best.json": (
        lambda r: (r / "best.json").resolve().write_text((r / "best.json").read_text()[:200]),
        "best.json: not readable JSON"),
    "best.json with eval null": (lambda r: _edit_meta(r, "best", lambda m: m.update(eval=None)),
                                 "best.json: holds no evaluation"),
    "random bytes in progress.csv": (
        lambda r: (r / "logs" / "progress.csv").write_bytes(random.Random(0).randbytes(400)),
        "progress.csv: not a CSV log"),
    "steps -100 with files emptied": (
        lambda r: _edit_meta(r, "latest", lambda m: m.update(steps=-100, files={})),
        "steps must be a whole number >= 0"),
    "version 99": (lambda r: _edit_meta(r, "latest", lambda m: m.update(version=99)),
                   "checkpoint version 99, but this art-gallery-env reads version 1"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(DAMAGE))
def test_a_damaged_or_edited_folder_is_refused_before_anything_changes(
    run_copy, tmp_path, capsys, case
):
    damage, message = DAMAGE[case]
    damage(run_copy)
    before = snapshot(run_copy)
    config = write_config(tmp_path / "c.yaml", run_copy, 512)
    code, err, _ = run_cli(["train", str(config), "--resume", str(run_copy), "--no-progress"],
                           capsys)  # fmt: skip
    assert code == 2 and "Traceback" not in err, err
    [line] = error_lines(err)
    assert message in line, line
    after = snapshot(run_copy)
    assert after == before, "nothing in the folder changed: config.yaml, pool/, logs"
    assert len([k for k in after if k.startswith("pool/snap_")]) == 2


def test_resume_from_a_best_older_than_latest_needs_discard_newer(run_copy, tmp_path, capsys):
    config = write_config(tmp_path / "c.yaml", run_copy, 384)
    before = snapshot(run_copy)
    for argv in (
        ["--resume", str(run_copy / "best.zip")],
        ["--resume", str(run_copy), "--from-checkpoint", "best"],
    ):
        code, err, _ = run_cli(["train", str(config), "--no-progress", *argv], capsys)
        assert code == 2 and "best (step 128) is older than latest (step 256)" in err, err
        assert "--from-checkpoint best --discard-newer" in err
        assert snapshot(run_copy) == before, "the newer checkpoint, snapshots and rows stay"
    newer = (run_copy / "latest").resolve()
    code, err, _ = run_cli(
        ["train", str(config), "--no-progress", "--resume", str(run_copy),
         "--from-checkpoint", "best", "--discard-newer"], capsys)  # fmt: skip
    assert code == 0, err
    assert not newer.exists(), "the newer checkpoint was discarded, as asked"
    assert verify_checkpoint(run_copy / "latest.json")["steps"] == 384
    steps = [int(r.split(",")[0]) for r in (run_copy / "eval.csv").read_text().splitlines()[1:]]
    assert steps == [128, 256, 384], "the old 256 row was dropped, the new run's rows follow"


def test_a_best_that_is_latest_resumes_without_discard_newer(tmp_path, capsys):
    run = tmp_path / "run"
    train(config_from_dict(tiny_config_dict(run, 128)), progress_bar=False)
    assert (run / "best").resolve() == (run / "latest").resolve()
    config = write_config(tmp_path / "c.yaml", run, 256)
    code, err, _ = run_cli(["train", str(config), "--resume", str(run / "best.zip"),
                            "--no-progress"], capsys)  # fmt: skip
    assert code == 0, err
