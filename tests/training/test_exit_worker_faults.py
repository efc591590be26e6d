"""A self-play worker killed in the middle of an expert-iteration generation.

* The local pool (``exit.backend: local``): the generation's unfinished games are played
  again in new workers, from their own seeds, so its rows are those of an unkilled run; a
  second death stops the run in one line, and ``--resume`` plays the dropped generation
  from the last saved one with the same rows.
* The Ray pool (``exit.backend: ray``): Ray runs the killed worker's task again
  (``max_retries``) with the same rows; a task whose retries are used up stops the run
  in one line, and ``--resume`` continues from the last saved generation.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

pytest.importorskip("torch", reason="training needs the [train] extra")
pytest.importorskip(
    "art_gallery_env.agents.guided_search", reason="expert iteration searches with it"
)

from training_helpers import merge_config  # noqa: E402

from art_gallery_env.training.config import config_from_dict  # noqa: E402

pytestmark = pytest.mark.slow  # worker processes, several runs

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "configs" / "exit_smoke.yaml"
# One generation of four 2-player games on two workers, 4 search iterations a decision.
TINY = {
    "env": {"num_players": 2},
    "exit": {"generations": 1, "games_per_generation": 4, "iters": 4, "workers": 2},
    "eval": {"games": 1},
}


def run(run_dir: Path, resume: Path | None = None, **changes: Any) -> Path:
    from art_gallery_env.training.expert_iteration import train

    data = yaml.safe_load(SMOKE.read_text(encoding="utf-8"))
    data = merge_config({**data, "run_dir": str(run_dir)}, merge_config(TINY, changes))
    return train(config_from_dict(data), resume=resume, progress_bar=False)


def rows(run_dir: Path, generation: int = 1) -> dict[str, np.ndarray]:
    with np.load(run_dir / "replay" / f"gen_{generation:03d}.npz") as data:
        return {key: data[key] for key in data.files}


def same_rows(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def latest_steps(run_dir: Path) -> int:
    return json.loads((run_dir / "latest.json").read_text())["steps"]


@pytest.fixture(scope="module")
def unkilled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, np.ndarray]:
    """Generation 1's rows of a run nobody disturbs."""
    return rows(run(tmp_path_factory.mktemp("exit_faults") / "unkilled"))


class Killer(threading.Thread):
    """Kills ``times`` worker processes, one in each new set that ``find`` returns: the
    first a second after it appears (mid-generation), the next once the first is gone."""

    def __init__(self, find: Callable[[], list[int]], times: int = 1) -> None:
        super().__init__(daemon=True)
        self.find, self.times = find, times
        self.killed: list[int] = []
        self.done = threading.Event()

    def run(self) -> None:
        deadline = time.time() + 300
        while len(self.killed) < self.times and time.time() < deadline and not self.done.is_set():
            found = [pid for pid in self.find() if pid not in self.killed]
            if found:
                time.sleep(1.0)  # the worker is importing or playing: mid-generation
                try:
                    os.kill(found[0], signal.SIGKILL)
                    self.killed.append(found[0])
                except ProcessLookupError:
                    continue
            time.sleep(0.1)


def pool_workers() -> list[int]:
    """This process's worker processes (the local self-play pool's)."""
    return [p.pid for p in multiprocessing.active_children() if p.pid is not None]


def test_a_killed_local_worker_s_games_are_played_again_with_the_same_rows(
    tmp_path: Path, unkilled: dict[str, np.ndarray], capsys: pytest.CaptureFixture[str]
) -> None:
    killer = Killer(pool_workers)
    killer.start()
    try:
        run_dir = run(tmp_path / "killed")
    finally:
        killer.done.set()
    assert killer.killed
    assert same_rows(rows(run_dir), unkilled)
    assert latest_steps(run_dir) == 1
    out = capsys.readouterr()
    assert "a self-play worker process died;" in out.err + out.out


def test_a_second_local_death_stops_in_one_line_and_resume_plays_the_same_rows(
    tmp_path: Path, unkilled: dict[str, np.ndarray]
) -> None:
    killer = Killer(pool_workers, times=2)
    killer.start()
    run_dir = tmp_path / "run"
    try:
        with pytest.raises(ChildProcessError) as err:
            run(run_dir)
    finally:
        killer.done.set()
    assert len(killer.killed) == 2
    message = str(err.value)
    assert "\n" not in message and message.startswith("a self-play worker process died again")
    assert "exit.workers" in message
    assert latest_steps(run_dir) == 0  # generation 0 is kept; generation 1 was dropped
    assert not (run_dir / "pool" / "gen_001.safetensors").exists()
    run(run_dir, resume=run_dir)
    assert latest_steps(run_dir) == 1
    assert same_rows(rows(run_dir), unkilled)


# -- Ray ------------------------------------------------------------------------------
def ray_selfplay_workers() -> list[int]:
    """The Ray workers playing a self-play task now (Ray names a busy worker's process
    after its task): descendants of this process, whose Ray it started."""
    import psutil

    found = []
    for child in psutil.Process().children(recursive=True):
        try:
            if "_play_on_node" in " ".join(child.cmdline()):
                found.append(child.pid)
        except psutil.Error:
            continue
    return found


@pytest.fixture
def ray_backend() -> dict[str, Any]:
    pytest.importorskip("ray", reason="exit.backend: ray needs the [rllib] extra")
    pytest.importorskip("psutil")
    return {"exit": {"backend": "ray"}}


def test_a_killed_ray_worker_s_task_runs_again_with_the_same_rows(
    tmp_path: Path, unkilled: dict[str, np.ndarray], ray_backend: dict[str, Any]
) -> None:
    killer = Killer(ray_selfplay_workers)
    killer.start()
    try:
        run_dir = run(tmp_path / "ray", **ray_backend)
    finally:
        killer.done.set()
    assert killer.killed
    assert same_rows(rows(run_dir), unkilled)
    assert latest_steps(run_dir) == 1


def test_a_ray_task_out_of_retries_stops_in_one_line_and_resume_continues(
    tmp_path: Path,
    unkilled: dict[str, np.ndarray],
    ray_backend: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from art_gallery_env.training import exit_ray

    monkeypatch.setattr(exit_ray, "TASK_RETRIES", 0)  # the first death uses them up
    killer = Killer(ray_selfplay_workers)
    killer.start()
    run_dir = tmp_path / "ray"
    try:
        with pytest.raises(ChildProcessError) as err:
            run(run_dir, **ray_backend)
    finally:
        killer.done.set()
    assert killer.killed
    message = str(err.value)
    assert "\n" not in message and message.startswith("a self-play task's Ray worker died")
    assert latest_steps(run_dir) == 0
    monkeypatch.undo()
    run(run_dir, resume=run_dir, **ray_backend)
    assert latest_steps(run_dir) == 1
    assert same_rows(rows(run_dir), unkilled)
