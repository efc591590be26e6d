"""The RAY_ADDRESS path on a real multi-node Ray cluster: benchmarks/ray_cluster.py starts
a head node (no CPUs for actors) and a second node on this machine, runs
`art-gallery train` on configs/rllib_4p.yaml (two env runners, a few iterations) against
it, and reads the cluster's actor table: every env runner ran on the second node."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

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
