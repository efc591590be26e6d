"""Self-play training with sb3-contrib's MaskablePPO (``art-gallery train CONFIG``).

The start (run folder, lock, resume checks, stop signals, config dump) is every
trainer's (:mod:`.entry`), and so are checkpoints (:mod:`.checkpoints`); this module adds
the SB3 parts: the vectorised env (subprocess workers that leave Ctrl-C to this process), the
model, a CSV logger that a resume continues, and the callback that snapshots the pool
and evaluates.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import Any

from art_gallery_env.agents.model_policy import export_model_weights
from art_gallery_env.agents.run_checkpoint import load_sb3_model
from art_gallery_env.core.registry import get_game
from art_gallery_env.files import atomic_write_bytes
from art_gallery_env.processes import (
    QuietWorker,
    one_compute_thread_for_children,
    spawning_quietly,
    stop_signals_deferred,
)

from .checkpoints import SB3_ZIP, newest_snapshot_steps, next_due, prune_snapshots, snapshot_name
from .config import ConfigError, TrainConfig
from .config_checks import resolved_vec_env
from .entry import resume_line, run_trainer
from .interrupt import GracefulStop
from .logs import CsvLog
from .run_folder import RunStart
from .selection import CheckpointSelector, TrainerState
from .selfplay import OpponentPool, make_selfplay_env_fn


def _pool_factory(config: TrainConfig, snapshot_dir: str, seed: int) -> OpponentPool:
    weights = {
        "self_play": config.pool.self_play,
        "heuristic": config.pool.heuristic,
        "random": config.pool.random,
        **config.pool.agents,
    }
    return OpponentPool(
        weights, snapshot_dir, config.pool.max_snapshots, seed=seed, game=config.env.game
    )


def check_vec_env(config: TrainConfig) -> None:
    """``vec_env: vector`` needs numba to import the game's compiled engine (that the game
    has one is checked with the config: :mod:`.config_capabilities`)."""
    if resolved_vec_env(config) != "vector":
        return
    try:
        get_game(config.env.game).extension("vector")  # imported for the check only
    except ImportError:
        raise ConfigError(
            "vec_env: vector needs numba (the compiled engine): pip install "
            "'art-gallery-env[fast]', or use vec_env: subproc or dummy"
        ) from None


def build_vec_env(config: TrainConfig, snapshot_dir: Path) -> Any:
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    check_vec_env(config)
    factory = functools.partial(_pool_factory, config, str(snapshot_dir))
    kind = resolved_vec_env(config)
    if kind == "vector":
        from .vector_env import VectorSelfPlayEnv  # lazy: needs numba

        vector = VectorSelfPlayEnv(
            config.n_envs,
            config.env.table_sizes,
            factory(config.seed * 1000),
            player_weights=config.env.table_weights,
            variants=config.env.variants,
            reward_mode=config.env.reward_mode,
            seed=config.seed * 1000,
            game=config.env.game,
        )
        return VecMonitor(vector, info_keywords=("won",))
    fns = [
        make_selfplay_env_fn(
            config.env.num_players,
            factory,
            config.seed * 1000,
            i,
            player_weights=config.env.table_weights,
            variants=config.env.variants,
            reward_mode=config.env.reward_mode,
            game=config.env.game,
        )
        for i in range(config.n_envs)
    ]
    if kind == "subproc" and config.n_envs > 1:
        # The workers ignore Ctrl-C and SIGTERM: this process stops at a safe point,
        # saves, and closes them (they print no EOFError on the way out).
        vec = None
        try:
            # spawn: each worker starts with this environment (one BLAS thread), where a
            # forkserver started earlier would hand on its own.
            # a stop signal waits until the constructor has returned the env to close
            with (
                stop_signals_deferred(redeliver=True),
                spawning_quietly(),
                one_compute_thread_for_children(),
            ):
                vec = SubprocVecEnv([QuietWorker(fn) for fn in fns], start_method="spawn")
            # inside the try: VecMonitor asks the workers, and a Ctrl-C between its
            # question and their answers left them unclosed (ConnectionResetError traces)
            return VecMonitor(vec, info_keywords=("won",))
        except BaseException:
            if vec is not None:
                vec.close()
            raise
    return VecMonitor(DummyVecEnv(fns), info_keywords=("won",))


class SB3State(TrainerState):
    """The MaskablePPO model's exports: the actor as weights, the model as an SB3 zip."""

    trainer = "maskable_ppo"

    def __init__(self, model: Any) -> None:
        self.model = model

    def export_weights(self, path: Path, meta: dict[str, Any]) -> None:
        export_model_weights(self.model, path, meta)

    def save_resume_state(self, folder: Path) -> dict[str, str]:
        buffer = io.BytesIO()
        self.model.save(buffer)
        atomic_write_bytes(folder / SB3_ZIP, buffer.getvalue())
        return {"sb3": SB3_ZIP}


ITERATIONS = "time/iterations"


def make_logger(run_dir: Path, resume_at: int | None) -> Any:
    """SB3's logger writing ``logs/progress.csv`` through :class:`.logs.CsvLog` (atomic,
    continued by a resume; SB3's own CSV writer truncates the file) and TensorBoard."""
    from stable_baselines3.common.logger import (
        KVWriter,
        Logger,
        filter_excluded_keys,
        make_output_format,
    )

    class ProgressCsv(KVWriter):
        def __init__(self) -> None:
            path = run_dir / "logs" / "progress.csv"
            self.log = CsvLog(path, "time/total_timesteps", resume_at=resume_at)
            # SB3 counts iterations from 1 in every learn(); the log counts on.
            last = self.log.rows[-1].get(ITERATIONS, "") if self.log.rows else ""
            self.iterations_before = int(float(last)) if last else 0

        def write(self, key_values: dict, key_excluded: dict, step: int = 0) -> None:
            values = filter_excluded_keys(key_values, key_excluded, "csv")
            row = {k: v for k, v in values.items() if isinstance(v, (int, float, str))}
            if isinstance(row.get(ITERATIONS), int):
                row[ITERATIONS] += self.iterations_before
            self.log.append(row)

        def close(self) -> None:
            pass

    folder = str(run_dir / "logs")
    return Logger(folder, [ProgressCsv(), make_output_format("tensorboard", folder)])


def make_callbacks(
    config: TrainConfig, selector: CheckpointSelector, snapshot_dir: Path, stop: GracefulStop
) -> list[Any]:
    from stable_baselines3.common.callbacks import BaseCallback

    keep = None if config.pool.keep_all_snapshots else config.pool.max_snapshots

    class SelfPlayCallback(BaseCallback):
        """Snapshots for the opponent pool, the periodic checkpoint selection, and the
        safe point where a stop signal ends learning."""

        def _on_training_start(self) -> None:
            snapshot_at = newest_snapshot_steps(snapshot_dir)
            self.next_snapshot = next_due(snapshot_at, config.pool.snapshot_every_steps)
            self.next_eval = next_due(selector.last_evaluated_steps(), config.eval.every_steps)

        def _on_step(self) -> bool:
            if stop.requested:
                return False
            if self.num_timesteps >= self.next_snapshot and not config.env.solo:
                self.next_snapshot = next_due(self.num_timesteps, config.pool.snapshot_every_steps)
                path = snapshot_dir / snapshot_name(self.num_timesteps)
                meta = {
                    "name": path.stem,
                    "game": config.env.game,
                    "steps": int(self.num_timesteps),
                }
                SB3State(self.model).export_weights(path, meta)
                prune_snapshots(snapshot_dir, keep)
            if self.num_timesteps >= self.next_eval:
                self.next_eval = next_due(self.num_timesteps, config.eval.every_steps)
                try:
                    self.evaluate_and_save()
                except KeyboardInterrupt:
                    if not stop.requested:
                        raise
                    return False  # stopped during the evaluation: save below, unevaluated
            return True

        def evaluate_and_save(self) -> None:
            results = selector.evaluate_and_keep(self.num_timesteps)
            for opponent, r in results.items():
                self.logger.record(f"eval/win_share_vs_{opponent}", r["win_share"])
                self.logger.record(f"eval/mean_score_vs_{opponent}", r["mean_score"])

    return [SelfPlayCallback()]


def train(config: TrainConfig, **options: Any) -> Path:
    """Run a MaskablePPO config to ``total_steps``; returns the run folder (best.*,
    latest.*, logs). The options and the run folder's rules: :func:`.entry.run_trainer`."""
    return run_trainer(config, _run, algorithm="maskable_ppo", check=check_vec_env, **options)


def _run(start: RunStart, stop: GracefulStop, progress_bar: bool) -> int:
    model, vec_env, warm = _set_up(start, stop)
    try:
        return _learn(model, start, stop, progress_bar, warm)
    finally:
        vec_env.close()


def _set_up(start: RunStart, stop: GracefulStop) -> tuple[Any, Any, dict[str, Any] | None]:
    """The envs and the model, behaviour-cloned first when the config has ``warm_start``
    (a stop signal here ends the start at once)."""
    config, run_dir = start.config, start.run_dir
    warm = None
    with stop.abortable():
        vec_env = build_vec_env(config, run_dir / "pool")
        try:
            if start.resuming:
                folder = start.resume_path.resolve().parent
                zip_path = folder / start.resume_meta["files"]["sb3"]
                model, _ = load_sb3_model(zip_path, vec_env, resume_settings(config, vec_env))
                print(resume_line(start), flush=True)
            else:
                model = _new_model(config, vec_env)
                if config.warm_start is not None:
                    from .warm_start import warm_start

                    warm = warm_start(model, run_dir, config)
        except BaseException:
            vec_env.close()
            raise
    return model, vec_env, warm


def resume_settings(config: Any, vec_env: Any) -> dict[str, Any]:
    """What replaces a resumed zip's saved settings: the config's PPO settings and today's
    observation space (a run saved when the Box's high was infinite resumes as well: the
    shape is the same, only the bound is finite now)."""
    return {**config.ppo.model_dump(), "observation_space": vec_env.observation_space}


def _new_model(config: TrainConfig, vec_env: Any) -> Any:
    if config.network.type != "mlp":
        from .sb3_policy import new_network_model

        return new_network_model(
            config.network.network(),
            seed=config.seed,
            vec_env=vec_env,
            game=config.env.game,
            **config.ppo.model_dump(),
        )
    return new_mlp_model(
        config.network.hidden_sizes,
        config.network.activation,
        seed=config.seed,
        vec_env=vec_env,
        **config.ppo.model_dump(),
    )


def new_mlp_model(
    hidden_sizes: list[int],
    activation: str = "tanh",
    seed: int = 0,
    vec_env: Any = None,
    **ppo: Any,
) -> Any:
    """A MaskablePPO MlpPolicy model with separate actor and critic MLPs of
    ``hidden_sizes``: the one place such a model is built (the trainer, the cloning
    benchmark and tests). Without ``vec_env`` it gets a one-game 2-player env, enough to
    clone into or inspect the policy outside a run."""
    import torch
    from sb3_contrib import MaskablePPO

    if vec_env is None:
        from stable_baselines3.common.vec_env import DummyVecEnv

        from .selfplay import SelfPlayEnv

        vec_env = DummyVecEnv([lambda: SelfPlayEnv(2, seed=seed)])
    act = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[activation]
    return MaskablePPO(
        "MlpPolicy",
        vec_env,
        seed=seed,
        device="cpu",
        policy_kwargs={
            "net_arch": {"pi": list(hidden_sizes), "vf": list(hidden_sizes)},
            "activation_fn": act,
        },
        **ppo,
    )


def _learn(
    model: Any,
    start: RunStart,
    stop: GracefulStop,
    progress_bar: bool,
    warm: dict[str, Any] | None = None,
) -> int:
    """Learn up to total_steps and evaluate the end; on a stop signal save latest
    unevaluated and raise TrainingInterrupted; on an error save it too, then re-raise.
    A warm-started model is evaluated and saved at step 0 first (the curve's start, and
    what a resume continues from without cloning again)."""
    config, run_dir = start.config, start.run_dir
    resume_at = start.steps_done if start.resuming else None
    selector = CheckpointSelector(config, run_dir, SB3State(model), stop, resume_at)
    model.set_logger(make_logger(run_dir, resume_at))
    try:
        try:
            if warm is not None:
                selector.evaluate_and_keep(0, {"warm_start": warm})
            model.learn(
                total_timesteps=config.total_steps - model.num_timesteps,
                callback=make_callbacks(config, selector, run_dir / "pool", stop),
                reset_num_timesteps=not start.resuming,
                progress_bar=progress_bar,
            )
            if not stop.requested and selector.saved_steps != model.num_timesteps:
                selector.evaluate_and_keep(model.num_timesteps)
        except KeyboardInterrupt:
            if not stop.requested:
                raise
        except Exception as err:
            _save_after_error(selector, model, start, err)
            raise
        if stop.requested:
            selector.save_and_stop(int(model.num_timesteps))
    finally:
        start.saved = start.saved or selector.saved_steps is not None
    return int(model.num_timesteps)


def _save_after_error(
    selector: CheckpointSelector, model: Any, start: RunStart, err: Exception
) -> None:
    """Keep the steps trained so far when training fails (the error is raised after)."""
    steps = int(model.num_timesteps)
    if steps <= start.steps_done or selector.saved_steps == steps:
        return
    try:
        selector.save_unevaluated(steps, f"error: {type(err).__name__}")
    except Exception as save_err:  # noqa: BLE001 - report the original error, not this
        print(f"could not save latest after the error: {save_err}", flush=True)
        return
    start.saved = True
    print(f"saved {start.run_dir}/latest at step {steps:,} before the error below", flush=True)
