"""MaskablePPO learner steps per second: the compiled self-play VecEnv (``vec_env:
vector``) against today's trainer (``vec_env: subproc``, SelfPlayEnv workers), side by
side in one run; the train rows of vector_throughput.py (numbers in docs/vector.md).

Both models are built by the trainer's own functions (``build_vec_env``, ``_new_model``)
from one config: the same network, PPO settings and rollout size (``n_envs * n_steps``),
so the PPO update costs the same per learner step; ``subproc`` runs one worker per core,
``vector`` many games in this process (``--vector-envs``). The pool holds one snapshot of
the learner, so self-play, heuristic and random opponents all play (default weights).
Each measurement is ``model.learn`` over ``--train-steps`` learner steps after a warm-up
rollout, PPO updates included; a callback splits the time into rollout and update.

Usage: python benchmarks/vector_training.py [--players 2 4] [--train-steps 2048] [--repeats 2]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

ROLLOUT = 1024  # learner steps per PPO rollout, both env kinds


class Timing(NamedTuple):
    steps_per_second: float
    rollout_fraction: float  # of the wall time, the rest is the PPO update


class Trainer:
    """One model on one env kind, learning on in chunks of ``steps``."""

    def __init__(self, players: int, vec_env: str, n_envs: int, pool: Path) -> None:
        import torch
        from sb3_contrib import MaskablePPO

        from art_gallery_env.training.config import config_from_dict
        from art_gallery_env.training.sb3_trainer import _new_model, build_vec_env

        config = config_from_dict(
            {
                "name": f"bench_{vec_env}",
                "total_steps": 10**9,
                "n_envs": n_envs,
                "vec_env": vec_env,
                "env": {"num_players": players},
                "ppo": {"n_steps": ROLLOUT // n_envs, "batch_size": 256, "n_epochs": 4},
            }
        )
        torch.set_num_threads(config.torch_threads)
        self.env = build_vec_env(config, pool)
        self.model = _new_model(config, self.env, MaskablePPO, torch)
        self.learn(ROLLOUT)  # warm-up: workers started, kernels compiled or loaded

    def learn(self, steps: int) -> Timing:
        from stable_baselines3.common.callbacks import BaseCallback

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
    """Today's trainer and the vector env for one table size, measured alternately."""

    def __init__(self, players: int, vector_envs: int, subproc_envs: int = 2) -> None:
        from art_gallery_env.training.checkpoints import snapshot_name
        from art_gallery_env.training.sb3_trainer import SB3State

        self._folder = tempfile.TemporaryDirectory()
        pool = Path(self._folder.name)
        self.players = players
        self.vector = Trainer(players, "vector", vector_envs, pool)
        path = pool / snapshot_name(0)
        SB3State(self.vector.model).export_weights(path, {"name": path.stem})
        self.today = Trainer(players, "subproc", subproc_envs, pool)
        # the vector env with today's exact config (its n_envs too), for reference
        self.same = Trainer(players, "vector", subproc_envs, pool)
        self.history: list[tuple[Timing, Timing]] = []

    def ratio(self, steps: int) -> float:
        today = self.today.learn(steps)
        vector = self.vector.learn(steps)
        same = self.same.learn(steps)
        self.history.append((today, vector))
        envs = self.vector.env.num_envs, self.today.env.num_envs
        base = today.steps_per_second
        print(
            f"  train {self.players}p: today ({envs[1]} envs) {base:,.0f} steps/s, rollout "
            f"{today.rollout_fraction:.0%} of the time | vector ({envs[0]} envs) "
            f"{vector.steps_per_second:,.0f} steps/s, rollout {vector.rollout_fraction:.0%}: "
            f"{vector.steps_per_second / base:.2f}x | vector ({envs[1]} envs) "
            f"{same.steps_per_second:,.0f} steps/s, rollout {same.rollout_fraction:.0%}: "
            f"{same.steps_per_second / base:.2f}x",
            flush=True,
        )
        return vector.steps_per_second / today.steps_per_second

    def close(self) -> None:
        self.today.close()
        self.vector.close()
        self.same.close()
        self._folder.cleanup()


def register(rows: dict[int, Any], players: list[int], steps: int, vector_envs: int) -> list[Pair]:
    """Fill vector_throughput.py's TRAINING_ROWS (players -> function(seconds) -> ratio);
    the pairs are built now (workers, compile) and measured per repeat."""
    pairs = [Pair(n, vector_envs) for n in players]
    for pair in pairs:
        rows[pair.players] = lambda _seconds, pair=pair: pair.ratio(steps)
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--train-steps", type=int, default=2048)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--vector-envs", type=int, default=64)
    args = parser.parse_args()
    pairs = [Pair(n, args.vector_envs) for n in args.players]
    try:
        for _ in range(args.repeats):
            for pair in pairs:
                pair.ratio(args.train_steps)
        for pair in pairs:
            ratios = [v.steps_per_second / t.steps_per_second for t, v in pair.history]
            print(f"train{pair.players}p={statistics.median(ratios):.2f}x")
    finally:
        for pair in pairs:
            pair.close()


if __name__ == "__main__":
    main()
