"""Policy inference: numpy (``MLPPolicy``) against onnxruntime (``OnnxPolicy``).

Per decision: ``PolicyAgent.act`` on one real observation (what a game or a server does),
mean and 99th percentile over the same observations for both back ends, interleaved so
machine load hits both alike. Batched: masked logits of 1,024 observations at once. Also
the largest difference between the two back ends' masked logits on every observation.

    .venv/bin/python benchmarks/onnx_latency.py [--checkpoint checkpoints/ppo_2p.safetensors]
        [--decisions 3000] [--smoke]
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

import numpy as np
from _common import parse_args  # this folder: the --smoke option

from art_gallery_env.agents.policy import PolicyAgent, load_policy
from art_gallery_env.agents.policy_onnx import OnnxPolicy, export_onnx
from art_gallery_env.arena.samples import observed_decisions

ROOT = Path(__file__).resolve().parents[1]
SMOKE = {"decisions": 64}
"""``--smoke`` (tests/test_benchmarks_smoke.py): a few observations, every measurement."""


def per_decision(agents: dict[str, PolicyAgent], obs: np.ndarray, masks: np.ndarray):
    """Seconds per ``act`` for each agent, interleaved decision by decision."""
    times: dict[str, list[float]] = {name: [] for name in agents}
    for o, m in zip(obs, masks):
        for name, agent in agents.items():
            start = time.perf_counter()
            agent.act(o, m)
            times[name].append(time.perf_counter() - start)
    return {name: np.array(t) for name, t in times.items()}


def batched(fn, obs: np.ndarray, masks: np.ndarray, repeats: int = 20) -> float:
    """Best seconds for one call on the whole batch."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn(obs, masks)
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", default=str(ROOT / "checkpoints" / "ppo_2p.safetensors"))
    parser.add_argument("--decisions", type=int, default=3000)
    args = parse_args(parser, SMOKE, argv)

    policy = load_policy(args.checkpoint)
    obs, masks = observed_decisions(args.decisions, players=(2, 4), seed=1)
    with tempfile.TemporaryDirectory() as tmp:
        path = export_onnx(policy, Path(tmp) / "policy.onnx")
        runtime = OnnxPolicy(path)
        agents = {"numpy": PolicyAgent(policy), "onnxruntime": PolicyAgent(runtime)}
        per_decision(agents, obs[:200], masks[:200])  # warm-up
        times = per_decision(agents, obs, masks)
        big_obs, big_masks = obs[:1024], masks[:1024]
        numpy_batch = batched(
            lambda o, m: np.where(m > 0, policy.logits(o), -np.inf), big_obs, big_masks
        )
        onnx_batch = batched(runtime.masked_logits, big_obs, big_masks)
        expected = np.where(masks > 0, policy.logits(obs), -np.inf)
        got = runtime.masked_logits(obs, masks)
        legal = masks > 0
        diff = float(np.abs(got[legal] - expected[legal]).max())

    print(
        f"{Path(args.checkpoint).name} (hidden {policy.meta['hidden_sizes']}), "
        f"{args.decisions} observations from heuristic games; {platform.processor() or 'cpu'}, "
        f"{os.cpu_count()} cores, OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}"
    )
    print(f"max |onnxruntime - numpy| over legal logits: {diff:.2e}")
    print()
    print("| back end | per decision, mean (µs) | p99 (µs) | 1,024 observations (ms) |")
    print("|---|---:|---:|---:|")
    for name, batch in (("numpy", numpy_batch), ("onnxruntime", onnx_batch)):
        t = times[name] * 1e6
        print(f"| {name} | {t.mean():.0f} | {np.percentile(t, 99):.0f} | {batch * 1e3:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
