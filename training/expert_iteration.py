"""Expert iteration (``algorithm: expert_iteration``): the network-guided search teaches
the network it searches with, generation by generation (Anthony, Tian & Barber 2017;
AlphaZero's loop, for a multi-player hidden-information game).

Each generation ``g`` (1 .. ``exit.generations``):

1. **self-play** (:mod:`.exit_selfplay`): ``games_per_generation`` games, table sizes
   drawn from ``env.num_players`` / ``player_weights``, the network of generation
   ``g - 1`` guiding :class:`~art_gallery_env.agents.guided_search.GuidedSearch` in every
   seat, played by ``exit.workers`` processes. The rows (observation, mask, root visit
   distribution, the seat's final win share) are saved as ``replay/gen_NNN.npz``; with
   ``exit.topk`` > 0 the search is its rollout mode (the net's top-K valued by the
   game's compiled rollouts) and the policy target the softmax of the candidates' means
   over ``exit.target_temperature`` (:mod:`.exit_selfplay` says why);
2. **train** the torch entity network (:mod:`.networks`) on the last
   ``replay_generations`` generations' rows: cross-entropy of the masked policy to the
   visit distribution, plus ``value_weight`` times the squared error of the value head,
   through a logistic, to the win share (its meta says ``"value_kind": "win_share"``, so
   every numpy consumer reads the head as a win share in [0, 1]);
3. **export, evaluate, keep**: through the trainers' :class:`~.selection.CheckpointSelector`
   (``eval.games`` seat-rotated games per ``eval.opponents`` entry and evaluated table
   size, by the arena's match runner; ``latest``/``best``, ``eval.csv``), and the
   generation's own weights as ``pool/gen_NNN.safetensors`` with ``gen_NNN.json``
   (``art-gallery eval --agents RUN_DIR heuristic`` rates every generation), and a row of
   ``logs/progress.csv`` (``art-gallery plot RUN_DIR``) with the TensorBoard scalars
   beside it (:class:`Tracking`).

Generation 0 is the start (``exit.init``: a clone of the ``warm_start:`` teacher, a fresh
network, or a checkpoint), evaluated and saved like the others; once it is saved, the
run folder's ``warm_start/`` cache of the clone's data is deleted (nothing can need it:
every later start resumes from a checkpoint). A step of the run folder
is a generation (``total_steps`` is ``exit.generations``), so ``--resume`` continues
at the generation after ``latest`` with the network and Adam state saved beside it
(``exit_state.pt``): every seed is derived from (seed, generation, game), and the result
equals an uninterrupted run. A stop signal drops the generation in progress (self-play
workers are killed, nothing of it is published) and exits with ``latest`` as it was.
"""

from __future__ import annotations

import io
import json
import multiprocessing
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import numpy as np

from art_gallery_env.agents.policy_entity import WIN_SHARE
from art_gallery_env.arena.evaluate import derive_seed, init_worker
from art_gallery_env.files import atomic_copy, atomic_write_bytes, atomic_write_json
from art_gallery_env.processes import kill_processes, one_compute_thread_for_children
from art_gallery_env.processes import spawning_quietly as _spawning_quietly

from .checkpoints import BEST, WEIGHTS
from .config import INIT_RANDOM, INIT_WARM_START, TrainConfig, WarmStartConfig
from .entry import resume_line, run_trainer
from .exit_selfplay import SelfPlayTask, merge_games, play_chunk
from .interrupt import GracefulStop, TrainingInterrupted
from .logs import CsvLog
from .plots import STEP_UNIT_KEY
from .run_folder import WARM_START_REMOVING, RunStart
from .scalars import FPS, LEARNING_RATE, ScalarWriter, eval_scalars
from .selection import CheckpointSelector, TrainerState
from .warm_start import FOLDER as WARM_START

TRAINER = "expert_iteration"
EXIT_STATE = "exit_state.pt"
REPLAY = "replay"
POOL = "pool"
STEP_KEY = "time/total_timesteps"  # the logs' step column: here a generation
STEP_UNIT = "generation"  # what the progress log says its steps are (plots' x axis)


def generation_name(generation: int) -> str:
    return f"gen_{generation:03d}"


# -- the network and its training -------------------------------------------------------
class Learner:
    """The torch entity network and its Adam optimizer."""

    def __init__(self, config: TrainConfig) -> None:
        import torch

        from .sb3_policy import build_network

        assert config.exit is not None
        self.config = config
        torch.manual_seed(derive_seed(config.seed, "network") % (1 << 63))
        self.net = build_network(config.network.network(), config.env.game)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=config.exit.learning_rate)

    def load_weights_file(self, path: str | Path) -> None:
        """Start from an entity checkpoint's weights (``exit.init``: a path)."""
        load_weights_into(self.net, path)

    def export(self, path: Path, meta: dict[str, Any]) -> None:
        from art_gallery_env.agents.policy_format import save_network_weights

        header = {**self.net.header(), **meta, "value_kind": WIN_SHARE}
        save_network_weights(self.net.export_tensors(), header, path)

    def state_bytes(self, generation: int) -> bytes:
        import torch

        buffer = io.BytesIO()
        state = {
            "generation": generation,
            "net": self.net.state_dict(),
            "optimizer": self.optimizer.state_dict(),
        }
        torch.save(state, buffer)
        return buffer.getvalue()

    def load_state(self, path: Path) -> int:
        import torch

        state = torch.load(path, weights_only=True)
        self.net.load_state_dict(state["net"])
        self.optimizer.load_state_dict(state["optimizer"])
        return int(state["generation"])

    def fit(
        self,
        data: dict[str, np.ndarray],
        epochs: int,
        batch_size: int,
        seed: int,
        lr: float,
        anchor: Any = None,
    ) -> dict[str, float]:
        """``epochs`` passes over ``data`` (obs, mask, policy target, value target);
        returns the last epoch's mean losses. With an ``anchor`` network (generation 0)
        the loss adds ``exit.anchor_kl`` times KL(anchor's policy || the net's) per row."""
        import torch
        import torch.nn.functional as F

        for group in self.optimizer.param_groups:
            group["lr"] = lr
        weight = float(self.config.exit.value_weight) if self.config.exit else 1.0
        kl_weight = float(self.config.exit.anchor_kl) if self.config.exit else 0.0
        anchored = anchor is not None and kl_weight > 0
        params = list(self.net.parameters())
        generator = torch.Generator().manual_seed(seed % (1 << 63))
        rows = len(data["value"])
        self.net.train()
        ce_sum = mse_sum = kl_sum = 0.0
        for _ in range(epochs):
            order = torch.randperm(rows, generator=generator).numpy()
            ce_sum = mse_sum = kl_sum = 0.0
            for i in range(0, rows, batch_size):
                idx = np.sort(order[i : i + batch_size])
                x = torch.as_tensor(data["obs"][idx], dtype=torch.float32)
                mask = torch.as_tensor(data["mask"][idx])
                target = torch.as_tensor(data["policy"][idx])
                logits, value = self.net(x)
                logp = F.log_softmax(logits.masked_fill(~mask, -1e9), dim=1)
                ce = -(target * logp).sum(1).mean()
                share = torch.sigmoid(value.reshape(-1))
                mse = F.mse_loss(share, torch.as_tensor(data["value"][idx]))
                loss = ce + weight * mse
                if anchored:
                    kl = _anchor_kl(anchor, x, mask, logp)
                    loss = loss + kl_weight * kl
                    kl_sum += kl.item() * len(idx)
                self.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(params, 1.0)
                self.optimizer.step()
                ce_sum += ce.item() * len(idx)
                mse_sum += mse.item() * len(idx)
        self.net.eval()
        entropy = _entropy(data["policy"])
        ce_mean = ce_sum / max(1, rows)
        return {
            "rows": rows,
            "policy_ce": ce_mean,
            "policy_kl": ce_mean - entropy,
            "value_mse": mse_sum / max(1, rows),
            "anchor_kl": kl_sum / max(1, rows),
        }


def _anchor_kl(anchor: Any, x: Any, mask: Any, logp: Any) -> Any:
    """Mean KL(anchor || net) of the masked policies: the pull back to generation 0."""
    import torch
    import torch.nn.functional as F

    with torch.no_grad():
        ref = F.log_softmax(anchor.logits(x).masked_fill(~mask, -1e9), dim=1)
    p = ref.exp()
    return (p * (ref - logp)).masked_fill(~mask, 0.0).sum(1).mean()


def load_weights_into(net: Any, path: str | Path) -> None:
    """An entity checkpoint's weights into the torch network ``net``."""
    import torch

    from art_gallery_env.agents.policy_format import load_weights

    policy = load_weights(path)
    state = {k: torch.as_tensor(np.asarray(v)) for k, v in policy.t.items()}
    own = net.state_dict()
    net.load_state_dict({k: state[k].to(own[k].dtype) for k in own if k in state})


def _entropy(target: np.ndarray) -> float:
    """Mean entropy of the target distributions (the cross-entropy's floor)."""
    if len(target) == 0:
        return 0.0
    p = target.astype(np.float64)
    return float(-(p * np.log(np.where(p > 0, p, 1.0))).sum(1).mean())


class ExitState(TrainerState):
    """The learner as the selector exports and saves it."""

    trainer = TRAINER

    def __init__(self, learner: Learner, config: TrainConfig) -> None:
        self.learner, self.config = learner, config
        self.generation = 0

    def export_weights(self, path: Path, meta: dict[str, Any]) -> None:
        name = f"{self.config.name}@{generation_name(int(meta['steps']))}"
        self.learner.export(path, {**meta, "name": name, "generation": int(meta["steps"])})

    def save_resume_state(self, folder: Path) -> dict[str, str]:
        atomic_write_bytes(folder / EXIT_STATE, self.learner.state_bytes(self.generation))
        return {"exit": EXIT_STATE}


# -- the start: warm start, a checkpoint or a fresh net ----------------------------------
def initialise(learner: Learner, start: RunStart) -> dict[str, Any]:
    """Generation 0's network (``exit.init``); returns what to record of it."""
    config = start.config
    assert config.exit is not None
    init = config.exit.init
    if init == INIT_RANDOM:
        return {"init": INIT_RANDOM}
    if init != INIT_WARM_START:
        learner.load_weights_file(init)
        print(f"expert iteration: generation 0 is {init}", flush=True)
        return {"init": init}
    from .warm_start import load_or_collect, split

    ws = config.warm_start or WarmStartConfig()
    data = load_or_collect(start.run_dir, config.model_copy(update={"warm_start": ws}))
    train, held = split(data, ws.holdout, config.seed)
    started = time.time()
    stats = learner.fit(
        _cloning_rows(train, learner), ws.epochs, ws.batch_size, config.seed, ws.learning_rate
    )
    agreement = _agreement(learner, held)
    print(
        f"expert iteration: generation 0 clones {ws.teacher} ({stats['rows']:,} decisions, "
        f"{ws.epochs} epochs, {time.time() - started:.0f} s): cross-entropy "
        f"{stats['policy_ce']:.3f}, value mse {stats['value_mse']:.3f}, held-out agreement "
        f"{agreement:.1%}",
        flush=True,
    )
    return {"init": INIT_WARM_START, "warm_start": {**stats, "agreement": agreement}}


def _cloning_rows(data: dict[str, np.ndarray], learner: Learner) -> dict[str, np.ndarray]:
    """The teacher's decisions as expert-iteration rows: its action as a one-hot policy,
    the win share (the ``win`` reward mode's 1/k for winners, -1 for the others) as value."""
    actions = learner.net.pi.out_features
    policy = np.zeros((len(data["action"]), actions), np.float32)
    policy[np.arange(len(data["action"])), data["action"]] = 1.0
    value = np.maximum(np.asarray(data["value"], np.float32), 0.0)
    return {"obs": data["obs"], "mask": data["mask"], "policy": policy, "value": value}


def _agreement(learner: Learner, held: dict[str, np.ndarray]) -> float:
    """Share of held-out teacher decisions where the net's most likely legal action is it."""
    import torch

    if len(held["action"]) == 0:
        return float("nan")
    hits = 0
    with torch.no_grad():
        for i in range(0, len(held["action"]), 2048):
            x = torch.as_tensor(held["obs"][i : i + 2048], dtype=torch.float32)
            mask = torch.as_tensor(held["mask"][i : i + 2048])
            greedy = learner.net.logits(x).masked_fill(~mask, -1e9).argmax(1).numpy()
            hits += int((greedy == held["action"][i : i + 2048]).sum())
    return hits / len(held["action"])


def drop_warm_start_cache(run_dir: Path) -> bool:
    """Delete the run folder's ``warm_start/`` (the teacher's cloning data, about 1 GB for
    ``exit_all``) once generation 0 is saved: every later start resumes from a checkpoint
    and its ``exit_state.pt``, never from the clone's data. One rename first, so a kill
    leaves the cache whole or under :data:`WARM_START_REMOVING`, whose removal the next
    start finishes. Returns whether a cache was there."""
    cache, removing = run_dir / WARM_START, run_dir / WARM_START_REMOVING
    found = cache.is_dir()
    if found:
        if removing.exists():
            shutil.rmtree(removing)
        cache.rename(removing)
    if removing.exists():
        shutil.rmtree(removing)
    return found


# -- the anchor to generation 0 (exit.anchor_games, exit.anchor_kl) ----------------------
TRAIN_KEYS = ("obs", "mask", "policy", "value")  # what Learner.fit reads of a row


class Anchors:
    """What pulls every generation's training back to the start: the teacher's rows
    (``exit.anchor_games``) and generation 0's network (``exit.anchor_kl``), both made
    again at every start from the seed and ``pool/gen_000``, so a resume is exact."""

    def __init__(self, config: TrainConfig, run_dir: Path, learner: Learner) -> None:
        ex = config.exit
        assert ex is not None
        self.rows = teacher_rows(config, learner) if ex.anchor_games else None
        self.net = None
        if ex.anchor_kl > 0:
            from .sb3_policy import build_network

            self.net = build_network(config.network.network(), config.env.game)
            load_weights_into(self.net, run_dir / POOL / f"{generation_name(0)}.safetensors")
            self.net.eval()
            for parameter in self.net.parameters():
                parameter.requires_grad_(False)

    def training_rows(self, window: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """The replay window's rows, and the teacher's after them."""
        if self.rows is None:
            return window
        return {k: np.concatenate([window[k], self.rows[k].astype(window[k].dtype)])
                for k in TRAIN_KEYS}  # fmt: skip


def teacher_rows(config: TrainConfig, learner: Learner) -> dict[str, np.ndarray]:
    """``exit.anchor_games`` games per table size of the ``warm_start:`` teacher (the
    compiled engine where the game has it), as one-hot policy and win-share rows."""
    from art_gallery_env.core.registry import get_game

    from .warm_start import collect
    from .warm_start_vector import compiled_collect

    ex = config.exit
    assert ex is not None
    ws = config.warm_start or WarmStartConfig()
    spec = get_game(config.env.game)
    variants = spec.check_variants(config.env.variants)
    sizes, mode = config.env.table_sizes, config.env.reward_mode
    args = (ws.teacher, sizes, ex.anchor_games, derive_seed(config.seed, "anchor"), mode)
    started = time.time()
    data = compiled_collect(spec, *args, variants, ws.explore)
    if data is None:
        data = collect(*args, variants, ws.explore, game=config.env.game)
    print(
        f"expert iteration: anchor rows: {len(data['action']):,} decisions of {ws.teacher} in "
        f"{ex.anchor_games} games x sizes {sizes} ({time.time() - started:.0f} s)",
        flush=True,
    )
    return _cloning_rows(data, learner)


# -- self-play --------------------------------------------------------------------------
def selfplay_tasks(config: TrainConfig, generation: int, weights: Path) -> list[SelfPlayTask]:
    """The generation's games: each one's table size and seeds from (seed, generation)."""
    ex = config.exit
    assert ex is not None
    sizes = config.env.table_sizes
    weights_of = np.asarray(config.env.table_weights, dtype=np.float64)
    rng = np.random.default_rng(derive_seed(config.seed, "table sizes", generation))
    drawn = rng.choice(sizes, size=ex.games_per_generation, p=weights_of / weights_of.sum())
    past = past_generations(weights.parent, generation)
    league_rng = [np.random.default_rng(derive_seed(config.seed, "league", generation, g))
                  for g in range(len(drawn))]  # fmt: skip
    seats = [ex.league.seats(league_rng[g], int(n), g, past) for g, n in enumerate(drawn)]
    return [
        SelfPlayTask(
            index=g,
            weights=str(weights),
            game=config.env.game or "",
            num_players=int(n),
            seed=derive_seed(config.seed, "self-play", generation, g),
            variants=dict(config.env.variants),
            iters=ex.iters,
            c_puct=ex.c_puct,
            search_batch=ex.search_batch,
            dirichlet=ex.dirichlet,
            temperature_moves=ex.temperature_moves,
            prior_temperature=ex.prior_temperature,
            topk=ex.topk,
            target_temperature=ex.target_temperature,
            target_prior=ex.target_prior,
            opponents=seats[g],
        )
        for g, n in enumerate(drawn)
    ]


def past_generations(pool: Path, generation: int) -> list[Path]:
    """The weight files of the generations before ``generation`` (0, the start, first)."""
    return [pool / f"{generation_name(g)}.safetensors" for g in range(generation)]


class SelfPlayPool:
    """The run's self-play worker processes, started at the first generation and kept.

    Always separate processes, one worker too: they are spawned with one BLAS thread
    (``one_compute_thread_for_children``), where this process's numpy has the default
    thread count, and a search's small matrix products on two threads measured 5-6x the
    CPU (182 against 34 ms a decision at 48 iterations). A stop signal kills them at once.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None

    def play(self, tasks: list[SelfPlayTask]) -> list[dict[str, Any]]:
        """Every task's game (in any order). If a worker dies (killed, out of memory) the
        games not finished are played once more in new workers, from their own seeds (the
        rows of an unbroken run); a second death stops the run in one line."""
        results: list[dict[str, Any]] = []
        for attempt in (1, 2):
            done = {game["index"] for game in results}
            try:
                self._play([task for task in tasks if task.index not in done], results)
                return results
            except BrokenProcessPool:
                left = f"{len(results)} of {len(tasks)} games finished"
                if attempt == 2:
                    raise ChildProcessError(
                        f"a self-play worker process died again ({left}); the generation is "
                        "dropped (a worker killed from outside or out of memory: try fewer "
                        "exit.workers)"
                    ) from None
                print(
                    f"warning: a self-play worker process died; {left}, the others are "
                    "played again in new workers",
                    file=sys.stderr,
                    flush=True,
                )
        return results

    def _play(self, tasks: list[SelfPlayTask], results: list[dict[str, Any]]) -> None:
        try:
            # the executor starts its processes at submit, not when it is made: both
            # inside the block, or they start with this process's thread counts
            with _spawning_quietly(), one_compute_thread_for_children():
                if self.pool is None:
                    self.pool = ProcessPoolExecutor(
                        max_workers=self.workers,
                        mp_context=multiprocessing.get_context("spawn"),
                        initializer=init_worker,
                    )
                futures = [self.pool.submit(play_chunk, [task]) for task in tasks]
            for future in as_completed(futures):
                results.extend(future.result())
        except BaseException:
            self.kill()
            raise

    def kill(self) -> None:
        """Stop the workers now (their games in progress are dropped)."""
        if self.pool is not None:
            kill_processes(list(getattr(self.pool, "_processes", {}).values()))
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None


def selfplay_pool(ex: Any) -> Any:
    """The ``exit.backend``'s pool: local worker processes, or Ray tasks."""
    if ex.backend == "ray":
        from .exit_ray import RaySelfPlayPool

        return RaySelfPlayPool(ex.workers, ex.ray_address)
    return SelfPlayPool(ex.workers)


def save_replay(run_dir: Path, generation: int, data: dict[str, np.ndarray]) -> Path:
    path = run_dir / REPLAY / f"{generation_name(generation)}.npz"
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **data)
    path.parent.mkdir(parents=True, exist_ok=True)
    return atomic_write_bytes(path, buffer.getvalue())


def replay_window(run_dir: Path, generation: int, count: int) -> dict[str, np.ndarray]:
    """The rows of generations ``generation - count + 1 .. generation`` (those there are)."""
    parts = []
    for g in range(max(1, generation - count + 1), generation + 1):
        with np.load(run_dir / REPLAY / f"{generation_name(g)}.npz") as saved:
            parts.append({k: saved[k] for k in saved.files})
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def prune_generations(run_dir: Path, done: int, keep_replay: int) -> None:
    """Delete what lies past generation ``done`` (a resumed run's lost future: replay
    and pool files) and replay files older than the window still needed."""
    for folder, pattern in ((run_dir / REPLAY, "gen_*.npz"), (run_dir / POOL, "gen_*")):
        for path in folder.glob(pattern) if folder.is_dir() else ():
            try:
                g = int(path.name[4:7])
            except ValueError:
                continue
            stale = folder.name == REPLAY and g <= done - keep_replay
            if g > done or stale:
                path.unlink(missing_ok=True)


def publish_generation(
    run_dir: Path, generation: int, meta: dict[str, Any], keep_state: bool = False
) -> None:
    """``pool/gen_NNN.safetensors`` (a copy of latest's weights) and ``gen_NNN.json``;
    with ``keep_state`` also its resume state (``gen_NNN.exit_state.pt``, for
    :func:`repick_best`)."""
    name = generation_name(generation)
    pool = run_dir / POOL
    pool.mkdir(exist_ok=True)
    atomic_copy(run_dir / "latest" / WEIGHTS, pool / f"{name}.safetensors")
    if keep_state:
        atomic_copy(run_dir / "latest" / EXIT_STATE, pool / f"{name}.{EXIT_STATE}")
    atomic_write_json(pool / f"{name}.json", meta, indent=2, sort_keys=True)


# -- the final pick of best (exit.best_candidates) ----------------------------------------
REPICK_SEED = 777  # not the final table's 54321: that table stays an independent measure
REPICKED = "best_candidates.json"


def curve_scores(run_dir: Path, config: TrainConfig) -> dict[int, float]:
    """Each generation's selection score from ``eval.csv`` (the ``eval.games`` curve)."""
    import csv

    from .selection import selection_score

    by_generation: dict[int, dict[str, dict[str, float]]] = {}
    with (run_dir / "eval.csv").open(encoding="utf-8") as file:
        for row in csv.DictReader(file):
            results = by_generation.setdefault(int(row["steps"]), {})
            results[row["opponent"]] = {"win_share": float(row["win_share"])}
    return {g: selection_score(r, config) for g, r in by_generation.items()}


def repick_best(run_dir: Path, config: TrainConfig) -> int:
    """Play the top ``exit.best_candidates`` generations of the curve ``eval.final_games``
    games more each (seed :data:`REPICK_SEED`) and make the best of them ``best``: 20-game
    points are about +-20 points, so the curve's maximum is partly noise. Writes
    ``best_candidates.json``; returns the generation picked."""
    from .selection import evaluate_policy_file, format_results_table, selection_score

    ex = config.exit
    assert ex is not None
    scores = curve_scores(run_dir, config)
    pool = run_dir / POOL
    have = [g for g in scores if (pool / f"{generation_name(g)}.safetensors").is_file()]
    top = sorted(have, key=lambda g: (-scores[g], -g))[: ex.best_candidates]
    table: dict[int, dict[str, Any]] = {}
    for g in top:
        results = evaluate_policy_file(
            pool / f"{generation_name(g)}.safetensors", config, games=config.eval.final_games,
            workers=config.eval.final_workers, seed=REPICK_SEED,
        )  # fmt: skip
        table[g] = {"curve": scores[g], "selection": selection_score(results, config),
                    "results": results}  # fmt: skip
        print(format_results_table(f"candidate {generation_name(g)}", results), flush=True)
    pick = max(top, key=lambda g: (table[g]["selection"], g))
    record = {"picked": pick, "games": config.eval.final_games, "seed": REPICK_SEED,
              "candidates": {generation_name(g): v for g, v in table.items()}}  # fmt: skip
    atomic_write_json(run_dir / REPICKED, record, indent=2, sort_keys=True)
    best = json.loads((run_dir / f"{BEST}.json").read_text(encoding="utf-8"))
    if int(best["steps"]) != pick:
        _publish_best(run_dir, config, pick, scores[pick], record)
    print(f"expert iteration: best is {generation_name(pick)} of candidates "
          f"{[generation_name(g) for g in top]} ({config.eval.final_games} games each)",
          flush=True)  # fmt: skip
    return pick


def _publish_best(
    run_dir: Path, config: TrainConfig, generation: int, curve: float, record: dict[str, Any]
) -> None:
    """A checkpoint folder of a pool generation (weights and resume state) as ``best``;
    ``latest`` stays."""
    from .checkpoints import CheckpointStore, checkpoint_header

    name = generation_name(generation)
    pool_meta = json.loads((run_dir / POOL / f"{name}.json").read_text(encoding="utf-8"))
    store = CheckpointStore(run_dir)
    pending = store.begin(generation)
    try:
        atomic_copy(run_dir / POOL / f"{name}.safetensors", pending.path / WEIGHTS)
        atomic_copy(run_dir / POOL / f"{name}.{EXIT_STATE}", pending.path / EXIT_STATE)
        meta = {
            **checkpoint_header(config.env.game),
            "trainer": TRAINER,
            "files": {"weights": WEIGHTS, "exit": EXIT_STATE},
            "config": config.model_dump(),
            "steps": generation,
            "exit": pool_meta.get("exit", {}),
            "eval": {"results": pool_meta.get("eval", {}), "selection": curve},
            "repicked": record,
        }
        store.commit(pending, meta, best=True, latest=False)
    except BaseException:
        store.discard(pending)
        raise


# -- the run ----------------------------------------------------------------------------
def train(config: TrainConfig, **options: Any) -> Path:
    """Run expert iteration to ``exit.generations``; returns the run folder. The options
    and the run folder's rules: :func:`.entry.run_trainer`."""
    return run_trainer(config, _run, algorithm="expert_iteration", **options)


def _run(start: RunStart, stop: GracefulStop, progress_bar: bool) -> int:
    del progress_bar  # one line per generation instead
    config, run_dir = start.config, start.run_dir
    assert config.exit is not None
    with stop.abortable():
        learner = Learner(config)
        state = ExitState(learner, config)
        done = start.steps_done
        init: dict[str, Any] = {}
        if start.resuming:
            folder = start.resume_path.resolve().parent
            learner.load_state(folder / start.resume_meta["files"]["exit"])
            prune_generations(run_dir, done, config.exit.replay_generations)
            print(resume_line(start, "generations", "exit.generations"), flush=True)
        else:
            init = initialise(learner, start)
    resume_at = done if start.resuming else None
    selector = CheckpointSelector(config, run_dir, state, stop, resume_at)
    tracking = Tracking(run_dir, resume_at)
    workers = selfplay_pool(config.exit)
    try:
        if not start.resuming:
            _keep(selector, state, start, 0, {"exit": init}, tracking, {})
        elif not (run_dir / POOL / f"{generation_name(done)}.safetensors").is_file():
            publish_generation(run_dir, done, {"generation": done})  # a kill came between
        if drop_warm_start_cache(run_dir):  # generation 0 is saved: nothing needs it now
            print(f"expert iteration: removed {run_dir / WARM_START} (generation 0 is saved)")
        with stop.abortable():
            anchors = Anchors(config, run_dir, learner)
        for generation in range(done + 1, config.total_steps + 1):
            _generation(learner, state, selector, start, stop, tracking, generation, workers,
                        anchors)  # fmt: skip
            done = generation
        if config.exit.best_candidates > 1 and config.eval.final_games:
            with stop.abortable():
                repick_best(run_dir, config)
    except KeyboardInterrupt:
        if not stop.requested:
            raise
        saved = selector.saved_steps
        if saved is None and start.resuming:
            saved = start.steps_done
        dropped = done + 1 if saved is not None else 0
        print(f"{stop.signal_name}: generation {dropped} dropped", flush=True)
        raise TrainingInterrupted(run_dir, saved, stop.signal_name) from None
    finally:
        workers.close()  # idle by now: a failed or stopped generation killed its workers
        tracking.close()
    return done


def _generation(
    learner: Learner,
    state: ExitState,
    selector: CheckpointSelector,
    start: RunStart,
    stop: GracefulStop,
    tracking: Tracking,
    generation: int,
    workers: Any,
    anchors: Anchors,
) -> None:
    """One generation: self-play, train, then evaluate and keep (module docstring)."""
    config, run_dir = start.config, start.run_dir
    ex = config.exit
    assert ex is not None
    began = time.time()
    with stop.abortable():  # a stop signal drops the generation: nothing is published yet
        weights = run_dir / POOL / f"{generation_name(generation - 1)}.safetensors"
        games = workers.play(selfplay_tasks(config, generation, weights))
        data = merge_games(games)
        save_replay(run_dir, generation, data)
        selfplay_s = time.time() - began
        window = replay_window(run_dir, generation, ex.replay_generations)
        trained, train_cpu = time.time(), time.process_time()
        seed = derive_seed(config.seed, "train", generation)
        rows = anchors.training_rows(window)
        stats = learner.fit(rows, ex.epochs, ex.batch_size, seed, ex.learning_rate, anchors.net)
        train_s, train_cpu = time.time() - trained, time.process_time() - train_cpu
    decisions = sum(g["decisions"] for g in games)
    selfplay_cpu = sum(g["cpu_s"] for g in games)
    nodes = sorted({g["node"] for g in games if "node" in g})
    if nodes:  # Ray's: where the games were played
        print(f"generation {generation}: self-play on Ray nodes {', '.join(nodes)}", flush=True)
    row = {
        "exit/games": len(games),
        "exit/rows": len(data["value"]),
        "exit/replay_rows": stats["rows"],
        "exit/policy_ce": stats["policy_ce"],
        "exit/policy_kl": stats["policy_kl"],
        "exit/value_mse": stats["value_mse"],
        "exit/anchor_kl": stats["anchor_kl"],
        "exit/selfplay_s": round(selfplay_s, 2),
        "exit/selfplay_cpu_s": round(selfplay_cpu, 2),
        "exit/train_s": round(train_s, 2),
        "exit/train_cpu_s": round(train_cpu, 2),
        "rollout/ep_len_mean": decisions / max(1, len(games)),
    }
    print(
        f"generation {generation}/{config.total_steps}: {len(games)} games, "
        f"{len(data['value']):,} searched decisions, self-play {selfplay_s:.0f} s "
        f"({selfplay_cpu:.0f} CPU s); trained on "
        f"{stats['rows']:,} rows in {train_s:.0f} s (policy kl {stats['policy_kl']:.3f}, "
        f"value mse {stats['value_mse']:.3f})",
        flush=True,
    )
    learning_rate = learner.optimizer.param_groups[0]["lr"]  # what fit trained with
    _keep(selector, state, start, generation, {"exit": row}, tracking, row, began, learning_rate)


def _keep(
    selector: CheckpointSelector,
    state: ExitState,
    start: RunStart,
    generation: int,
    extra: dict[str, Any],
    tracking: Tracking,
    row: dict[str, Any],
    began: float | None = None,
    learning_rate: float | None = None,
) -> None:
    """Evaluate and save the generation (latest, best, eval.csv), then its pool file, its
    progress row and its TensorBoard scalars (written after the checkpoint, so a resume
    from latest never writes a generation's scalars twice)."""
    state.generation = generation
    evaluated = time.time()
    results = selector.evaluate_and_keep(generation, extra)
    start.saved = True
    row = {**row, "exit/eval_s": round(time.time() - evaluated, 2)}
    if began is not None:
        row["exit/generation_s"] = round(time.time() - began, 2)
    meta = {"generation": generation, "eval": results, **extra}
    keep_state = start.config.exit is not None and start.config.exit.best_candidates > 1
    publish_generation(start.run_dir, generation, meta, keep_state)
    tracking.append(generation, row, results, learning_rate)


# -- tracking: logs/progress.csv and TensorBoard ------------------------------------------
DECISIONS_PER_GAME = "exit/decisions_per_game"
"""TensorBoard's name for the progress column ``rollout/ep_len_mean``: a self-play game's
decisions of every seat, where SB3's episode length counts one learner seat's."""

SCALARS = (
    "exit/games",
    "exit/rows",
    "exit/replay_rows",
    "exit/policy_ce",
    "exit/policy_kl",
    "exit/value_mse",
    "exit/anchor_kl",
    "exit/selfplay_s",
    "exit/selfplay_cpu_s",
    "exit/train_s",
    "exit/train_cpu_s",
    "exit/eval_s",
    "exit/generation_s",
    DECISIONS_PER_GAME,
    FPS,
    LEARNING_RATE,
)
"""The TensorBoard names of a generation's scalars (the evaluation's come beside them,
:func:`.scalars.eval_scalars`); generation 0 has only ``exit/eval_s`` of them."""


def tensorboard_scalars(row: dict[str, Any], learning_rate: float | None) -> dict[str, Any]:
    """A generation's progress row as TensorBoard scalars (:data:`SCALARS`): its ``exit/``
    columns under their own names (the generation, the step, left out), and SB3's names
    where they measure the same: ``time/fps`` is the generation's new rows (the learner's
    searched decisions, SB3's env steps) per second of its wall time (self-play, training
    and evaluation, as SB3 counts its updates and evaluations in), and
    ``train/learning_rate`` Adam's."""
    out = {k: v for k, v in row.items() if k.startswith("exit/") and k != "exit/generation"}
    out[DECISIONS_PER_GAME] = row.get("rollout/ep_len_mean")
    seconds = row.get("exit/generation_s")
    if "exit/rows" in row and seconds:
        out[FPS] = row["exit/rows"] / seconds
    out[LEARNING_RATE] = learning_rate
    return out


class Tracking:
    """``logs/progress.csv`` and the TensorBoard scalars in the same folder
    (:mod:`.scalars`), a point per generation at the generation as step (the progress
    log's :data:`STEP_KEY`). A resumed start (``resume_at``: the generation it continues
    after) keeps the log's rows up to it, and its event file tells TensorBoard to hide the
    older files' points after it: a resume from a checkpoint older than latest
    (``--discard-newer``) plays those generations again."""

    def __init__(self, run_dir: Path, resume_at: int | None) -> None:
        logs = run_dir / "logs"
        self.progress = CsvLog(logs / "progress.csv", STEP_KEY, resume_at=resume_at)
        purge_step = None if resume_at is None else resume_at + 1
        self.scalars = ScalarWriter(logs, purge_step=purge_step)

    def append(
        self,
        generation: int,
        row: dict[str, Any],
        results: dict[str, Any],
        learning_rate: float | None = None,
    ) -> None:
        self.progress.append(
            {STEP_KEY: generation, STEP_UNIT_KEY: STEP_UNIT, "exit/generation": generation, **row}
        )
        values = {**tensorboard_scalars(row, learning_rate), **eval_scalars(results)}
        self.scalars.write(generation, values)

    def close(self) -> None:
        self.scalars.close()
