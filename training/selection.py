"""Checkpoint selection, shared by the SB3 and RLlib trainers: export, evaluate, keep
best/latest, log (as SB3's ``EvalCallback`` does for one trainer).

At every evaluation the trainer's current policy is exported to
``RUN_DIR/latest.safetensors``, played against each ``eval.opponents`` entry in
seat-rotated matches, its resume state is saved (the trainer decides how: an SB3 zip, an
RLlib algorithm folder) and ``latest.json`` describes both. When its win share against the
last opponent listed is at least the best so far, the ``latest.*`` files are copied to
``best.*``. Every file is written atomically; the JSON is written last, so it never
describes weights that are not on disk.
"""

from __future__ import annotations

import csv
import json
import os
import time
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

from art_gallery_env.files import atomic_copy, atomic_write_json

from .checkpoints import checkpoint_header
from .config import TrainConfig

EVAL_COLUMNS = ["steps", "opponent", "win_share", "mean_score", "wall_s"]
LATEST, BEST = "latest", "best"
WEIGHTS_SUFFIX = ".safetensors"
CANDIDATE = f".candidate{WEIGHTS_SUFFIX}"


class TrainerState(ABC):
    """What differs between trainers: how the policy is exported and how the trainer's
    own state (to resume from) is saved."""

    trainer: str  # "maskable_ppo" or "rllib_ppo"

    @abstractmethod
    def export_weights(self, path: Path, name: str) -> None:
        """Write the current actor as a weights-only policy checkpoint at ``path``."""

    @abstractmethod
    def save_resume_state(self, run_dir: Path, stem: str) -> dict[str, str]:
        """Save what ``--resume`` needs; returns its ``files`` entries (names in run_dir).
        Files named ``STEM.*`` are copied to ``best.*`` with the weights."""


def evaluate_policy_file(
    weights: Path,
    config: TrainConfig,
    games: int | None = None,
    workers: int | None = None,
    seed: int = 12345,
) -> dict[str, dict[str, float]]:
    """Win share and mean score of a weights file against each configured opponent,
    seat-rotated, one learner against N-1 copies of the opponent."""
    from art_gallery_env.arena.evaluate import MatchConfig, run_match

    results = {}
    n = config.env.num_players
    for opponent in config.eval.opponents:
        match = MatchConfig(
            num_players=n,
            agents=(str(weights), *([opponent] * (n - 1))),
            games=games or config.eval.games,
            seed=seed,
            zero_is_ten=config.env.zero_is_ten,
            workers=workers or config.eval.workers,
        )
        summary = run_match(match, progress=False).summaries[0]
        results[opponent] = {
            "win_share": summary.win_share,
            "win_ci_low": summary.win_ci_low,
            "win_ci_high": summary.win_ci_high,
            "mean_score": summary.mean_score,
            "games": summary.seat_games,
        }
    return results


class CheckpointSelector:
    """The periodic evaluation of one run (see the module docstring)."""

    def __init__(self, config: TrainConfig, run_dir: Path, trainer: TrainerState) -> None:
        self.config = config
        self.run_dir = run_dir
        self.trainer = trainer
        self.start = time.time()
        self.best_score = -float("inf")
        best = run_dir / f"{BEST}.json"
        if best.is_file():  # a resumed run keeps competing with its own best
            self.best_score = json.loads(best.read_text(encoding="utf-8"))["eval"]["selection"]

    def evaluate_and_keep(self, steps: int, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """Export, evaluate, save latest (and best if better), log; returns the results."""
        config, run_dir = self.config, self.run_dir
        # The candidate is evaluated under its own name: latest.* keep describing the
        # previous evaluation until the new one is complete.
        candidate = run_dir / CANDIDATE
        self.trainer.export_weights(candidate, f"{config.name}@{LATEST}")
        results = evaluate_policy_file(candidate, config)
        # Select on the hardest configured opponent's win share (the last one listed).
        selection = results[config.eval.opponents[-1]]["win_share"]
        files = self.trainer.save_resume_state(run_dir, LATEST)
        weights = run_dir / f"{LATEST}{WEIGHTS_SUFFIX}"
        os.replace(candidate, weights)
        files = {"weights": weights.name, **files}
        meta = {
            **checkpoint_header(),
            "trainer": self.trainer.trainer,
            "files": files,
            "config": config.model_dump(),
            "steps": int(steps),
            "eval": {"results": results, "selection": selection},
            **(extra or {}),
        }
        atomic_write_json(run_dir / f"{LATEST}.json", meta, indent=2, sort_keys=True)
        new_best = selection >= self.best_score
        if new_best:
            self.best_score = selection
            self._keep_as_best(meta)
        print(format_eval_line(steps, results, new_best), flush=True)
        append_eval_csv(run_dir / "eval.csv", steps, results, time.time() - self.start)
        return results

    def _keep_as_best(self, latest_meta: dict[str, Any]) -> None:
        files = {}
        for key, name in latest_meta["files"].items():
            if name.startswith(f"{LATEST}."):
                best_name = BEST + name[len(LATEST) :]
                atomic_copy(self.run_dir / name, self.run_dir / best_name)
                files[key] = best_name
            else:  # a folder shared by both (e.g. the RLlib algorithm state)
                files[key] = name
        meta = {**latest_meta, "files": files}
        atomic_write_json(self.run_dir / f"{BEST}.json", meta, indent=2, sort_keys=True)


def format_eval_line(steps: int, results: dict[str, dict[str, float]], new_best: bool) -> str:
    line = [f"step {steps}:"]
    for opponent, r in results.items():
        line.append(
            f"vs {opponent} win {r['win_share']:.1%} "
            f"[{r['win_ci_low']:.1%}, {r['win_ci_high']:.1%}] score {r['mean_score']:.1f}"
        )
    if new_best:
        line.append("(new best)")
    return "  ".join(line)


def append_eval_csv(
    path: Path, steps: int, results: dict[str, dict[str, float]], wall_s: float
) -> None:
    """One row per opponent of a periodic evaluation; ``art-gallery plot`` reads this file."""
    new = not path.exists()
    with path.open("a", newline="") as handle:
        writer = csv.writer(handle)
        if new:
            writer.writerow(EVAL_COLUMNS)
        for opponent, r in results.items():
            writer.writerow([steps, opponent, r["win_share"], r["mean_score"], round(wall_s, 1)])


def final_evaluation(run_dir: Path, config: TrainConfig) -> dict[str, Any]:
    """Evaluate ``best`` with more games once training is over; store and print the table."""
    results = evaluate_policy_file(
        run_dir / f"{BEST}{WEIGHTS_SUFFIX}",
        config,
        games=config.eval.final_games,
        workers=config.eval.final_workers,
        seed=54321,
    )
    meta_path = run_dir / f"{BEST}.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["final_eval"] = results
    atomic_write_json(meta_path, meta, indent=2, sort_keys=True)
    print(format_results_table(f"{run_dir}/best (step {meta['steps']})", results))
    return results


def format_results_table(policy: str, results: dict[str, dict[str, float]]) -> str:
    lines = [
        f"{'policy':<32} {'opponent':<12} {'games':>6} {'win share [95% CI]':>24} "
        f"{'mean score':>11}",
        "-" * 89,
    ]
    for opponent, r in results.items():
        ci = f"{r['win_share']:.1%} [{r['win_ci_low']:.1%}, {r['win_ci_high']:.1%}]"
        lines.append(
            f"{policy:<32} {opponent:<12} {r['games']:>6} {ci:>24} {r['mean_score']:>11.1f}"
        )
    return "\n".join(lines)
