"""Which policy network for the sparse observation? (issue 24, item 2; docs/training.md
"Network".)

Per candidate, beside today's MLP (separate actor and critic [256, 256], tanh):

  update    MaskablePPO's train() on one fixed rollout of ppo_all's size (n_steps 128 x 64
            envs, batch 1024, 4 epochs), in ms per learner step (best of --repeats)
  clone     held-out agreement with heuristic v2 after cloning it as the warm start does
            (warm_start.collect/split/clone: explore 0.1, batch 512, --epochs), per table
            size, all decisions and moves
  params    trainable parameters (actor and critic)
  numpy     inference of the weights-only export in numpy, µs per observation (median)

Candidates: ``ebag`` (an embedding-bag first layer, actor and critic shared or separate)
and ``entity`` (tokens per area, seat and pile, a shared trunk, move and bid logits read
from the destination area's token; with and without that pointer; ``entity_small``
halves its widths). Torch and numpy run one thread each.

Usage: python benchmarks/network_candidates.py [--games 200] [--sizes 2 4 6] [--epochs 5]
       [--only mlp entity ...] [--data FILE.npz] [--smoke]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

for _variable in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")  # one BLAS thread, as torch's one thread: on a
    # loaded 2-core machine a threaded numpy product of one observation took milliseconds

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from clone_fidelity import kind_of  # noqa: E402  (the decision kinds)

from art_gallery_env.training import warm_start  # noqa: E402
from art_gallery_env.training.config import WarmStartConfig  # noqa: E402

CANDIDATES: dict[str, dict[str, Any]] = {
    "mlp": {"type": "mlp", "hidden_sizes": [256, 256]},
    "ebag_separate": {"type": "ebag", "hidden_sizes": [256, 256], "shared": False},
    "ebag_shared": {"type": "ebag", "hidden_sizes": [256, 256], "shared": True},
    "entity_nopointer": {"type": "entity", "hidden_sizes": [256], "use_pointer": False},
    "entity": {"type": "entity", "token_dim": 32, "hidden_sizes": [256], "pointer_dim": 64},
    "entity_small": {"type": "entity", "token_dim": 16, "hidden_sizes": [128], "pointer_dim": 32},
}
SMOKE = {"games": 3, "sizes": [2], "epochs": 1, "n_steps": 8, "n_envs": 4, "batch": 16}
"""``--smoke`` (tests/test_benchmarks_smoke.py): tiny data, rollout and networks."""
SMOKE_NETWORKS = {"hidden_sizes": [16], "token_dim": 4, "pointer_dim": 8}


def new_model(network: dict[str, Any], ppo: dict[str, Any]) -> Any:
    """The trainer's model for a ``network:`` entry (seed 0)."""
    from art_gallery_env.training.sb3_policy import new_network_model
    from art_gallery_env.training.sb3_trainer import new_mlp_model

    if network["type"] == "mlp":
        return new_mlp_model(network["hidden_sizes"], **ppo)
    return new_network_model(network, **ppo)


def fill_rollout(model: Any, data: dict, n_steps: int, n_envs: int) -> None:
    """A rollout buffer of ``n_steps x n_envs`` teacher decisions, valued by the model."""
    import torch
    from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

    buffer = MaskableRolloutBuffer(
        n_steps,
        model.observation_space,
        model.action_space,
        device="cpu",
        gamma=1.0,
        gae_lambda=0.95,
        n_envs=n_envs,
    )
    rng = np.random.default_rng(0)
    rows = rng.choice(len(data["action"]), size=(n_steps, n_envs))
    for step in range(n_steps):
        obs = data["obs"][rows[step]].astype(np.float32)
        actions, masks = data["action"][rows[step]], data["mask"][rows[step]]
        with torch.no_grad():
            values, log_prob, _ = model.policy.evaluate_actions(
                torch.as_tensor(obs), torch.as_tensor(actions), masks
            )
        rewards = rng.normal(size=n_envs).astype(np.float32) * (rng.random(n_envs) < 0.05)
        buffer.add(
            obs, actions, rewards, np.zeros(n_envs, bool), values, log_prob, action_masks=masks
        )
    buffer.compute_returns_and_advantage(torch.zeros(n_envs), np.ones(n_envs, bool))
    model.rollout_buffer = buffer


def update_ms(model: Any, data: dict, n_steps: int, n_envs: int, repeats: int) -> float:
    """ms per learner step of MaskablePPO.train() on one fixed rollout (best of repeats;
    filling the rollout is not timed)."""
    from stable_baselines3.common.logger import Logger

    model.set_logger(Logger(None, []))
    model._current_progress_remaining = 1.0
    best = float("inf")
    for _ in range(repeats):
        fill_rollout(model, data, n_steps, n_envs)
        start = time.perf_counter()
        model.train()
        best = min(best, time.perf_counter() - start)
    return 1000 * best / (n_steps * n_envs)


def agreement(model: Any, held: dict, sizes: Sequence[int]) -> dict[int, tuple[float, float]]:
    """(all, moves) greedy agreement with the teacher on the held-out games, per size."""
    import torch

    out = {}
    for n in sizes:
        rows = held["players"] == n
        obs, mask, teacher = held["obs"][rows], held["mask"][rows], held["action"][rows]
        chosen = []
        with torch.no_grad():
            for i in range(0, len(teacher), 2048):
                x = torch.as_tensor(obs[i : i + 2048], dtype=torch.float32)
                chosen.append(model.policy.get_distribution(x, mask[i : i + 2048]).mode().numpy())
        hit = np.concatenate(chosen) == teacher
        moves = kind_of(teacher) == 0
        out[n] = (float(hit.mean()), float(hit[moves].mean()) if moves.any() else float("nan"))
    return out


def numpy_us(model: Any, data: dict, count: int = 300) -> float:
    """Median µs of one observation's logits in numpy, played from the weights-only file
    that the trainer writes (as PolicyAgent plays it)."""
    from art_gallery_env.agents.model_policy import export_model_weights
    from art_gallery_env.agents.policy import load_policy

    with tempfile.TemporaryDirectory() as folder:
        policy = load_policy(export_model_weights(model, Path(folder) / "p.safetensors", {}))
    obs = data["obs"][:count].astype(np.float32)
    times = []
    for o in obs:
        start = time.perf_counter()
        policy.logits(o)
        times.append(time.perf_counter() - start)
    return 1e6 * float(np.median(times))


PPO = {"n_epochs": 4, "learning_rate": 1e-4, "clip_range": 0.1, "gamma": 1.0}


def update_costs(networks: dict[str, dict], data: dict, args: Any) -> dict[str, float]:
    """ms per learner step of each candidate, measured round-robin (best of --repeats), so
    a change in the machine's load falls on every candidate alike."""
    ppo = {**PPO, "n_steps": args.n_steps, "batch_size": args.batch}
    models = {name: new_model(network, ppo) for name, network in networks.items()}
    best = dict.fromkeys(models, float("inf"))
    for _ in range(args.repeats):
        for name, model in models.items():
            best[name] = min(best[name], update_ms(model, data, args.n_steps, args.n_envs, 1))
    return best


def cloned(network: dict, data: dict, held: dict, args: Any) -> dict[str, Any]:
    """The clone's agreement, parameters, numpy µs and cloning time of one candidate."""
    ppo = {**PPO, "n_steps": args.n_steps, "batch_size": args.batch}
    model = new_model(network, ppo)
    params = sum(p.numel() for p in model.policy.parameters() if p.requires_grad)
    ws = WarmStartConfig(bc_games=args.games, epochs=args.epochs, batch_size=512, holdout=0.1)
    start = time.time()
    agree: dict[int, tuple[float, float]] = {}
    if not args.skip_clone:
        model.policy.set_training_mode(True)
        with contextlib.redirect_stdout(io.StringIO()):  # the per-epoch lines stay out
            warm_start.clone(model.policy, data, ws, 0)
        model.policy.set_training_mode(False)
        agree = agreement(model, held, args.sizes)
    return {
        "agree": agree,
        "params": params,
        "numpy": numpy_us(model, data),
        "clone_s": time.time() - start,
    }


def row(name: str, update: float, r: dict[str, Any], sizes: Sequence[int]) -> str:
    cells = [
        f"{r['agree'][n][0]:.1%} / {r['agree'][n][1]:.1%}" if n in r["agree"] else "-"
        for n in sizes
    ]
    return (
        f"| {name} | {update:.3f} | "
        + " | ".join(cells)
        + f" | {r['params']:,} | {r['numpy']:.0f} | {r['clone_s']:.0f} |"
    )


def load_data(args: Any) -> dict[str, np.ndarray]:
    if args.data and os.path.isfile(args.data):
        with np.load(args.data) as cached:
            return {k: cached[k] for k in cached.files}
    data = warm_start.collect("heuristic", args.sizes, args.games, seed=0, explore=0.1)
    if args.data:
        np.savez(args.data, **data)
    return data


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="teacher games per table size")
    parser.add_argument("--sizes", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--only", nargs="+", choices=list(CANDIDATES), default=list(CANDIDATES))
    parser.add_argument("--n-steps", type=int, default=128)
    parser.add_argument("--n-envs", type=int, default=64)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--skip-clone", action="store_true", help="update cost only")
    parser.add_argument("--data", help="cache the teacher's games in this .npz (reused)")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, seconds (CI)")
    args = parser.parse_args(argv)
    if args.smoke:
        parser.set_defaults(**SMOKE)
        args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    start = time.time()
    data = load_data(args)
    _, held = warm_start.split(data, 0.1, 0)
    print(
        f"{len(data['action']):,} teacher decisions ({len(held['action']):,} held out); "
        f"rollout {args.n_steps} x {args.n_envs}, batch {args.batch}, 4 epochs"
    )
    head = " | ".join(f"{n}p all / moves" for n in args.sizes)
    print(f"| network | update ms/step | {head} | params | numpy µs/obs | clone s |")
    print("|---|---:|" + "---:|" * len(args.sizes) + "---:|---:|---:|")
    networks = {}
    for name in args.only:
        network = dict(CANDIDATES[name])
        if args.smoke:
            network.update(
                {
                    k: v
                    for k, v in SMOKE_NETWORKS.items()
                    if k in network or network["type"] != "mlp" and k == "hidden_sizes"
                }
            )
        networks[name] = network
    updates = update_costs(networks, data, args)
    for name, network in networks.items():
        print(row(name, updates[name], cloned(network, data, held, args), args.sizes), flush=True)
    print(f"load {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
