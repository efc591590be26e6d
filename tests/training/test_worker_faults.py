"""A worker process killed in the middle of distributed work: the evaluation's games
(arena.playing.run_tasks, what ``eval``, the trainers' evaluations and the solo
evaluation use) go on in new workers and give the results of an unbroken run; a second
death stops the match with one line."""

from __future__ import annotations

import multiprocessing
import os
import signal

import pytest

from art_gallery_env.arena.evaluate import MatchConfig, MatchError, make_tasks
from art_gallery_env.arena.playing import run_tasks

CONFIG = MatchConfig(num_players=2, agents=("random", "heuristic"), games=16, seed=4, workers=2)


def _kill_a_worker() -> int:
    """SIGKILL one of this process's pool workers; its pid."""
    workers = [p for p in multiprocessing.active_children() if p.pid is not None]
    assert workers, "no worker process to kill"
    os.kill(workers[0].pid, signal.SIGKILL)
    return workers[0].pid


@pytest.mark.slow  # worker processes, spawned twice
def test_a_killed_worker_s_games_are_played_again_with_the_same_results(
    capsys: pytest.CaptureFixture[str],
) -> None:
    tasks = make_tasks(CONFIG)
    unbroken = run_tasks(tasks, 1)
    killed: list[int] = []

    def progress(n: int) -> None:  # after the first game: one worker dies
        if not killed:
            killed.append(_kill_a_worker())

    results = run_tasks(tasks, 2, progress)
    assert killed
    assert [r["index"] for r in results] == list(range(CONFIG.games))  # none lost, none twice
    strip = [{k: v for k, v in r.items() if k != "think_s"} for r in results]
    assert strip == [{k: v for k, v in r.items() if k != "think_s"} for r in unbroken]
    err = capsys.readouterr().err
    assert "warning: a worker process died;" in err and "played again in new workers" in err


@pytest.mark.slow  # worker processes, spawned twice
def test_a_second_death_stops_the_match_in_one_line() -> None:
    tasks = make_tasks(CONFIG)
    kills: list[int] = []
    first_pool: set[int] = set()

    def progress(n: int) -> None:  # a worker dies after the first game of each pool
        children = {p.pid for p in multiprocessing.active_children()}
        if not kills:
            first_pool.update(children)
            kills.append(_kill_a_worker())
        elif len(kills) == 1 and not children & first_pool:
            kills.append(_kill_a_worker())

    with pytest.raises(MatchError) as err:
        run_tasks(tasks, 2, progress)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith("a worker process died again (") and "fewer --workers" in message
