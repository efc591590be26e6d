"""MaskablePPO learner steps per second: the compiled self-play VecEnv (``vec_env:
vector``) against today's trainer (``vec_env: subproc``, SelfPlayEnv workers), side by
side in one run; the train rows of vector_throughput.py (numbers in docs/vector.md).

Both models are built by the trainer's own functions (``build_vec_env``, ``new_mlp_model``)
from one config: the same network, PPO settings and rollout size (``n_envs * n_steps``),
so the PPO update costs the same per learner step; ``subproc`` runs one worker per core,
``vector`` many games in this process (``--vector-envs``). The pool holds one snapshot of
the learner, so self-play, heuristic and random opponents all play (default weights).
Each measurement is ``model.learn`` over ``--train-steps`` learner steps after a warm-up
rollout, PPO updates included; a callback splits the time into rollout and update.

The new stack is the entity network of docs/training.md's choice (16 -> [128],
pointer 32) with ``configs/ppo_all.yaml``'s update (64 games x 128 steps, minibatch 1,024, 4
epochs): each of its measurements is at least one whole rollout. ``--torch-threads 2`` adds
the same stack on two torch threads (its ratio to one thread is printed; torch's OpenMP
threads spin, so measure it on a quiet machine: the load is printed). ``--round-loop`` adds
the same stack with the env's opponents played round by round from Python (the env's
``compiled_rounds`` off: the rollout before ``VectorGame.play_seats``; the same games) and
prints the ratio. The new stack's snapshot opponent is today's MLP unless ``--new-snapshot
entity`` (the stack's own network, what its training plays: a separate pool).

Usage: python benchmarks/vector_training.py [--players 2 4] [--train-steps 2048] [--repeats 2]
       [--vector-envs 64] [--rollout 1024] [--new-rollout 8192] [--torch-threads 1]
       [--round-loop] [--new-snapshot mlp|entity] [--blas-as-is] [--env-only SECONDS]
       [--smoke]

``--smoke`` (tests/test_benchmarks_smoke.py) runs the env-only rows for a moment and then the
train rows with one tiny rollout and update each, in seconds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

from _common import parse_args  # this folder: the --smoke option

ROLLOUT = 1024  # learner steps per PPO rollout of today's rows (--rollout)
MINIBATCH = 256  # today's rows' PPO minibatch (at most the rollout)
POOL = {"self_play": 0.3, "heuristic": 0.7, "random": 0.0}  # ppo_all's opponents
# the stack: the entity network chosen in docs/training.md ("Network") on the
# compiled engine with compiled heuristic opponents, with ppo_all's update: 64 games x
# 128 steps per rollout (--new-rollout), minibatch 1,024, 4 epochs
NEW_NETWORK = {"type": "entity", "hidden_sizes": [128], "token_dim": 16, "pointer_dim": 32}
NEW_ROLLOUT = 8192
NEW_MINIBATCH = 1024
NEW = "new stack"
ROUND_LOOP = f"{NEW}, round loop"
SMOKE = {
    "players": [2],
    "train_steps": 64,
    "repeats": 1,
    "vector_envs": 4,
    "rollout": 64,
    "new_rollout": 64,
    "env_only": 0.05,
}


class Timing(NamedTuple):
    steps_per_second: float
    rollout_fraction: float  # of the wall time, the rest is the PPO update

    @property
    def update_ms(self) -> float:
        """Wall-clock ms of PPO update per learner step."""
        return 1000 * (1 - self.rollout_fraction) / self.steps_per_second


class Trainer:
    """One model on one env kind, learning on in chunks of ``steps``."""

    def __init__(
        self,
        players: int,
        vec_env: str,
        n_envs: int,
        pool: Path,
        warm_up: bool = True,
        rollout: int = ROLLOUT,
        network: dict[str, Any] | None = None,
        minibatch: int = MINIBATCH,
        threads: int = 1,
    ) -> None:
        from art_gallery_env.training.config import config_from_dict
        from art_gallery_env.training.sb3_trainer import _new_model, build_vec_env

        config = config_from_dict(
            {
                "name": f"bench_{vec_env}",
                "total_steps": 10**9,
                "n_envs": n_envs,
                "vec_env": vec_env,
                "env": {"num_players": players},
                "network": network or {},
                "ppo": {
                    "n_steps": max(1, rollout // n_envs),
                    "batch_size": min(minibatch, rollout),
                    "n_epochs": 4,
                },
                "pool": POOL,
                "torch_threads": threads,
            }
        )
        self.threads = config.torch_threads
        self.env = build_vec_env(config, pool)
        self.model = _new_model(config, self.env)  # as the trainer builds a new run's model
        if warm_up:  # workers started, kernels compiled or loaded
            self.learn(rollout)

    def learn(self, steps: int) -> Timing:
        """``steps`` learner steps (whole rollouts: at least one) and their updates."""
        import torch
        from stable_baselines3.common.callbacks import BaseCallback

        torch.set_num_threads(self.threads)  # process-wide: set for each row in turn

        marks: list[float] = []

        class Split(BaseCallback):
            def _on_rollout_start(self) -> None:
                marks.append(time.perf_counter())

            def _on_rollout_end(self) -> None:
                marks.append(time.perf_counter())

            def _on_step(self) -> bool:
                return True

        before = self.model.num_timesteps
        start = time.perf_counter()
        self.model.learn(steps, callback=Split(), reset_num_timesteps=False)
        wall = time.perf_counter() - start
        rollout = sum(end - begin for begin, end in zip(marks[::2], marks[1::2]))
        return Timing((self.model.num_timesteps - before) / wall, rollout / wall)

    def close(self) -> None:
        self.env.close()


class Pair:
    """Today's trainer and the vector env for one table size, measured alternately.

    The vector env runs twice: with ``--vector-envs`` games (the ratio) and with today's
    exact config, its ``n_envs`` too (for reference)."""

    def __init__(
        self,
        players: int,
        vector_envs: int,
        subproc_envs: int = 2,
        rollout: int = ROLLOUT,
        new_rollout: int = NEW_ROLLOUT,
        new_threads: int = 1,
        round_loop: bool = False,
        new_snapshot: str = "mlp",
    ) -> None:
        self._folder = tempfile.TemporaryDirectory()
        pool = Path(self._folder.name)
        self.players = players
        # The snapshot first: a game dealt before it exists keeps its fallback opponents
        # (heuristic or random) to its end, which would skew the opponent mix.
        self.write_snapshot(pool / "mlp", players)
        new_pool = pool / new_snapshot
        if new_snapshot != "mlp":  # the new stack's own network (--new-snapshot entity)
            self.write_snapshot(new_pool, players, NEW_NETWORK)
        pool = pool / "mlp"
        self.vector = Trainer(players, "vector", vector_envs, pool, rollout=rollout)
        self.rows = {
            "today": Trainer(players, "subproc", subproc_envs, pool, rollout=rollout),
            f"vector {vector_envs} envs": self.vector,
            # the vector env with today's exact config (its n_envs too), for reference
            f"vector {subproc_envs} envs": Trainer(
                players, "vector", subproc_envs, pool, rollout=rollout
            ),
        }
        new = {"rollout": new_rollout, "network": NEW_NETWORK, "minibatch": NEW_MINIBATCH}
        self.rows[NEW] = Trainer(players, "vector", vector_envs, new_pool, **new)
        if new_threads > 1:  # the same stack on more torch threads (--torch-threads)
            self.rows[f"{NEW}, {new_threads} threads"] = Trainer(
                players, "vector", vector_envs, new_pool, **new, threads=new_threads
            )
        if round_loop:  # the same stack, the opponents round by round (--round-loop)
            loop = Trainer(players, "vector", vector_envs, new_pool, **new)
            loop.env.set_attr("compiled_rounds", False)
            self.rows[ROUND_LOOP] = loop
        self.history: list[dict[str, Timing]] = []

    @staticmethod
    def write_snapshot(pool: Path, players: int, network: dict[str, Any] | None = None) -> None:
        """The pool's one snapshot: the actor of a new model (today's MLP, or ``network``)."""
        from art_gallery_env.training.checkpoints import snapshot_name
        from art_gallery_env.training.sb3_trainer import SB3State

        pool.mkdir(parents=True, exist_ok=True)
        model = Trainer(players, "dummy", 1, pool, warm_up=False, network=network).model
        path = pool / snapshot_name(0)
        SB3State(model).export_weights(path, {"name": path.stem})

    def ratio(self, steps: int) -> float:
        timings = {name: trainer.learn(steps) for name, trainer in self.rows.items()}
        self.history.append(timings)
        base = timings["today"].steps_per_second
        parts = [
            f"{name} {t.steps_per_second:,.0f}/s (rollout {t.rollout_fraction:.0%}, update "
            f"{t.update_ms:.2f} ms/step, {t.steps_per_second / base:.2f}x)"
            for name, t in timings.items()
        ]
        print(f"  train {self.players}p steps/s: " + "; ".join(parts), flush=True)
        return self.vector_rate(timings) / base

    def vector_rate(self, timings: dict[str, Timing]) -> float:
        return timings[f"vector {self.vector.env.num_envs} envs"].steps_per_second

    def new_ratio(self) -> float:
        """Median over the repeats of the new stack's steps/s over today's trainer's."""
        if not self.history:
            return float("nan")
        return statistics.median(
            t[NEW].steps_per_second / t["today"].steps_per_second for t in self.history
        )

    def row_ratio(self, name: str, base: str = NEW) -> float:
        """Median over the repeats of row ``base``'s steps/s over row ``name``'s (nan
        without that row)."""
        if not self.history or name not in self.rows:
            return float("nan")
        return statistics.median(
            t[base].steps_per_second / t[name].steps_per_second for t in self.history
        )

    def threads_ratio(self) -> float:
        """Median over the repeats of the new stack's steps/s on more torch threads over
        its steps/s on one (nan without --torch-threads)."""
        more = [name for name in self.rows if name.startswith(f"{NEW}, ")]
        if not self.history or not more:
            return float("nan")
        return statistics.median(
            t[more[0]].steps_per_second / t[NEW].steps_per_second for t in self.history
        )

    def close(self) -> None:
        for trainer in self.rows.values():
            trainer.close()
        self._folder.cleanup()


def env_rate(env: Any, seconds: float) -> float:
    """Learner steps per second of a VecEnv alone, a random legal learner action each."""
    import numpy as np

    rng = np.random.default_rng(0)
    env.reset()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        masks = np.stack(env.env_method("action_masks"))
        env.step(np.argmax(masks * rng.random(masks.shape), axis=1))
        steps += env.num_envs
    return steps / (time.perf_counter() - start)


def env_only(players: list[int], vector_envs: int, seconds: float) -> None:
    """Each opponent kind alone, the envs without PPO: the vector env (one process)
    against SelfPlayEnv in one process (DummyVecEnv of 1: no worker IPC)."""
    import torch
    from stable_baselines3.common.vec_env import DummyVecEnv

    from art_gallery_env.training.selfplay import OpponentPool, SelfPlayEnv
    from art_gallery_env.training.vector_env import VectorSelfPlayEnv

    torch.set_num_threads(1)  # as the trainer (torch_threads: 1)
    with tempfile.TemporaryDirectory() as folder:
        Pair.write_snapshot(Path(folder), players[0])
        print(f"{'env only, learner steps/s':<28} {'vector':>9} {'SelfPlayEnv':>12} {'ratio':>6}")
        for n in players:
            for kind in ("random", "self_play", "heuristic"):
                vector = VectorSelfPlayEnv(
                    vector_envs, n, OpponentPool({kind: 1.0}, folder, seed=0), seed=0
                )
                pool = OpponentPool({kind: 1.0}, folder, seed=0)
                single = DummyVecEnv([lambda pool=pool, n=n: SelfPlayEnv(n, pool, seed=0)])
                v, p = env_rate(vector, seconds), env_rate(single, seconds)
                print(f"{n}p {kind:<25} {v:>9,.0f} {p:>12,.0f} {v / p:>6.1f}", flush=True)
                vector.close()


def one_blas_thread(as_is: bool) -> None:
    """Re-run this process with ``OPENBLAS_NUM_THREADS=1`` (unless ``as_is``).

    numpy's OpenBLAS starts a thread per core for a matrix product; today's workers (a
    snapshot opponent's forward pass) and the main process then fight over the cores, and
    on the shared 2-core machine today's trainer ran 3-7x slower than with one BLAS thread
    (docs/vector.md). The limit must be set before numpy loads, and the subprocess workers
    inherit it; measured with it, the ratio credits the vector env with none of that."""
    if not as_is and os.environ.get("OPENBLAS_NUM_THREADS") != "1":
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
        os.execve(sys.executable, [sys.executable, *sys.argv], env)


def register(
    rows: dict[int, Any],
    players: list[int],
    steps: int,
    vector_envs: int,
    rollout: int = ROLLOUT,
    new_rollout: int = NEW_ROLLOUT,
) -> list[Pair]:
    """Fill vector_throughput.py's TRAINING_ROWS (players -> function(seconds) -> ratio);
    the pairs are built now (workers, compile) and measured per repeat."""
    pairs = [Pair(n, vector_envs, rollout=rollout, new_rollout=new_rollout) for n in players]
    for pair in pairs:
        rows[pair.players] = lambda _seconds, pair=pair: pair.ratio(steps)
    return pairs


def train_rows(args: argparse.Namespace) -> None:
    """Each table size's pair measured ``args.repeats`` times; the median ratios last,
    then the load (the 1-minute load average, at the start and the end)."""
    load = os.getloadavg()[0]
    pairs = [
        Pair(
            n,
            args.vector_envs,
            rollout=args.rollout,
            new_rollout=args.new_rollout,
            new_threads=args.torch_threads,
            round_loop=args.round_loop,
            new_snapshot=args.new_snapshot,
        )
        for n in args.players
    ]
    try:
        for _ in range(args.repeats):
            for pair in pairs:
                pair.ratio(args.train_steps)
        for pair in pairs:
            ratios = [pair.vector_rate(t) / t["today"].steps_per_second for t in pair.history]
            line = (
                f"train{pair.players}p={statistics.median(ratios):.2f}x "
                f"train{pair.players}p_new={pair.new_ratio():.2f}x"
            )
            if args.torch_threads > 1:
                line += f" threads{args.torch_threads}={pair.threads_ratio():.2f}x"
            if args.round_loop:  # the new stack over itself with the round loop
                line += f" vs_round_loop={pair.row_ratio(ROUND_LOOP):.2f}x"
            print(line)
        print(f"load {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    finally:
        for pair in pairs:
            pair.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--train-steps", type=int, default=2048)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--vector-envs", type=int, default=64)
    parser.add_argument("--rollout", type=int, default=ROLLOUT, help="learner steps per rollout")
    parser.add_argument(
        "--new-rollout", type=int, default=NEW_ROLLOUT, help="the new stack's rollout"
    )
    parser.add_argument(
        "--torch-threads", type=int, default=1, help="also the new stack on N torch threads"
    )
    parser.add_argument(
        "--round-loop", action="store_true", help="also the new stack with the round loop"
    )
    parser.add_argument(
        "--new-snapshot", choices=("mlp", "entity"), default="mlp", help="the new stack's pool"
    )
    parser.add_argument("--blas-as-is", action="store_true", help="keep numpy's BLAS threads")
    parser.add_argument("--env-only", type=float, metavar="SECONDS", help="envs without PPO")
    args = parse_args(parser, SMOKE)
    one_blas_thread(args.blas_as_is)
    if args.env_only:
        env_only(args.players, args.vector_envs, args.env_only)
        if not args.smoke:  # the smoke run goes on to the train rows
            return
    train_rows(args)


if __name__ == "__main__":
    main()
