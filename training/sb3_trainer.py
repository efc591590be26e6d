"""Self-play training with sb3-contrib's MaskablePPO (``art-gallery train CONFIG``)."""

from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import Any

import yaml

from art_gallery_env.agents.policy import export_torch_mlp
from art_gallery_env.agents.run_checkpoint import actor_network, load_sb3_model
from art_gallery_env.files import atomic_write_bytes

from .config import TrainConfig
from .selection import CheckpointSelector, TrainerState, final_evaluation
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


class SB3State(TrainerState):
    """The MaskablePPO model's exports: the actor as weights, the model as an SB3 zip."""

    trainer = "maskable_ppo"

    def __init__(self, model: Any) -> None:
        self.model = model

    def export_weights(self, path: Path, name: str) -> None:
        export_torch_mlp(actor_network(self.model), path, extra_meta={"name": name})

    def save_resume_state(self, run_dir: Path, stem: str) -> dict[str, str]:
        buffer = io.BytesIO()
        self.model.save(buffer)
        path = atomic_write_bytes(run_dir / f"{stem}.zip", buffer.getvalue())
        return {"sb3": path.name}


def make_callbacks(config: TrainConfig, run_dir: Path, snapshot_dir: Path) -> list[Any]:
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlayCallback(BaseCallback):
        """Snapshots for the opponent pool and the periodic checkpoint selection."""

        def __init__(self) -> None:
            super().__init__()
            self.next_snapshot = config.pool.snapshot_every_steps
            self.next_eval = config.eval.every_steps
            self.selector: CheckpointSelector | None = None

        def _on_training_start(self) -> None:
            steps = self.num_timesteps
            self.next_snapshot = steps + config.pool.snapshot_every_steps
            self.next_eval = steps + config.eval.every_steps
            self.selector = CheckpointSelector(config, run_dir, SB3State(self.model))

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next_snapshot:
                self.next_snapshot += config.pool.snapshot_every_steps
                path = snapshot_dir / f"snap_{self.num_timesteps:010d}.safetensors"
                SB3State(self.model).export_weights(path, path.stem)
            if self.num_timesteps >= self.next_eval:
                self.next_eval += config.eval.every_steps
                self.evaluate_and_save()
            return True

        def evaluate_and_save(self) -> None:
            results = self.selector.evaluate_and_keep(self.num_timesteps)
            for opponent, r in results.items():
                self.logger.record(f"eval/win_share_vs_{opponent}", r["win_share"])
                self.logger.record(f"eval/mean_score_vs_{opponent}", r["mean_score"])

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
