"""A real two-node Ray cluster on this machine, and ``art-gallery train`` on it.

The steps are the ones docs/distributed.md gives for real machines, with both nodes on
127.0.0.1 (Ray advertises the machine's own address for them):

1. a token for Ray's token authentication (``RAY_AUTH_MODE=token``, ``RAY_AUTH_TOKEN_PATH``,
   the same file on every node and for the driver);
2. ``ray start --head --num-cpus=0 --resources='{"head": 1}'``: the head runs the GCS and
   the driver, and offers no CPU for actors;
3. ``ray start --address=127.0.0.1:PORT --num-cpus=2 --resources='{"node2": 2}'``;
4. ``RAY_ADDRESS=127.0.0.1:PORT art-gallery train CONFIG``: ``configs/rllib_4p.yaml`` with two
   env runners and a budget of a few iterations (written to a temporary copy);
5. the cluster's actor table: where each env runner actor ran;
6. both nodes stopped (only the processes this script started: each ``ray start --block``
   takes its node's processes down with it; never ``ray stop``, which ends every Ray
   session on the machine).

    .venv/bin/python benchmarks/ray_cluster.py [--json OUT] [--total-steps 1600] [--workdir DIR]
        [--smoke] [--algorithm rllib|exit]

``--algorithm exit`` trains ``configs/exit_smoke.yaml`` with ``exit.backend: ray`` instead
(expert iteration's self-play games as Ray tasks; each must have run on the second node).

Exit status 0 only if training finished and every env runner ran on the second node.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from _common import parse_args  # this folder: the --smoke option

ROOT = Path(__file__).resolve().parents[1]
RAY = [sys.executable, "-m", "ray.scripts.scripts"]
SMOKE = {"total_steps": 256}
"""``--smoke`` (tests/test_benchmarks_smoke.py): the same cluster, a tiny training run."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_node(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    """``ray start ... --block`` in its own process group, its output to ``log``."""
    with open(log, "w") as out:
        return subprocess.Popen(
            [*RAY, "start", "--block", "--disable-usage-stats", *args],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def stop_node(node: subprocess.Popen, timeout: float = 60) -> None:
    """SIGTERM to the ``ray start --block`` process: it stops the node's processes."""
    if node.poll() is None:
        node.send_signal(signal.SIGTERM)
        try:
            node.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(node.pid, signal.SIGKILL)  # the group holds only this node
            node.wait()


def forget_cluster(address: str) -> None:
    """Remove Ray's record of this (now stopped) cluster, which ``ray start --head`` writes
    to /tmp/ray and a plain ``ray.init()`` would later try to join; another cluster's
    record is left alone."""
    record = Path(tempfile.gettempdir()) / "ray" / "ray_current_cluster"
    port = address.rsplit(":", 1)[1]
    try:  # Ray records the node's own IP (not 127.0.0.1), so the port identifies it
        if record.read_text().strip().rsplit(":", 1)[-1] == port:
            record.unlink()
    except OSError:
        pass


def cluster_nodes(address: str, expected: int, timeout: float = 120) -> list[dict]:
    """The alive nodes, once ``expected`` of them have joined."""
    import ray

    ray.init(address=address, logging_level="ERROR")
    try:
        deadline = time.time() + timeout
        while True:
            nodes = [n for n in ray.nodes() if n["Alive"]]
            if len(nodes) >= expected or time.time() > deadline:
                return nodes
            time.sleep(1)
    finally:
        ray.shutdown()


def env_runner_nodes(address: str) -> list[dict]:
    """Every env runner actor the cluster has seen (alive or finished) and its node.

    The public state API (``ray list actors``) needs the dashboard, which needs
    ``ray[default]``; the actor table is read from the GCS through ``ray._private.state``."""
    import ray
    from ray._private import state

    ray.init(address=address, logging_level="ERROR")
    try:
        return [
            {
                "actor": actor["ActorClassName"],
                "node_id": actor["Address"]["NodeID"],
                "state": actor["State"],
            }
            for actor in state.actors().values()
            if "EnvRunner" in actor["ActorClassName"]
        ]
    finally:
        ray.shutdown()


def cluster_config(path: Path, total_steps: int) -> Path:
    """configs/rllib_4p.yaml with two env runners, small batches and a token evaluation."""
    config = yaml.safe_load((ROOT / "configs" / "rllib_4p.yaml").read_text())
    config["name"] = "rllib_4p_cluster"
    config["total_steps"] = total_steps
    config["rllib"].update(
        num_env_runners=2,
        num_envs_per_env_runner=2,
        train_batch_size=total_steps // 2,
        minibatch_size=128,
        num_epochs=1,
    )
    config["eval"].update(
        every_steps=10 * total_steps, games=2, workers=1, final_games=2, final_workers=1
    )
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def cluster_env(tmp: Path) -> dict[str, str]:
    """A new token for Ray's token authentication in ``tmp`` and the environment of the
    nodes and of ``art-gallery train``; this process (it reads the cluster) gets it too."""
    token = tmp / "auth_token"
    token.write_text(secrets.token_hex(32))
    token.chmod(0o600)
    env = {
        **os.environ,
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN_PATH": str(token),
        "RAY_USAGE_STATS_ENABLED": "0",
    }
    os.environ.update({k: env[k] for k in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN_PATH")})
    return env


def start_cluster(
    port: int, env: dict[str, str], tmp: Path, nodes: list[subprocess.Popen]
) -> list[dict]:
    """Steps 2 and 3: the head, then the second node; each is appended to ``nodes`` as it
    starts (the caller stops them, whatever fails). Returns the alive nodes."""
    head_args = [
        "--head",
        "--node-ip-address=127.0.0.1",
        f"--port={port}",
        "--num-cpus=0",
        '--resources={"head": 1}',
        "--include-dashboard=false",
        f"--dashboard-port={free_port()}",
        f"--ray-client-server-port={free_port()}",
    ]
    nodes.append(start_node(head_args, env, tmp / "head.log"))
    time.sleep(3)
    worker_args = [
        f"--address=127.0.0.1:{port}",
        "--node-ip-address=127.0.0.1",
        "--num-cpus=2",
        '--resources={"node2": 2}',
    ]
    nodes.append(start_node(worker_args, env, tmp / "node2.log"))
    return cluster_nodes(f"127.0.0.1:{port}", expected=2)


def second_node(alive: list[dict], findings: dict, tmp: Path) -> str:
    """The id of the node with the ``node2`` resource; the nodes go into ``findings``.
    Raises unless exactly two nodes joined."""
    findings["nodes"] = [
        {"node_id": n["NodeID"], "ip": n["NodeManagerAddress"], "resources": n["Resources"]}
        for n in alive
    ]
    if len(alive) != 2:
        raise RuntimeError(f"expected 2 nodes, got {len(alive)}; see {tmp}/*.log")
    return next(n["NodeID"] for n in alive if "node2" in n["Resources"])


def exit_cluster_config(path: Path) -> Path:
    """configs/exit_smoke.yaml with its self-play as Ray tasks (``exit.backend: ray``):
    one generation of 4 games on 2 workers."""
    config = yaml.safe_load((ROOT / "configs" / "exit_smoke.yaml").read_text())
    config["name"] = "exit_cluster"
    config["exit"].update(generations=1, games_per_generation=4, iters=4, workers=2, backend="ray")
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def selfplay_nodes(log: str) -> set[str]:
    """The nodes expert iteration's log says its self-play games ran on."""
    marker = "self-play on Ray nodes "
    return {
        node.strip()
        for line in log.splitlines()
        if marker in line
        for node in line.split(marker, 1)[1].split(",")
    }


def train_on_cluster(
    address: str,
    env: dict[str, str],
    tmp: Path,
    total_steps: int,
    findings: dict,
    algorithm: str = "rllib",
) -> bool:
    """Step 4: ``art-gallery train`` against the cluster, its output in ``tmp/train.log``;
    True if it exited 0 and exported ``best``."""
    if algorithm == "exit":
        config = exit_cluster_config(tmp / "exit_cluster.yaml")
    else:
        config = cluster_config(tmp / "rllib_4p_cluster.yaml", total_steps)
    run_dir = tmp / "run"
    train = [sys.executable, "-m", "art_gallery_env.cli", "train", str(config)]
    train += ["--run-dir", str(run_dir), "--no-progress"]
    t0 = time.perf_counter()
    result = subprocess.run(
        train, env={**env, "RAY_ADDRESS": address}, capture_output=True, text=True
    )
    findings["train_s"] = round(time.perf_counter() - t0, 1)
    findings["train_returncode"] = result.returncode
    (tmp / "train.log").write_text(result.stdout + result.stderr)
    print(result.stdout[-3000:])
    if result.returncode != 0:
        print(result.stderr[-3000:], file=sys.stderr)
    findings["best_exported"] = (run_dir / "best.safetensors").is_file()
    findings["selfplay_nodes"] = sorted(selfplay_nodes(result.stdout))
    return result.returncode == 0 and findings["best_exported"]


def runners_on(address: str, second: str, findings: dict) -> bool:
    """Step 5: True if there were at least two env runners and all ran on ``second``."""
    runners = env_runner_nodes(address)
    for runner in runners:
        runner["node"] = "node2" if runner["node_id"] == second else "head"
    findings["env_runners"] = runners
    return len(runners) >= 2 and all(r["node_id"] == second for r in runners)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--total-steps", type=int, default=1600, help="env steps to train")
    parser.add_argument("--json", help="write the findings here")
    parser.add_argument("--workdir", help="token, config, run folder and logs (default: new temp)")
    parser.add_argument(
        "--algorithm",
        choices=("rllib", "exit"),
        default="rllib",
        help="rllib: RLlib PPO's env runners on the second node; exit: expert iteration's "
        "self-play games as Ray tasks there (exit.backend: ray)",
    )
    args = parse_args(parser, SMOKE, argv, smoke_help="a tiny training run (CI)")

    tmp = Path(args.workdir or tempfile.mkdtemp(prefix="ray_cluster_"))
    tmp.mkdir(parents=True, exist_ok=True)
    env = cluster_env(tmp)
    port = free_port()
    address = f"127.0.0.1:{port}"
    findings: dict = {"address": address}
    nodes: list[subprocess.Popen] = []
    started = time.perf_counter()
    try:
        alive = start_cluster(port, env, tmp, nodes)
        findings["cluster_up_s"] = round(time.perf_counter() - started, 1)
        second = second_node(alive, findings, tmp)
        print(f"cluster at {address}: 2 nodes, up in {findings['cluster_up_s']} s")
        trained = train_on_cluster(address, env, tmp, args.total_steps, findings, args.algorithm)
        if args.algorithm == "exit":
            findings["ok"] = trained and findings["selfplay_nodes"] == [second]
        else:
            findings["ok"] = runners_on(address, second, findings) and trained
    finally:
        for node in reversed(nodes):
            stop_node(node)
        forget_cluster(address)
        findings["logs"] = str(tmp)
    print(json.dumps(findings, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(findings, indent=2))
    return 0 if findings.get("ok") else 1


if __name__ == "__main__":
    raise SystemExit(main())
