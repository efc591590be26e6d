"""Checkpoint selection, shared by the SB3 and RLlib trainers: export, evaluate, keep
best/latest, log (as SB3's ``EvalCallback`` does for one trainer).

At every evaluation the trainer's current policy is exported into a new checkpoint folder
(:class:`.checkpoints.CheckpointStore`), played against each ``eval.opponents`` entry in
seat-rotated matches, its resume state is saved beside it (the trainer decides how: an
SB3 zip, an RLlib algorithm folder) and the metadata describing all of them is written
last. The folder is then published as ``latest``, and also as ``best`` when its win
share against the last opponent listed (with several table sizes: :func:`selection_score`) is at
least the best so far. A kill at any
moment leaves ``latest`` and ``best`` whole and true to their metadata. On a stop
signal, :meth:`CheckpointSelector.save_unevaluated` saves ``latest`` without playing.
"""

from __future__ import annotations

import contextlib
import json
import time
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, NoReturn

from art_gallery_env.files import atomic_write_json

from .checkpoints import BEST, WEIGHTS, CheckpointStore, checkpoint_header
from .config import TrainConfig
from .interrupt import GracefulStop, TrainingInterrupted
from .logs import CsvLog

EVAL_COLUMNS = ["steps", "opponent", "win_share", "mean_score", "wall_s"]
# eval.csv's "opponent" is the spec, or "spec@Np" for each size of a mixed-table config.
WEIGHTS_SUFFIX = ".safetensors"


class TrainerState(ABC):
    """What differs between trainers: how the policy is exported and how the trainer's
    own state (to resume from) is saved."""

    trainer: str  # "maskable_ppo" or "rllib_ppo"

    @abstractmethod
    def export_weights(self, path: Path, meta: dict[str, Any]) -> None:
        """Write the current actor as a weights-only policy checkpoint at ``path``, with
        ``meta`` (name, steps) in its header."""

    @abstractmethod
    def save_resume_state(self, folder: Path) -> dict[str, str]:
        """Save what ``--resume`` needs into ``folder``; returns its ``files`` entries
        (kind -> name in the folder)."""


def eval_key(opponent: str, num_players: int, config: TrainConfig) -> str:
    """The results key of one opponent at one table size: the spec alone for a single
    size (as before mixed tables), ``spec@Np`` when the config trains several."""
    return opponent if len(config.env.table_sizes) == 1 else f"{opponent}@{num_players}p"


def evaluate_policy_file(
    weights: Path,
    config: TrainConfig,
    games: int | None = None,
    workers: int | None = None,
    seed: int = 12345,
) -> dict[str, dict[str, float]]:
    """Win share and mean score of a weights file against each configured opponent at each
    configured table size, seat-rotated, one learner against N-1 copies of the opponent.
    A solo run (``env.num_players: 1``) plays the policy alone (:mod:`.solo`)."""
    from art_gallery_env.arena.evaluate import MatchConfig, run_match

    if config.env.solo:
        from .solo import evaluate_solo_policy

        return evaluate_solo_policy(
            weights, config, games or config.eval.games, workers or config.eval.workers, seed
        )

    results = {}
    for n in config.eval_table_sizes:
        for opponent in config.eval.opponents:
            match = MatchConfig(
                num_players=n,
                agents=(str(weights), *([opponent] * (n - 1))),
                games=games or config.eval.games,
                seed=seed,
                variants=config.env.variants,
                workers=workers or config.eval.workers,
                game=config.env.game,
            )
            summary = run_match(match, progress=False).summaries[0]
            results[eval_key(opponent, n, config)] = {
                "win_share": summary.win_share,
                "win_ci_low": summary.win_ci_low,
                "win_ci_high": summary.win_ci_high,
                "mean_score": summary.mean_score,
                "games": summary.seat_games,
                "num_players": n,
            }
    return results


def selection_score(results: dict[str, dict[str, float]], config: TrainConfig) -> float:
    """What ``best`` is chosen on: the win share against the hardest configured opponent
    (the last listed). With several table sizes, each size's win share is divided by the
    even share 1/N (1.0: wins as often as a seat at an even table) and the ratios of the
    evaluated sizes (``eval.table_sizes``) are averaged with the table weights, so a
    6-player win counts three times a 2-player one and no size is given up unnoticed."""
    if config.env.solo:  # the share of solo games that reach the goal (.solo)
        from .solo import SOLO_KEY

        return results[SOLO_KEY]["win_share"]
    hardest = config.eval.opponents[-1]
    if len(config.env.table_sizes) == 1:
        return results[hardest]["win_share"]
    weight_of = dict(zip(config.env.table_sizes, config.env.table_weights))
    sizes = config.eval_table_sizes
    weights = [weight_of[n] for n in sizes]
    ratios = [results[eval_key(hardest, n, config)]["win_share"] * n for n in sizes]
    return sum(w * r for w, r in zip(weights, ratios)) / sum(weights)


class CheckpointSelector:
    """The periodic evaluation of one run (see the module docstring)."""

    def __init__(
        self,
        config: TrainConfig,
        run_dir: Path,
        trainer: TrainerState,
        stop: GracefulStop | None = None,
        resume_at: int | None = None,
    ) -> None:
        self.config = config
        self.run_dir = run_dir
        self.trainer = trainer
        self.stop = stop
        self.store = CheckpointStore(run_dir)
        self.eval_log = CsvLog(run_dir / "eval.csv", "steps", EVAL_COLUMNS, resume_at=resume_at)
        self.start = time.time()
        self.best_score = -float("inf")
        self.saved_steps: int | None = None  # steps of the last checkpoint saved here
        best = run_dir / f"{BEST}.json"
        if best.is_file():  # a resumed run keeps competing with its own best
            self.best_score = json.loads(best.read_text(encoding="utf-8"))["eval"]["selection"]

    def last_evaluated_steps(self) -> int:
        """The steps of this run's last evaluation (0 before the first): where the
        evaluation schedule continues on a resume."""
        return max((int(float(row["steps"])) for row in self.eval_log.rows), default=0)

    def evaluate_and_keep(self, steps: int, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """Export, evaluate, save latest (and best if better), log; returns the results."""
        config = self.config
        pending = self.store.begin(steps)
        try:
            # A stop signal abandons the evaluation at once: nothing is published yet.
            with self.stop.abortable() if self.stop else contextlib.nullcontext():
                self._export(pending.path, steps)
                results = evaluate_policy_file(pending.path / WEIGHTS, config)
            selection = selection_score(results, config)
            meta = self._meta(pending.path, steps, extra)
            meta["eval"] = {"results": results, "selection": selection}
            new_best = selection >= self.best_score
            self.store.commit(pending, meta, best=new_best)
        except BaseException:
            self.store.discard(pending)
            raise
        self.saved_steps = int(steps)
        if new_best:
            self.best_score = selection
        print(format_eval_line(steps, results, new_best), flush=True)
        wall = round(time.time() - self.start, 1)
        self.eval_log.extend(
            {"steps": steps, "opponent": opponent, "win_share": r["win_share"],
             "mean_score": r["mean_score"], "wall_s": wall}
            for opponent, r in results.items()
        )  # fmt: skip
        return results

    def save_unevaluated(
        self, steps: int, reason: str, extra: dict[str, Any] | None = None
    ) -> Path:
        """Save ``latest`` now, without an evaluation (on a stop signal or an error);
        ``best`` stays as it is."""
        pending = self.store.begin(steps)
        try:
            self._export(pending.path, steps)
            meta = self._meta(pending.path, steps, extra)
            meta.update({"eval": None, "interrupted": True, "stop_reason": reason})
            folder = self.store.commit(pending, meta, best=False)
        except BaseException:
            self.store.discard(pending)
            raise
        self.saved_steps = int(steps)
        return folder

    def save_and_stop(self, steps: int, extra: dict[str, Any] | None = None) -> NoReturn:
        """After a stop signal: save latest (unevaluated) unless it holds ``steps``
        already, then raise :class:`TrainingInterrupted`."""
        signal_name = self.stop.signal_name if self.stop else "SIGINT"
        if self.saved_steps != steps:
            self.save_unevaluated(steps, signal_name, extra)
        finished = steps >= self.config.total_steps  # only the last evaluation was cut
        raise TrainingInterrupted(self.run_dir, steps, signal_name, finished)

    def _export(self, folder: Path, steps: int) -> None:
        name = f"{self.config.name}@step_{int(steps)}"
        meta = {"name": name, "steps": int(steps), "game": self.config.env.game}
        self.trainer.export_weights(folder / WEIGHTS, meta)

    def _meta(self, folder: Path, steps: int, extra: dict[str, Any] | None) -> dict[str, Any]:
        files = {"weights": WEIGHTS, **self.trainer.save_resume_state(folder)}
        return {
            **checkpoint_header(self.config.env.game),
            "trainer": self.trainer.trainer,
            "files": files,
            "config": self.config.model_dump(),
            "steps": int(steps),
            **(extra or {}),
        }


def format_eval_line(steps: int, results: dict[str, dict[str, float]], new_best: bool) -> str:
    line = [f"step {steps}:"]
    for opponent, r in results.items():
        # a solo run's one entry is the share of its games that reached the goal (.solo)
        label = "solo: goal reached" if r.get("num_players") == 1 else f"vs {opponent} win"
        line.append(
            f"{label} {r['win_share']:.1%} "
            f"[{r['win_ci_low']:.1%}, {r['win_ci_high']:.1%}] score {r['mean_score']:.1f}"
        )
    if new_best:
        line.append("(new best)")
    return "  ".join(line)


def final_evaluation(run_dir: Path, config: TrainConfig) -> dict[str, Any]:
    """Evaluate ``best`` with more games once training is over; store and print the table."""
    results = evaluate_policy_file(
        run_dir / f"{BEST}{WEIGHTS_SUFFIX}",
        config,
        games=config.eval.final_games,
        workers=config.eval.final_workers,
        seed=54321,
    )
    meta_path = (run_dir / f"{BEST}.json").resolve()  # the file in best's folder
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["final_eval"] = results
    atomic_write_json(meta_path, meta, indent=2, sort_keys=True)
    print(format_results_table(f"{run_dir}/best (step {meta['steps']})", results))
    return results


def format_results_table(policy: str, results: dict[str, dict[str, float]]) -> str:
    lines = [
        f"{'policy':<32} {'opponent':<14} {'games':>6} {'win share [95% CI]':>24} "
        f"{'mean score':>11}",
        "-" * 89,
    ]
    for opponent, r in results.items():
        ci = f"{r['win_share']:.1%} [{r['win_ci_low']:.1%}, {r['win_ci_high']:.1%}]"
        lines.append(
            f"{policy:<32} {opponent:<14} {r['games']:>6} {ci:>24} {r['mean_score']:>11.1f}"
        )
    return "\n".join(lines)
