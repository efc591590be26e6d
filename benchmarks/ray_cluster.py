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
        [--smoke] [--algorithm rllib|exit] [--kill-node]

``--algorithm exit`` trains ``configs/exit_smoke.yaml`` with ``exit.backend: ray`` instead
(expert iteration's self-play games as Ray tasks; each must have run on the second node).

``--kill-node`` kills the second node in the middle of an RLlib run: a tiny config (one env
runner, three iterations of 256 steps, each saved); once the first checkpoint is saved,
SIGKILL to every process of node2 (its env runner's), as a crashed machine; a third node
joins with one CPU. The run must finish with the runner restarted on node3, and what was
saved before the kill must be kept (the logs' rows, the checkpoint files).

Exit status 0 only if training finished and every env runner ran on the second node
(``--kill-node``: on the third, and what was saved before the kill is kept).
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from _common import parse_args  # this folder: the --smoke option

ROOT = Path(__file__).resolve().parents[1]
RAY = [sys.executable, "-m", "ray.scripts.scripts"]
FAST_NODE_DEATH = {"RAY_health_check_period_ms": "1000", "RAY_health_check_failure_threshold": "3"}
"""``--kill-node``: the head declares a node dead after 3 failed health checks 1 s apart
(Ray's defaults: 5 checks 3 s apart), unless these variables are set already."""
SMOKE = {"total_steps": 256}
"""``--smoke`` (tests/test_benchmarks_smoke.py): the same cluster, a tiny training run."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_node(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    """``ray start ... --block`` in its own process group, its output to ``log``; the
    group's id is added to ``process_groups`` beside the log (see :func:`record_group`)."""
    with open(log, "w") as out:
        node = subprocess.Popen(
            [*RAY, "start", "--block", "--disable-usage-stats", *args],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    record_group(log.parent, node.pid)
    return node


def record_group(tmp: Path, pgid: int) -> None:
    """Append a process group this script started to ``tmp/process_groups``: whoever runs
    the script can check (and end) what is left of them, even if the script was killed."""
    with open(tmp / "process_groups", "a") as groups:
        groups.write(f"{pgid}\n")


def stop_nodes(nodes: list[subprocess.Popen], timeout: float = 60) -> None:
    """Stop the nodes, given in the order they started: SIGTERM to each ``ray start
    --block`` process (it stops its node's processes), the joined nodes together, then the
    head (a node drains through the head: without it, it waits 30 s). A node still up after
    ``timeout`` gets SIGKILL to its process group, which holds only that node."""
    for group in (nodes[1:], nodes[:1]):
        for node in group:
            if node.poll() is None:
                node.send_signal(signal.SIGTERM)
        deadline = time.time() + timeout
        for node in group:
            try:
                node.wait(max(0.1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                os.killpg(node.pid, signal.SIGKILL)
                node.wait()


def wait_started(node: subprocess.Popen, log: Path, timeout: float = 180) -> None:
    """Wait until ``ray start`` logs that its node runs (seconds on an idle machine, far
    longer on a loaded one: a node that joins before the head's GCS is up fails)."""
    deadline = time.time() + timeout
    while "Ray runtime started" not in log.read_text(errors="replace"):
        if node.poll() is not None or time.time() > deadline:
            raise RuntimeError(f"ray start did not start its node; see {log}")
        time.sleep(0.2)


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
    """Every env runner actor the cluster has seen (alive or finished), its node, and that
    node's name: the custom resource its ``ray start`` gave it (``head``, ``node2``, ...;
    None for a dead node, whose resources Ray no longer lists).

    The public state API (``ray list actors``) needs the dashboard, which needs
    ``ray[default]``; the actor table is read from the GCS through ``ray._private.state``."""
    import ray
    from ray._private import state

    ray.init(address=address, logging_level="ERROR")
    try:
        names = {
            node["NodeID"]: name
            for node in ray.nodes()
            for name in node["Resources"]
            if name.startswith(("head", "node")) and not name.startswith("node:")
        }
        return [
            {
                "actor": actor["ActorClassName"],
                "node_id": actor["Address"]["NodeID"],
                "node": names.get(actor["Address"]["NodeID"]),
                "state": actor["State"],
                "restarts": actor["NumRestarts"],
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
    port: int,
    env: dict[str, str],
    tmp: Path,
    nodes: list[subprocess.Popen],
    meanwhile: Callable[[], object] | None = None,
) -> list[dict]:
    """Steps 2 and 3: the head, then the second node; each is appended to ``nodes`` as it
    starts (the caller stops them, whatever fails). ``meanwhile`` is called once the second
    node is starting, before waiting for it to join (a command with slow imports can start
    then). Returns the alive nodes."""
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
    wait_started(nodes[-1], tmp / "head.log")
    nodes.append(join_node(f"127.0.0.1:{port}", env, tmp, "node2"))
    if meanwhile is not None:
        meanwhile()
    return cluster_nodes(f"127.0.0.1:{port}", expected=2)


def join_node(
    address: str, env: dict[str, str], tmp: Path, name: str, cpus: int = 2
) -> subprocess.Popen:
    """One more node on this machine joins the cluster at ``address``: ``cpus`` CPUs and
    the custom resource ``name`` (the actor table tells the nodes apart by it), its output
    in ``tmp/NAME.log``."""
    args = [
        f"--address={address}",
        "--node-ip-address=127.0.0.1",
        f"--num-cpus={cpus}",
        f'--resources={{"{name}": {cpus}}}',
    ]
    return start_node(args, env, tmp / f"{name}.log")


def kill_node(node: subprocess.Popen) -> None:
    """SIGKILL to every process of a node (its ``ray start --block`` process group: the
    raylet, its workers and their actors), as a crash of its machine would: no draining,
    no word to the head, which notices when the node's health checks fail."""
    os.killpg(node.pid, signal.SIGKILL)
    node.wait()


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


def node_kill_config(path: Path, run_dir: Path) -> Path:
    """``--kill-node``: 2 players, one env runner, three iterations of 256 env steps, each
    saved and evaluated (two games against random)."""
    config = {
        "name": "rllib_node_kill",
        "algorithm": "rllib_ppo",
        "seed": 1,
        "total_steps": 3 * 256,
        "run_dir": str(run_dir),
        "env": {"num_players": 2},
        "network": {"hidden_sizes": [16]},
        "rllib": {
            "num_env_runners": 1,
            "train_batch_size": 256,
            "minibatch_size": 128,
            "num_epochs": 1,
        },
        "eval": {"every_steps": 256, "games": 2, "opponents": ["random"], "final_games": 0},
    }
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def files_of(folder: Path) -> dict[str, str]:
    """Every file below ``folder`` and its sha256."""
    from art_gallery_env.files import sha256_file

    return {
        str(path.relative_to(folder)): sha256_file(path)
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def saved_state(run_dir: Path) -> dict:
    """What the run folder holds: ``latest``'s steps (verified), its folder and each file's
    sha256, the rows of the progress log and of eval.csv."""
    from art_gallery_env.training.run_folder import verify_checkpoint

    def rows(path: Path) -> list[str]:
        return path.read_text().splitlines() if path.is_file() else []

    folder = (run_dir / "latest").resolve()
    return {
        "steps": verify_checkpoint(run_dir / "latest.json")["steps"],
        "folder": str(folder),
        "files": files_of(folder),
        "progress": rows(run_dir / "logs" / "progress.csv"),
        "eval": rows(run_dir / "eval.csv"),
    }


def wait_for(
    done: Callable[[], bool], process: subprocess.Popen, timeout: float, what: str, poll=0.2
) -> float:
    """Poll ``done()`` while ``process`` runs; the time (perf_counter) it became true."""
    deadline = time.time() + timeout
    while True:
        exited = process.poll() is not None
        if done():
            return time.perf_counter()
        if exited:
            raise RuntimeError(f"training exited ({process.returncode}) before {what}")
        if time.time() > deadline:
            raise RuntimeError(f"no {what} within {timeout:.0f} s")
        time.sleep(poll)


def start_node_kill_run(address: str, env: dict[str, str], tmp: Path) -> subprocess.Popen:
    """``--kill-node``'s training command (output in ``tmp/train.log``), in its own
    process group (recorded)."""
    config = node_kill_config(tmp / "rllib_node_kill.yaml", tmp / "run")
    train = [sys.executable, "-m", "art_gallery_env.cli", "train", str(config), "--no-progress"]
    with open(tmp / "train.log", "w") as log:
        run = subprocess.Popen(
            train, env={**env, "RAY_ADDRESS": address}, stdout=log, stderr=subprocess.STDOUT,
            cwd=ROOT, start_new_session=True,
        )  # fmt: skip
    record_group(tmp, run.pid)
    return run


def kill_node_mid_run(
    run: subprocess.Popen,
    address: str,
    env: dict[str, str],
    tmp: Path,
    nodes: list[subprocess.Popen],
    findings: dict,
) -> None:
    """``--kill-node``, once ``run`` trains on the cluster: as soon as latest is saved,
    SIGKILL node2 (``nodes[1]``), then start node3; wait for the run's end. Findings: the
    run folder right after the kill and after the run, the seconds from the kill to the
    next iteration logged, and where the env runner ran (last)."""
    import art_gallery_env.training.run_folder  # noqa: F401  (now, not after the kill)

    run_dir = tmp / "run"
    progress = run_dir / "logs" / "progress.csv"
    wait_for((run_dir / "latest.json").is_file, run, 300, "first checkpoint", poll=0.05)
    kill_node(nodes[1])  # at once: the next iteration's sampling is under way
    killed = time.perf_counter()
    nodes.append(join_node(address, env, tmp, "node3", cpus=1))
    findings["before"] = before = saved_state(run_dir)
    print(f"node2 killed after step {before['steps']}", flush=True)
    logged = len(before["progress"])
    resumed = wait_for(
        lambda: len(progress.read_text().splitlines()) > logged,
        run,
        300,
        "iteration after the kill",
    )
    findings["recover_s"] = round(resumed - killed, 1)
    findings["train_returncode"] = run.wait(timeout=300)
    findings["after"] = saved_state(run_dir)
    folder = Path(before["folder"])  # gone once a later latest replaced it
    findings["before_folder_now"] = files_of(folder) if folder.exists() else None
    findings["env_runners"] = env_runner_nodes(address)


def node_kill_ok(findings: dict) -> bool:
    """The run finished, its runner restarted on node3, and what was saved before the
    kill is kept: the logs' rows are a prefix of the final ones, and latest's folder of
    then is unchanged (or was removed, as every checkpoint is, once a later one replaced
    it)."""
    before, after = findings["before"], findings["after"]
    kept = all(after[log][: len(before[log])] == before[log] for log in ("progress", "eval"))
    now = findings["before_folder_now"]
    runners = findings["env_runners"]
    return (
        findings.get("train_returncode") == 0
        and kept
        and now in (None, before["files"])
        and after["steps"] == 3 * 256
        and len(runners) == 1
        and runners[0]["node"] == "node3"
        and runners[0]["restarts"] >= 1
    )


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
    parser.add_argument(
        "--kill-node",
        action="store_true",
        help="SIGKILL the second node after the first checkpoint of a tiny RLlib run, start "
        "a third: the run must finish there, keeping what it had saved",
    )
    args = parse_args(parser, SMOKE, argv, smoke_help="a tiny training run (CI)")

    tmp = Path(args.workdir or tempfile.mkdtemp(prefix="ray_cluster_"))
    tmp.mkdir(parents=True, exist_ok=True)
    env = cluster_env(tmp)
    if args.kill_node:
        env = {**FAST_NODE_DEATH, **env}
    port = free_port()
    address = f"127.0.0.1:{port}"
    findings: dict = {"address": address}
    nodes: list[subprocess.Popen] = []
    runs: list[subprocess.Popen] = []  # --kill-node: its training, started with the nodes
    started = time.perf_counter()
    try:
        meanwhile = lambda: runs.append(start_node_kill_run(address, env, tmp))  # noqa: E731
        alive = start_cluster(port, env, tmp, nodes, meanwhile if args.kill_node else None)
        findings["cluster_up_s"] = round(time.perf_counter() - started, 1)
        second = second_node(alive, findings, tmp)
        print(f"cluster at {address}: 2 nodes, up in {findings['cluster_up_s']} s")
        if args.kill_node:
            kill_node_mid_run(runs[0], address, env, tmp, nodes, findings)
            findings["ok"] = node_kill_ok(findings)
        else:
            findings["ok"] = train_and_check(address, env, tmp, second, findings, args)
    finally:
        for run in runs:
            if run.poll() is None:
                os.killpg(run.pid, signal.SIGKILL)
                run.wait()
        stop_nodes(nodes)
        forget_cluster(address)
        findings["logs"] = str(tmp)
    return finish(findings, args.json)


def train_and_check(
    address: str, env: dict[str, str], tmp: Path, second: str, findings: dict, args: Any
) -> bool:
    """Steps 4 and 5: train, then check where the work ran."""
    trained = train_on_cluster(address, env, tmp, args.total_steps, findings, args.algorithm)
    if args.algorithm == "exit":
        return trained and findings["selfplay_nodes"] == [second]
    return runners_on(address, second, findings) and trained


def finish(findings: dict, out: str | None) -> int:
    """Print the findings (and write them to ``out``); the exit status."""
    print(json.dumps(findings, indent=2))
    if out:
        Path(out).write_text(json.dumps(findings, indent=2))
    return 0 if findings.get("ok") else 1


if __name__ == "__main__":
    raise SystemExit(main())
