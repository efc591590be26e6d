"""Training throughput of the RLlib path with 0, 1 and 2 env runners, next to the SB3 path.

Usage: python benchmarks/rllib_throughput.py [--iters 3] [--players 2] [--runners 0 1 2]
       [--envs-per-runner 1 4] [--batch 2048] [--no-sb3] [--smoke]

Each RLlib setting builds PPO with the project's masked module (hidden [128, 128], like
configs/quick.yaml), runs one warm-up iteration and then ``--iters`` timed iterations of
2048 env steps (minibatch 256, 4 epochs: the quick config's update) and reports env steps
per second of wall time (sampling + learning + weight sync), for each number of env
runners and of envs per runner (an env runner steps its envs together and batches their
forward passes); ``--batch`` changes the 2048. With one shared policy every env step is a
learner step. torch uses one thread in every process, as ``torch_threads: 1`` does. The
SB3 row trains configs/quick.yaml's MaskablePPO (4 subprocess envs, opponents from its
pool) for the same number of timed updates (of ``--batch`` steps, quick's 4 x 512 by
default); its steps are the learner seat's decisions only. ``--smoke``
(tests/test_benchmarks_smoke.py): one tiny update per row, 0 env runners, in seconds.

Ray runs locally with 2 logical CPUs. Numbers depend on what else the machine is doing:
run it on an idle machine, or say that it was not.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import yaml
from _common import parse_args  # this folder: the --smoke option

BATCH = 2048  # env steps per update (--batch)
MINIBATCH = 256  # at most the batch
EPOCHS = 4
HIDDEN = [128, 128]
QUICK = Path(__file__).resolve().parents[1] / "configs" / "quick.yaml"
SMOKE = {"iters": 1, "runners": [0], "envs_per_runner": [1], "batch": 128}


def _config(players: int, runners: int, envs: int, batch: int = BATCH):
    from art_gallery_env.training.config import config_from_dict

    return config_from_dict(
        {
            "name": f"bench_{runners}",
            "algorithm": "rllib_ppo",
            "total_steps": batch,
            "env": {"num_players": players},
            "network": {"hidden_sizes": HIDDEN},
            "rllib": {
                "num_env_runners": runners,
                "num_envs_per_env_runner": envs,
                "train_batch_size": batch,
                "minibatch_size": min(MINIBATCH, batch),
                "num_epochs": EPOCHS,
            },
        }
    )


def rllib_row(
    players: int, runners: int, envs: int, iters: int, batch: int = BATCH
) -> dict[str, float]:
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED

    from art_gallery_env.training.rllib_trainer import build_algorithm_config

    algo = build_algorithm_config(_config(players, runners, envs, batch)).build_algo()
    try:
        algo.train()  # warm-up: first env reset, torch first calls
        steps = seconds = 0.0
        per_iter = []
        for _ in range(iters):
            start = time.perf_counter()
            result = algo.train()
            wall = time.perf_counter() - start
            n = float(result[ENV_RUNNER_RESULTS][NUM_ENV_STEPS_SAMPLED])
            steps += n
            seconds += wall
            per_iter.append(n / wall)
    finally:
        algo.stop()
    return {
        "steps": steps,
        "steps_per_s": steps / seconds,
        "median_iter": statistics.median(per_iter),
    }


def sb3_config(batch: int = BATCH):
    """configs/quick.yaml with ``batch`` learner steps per update (its own 2048 by default:
    4 envs x 512 steps)."""
    from art_gallery_env.training.config import config_from_dict

    data = yaml.safe_load(QUICK.read_text(encoding="utf-8"))
    # the row's fixed shape (quick.yaml's first form): 4 subprocess envs, an MLP, no clone
    data.update(n_envs=4, vec_env="subproc", network={"hidden_sizes": [128, 128]})
    data.pop("warm_start", None)
    ppo = data["ppo"]
    ppo.update(n_steps=batch // data["n_envs"], batch_size=min(ppo["batch_size"], batch))
    return config_from_dict(data, str(QUICK))


def sb3_row(iters: int, batch: int = BATCH) -> dict[str, float]:
    import torch

    from art_gallery_env.training.sb3_trainer import build_vec_env, new_mlp_model

    config = sb3_config(batch)
    torch.set_num_threads(config.torch_threads)
    per_update = config.ppo.n_steps * config.n_envs
    with tempfile.TemporaryDirectory() as snapshots:
        vec_env = build_vec_env(config, Path(snapshots))
        try:
            model = new_mlp_model(  # the trainer's network: quick's sizes and activation
                config.network.hidden_sizes,
                config.network.activation,
                seed=0,
                vec_env=vec_env,
                **config.ppo.model_dump(),
            )
            model.learn(total_timesteps=per_update)  # warm-up update
            start = time.perf_counter()
            model.learn(total_timesteps=per_update * iters, reset_num_timesteps=False)
            seconds = time.perf_counter() - start
        finally:
            vec_env.close()
    steps = float(per_update * iters)
    return {"steps": steps, "steps_per_s": steps / seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iters", type=int, default=3, help="timed iterations per setting")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--runners", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--envs-per-runner", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--batch", type=int, default=BATCH, help="env steps per update")
    parser.add_argument("--no-sb3", action="store_true", help="skip the SB3 row")
    args = parse_args(parser, SMOKE)

    import ray
    import torch

    torch.set_num_threads(1)  # the driver samples (with 0 runners) and learns
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    ray.init(num_cpus=max(2, *args.runners), include_dashboard=False)
    rows = []
    try:
        for envs in args.envs_per_runner:
            for runners in args.runners:
                name = f"RLlib PPO, {runners} runners x {envs} envs"
                row = rllib_row(args.players, runners, envs, args.iters, args.batch)
                rows.append((name, row))
                print(f"done: {name}", flush=True)
    finally:
        ray.shutdown()
    if not args.no_sb3:
        rows.append(("SB3 MaskablePPO quick, 4 subproc envs", sb3_row(args.iters, args.batch)))
    load_end = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")

    print()
    print(
        f"{os.cpu_count()} CPUs, load average {load:.2f} at start, {load_end:.2f} at the end; "
        f"{args.players} players, hidden {HIDDEN}, {args.batch} steps/update, minibatch "
        f"{min(MINIBATCH, args.batch)}, {EPOCHS} epochs, {args.iters} timed updates after one "
        f"warm-up"
    )
    print(f"{'setting':<40} {'steps':>7} {'steps/s':>8} {'median/iter':>12}")
    print("-" * 70)
    for name, r in rows:
        median = f"{r['median_iter']:.0f}" if "median_iter" in r else "-"
        print(f"{name:<40} {r['steps']:>7.0f} {r['steps_per_s']:>8.0f} {median:>12}")


if __name__ == "__main__":
    main()
