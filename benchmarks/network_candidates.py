"""Which policy network for the sparse observation? (docs/training.md
"Network".)

Per candidate, beside today's MLP (separate actor and critic [256, 256], tanh):

  update    MaskablePPO's train() on one fixed rollout of ppo_all's size (n_steps 128 x 64
            envs, batch 1024, 4 epochs), in ms per learner step (best of --repeats)
  clone     held-out agreement with heuristic v2 after cloning it as the warm start does
            (warm_start.clone: explore 0.1, batch 512, lr 1e-3, --epochs), per table size,
            all decisions and moves; the held-out games are a fixed set of their own
            (--holdout-games per size, another seed), so data sets of every size are
            measured on the same games; the end's training cross-entropy, and per kind
            (move, bid, shop, pick) on held-out and on as many training games
  params    trainable parameters (actor and critic)
  numpy     inference of the weights-only export in numpy, µs per observation (median)

Candidates: ``ebag`` (an embedding-bag first layer, actor and critic shared or separate)
and ``entity`` (tokens per area, seat and pile, a shared trunk, move and bid logits read
from the destination area's token; with and without that pointer; ``entity_small``
halves its widths). Torch and numpy run one thread each.

The teacher's games come from the compiled teacher (training/warm_start_vector.py) where
numba is installed, else from the Python loop, in chunks of 200 games per size (seeded by
chunk, so 200 games are the first chunk of 1,000); observations are kept sparse (column,
value pairs: about 183 of 2,221 entries are nonzero), 3,000 games per size take ~1.6 GB
instead of ~9.5 GB dense.

Usage: python benchmarks/network_candidates.py [--games 200] [--sizes 2 4 6] [--epochs 5]
       [--only mlp entity ...] [--data FILE.npz] [--holdout-games 100] [--explore 0.1]
       [--lr 1e-3] [--lr-schedule constant|cosine] [--clone-batch 512]
       [--collector auto|vector|python] [--skip-update] [--smoke]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import re
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from _common import parse_args  # this folder: the --smoke option

for _variable in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")  # one BLAS thread, as torch's one thread: on a
    # loaded 2-core machine a threaded numpy product of one observation took milliseconds

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from clone_fidelity import KINDS, kind_of  # noqa: E402  (the decision kinds)

from art_gallery_env.arena.evaluate import derive_seed  # noqa: E402
from art_gallery_env.core.registry import get_game  # noqa: E402
from art_gallery_env.training import warm_start  # noqa: E402
from art_gallery_env.training.config import WarmStartConfig  # noqa: E402
from art_gallery_env.training.warm_start_vector import compiled_collect  # noqa: E402

CANDIDATES: dict[str, dict[str, Any]] = {
    "mlp": {"type": "mlp", "hidden_sizes": [256, 256]},
    "ebag_separate": {"type": "ebag", "hidden_sizes": [256, 256], "shared": False},
    "ebag_shared": {"type": "ebag", "hidden_sizes": [256, 256], "shared": True},
    "entity_nopointer": {"type": "entity", "hidden_sizes": [256], "use_pointer": False},
    "entity": {"type": "entity", "token_dim": 32, "hidden_sizes": [256], "pointer_dim": 64},
    "entity_small": {"type": "entity", "token_dim": 16, "hidden_sizes": [128], "pointer_dim": 32},
}
SMOKE = {
    "games": 3,
    "sizes": [2],
    "epochs": 1,
    "n_steps": 8,
    "n_envs": 4,
    "batch": 16,
    "holdout_games": 2,
    "collector": "python",  # no cold numba compile in CI; the compiled path is the default
}
"""``--smoke`` (tests/test_benchmarks_smoke.py): tiny data, rollout and networks."""
SMOKE_NETWORKS = {"hidden_sizes": [16], "token_dim": 4, "pointer_dim": 8}


CHUNK = 200  # teacher games per table size and collection call (seeded by chunk)


class SparseRows:
    """Observation rows as (column, value) pairs, CSR-like: the 3,000-game data set does
    not fit in memory dense. Indexing by a boolean mask gives a subset (still sparse); by
    integer rows or a slice, the dense float16 rows (what the clone and agreement read)."""

    def __init__(self, indptr: np.ndarray, columns: np.ndarray, values: np.ndarray, width: int):
        self.indptr, self.columns, self.values, self.width = indptr, columns, values, width

    @classmethod
    def from_dense(cls, dense: np.ndarray) -> SparseRows:
        rows, columns = np.nonzero(dense)
        indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=len(dense)))])
        values = dense[rows, columns].astype(np.float16)
        return cls(indptr.astype(np.int64), columns.astype(np.int16), values, dense.shape[1])

    @classmethod
    def concatenate(cls, parts: Sequence[SparseRows]) -> SparseRows:
        ends = np.cumsum([0] + [len(part.values) for part in parts[:-1]])
        indptr = [parts[0].indptr[:1]] + [p.indptr[1:] + e for p, e in zip(parts, ends)]
        return cls(
            np.concatenate(indptr),
            np.concatenate([part.columns for part in parts]),
            np.concatenate([part.values for part in parts]),
            parts[0].width,
        )

    def __len__(self) -> int:
        return len(self.indptr) - 1

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self), self.width)

    def _positions(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(entries per row, the flat positions of those rows' entries)."""
        starts = self.indptr[rows]
        counts = self.indptr[rows + 1] - starts
        firsts = np.cumsum(counts) - counts
        return counts, np.arange(counts.sum()) - np.repeat(firsts - starts, counts)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            return self.dense(np.arange(len(self))[key])
        key = np.asarray(key)
        if key.dtype == bool:
            counts, at = self._positions(np.flatnonzero(key))
            indptr = np.concatenate([[0], np.cumsum(counts)])
            return SparseRows(indptr, self.columns[at], self.values[at], self.width)
        return self.dense(key)

    def dense(self, rows: np.ndarray) -> np.ndarray:
        counts, at = self._positions(np.asarray(rows, dtype=np.int64))
        out = np.zeros((len(rows), self.width), dtype=np.float16)
        out[np.repeat(np.arange(len(rows)), counts), self.columns[at]] = self.values[at]
        return out


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


def agreement(model: Any, held: dict, sizes: Sequence[int]) -> dict[int, dict[str, float]]:
    """Greedy agreement with the teacher per size: all decisions and each kind."""
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
        kinds = kind_of(teacher)
        out[n] = {"all": float(hit.mean())}
        for k, kind in enumerate(KINDS):
            out[n][kind] = float(hit[kinds == k].mean()) if (kinds == k).any() else float("nan")
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


@contextlib.contextmanager
def cosine_lr(total_steps: int) -> Iterator[None]:
    """The clone's Adam with a cosine learning rate over ``total_steps`` steps (to 0):
    warm_start.clone builds a constant-rate Adam, so this wraps that constructor while the
    clone runs (a post-step hook sets each step's rate), leaving training/ untouched."""
    import torch

    real = torch.optim.Adam

    def adam(params: Any, lr: float = 1e-3, **kwargs: Any) -> Any:
        optimizer = real(params, lr=lr, **kwargs)
        step = [0]

        def schedule(opt: Any, *_: Any) -> None:
            step[0] += 1
            for group in opt.param_groups:
                group["lr"] = lr * 0.5 * (1 + math.cos(math.pi * min(step[0] / total_steps, 1)))

        optimizer.register_step_post_hook(schedule)
        return optimizer

    torch.optim.Adam = adam
    try:
        yield
    finally:
        torch.optim.Adam = real


def train_sample(train: dict, sizes: Sequence[int], games: int) -> dict:
    """The rows of the first ``games`` training games per size (memorisation: their
    agreement against the held-out games')."""
    keep = np.zeros(len(train["action"]), dtype=bool)
    for n in sizes:
        ids = np.unique(train["game"][train["players"] == n])[:games]
        keep |= np.isin(train["game"], ids)
    return {k: v[keep] for k, v in train.items()}


def cloned(network: dict, train: dict, held: dict, args: Any) -> dict[str, Any]:
    """The clone's agreement (held-out and on training games), parameters, numpy µs,
    cloning time and training cross-entropy per epoch of one candidate."""
    ppo = {**PPO, "n_steps": args.n_steps, "batch_size": args.batch}
    model = new_model(network, ppo)
    params = sum(p.numel() for p in model.policy.parameters() if p.requires_grad)
    ws = WarmStartConfig(
        bc_games=args.games,
        epochs=args.epochs,
        batch_size=args.clone_batch,
        learning_rate=args.lr,
        holdout=0.1,
    )
    start = time.time()
    agree: dict[int, dict[str, float]] = {}
    seen: dict[int, dict[str, float]] = {}
    ce: list[float] = []
    if not args.skip_clone:
        steps = args.epochs * math.ceil(len(train["action"]) / args.clone_batch)
        schedule = cosine_lr(steps) if args.lr_schedule == "cosine" else contextlib.nullcontext()
        log = io.StringIO()
        model.policy.set_training_mode(True)
        with contextlib.redirect_stdout(log), schedule:  # the per-epoch lines stay out
            warm_start.clone(model.policy, train, ws, 0, held_out=held)
        model.policy.set_training_mode(False)
        ce = [float(x) for x in re.findall(r"cross-entropy ([\d.]+)", log.getvalue())]
        agree = agreement(model, held, args.sizes)
        seen = agreement(model, train_sample(train, args.sizes, args.holdout_games), args.sizes)
    return {
        "agree": agree,
        "seen": seen,
        "ce": ce,
        "params": params,
        "numpy": numpy_us(model, train),
        "clone_s": time.time() - start,
    }


def row(name: str, update: float | None, r: dict[str, Any], sizes: Sequence[int]) -> str:
    cells = [
        f"{r['agree'][n]['all']:.1%} / {r['agree'][n]['move']:.1%}" if n in r["agree"] else "-"
        for n in sizes
    ]
    ce = f"{r['ce'][-1]:.3f}" if r["ce"] else "-"
    return (
        f"| {name} | {'-' if update is None else f'{update:.3f}'} | "
        + " | ".join(cells)
        + f" | {r['params']:,} | {r['numpy']:.0f} | {r['clone_s']:.0f} | {ce} |"
    )


def kind_rows(name: str, r: dict[str, Any], sizes: Sequence[int]) -> list[str]:
    """Per size: held-out agreement per kind, and the same on training games."""
    out = []
    for n in sizes:
        if n not in r["agree"]:
            continue
        cells = [f"{r['agree'][n][kind]:.1%}" for kind in ("all", *KINDS)]
        cells += [f"{r['seen'][n]['all']:.1%} / {r['seen'][n]['move']:.1%}"]
        out.append(f"| {name} | {n} | " + " | ".join(cells) + " |")
    return out


def _chunks(games: int) -> list[int]:
    return [min(CHUNK, games - start) for start in range(0, games, CHUNK)]


def collect(args: Any, games: int, seed: int) -> dict[str, Any]:
    """``games`` teacher games per size in chunks (compiled where it can, module
    docstring), observations sparse; game ids unique across chunks."""
    spec, parts, offset = get_game(None), [], 0
    for c, count in enumerate(_chunks(games)):
        chunk_seed = derive_seed(seed, "chunk", c)
        part = None
        if args.collector != "python":
            part = compiled_collect(
                spec, "heuristic", args.sizes, count, chunk_seed, "score_margin", {}, args.explore
            )
            if part is None and args.collector == "vector":
                raise SystemExit("--collector vector: no compiled teacher (is numba installed?)")
        if part is None:
            part = warm_start.collect(
                "heuristic", args.sizes, count, seed=chunk_seed, explore=args.explore
            )
        part["obs"] = SparseRows.from_dense(part["obs"])
        part["chunk"] = np.full(len(part["action"]), c, dtype=np.int64)
        part["game"] = part["game"] + offset
        offset = int(part["game"].max()) + 1
        parts.append(part)
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0] if k != "obs"}
    data["obs"] = SparseRows.concatenate([p["obs"] for p in parts])
    return data


def _save(path: str, key: dict, sets: dict[str, dict]) -> None:
    arrays: dict[str, np.ndarray] = {"key": np.asarray(json.dumps(key))}
    for prefix, data in sets.items():
        for k, v in data.items():
            if isinstance(v, SparseRows):
                for part in ("indptr", "columns", "values"):
                    arrays[f"{prefix}{k}_{part}"] = getattr(v, part)
                arrays[f"{prefix}{k}_width"] = np.asarray(v.width)
            else:
                arrays[f"{prefix}{k}"] = v
    np.savez(path, **arrays)


def _load(path: str, key: dict) -> tuple[dict, dict] | None:
    """The cached (train, held) sets if the file holds them for this ``key``, or more
    games of the same chunks: then their first ``key["games"]`` per size (the chunks are
    seeded by their index, so those are the games a smaller collection plays)."""
    with np.load(path) as cached:
        stored = json.loads(str(cached["key"])) if "key" in cached.files else {}
        more = stored.get("games", 0) > key["games"] and key["games"] % CHUNK == 0
        if {**stored, "games": key["games"]} != key or stored["games"] != key["games"] and not more:
            return None
        sets: tuple[dict, dict] = ({}, {})
        for name in cached.files:
            prefix, _, k = name.partition("_")
            if prefix in ("train", "held") and not k.startswith("obs_"):
                sets[prefix == "held"][k] = cached[name]
        for prefix, data in zip(("train", "held"), sets):
            parts = [cached[f"{prefix}_obs_{p}"] for p in ("indptr", "columns", "values")]
            data["obs"] = SparseRows(*parts, int(cached[f"{prefix}_obs_width"]))
    if more:
        keep = sets[0]["chunk"] < key["games"] // CHUNK
        return {k: v[keep] for k, v in sets[0].items()}, sets[1]
    return sets


def load_data(args: Any) -> tuple[dict, dict]:
    """(training games, the fixed held-out games), from --data if it holds them."""
    key = {
        "games": args.games,
        "holdout_games": args.holdout_games,
        "sizes": list(args.sizes),
        "explore": args.explore,
        "collector": args.collector,
        "chunk": CHUNK,
    }
    if args.data and os.path.isfile(args.data):
        found = _load(args.data, key)
        if found is not None:
            return found
        print(f"{args.data} holds other data ({key} differs): collecting anew")
    start = time.time()
    train = collect(args, args.games, 0)
    held = collect(args, args.holdout_games, 1)
    print(f"teacher games collected in {time.time() - start:.0f} s", flush=True)
    if args.data:
        _save(args.data, key, {"train_": train, "held_": held})
    return train, held


def parse(argv: Sequence[str] | None) -> Any:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add = parser.add_argument
    add("--games", type=int, default=200, help="teacher games per table size (training)")
    add("--sizes", type=int, nargs="+", default=[2, 4, 6])
    add("--epochs", type=int, default=5)
    add("--only", nargs="+", choices=list(CANDIDATES), default=list(CANDIDATES))
    add("--n-steps", type=int, default=128)
    add("--n-envs", type=int, default=64)
    add("--batch", type=int, default=1024, help="the PPO update's minibatch")
    add("--repeats", type=int, default=2)
    add("--skip-clone", action="store_true", help="update cost only")
    add("--skip-update", action="store_true", help="clone only")
    add("--data", help="cache the teacher's games in this .npz (reused)")
    add("--holdout-games", type=int, default=100, help="held-out games per size (fixed)")
    add("--explore", type=float, default=0.1, help="teacher seats' random-action share")
    add("--lr", type=float, default=1e-3, help="the clone's learning rate")
    add("--lr-schedule", choices=["constant", "cosine"], default="constant")
    add("--clone-batch", type=int, default=512)
    add("--collector", choices=["auto", "vector", "python"], default="auto")
    args = parse_args(parser, SMOKE, argv)
    if min(args.games, args.holdout_games, args.epochs, args.clone_batch) < 1:
        parser.error("--games, --holdout-games, --epochs and --clone-batch must be >= 1")
    if not 0 <= args.explore < 1 or args.lr <= 0:
        parser.error("--explore must be in [0, 1) and --lr > 0")
    return args


def smoke_network(network: dict[str, Any]) -> dict[str, Any]:
    """A candidate at the smoke test's tiny widths."""
    small = {
        k: v
        for k, v in SMOKE_NETWORKS.items()
        if k in network or network["type"] != "mlp" and k == "hidden_sizes"
    }
    return {**network, **small}


def main(argv: Sequence[str] | None = None) -> None:
    args = parse(argv)
    import torch

    torch.set_num_threads(1)
    start = time.time()
    train, held = load_data(args)
    print(
        f"{len(train['action']):,} teacher decisions in {args.games} games per size "
        f"({len(held['action']):,} held out, {args.holdout_games} other games per size), "
        f"explore {args.explore}; clone {args.epochs} epochs, batch {args.clone_batch}, "
        f"lr {args.lr} {args.lr_schedule}; rollout {args.n_steps} x {args.n_envs}, "
        f"batch {args.batch}, 4 epochs"
    )
    networks = {
        name: smoke_network(CANDIDATES[name]) if args.smoke else dict(CANDIDATES[name])
        for name in args.only
    }
    updates: dict[str, float | None] = dict.fromkeys(networks)
    if not args.skip_update:
        updates.update(update_costs(networks, train, args))
    head = " | ".join(f"{n}p all / moves" for n in args.sizes)
    print(f"| network | update ms/step | {head} | params | numpy µs/obs | clone s | train CE |")
    print("|---|---:|" + "---:|" * len(args.sizes) + "---:|---:|---:|---:|")
    results = {}
    for name, network in networks.items():
        results[name] = cloned(network, train, held, args)
        print(row(name, updates[name], results[name], args.sizes), flush=True)
    if not args.skip_clone:
        print(
            "\n| network | players | all | " + " | ".join(KINDS) + " | training games all / moves |"
        )
        print("|---|---:|" + "---:|" * (len(KINDS) + 2))
        for name, r in results.items():
            print("\n".join(kind_rows(name, r, args.sizes)))
            print(
                f"{name}: training cross-entropy per epoch " + " ".join(f"{x:.3f}" for x in r["ce"])
            )
    print(f"load {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
