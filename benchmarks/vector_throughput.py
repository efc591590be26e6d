"""Decisions per second of the compiled batched engine against the Python engine, in one
run and on all cores (numbers in docs/vector.md).

Rows (random legal play at 2, 4 and 6 players):
  python   the Python engine (legal_actions + apply), one process per core, summed
  engine   VectorGame alone: random_actions() + step() on B games
  obs      VectorGame with legal_mask() and observe() of the acting seat at every decision
  train    MaskablePPO learner steps per second, PPO updates included: the vector VecEnv
           (vec_env: vector) over today's trainer (vec_env: subproc), measured side by
           side by vector_training.py at 2 and 4 players (--skip-training: nan)

Usage: python benchmarks/vector_throughput.py [--seconds 3] [--repeats 3] [--envs 2048]
       [--train-steps 2048] [--vector-envs 64] [--rollout 1024] [--new-rollout 8192]
       [--train-players 2 4]
       [--skip-training] [--blas-as-is] [--smoke]

The machine is shared and noisy: every measurement is repeated, the repeats interleave
the rows, and medians are reported; compare ratios from one run. The last line is the
summary `vector: engine=<N>/s obs=<N>/s python=<N>/s train2p=<x>x train4p=<x>x
train4p_new=<x>x load=<L>`, where each number is the minimum over the table sizes (the
slowest table is the one to plan for); train4p_new is the stack (the entity network,
compiled heuristic opponents, vec_env: vector) over today's trainer at 4 players, load the
1-minute load average at the end.

``--smoke`` (tests/test_benchmarks_smoke.py): every row once at tiny sizes, in seconds; it
skips the cold-cache compile timing (a full numba compile takes a minute or more) and trains
at 2 players only (train4p is nan; vector_training.py --smoke runs the same train rows).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from _common import parse_args  # this folder: the --smoke option
from env_throughput import engine_run  # this folder: the Python engine's row

from art_gallery_env.games.art_gallery.vector import VectorGame
from art_gallery_env.games.art_gallery.vector.runner import default_threads

TABLES = (2, 4, 6)

TRAINING_ROWS: dict[int, Callable[[float], float]] = {}
"""players -> function(seconds) returning (vector VecEnv steps/s) / (today's trainer's);
filled by vector_training.register."""
TRAINING_TABLES = [2, 4]
SMOKE = {
    "seconds": 0.05,
    "repeats": 1,
    "envs": 16,
    "skip_compile_time": True,
    "train_steps": 64,
    "vector_envs": 4,
    "rollout": 64,
    "new_rollout": 64,
    "train_players": [2],
}


class Rate(NamedTuple):
    per_second: float  # decisions per wall-clock second
    cores: float  # CPU seconds used per wall-clock second (other load takes the rest)


def python_engine_worker(args: tuple[int, float]) -> tuple[float, float]:
    """Decisions and CPU seconds of one process playing random legal games (the engine
    row of env_throughput.py) for ``seconds``."""
    players, seconds = args
    start, cpu = time.perf_counter(), time.process_time()
    rate = engine_run(players, seconds)
    return rate * (time.perf_counter() - start), time.process_time() - cpu


def python_rate(
    pool: multiprocessing.pool.Pool, processes: int, players: int, seconds: float
) -> Rate:
    start = time.perf_counter()
    jobs = [(players, seconds)] * processes
    results = pool.map(python_engine_worker, jobs)
    wall = time.perf_counter() - start
    return Rate(sum(d for d, _ in results) / wall, sum(c for _, c in results) / wall)


def vector_rate(game: VectorGame, seconds: float, with_obs: bool) -> Rate:
    """Decisions per second (one per game per step) with or without mask + observation."""
    masks = np.empty((game.num_envs, 47), dtype=np.bool_)
    obs = np.empty((game.num_envs, 2221), dtype=np.float32)
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            if with_obs:
                game.legal_mask(out=masks)
                game.observe(out=obs)
            game.step(game.random_actions())
        steps += 10
    wall = time.perf_counter() - start
    return Rate(steps * game.num_envs / wall, (time.process_time() - cpu) / wall)


FIRST_CALLS = """
import time
start = time.perf_counter()
from art_gallery_env.games.art_gallery.vector import VectorGame
game = VectorGame(4, 4, seed=0)
game.legal_mask(); game.observe(); game.scores()
game.step(game.random_actions())
game.reset_games([True, False, False, False])
print(time.perf_counter() - start)
"""


def first_call_seconds() -> tuple[float, float]:
    """Seconds from import to every kernel having run once, in a fresh process: with an
    empty numba cache (compile) and again with the cache it wrote (load)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        runs = [
            float(
                subprocess.run(
                    [sys.executable, "-c", FIRST_CALLS],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            )
            for _ in range(2)
        ]
    return runs[0], runs[1]


def measure(args: argparse.Namespace, games: dict[int, VectorGame], threads: int) -> dict:
    """Every row ``args.repeats`` times, the rows interleaved."""
    rows: dict[str, list[Rate]] = {}
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(threads) as pool:
        pool.map(python_engine_worker, [(2, 0.1)] * threads)  # start the workers
        for _ in range(args.repeats):
            for n in TABLES:
                rows.setdefault(f"python {n}p", []).append(
                    python_rate(pool, threads, n, args.seconds)
                )
                rows.setdefault(f"engine {n}p", []).append(
                    vector_rate(games[n], args.seconds, with_obs=False)
                )
                rows.setdefault(f"obs {n}p", []).append(
                    vector_rate(games[n], args.seconds, with_obs=True)
                )
                if n in TRAINING_ROWS:
                    rows.setdefault(f"train {n}p (x today)", []).append(
                        Rate(TRAINING_ROWS[n](args.seconds), float("nan"))
                    )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--envs", type=int, default=2048, help="games per VectorGame")
    parser.add_argument("--threads", type=int, default=None, help="default: all cores")
    parser.add_argument(
        "--skip-compile-time", action="store_true", help="do not time a cold numba cache"
    )
    parser.add_argument("--train-steps", type=int, default=2048, help="learner steps per train")
    parser.add_argument("--vector-envs", type=int, default=64, help="games in the train VecEnv")
    parser.add_argument("--rollout", type=int, default=1024, help="learner steps per rollout")
    parser.add_argument(
        "--new-rollout", type=int, default=8192, help="the new stack's rollout (ppo_all's)"
    )
    parser.add_argument("--train-players", type=int, nargs="+", default=TRAINING_TABLES)
    parser.add_argument("--skip-training", action="store_true", help="no train rows (nan)")
    parser.add_argument("--blas-as-is", action="store_true", help="keep numpy's BLAS threads")
    args = parse_args(parser, SMOKE)
    if not args.skip_training:
        from vector_training import one_blas_thread  # this folder

        one_blas_thread(args.blas_as_is)  # re-runs this script with one OpenBLAS thread

    if not args.skip_compile_time:
        cold, cached = first_call_seconds()
        print(f"first calls in a new process: {cold:.1f} s compiling, {cached:.1f} s from cache")

    threads = args.threads or default_threads()
    start = time.perf_counter()
    games = {n: VectorGame(args.envs, n, seed=n, threads=threads) for n in TABLES}
    for game in games.values():  # compile or load from the cache, then warm up
        vector_rate(game, 0.2, with_obs=True)
    print(f"kernels ready in {time.perf_counter() - start:.1f} s (compile or cache load)")
    pairs = []
    if not args.skip_training:
        import vector_training  # this folder; needs the [train] extra

        pairs = vector_training.register(
            TRAINING_ROWS,
            args.train_players,
            args.train_steps,
            args.vector_envs,
            args.rollout,
            args.new_rollout,
        )

    try:
        rows = measure(args, games, threads)
    finally:
        for pair in pairs:
            pair.close()
    new = {pair.players: pair.new_ratio() for pair in pairs}
    report(rows, args, threads, new)


def report(
    rows: dict[str, list[Rate]],
    args: argparse.Namespace,
    threads: int,
    new: dict[int, float] | None = None,
) -> None:
    """The table of medians and the summary line (see the module docstring); ``new``:
    players -> the new stack's learner steps/s over today's trainer's (median)."""
    medians = {
        name: Rate(
            statistics.median(r.per_second for r in values),
            statistics.median(r.cores for r in values),
        )
        for name, values in rows.items()
    }
    print(
        f"median of {args.repeats} runs of {args.seconds:.1f} s each; B={args.envs} games, "
        f"{threads} threads (python: {threads} processes); 'cores' is the CPU time the row "
        f"got per second (the rest went to other processes on this shared machine)"
    )
    print(f"{'measurement':<22} {'decisions/s':>12} {'x python':>9} {'cores':>6} {'per core':>10}")
    print("-" * 63)
    for name, rate in medians.items():
        if name.startswith("train"):
            print(f"{name:<22} {rate.per_second:>12.2f}")
            continue
        ratio = rate.per_second / medians[f"python {name.split()[1]}"].per_second
        print(
            f"{name:<22} {rate.per_second:>12,.0f} {ratio:>9.1f} {rate.cores:>6.2f} "
            f"{rate.per_second / rate.cores:>10,.0f}"
        )

    def worst(kind: str) -> float:
        return min(medians[f"{kind} {n}p"].per_second for n in TABLES)

    def train(n: int) -> float:
        return medians.get(f"train {n}p (x today)", Rate(float("nan"), 0.0)).per_second

    print(
        f"vector: engine={worst('engine'):.0f}/s obs={worst('obs'):.0f}/s "
        f"python={worst('python'):.0f}/s train2p={train(2):.2f}x train4p={train(4):.2f}x "
        f"train4p_new={(new or {}).get(4, float('nan')):.2f}x load={os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
