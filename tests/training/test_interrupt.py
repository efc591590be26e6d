"""Ctrl-C and SIGTERM during training save ``latest`` at the step reached and say how to
resume."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")

from process_groups import CLI, killed_after, start_cli  # noqa: E402
from training_helpers import tiny_config_dict  # noqa: E402

from art_gallery_env.agents.run_checkpoint import load_sb3_model  # noqa: E402
from art_gallery_env.training.interrupt import TrainingInterrupted  # noqa: E402
from art_gallery_env.training.run_folder import verify_checkpoint  # noqa: E402
from art_gallery_env.training.sb3_trainer import train  # noqa: E402
from art_gallery_env.training.selfplay import SelfPlayEnv  # noqa: E402


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_saves_latest_at_the_step_reached(tmp_path, tiny_config, monkeypatch, signum):
    run = tmp_path / "run"
    calls = [0]
    original = SelfPlayEnv.step

    def step(self, action):
        calls[0] += 1
        if calls[0] == 150:  # mid-rollout, before the first evaluation at 128 * k
            os.kill(os.getpid(), signum)
        return original(self, action)

    monkeypatch.setattr(SelfPlayEnv, "step", step)
    # pytest.raises(BaseException): on code without the handler a KeyboardInterrupt
    # must fail this test, not stop the test session.
    with pytest.raises(BaseException) as info:
        train(tiny_config(run, 100_000, eval={"every_steps": 10_000}), progress_bar=False)
    assert isinstance(info.value, TrainingInterrupted), repr(info.value)
    steps = info.value.steps
    assert 148 <= steps <= 152
    assert info.value.signal_name == signal.Signals(signum).name
    meta = verify_checkpoint(run / "latest.json")
    assert meta["steps"] == steps and meta["interrupted"] is True
    model, _ = load_sb3_model(run / "latest.zip")
    assert model.num_timesteps == steps
    assert signal.getsignal(signum) in (signal.default_int_handler, signal.SIG_DFL)

    monkeypatch.undo()
    train(tiny_config(run, steps + 128), resume=run / "latest.zip", progress_bar=False)
    assert verify_checkpoint(run / "latest.json")["steps"] == steps + 128 + (steps % 2)


@pytest.mark.parametrize("fail_at", [100, 300])
def test_an_error_in_training_keeps_the_work_done(tmp_path, tiny_config, monkeypatch, fail_at):
    """Before the first checkpoint (100) and after it (300): latest holds the steps reached
    and the error is raised; the run folder is never deleted with a checkpoint in it."""
    run = tmp_path / "run"
    calls = [0]
    original = SelfPlayEnv.step

    def step(self, action):
        calls[0] += 1
        if calls[0] == fail_at:
            raise RuntimeError("an opponent crashed")
        return original(self, action)

    monkeypatch.setattr(SelfPlayEnv, "step", step)
    with pytest.raises(RuntimeError, match="an opponent crashed"):
        train(tiny_config(run, 100_000), progress_bar=False)
    meta = verify_checkpoint(run / "latest.json")
    assert fail_at - 2 <= meta["steps"] <= fail_at
    assert meta["interrupted"] is True and meta["stop_reason"] == "error: RuntimeError"


def _start_training(tmp_path: Path, data: dict) -> tuple[Path, subprocess.Popen]:
    """``art-gallery train`` in its own process group, as a terminal runs a command."""
    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump(data))
    return config, start_cli("train", str(config), "--no-progress")


def _wait_for(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}")


def _progress_rows(run: Path) -> int:
    path = run / "logs" / "progress.csv"
    return max(0, len(path.read_text().splitlines()) - 1) if path.is_file() else 0


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups")
def test_ctrl_c_on_the_command_line_saves_quietly_and_prints_the_resume_command(tmp_path):
    """Subprocess envs (SubprocVecEnv) and the CLI: Ctrl-C reaches the whole process
    group; no worker prints a traceback, and the printed command resumes the run."""
    run = tmp_path / "run"
    data = tiny_config_dict(run, 1_000_000, vec_env="subproc", eval={"every_steps": 100_000})
    config, proc = _start_training(tmp_path, data)
    with killed_after(proc):
        _wait_for(lambda: _progress_rows(run) >= 2, 120, "two rollouts")
        os.killpg(proc.pid, signal.SIGINT)  # what the terminal does on Ctrl-C
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "EOFError" not in err + out, err
    meta = verify_checkpoint(run / "latest.json")
    assert meta["steps"] >= 256 and meta["interrupted"] is True
    lines = [line.strip() for line in out.splitlines() if line.strip().startswith("art-gallery")]
    assert lines, out
    command = shlex.split(lines[-1])
    assert command[:3] == ["art-gallery", "train", str(config)] and "--resume" in command
    resumed = subprocess.run(
        [*CLI, *command[1:], "--total-steps", str(meta["steps"] + 128)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"{meta['steps']:,} steps done" in resumed.stdout
    after = verify_checkpoint(run / "latest.json")
    assert after["steps"] >= meta["steps"] + 128 and not after.get("interrupted")
    evals = json.loads((run / "latest.json").read_text())["eval"]
    assert evals is not None and "random" in evals["results"]


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups")
def test_a_second_ctrl_c_exits_at_once_and_leaves_whole_files(tmp_path):
    run = tmp_path / "run"
    network = {"hidden_sizes": [512, 512]}  # a save that takes a moment
    data = tiny_config_dict(run, 1_000_000, network=network, eval={"every_steps": 128})
    config, proc = _start_training(tmp_path, data)
    with killed_after(proc):
        _wait_for(lambda: (run / "latest.json").exists(), 120, "the first checkpoint")
        os.killpg(proc.pid, signal.SIGINT)
        time.sleep(0.05)
        sent = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - sent
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    assert took < 10, f"a second Ctrl-C took {took:.1f} s"
    verify_checkpoint(run / "latest.json")
    verify_checkpoint(run / "best.json")
