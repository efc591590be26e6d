"""An RLlib env runner killed in the middle of training (``algorithm: rllib_ppo``).

With ``rllib.env_runner_restarts`` above 0 (the default) Ray restarts the runner's
process, RLlib syncs it with the learner's weights and training goes on to
``total_steps``; the iteration that lost its sample is not counted. With 0 the run stops
in one line that names the run folder's intact checkpoints, and ``--resume`` continues
from the last saved step."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from training_helpers import tiny_rllib_dict

pytest.importorskip("ray", reason="RLlib training needs the [rllib] extra")
pytest.importorskip("ray.rllib", reason="RLlib training needs the [rllib] extra")
psutil = pytest.importorskip("psutil")

pytestmark = [
    pytest.mark.slow,  # starts Ray
    pytest.mark.filterwarnings("ignore:.*Overriding environment rllib-multi-agent"),
]

ROOT = Path(__file__).resolve().parents[2]
RUNNER = "MultiAgentEnvRunner"  # the actor class RLlib samples with (multi-agent env)


def tiny(run_dir: Path, **rllib: Any) -> dict[str, Any]:
    """Four iterations of 256 env steps on one env runner, saved after each."""
    return tiny_rllib_dict(run_dir, "tiny_faults", **rllib)


def latest_steps(run_dir: Path) -> int:
    return json.loads((run_dir / "latest.json").read_text())["steps"]


def progress_steps(run_dir: Path) -> list[int]:
    import csv

    with (run_dir / "logs" / "progress.csv").open() as handle:
        return [int(float(r["time/total_timesteps"])) for r in csv.DictReader(handle)]


def runner_pids(root_pid: int) -> list[int]:
    """The env runner processes below ``root_pid`` (Ray names an actor's process
    ``ray::CLASS``; the driver started this local Ray, so its workers descend from it)."""
    found = []
    for child in psutil.Process(root_pid).children(recursive=True):
        try:
            if RUNNER in " ".join(child.cmdline()):
                found.append(child.pid)
        except psutil.Error:
            continue
    return found


def kill_runner_after_first_save(run_dir: Path, root_pid: int, timeout: float = 300) -> int:
    """Once ``latest`` is saved: SIGKILL the env runner; its pid."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        pids = runner_pids(root_pid) if (run_dir / "latest.json").is_file() else []
        if pids:
            os.kill(pids[0], signal.SIGKILL)
            return pids[0]
        time.sleep(0.2)
    raise AssertionError("no checkpoint saved and env runner found in time")


def test_a_killed_env_runner_is_restarted_and_training_reaches_total_steps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)  # a local Ray, started by the run
    from art_gallery_env.training.config import config_from_dict
    from art_gallery_env.training.rllib_trainer import train

    run_dir = tmp_path / "run"
    killed: list[int] = []
    restarted: list[int] = []

    def kill_then_watch() -> None:
        killed.append(kill_runner_after_first_save(run_dir, os.getpid()))
        deadline = time.time() + 200
        while not restarted and time.time() < deadline:  # the new process of the runner
            restarted.extend(p for p in runner_pids(os.getpid()) if p not in killed)
            time.sleep(0.2)

    watcher = threading.Thread(target=kill_then_watch, daemon=True)
    watcher.start()
    train(config_from_dict(tiny(run_dir)), progress_bar=False)
    watcher.join(timeout=10)
    assert killed and restarted
    out = capsys.readouterr().out
    assert "no env runner returned samples (one died)" in out
    assert progress_steps(run_dir) == [256, 512, 768, 1024]  # the empty iteration uncounted
    assert latest_steps(run_dir) == 1024
    evaluated = [int(r.split(",")[0]) for r in (run_dir / "eval.csv").read_text().split()[1:]]
    assert evaluated == [256, 512, 768, 1024]  # what was saved before the kill is kept


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "art_gallery_env.cli", *args]


def test_without_restarts_a_killed_env_runner_stops_in_one_line_and_resume_finishes(
    tmp_path: Path,
) -> None:
    run_dir = tmp_path / "run"
    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump(tiny(run_dir, env_runner_restarts=0)))
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}  # a local Ray
    train = subprocess.Popen(
        _cli("train", str(config), "--no-progress"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    try:
        kill_runner_after_first_save(run_dir, train.pid)
        out, err = train.communicate(timeout=300)
    finally:
        if train.poll() is None:
            train.kill()
    assert train.returncode == 1, out + err
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, err
    saved = latest_steps(run_dir)
    assert saved >= 256
    assert "an env runner process died and was not brought back" in errors[0]
    assert f"the checkpoints in {run_dir} are whole (latest: step {saved:,})" in errors[0]
    assert errors[0].endswith(f"continue with --resume {run_dir}")

    config.write_text(yaml.safe_dump(tiny(run_dir)))  # restarts on again for the rest
    done = subprocess.run(
        _cli("train", str(config), "--no-progress", "--resume", str(run_dir)),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{saved:,} steps done" in done.stdout
    assert latest_steps(run_dir) == 1024
    steps = progress_steps(run_dir)
    assert steps == sorted(set(steps)) and steps[-1] == 1024  # continued, nothing twice
