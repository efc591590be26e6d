"""``eval`` writes the finished games at any Ctrl-C, and its partial results
count exactly the records written.

Two quick Ctrl-Cs (50 ms apart) must not lose the finished games, and 0.3 s apart the
partial results must not count more games than there are records.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
from process_groups import killed_after, spawn_workers, start_cli

from art_gallery_env.arena.records import load_record
from art_gallery_env.cli import main

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and /proc")


def _check_partial(out: Path, games: Path, planned: int) -> int:
    """The partial results count exactly the records on disk, and each record loads."""
    data = json.loads((out / "results.partial.json").read_text())
    records = sorted(games.glob("game_*.json"))
    assert data["partial"] is True and data["games_planned"] == planned
    assert 0 < data["games_played"] == len(data["games"]) == len(records) < planned
    assert [int(p.stem.split("_")[1]) for p in records] == [g["index"] for g in data["games"]]
    for path in records:
        load_record(path)
    assert not (out / "results.json").exists()
    return len(records)


@POSIX
def test_two_quick_ctrl_cs_in_process_write_every_finished_game(tmp_path, capsys, monkeypatch):
    import art_gallery_env.arena.playing as evaluate  # where the games are played

    out, games = tmp_path / "out", tmp_path / "games"
    finished = threading.Semaphore(0)
    play_game = evaluate.play_game

    def counted(task):
        result = play_game(task)
        finished.release()
        return result

    monkeypatch.setattr(evaluate, "play_game", counted)

    def interrupt() -> None:
        for _ in range(10):  # games have finished
            finished.acquire()
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGINT)

    running = threading.Event()

    def as_python_does(signum, frame):  # while main runs; a late signal cannot hit pytest
        if running.is_set():
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, as_python_does)
    sender = threading.Thread(target=interrupt, daemon=True)
    try:
        sender.start()
        running.set()
        code = main(["eval", "--agents", "random", "random", "--games", "100000", "--workers",
                     "1", "--out", str(out), "--save-games", str(games),
                     "--no-progress"])  # fmt: skip
        running.clear()
        sender.join(timeout=10)
    finally:
        signal.signal(signal.SIGINT, previous)
    captured = capsys.readouterr()
    assert code == 130, captured.err
    assert "Traceback" not in captured.err
    played = _check_partial(out, games, 100000)
    assert played >= 10
    assert f"interrupted after {played} of 100000 games" in captured.out


@pytest.mark.slow
@POSIX
@pytest.mark.parametrize(
    "first,second,gap_s",
    [("SIGINT", "SIGINT", 0.05), ("SIGINT", "SIGINT", 0.3), ("SIGTERM", "SIGINT", 0.05)],
)
def test_two_quick_signals_to_eval_with_workers_write_every_finished_game(
    tmp_path, first, second, gap_s
):
    out, games = tmp_path / "out", tmp_path / "games"
    proc = start_cli("eval", "--agents", "heuristic", "random", "--games", "6000", "--workers",
                     "2", "--out", str(out), "--save-games", str(games),
                     "--no-progress")  # fmt: skip
    with killed_after(proc):
        deadline = time.monotonic() + 60
        while len(spawn_workers(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(10)  # games finish (workers take seconds to import on a busy machine)
        assert proc.poll() is None, proc.communicate()
        os.killpg(proc.pid, signal.Signals[first])  # the terminal signals the whole group
        time.sleep(gap_s)
        os.killpg(proc.pid, signal.Signals[second])
        stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signal.Signals[first], stderr
    assert "Traceback" not in stderr, stderr
    played = _check_partial(out, games, 6000)
    assert f"interrupted after {played} of 6000 games" in stdout
