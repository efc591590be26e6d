"""Self-play training with sb3-contrib's MaskablePPO (``art-gallery train CONFIG``)."""

from __future__ import annotations

import functools
import json
import time
from pathlib import Path
from typing import Any

import yaml

from .checkpoints import load_sb3_model, save_checkpoint
from .config import TrainConfig
from .plots import append_eval_csv
from .selfplay import OpponentPool, make_selfplay_env_fn


def _pool_factory(config: TrainConfig, snapshot_dir: str, seed: int) -> OpponentPool:
    weights = {
        "self_play": config.pool.self_play,
        "heuristic": config.pool.heuristic,
        "random": config.pool.random,
    }
    return OpponentPool(weights, snapshot_dir, config.pool.max_snapshots, seed=seed)


def build_vec_env(config: TrainConfig, snapshot_dir: Path) -> Any:
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    factory = functools.partial(_pool_factory, config, str(snapshot_dir))
    fns = [
        make_selfplay_env_fn(
            config.env.num_players,
            factory,
            config.seed * 1000,
            i,
            zero_is_ten=config.env.zero_is_ten,
            reward_mode=config.env.reward_mode,
        )
        for i in range(config.n_envs)
    ]
    use_subproc = config.vec_env == "subproc" and config.n_envs > 1
    vec = SubprocVecEnv(fns) if use_subproc else DummyVecEnv(fns)
    return VecMonitor(vec, info_keywords=("won",))


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


def make_callbacks(config: TrainConfig, run_dir: Path, snapshot_dir: Path) -> list[Any]:
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlayCallback(BaseCallback):
        """Snapshots for the opponent pool, periodic evaluation, best/latest checkpoints."""

        def __init__(self) -> None:
            super().__init__()
            self.next_snapshot = config.pool.snapshot_every_steps
            self.next_eval = config.eval.every_steps
            self.best_score = -float("inf")
            self.eval_csv = run_dir / "eval.csv"

        def _on_training_start(self) -> None:
            steps = self.num_timesteps
            self.next_snapshot = steps + config.pool.snapshot_every_steps
            self.next_eval = steps + config.eval.every_steps
            best = run_dir / "best.json"
            if best.is_file():
                self.best_score = json.loads(best.read_text())["eval"].get("selection", -1e9)

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next_snapshot:
                self.next_snapshot += config.pool.snapshot_every_steps
                self._snapshot()
            if self.num_timesteps >= self.next_eval:
                self.next_eval += config.eval.every_steps
                self.evaluate_and_save()
            return True

        def _snapshot(self) -> None:
            from art_gallery_env.agents.policy import export_torch_mlp

            from .checkpoints import actor_network

            path = snapshot_dir / f"snap_{self.num_timesteps:010d}.safetensors"
            export_torch_mlp(actor_network(self.model), path, extra_meta={"name": path.stem})

        def evaluate_and_save(self) -> None:
            from art_gallery_env.agents.policy import export_torch_mlp

            from .checkpoints import actor_network

            candidate = run_dir / "eval_candidate.safetensors"
            export_torch_mlp(actor_network(self.model), candidate, extra_meta={"name": "candidate"})
            results = evaluate_policy_file(candidate, config)
            candidate.unlink()
            # Select on the hardest configured opponent's win share (the last one listed).
            selection = results[config.eval.opponents[-1]]["win_share"]
            info = {
                "config": config.model_dump(),
                "steps": int(self.num_timesteps),
                "eval": {"results": results, "selection": selection},
            }
            save_checkpoint(self.model, run_dir / "latest", info)
            line = [f"step {self.num_timesteps}:"]
            for opponent, r in results.items():
                self.logger.record(f"eval/win_share_vs_{opponent}", r["win_share"])
                self.logger.record(f"eval/mean_score_vs_{opponent}", r["mean_score"])
                line.append(
                    f"vs {opponent} win {r['win_share']:.1%} "
                    f"[{r['win_ci_low']:.1%}, {r['win_ci_high']:.1%}] score {r['mean_score']:.1f}"
                )
            if selection >= self.best_score:
                self.best_score = selection
                save_checkpoint(self.model, run_dir / "best", info)
                line.append("(new best)")
            print("  ".join(line), flush=True)
            append_eval_csv(self.eval_csv, self.num_timesteps, results, time.time() - start_time)

    start_time = time.time()
    return [SelfPlayCallback()]


def train(config: TrainConfig, resume: str | Path | None = None, progress_bar: bool = True) -> Path:
    """Run a config to ``total_steps``; returns the run folder (best.*, latest.*, logs)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import configure

    torch.set_num_threads(config.torch_threads)
    run_dir = config.resolved_run_dir
    snapshot_dir = run_dir / "pool"
    snapshot_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(config.model_dump(), sort_keys=False))

    vec_env = build_vec_env(config, snapshot_dir)
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[config.network.activation]
    if resume:
        model, _meta = load_sb3_model(resume, env=vec_env)
        reset_steps = False
    else:
        model = MaskablePPO(
            "MlpPolicy",
            vec_env,
            seed=config.seed,
            device="cpu",
            policy_kwargs={
                "net_arch": {"pi": config.network.hidden_sizes, "vf": config.network.hidden_sizes},
                "activation_fn": activation,
            },
            **config.ppo.model_dump(),
        )
        reset_steps = True
    model.set_logger(configure(str(run_dir / "logs"), ["csv", "tensorboard"]))
    callbacks = make_callbacks(config, run_dir, snapshot_dir)
    remaining = config.total_steps - (0 if reset_steps else model.num_timesteps)
    try:
        model.learn(
            total_timesteps=max(remaining, 1),
            callback=callbacks,
            reset_num_timesteps=reset_steps,
            progress_bar=progress_bar,
        )
        callbacks[0].evaluate_and_save()
    finally:
        vec_env.close()
    if config.eval.final_games:
        final_evaluation(run_dir, config)
    return run_dir


def final_evaluation(run_dir: Path, config: TrainConfig) -> dict[str, Any]:
    """Evaluate ``best`` with more games once training is over; store and print the table."""
    results = evaluate_policy_file(
        run_dir / "best.safetensors",
        config,
        games=config.eval.final_games,
        workers=config.eval.final_workers,
        seed=54321,
    )
    meta_path = run_dir / "best.json"
    meta = json.loads(meta_path.read_text())
    meta["final_eval"] = results
    meta_path.write_text(json.dumps(meta, indent=2, sort_keys=True))
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
