"""``art-gallery eval`` checks its outputs first, stops at once on Ctrl-C with the games
finished so far, and takes its workers down on SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from process_groups import killed_after, spawn_workers, start_cli

from art_gallery_env.cli import main

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and /proc")


# -- item 11 ---------------------------------------------------------------------------
@pytest.mark.parametrize("option", ["--out", "--save-games"])
def test_an_output_folder_that_cannot_be_written_fails_before_any_game(tmp_path, capsys, option):
    blocker = tmp_path / "file.txt"
    blocker.write_text("a file where a folder should be")
    with pytest.raises(SystemExit) as info:
        main(["eval", "--agents", "random", "--games", "2", "--workers", "1", option,
              str(blocker / "results"), "--no-progress"])  # fmt: skip
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert option in captured.err and "cannot write" in captured.err
    assert "games" not in captured.out, "no game was played"


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes anywhere")
def test_a_read_only_output_folder_fails_before_any_game(tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(SystemExit):
            main(["eval", "--agents", "random", "--games", "2", "--out", str(folder)])
    finally:
        folder.chmod(0o755)
    assert "cannot write" in capsys.readouterr().err


# -- items 9 and 10: signals -------------------------------------------------------------
def _start_eval(workers: int, *extra: str) -> subprocess.Popen:
    return start_cli("eval", "--agents", "ismcts:iters=20", "random", "--games", "400",
                     "--workers", str(workers), "--no-progress", *extra)  # fmt: skip


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.slow
@POSIX
@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_stops_eval_at_once_and_writes_the_finished_games(tmp_path, workers):
    from art_gallery_env.agents.registry import make_agent

    make_agent("ismcts:iters=20", 0)  # its compile cached on disk: games start at once
    out, games = tmp_path / "out", tmp_path / "games"
    proc = _start_eval(workers, "--out", str(out), "--save-games", str(games))
    with killed_after(proc):
        # a few games must finish first: 12 s on 2 idle cores, longer on a loaded machine
        time.sleep(min(60.0, 12 * max(1.0, os.getloadavg()[0] / 2)))
        assert proc.poll() is None, proc.communicate()
        sent = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)  # the terminal sends Ctrl-C to the group
        stdout, stderr = proc.communicate(timeout=60)
        took = time.monotonic() - sent
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr, stderr
    assert took < 5, f"Ctrl-C took {took:.1f} s"
    data = json.loads((out / "results.partial.json").read_text())
    assert data["partial"] is True and data["games_planned"] == 400
    played = len(data["games"])
    assert 0 < played < 400 and data["games_played"] == played
    assert not (out / "results.json").exists(), "a partial result never takes the full name"
    assert (out / "results.partial.csv").is_file() and (out / "games.partial.csv").is_file()
    assert len(list(games.glob("game_*.json"))) == played
    assert "interrupted" in stdout.lower() and f"{played} of 400" in stdout
    assert f"PARTIAL: {played} of 400 games" in stdout, "the table says it is partial"


@pytest.mark.slow
@POSIX
def test_sigterm_to_eval_takes_its_workers_down(tmp_path):
    proc = _start_eval(2)
    with killed_after(proc):
        deadline = time.monotonic() + 60
        while len(spawn_workers(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        workers = spawn_workers(proc.pid)
        assert len(workers) == 2, "two spawn workers started"
        time.sleep(2)
        proc.send_signal(signal.SIGTERM)  # the main process only
        _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 143, stderr
    assert "Traceback" not in stderr, stderr
    deadline = time.monotonic() + 5
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = [pid for pid in workers if _alive(pid)]
    for pid in alive:
        os.kill(pid, signal.SIGKILL)
    assert not alive, "the workers outlived the main process"
