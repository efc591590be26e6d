"""The RAY_ADDRESS path on a real multi-node Ray cluster: benchmarks/ray_cluster.py starts
a head node (no CPUs for actors) and a second node on this machine, runs
`art-gallery train` on configs/rllib_4p.yaml (two env runners, a few iterations) against
it, and reads the cluster's actor table: every env runner ran on the second node. With
``--kill-node`` it kills the second node in the middle of a run instead: the env runner
is restarted on a third node and the run finishes, with nothing saved lost."""

from __future__ import annotations

import contextlib
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
from training_helpers import tiny_rllib_dict

pytest.importorskip("ray")
pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_train_runs_on_a_two_node_cluster_with_env_runners_on_the_second_node(tmp_path) -> None:
    out = tmp_path / "findings.json"
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "ray_cluster.py"), "--json", str(out)]
        + ["--workdir", str(tmp_path / "work")],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.is_file(), result.stdout[-2000:] + result.stderr[-2000:]
    findings = json.loads(out.read_text())
    assert len(findings["nodes"]) == 2
    second = [n["node_id"] for n in findings["nodes"] if "node2" in n["resources"]]
    assert len(second) == 1
    assert findings["train_returncode"] == 0, (tmp_path / "work" / "train.log").read_text()
    assert findings["best_exported"]
    runners = findings["env_runners"]
    assert len(runners) == 2 and {r["node_id"] for r in runners} == set(second)
    assert findings["ok"] and result.returncode == 0


@pytest.mark.slow
def test_expert_iteration_plays_its_self_play_games_on_the_second_node(tmp_path) -> None:
    """exit.backend: ray on the same cluster: every self-play game ran on the node with CPUs."""
    out = tmp_path / "findings.json"
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "ray_cluster.py"), "--json", str(out)]
        + ["--workdir", str(tmp_path / "work"), "--algorithm", "exit"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.is_file(), result.stdout[-2000:] + result.stderr[-2000:]
    findings = json.loads(out.read_text())
    second = [n["node_id"] for n in findings["nodes"] if "node2" in n["resources"]]
    assert findings["train_returncode"] == 0, (tmp_path / "work" / "train.log").read_text()
    assert findings["selfplay_nodes"] == second
    assert findings["ok"] and result.returncode == 0


def live_processes(groups: list[int]) -> list[str]:
    """The processes (zombies aside) still in any of these process groups."""
    psutil = pytest.importorskip("psutil")
    found = []
    for proc in psutil.process_iter(["pid", "status", "cmdline"]):
        try:
            if os.getpgid(proc.pid) in groups and proc.info["status"] != psutil.STATUS_ZOMBIE:
                found.append(f"{proc.pid} {' '.join(proc.info['cmdline'] or [])[:120]}")
        except (psutil.Error, OSError):
            continue
    return found


def run_and_clean_up(command: list[str], work: Path) -> tuple[Any, list[int], list[str]]:
    """Run the script; whatever happens, then look for what is left of the process groups
    it recorded and end it. Returns the result (None if it timed out), the groups and
    the processes that were left."""
    result = None
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    finally:
        groups_file = work / "process_groups"
        groups = [int(g) for g in groups_file.read_text().split()] if groups_file.is_file() else []
        leftovers = live_processes(groups)
        for group in groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGKILL)
    return result, groups, leftovers


def assert_kept(findings: dict) -> None:
    """Nothing saved before the kill is lost: the logs went on from their rows, and the
    folder latest named then is unchanged, or gone once a later latest replaced it; the
    run resumed from its state (no step trained twice, the empty iterations uncounted)."""
    before, after = findings["before"], findings["after"]
    steps = [int(float(row.split(",")[0])) for row in after["progress"][1:]]
    assert before["steps"] in (256, 512)  # killed once latest was saved, at 256
    assert steps == [256, 512, 768]
    assert after["steps"] == 768
    assert after["folder"] != before["folder"]
    assert after["progress"][: len(before["progress"])] == before["progress"]
    assert after["eval"][: len(before["eval"])] == before["eval"]
    assert findings["before_folder_now"] in (None, before["files"])


@pytest.mark.slow
def test_a_killed_node_s_env_runner_restarts_on_a_new_node_and_nothing_saved_is_lost(
    tmp_path: Path,
) -> None:
    """``--kill-node``: node2, the only node with CPUs (the env runner's), is SIGKILLed
    with all its processes after the first checkpoint, as a crashed machine; node3 joins.
    Ray marks node2 dead and restarts the runner actor on node3
    (``rllib.env_runner_restarts``), RLlib syncs its weights, and the run goes on to
    ``total_steps`` without counting the iterations that sampled nothing. What was saved
    before the kill is kept, and no process of the nodes or of the run is left."""
    out, work = tmp_path / "findings.json", tmp_path / "work"
    script = [sys.executable, str(ROOT / "benchmarks" / "ray_cluster.py"), "--kill-node"]
    result, groups, leftovers = run_and_clean_up(
        [*script, "--json", str(out), "--workdir", str(work)], work
    )
    assert len(groups) == 4  # head, node2, node3, the training command
    assert not leftovers, leftovers
    assert out.is_file(), result.stdout[-2000:] + result.stderr[-2000:]
    findings = json.loads(out.read_text())
    log = (work / "train.log").read_text()
    assert findings["train_returncode"] == 0, log[-4000:]
    assert "no env runner returned samples (one died)" in log
    assert_kept(findings)
    # The env runner ran on node2, died with it and was restarted on node3.
    (node2,) = [n["node_id"] for n in findings["nodes"] if "node2" in n["resources"]]
    (runner,) = findings["env_runners"]
    assert runner["node"] == "node3", runner
    assert runner["node_id"] != node2
    assert runner["restarts"] >= 1
    assert findings["ok"]
    assert result.returncode == 0


def tiny_rllib(run_dir: Path) -> dict:
    """Four iterations of 256 env steps on one env runner, saved after each."""
    return tiny_rllib_dict(run_dir, "tiny_lost_node")


def kill_runner_after_first_save(run_dir: Path, timeout: float = 300) -> None:
    """Once ``latest`` is saved: SIGKILL the env runner process (Ray names it
    ``ray::MultiAgentEnvRunner``; this process started the local Ray, so it descends from
    this one)."""
    import psutil

    deadline = time.time() + timeout
    while time.time() < deadline:
        if (run_dir / "latest.json").is_file():
            for child in psutil.Process().children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    if "MultiAgentEnvRunner" in " ".join(child.cmdline()):
                        child.kill()
                        return
        time.sleep(0.05)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:.*Overriding environment rllib-multi-agent")
def test_a_run_that_gives_up_on_a_restarting_env_runner_stops_in_one_line(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A node lost with no other node free for its env runners: Ray keeps each runner actor
    restarting (waiting for a node), and after ``LOST_RUNNER_WAIT_S`` without samples the
    run stops in one line. Reproduced on a local Ray with that wait at 0 s: the run gives
    up at its first empty iteration, while Ray still restarts the killed runner's process.
    Stopping the algorithm meets the restarting actor; RLlib logs that with the traceback
    of the run's own stop, which must not reach the user."""
    pytest.importorskip("psutil")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)  # a local Ray, started by the run
    from art_gallery_env.training import rllib_trainer
    from art_gallery_env.training.config import config_from_dict
    from art_gallery_env.training.run_folder import verify_checkpoint

    monkeypatch.setattr(rllib_trainer, "LOST_RUNNER_WAIT_S", 0.0)
    run_dir = tmp_path / "run"
    killer = threading.Thread(target=kill_runner_after_first_save, args=(run_dir,), daemon=True)
    killer.start()
    with pytest.raises(ChildProcessError, match=r"was not brought back \(no samples for 0 s"):
        rllib_trainer.train(config_from_dict(tiny_rllib(run_dir)), progress_bar=False)
    killer.join(timeout=10)
    err = capfd.readouterr().err
    assert "Traceback" not in err, err[-3000:]
    assert verify_checkpoint(run_dir / "latest.json")["steps"] == 256
