"""Self-play PPO on Ray RLlib's new API stack (``art-gallery train`` with ``algorithm: rllib_ppo``).

* The env: :mod:`training.rllib_env` (the AEC env through RLlib's ``PettingZooEnv``).
* The policy: :class:`training.rllib_module.MaskedPPOTorchRLModule`, RLlib's PPO torch
  module with action masking, pinned to an MLP that exports to the weights-only format.
* Who plays: one shared policy ``main`` for every seat (all seats' decisions are training
  data), or with ``rllib.league: true`` one seat per episode plays ``main`` and the others
  play frozen copies ``frozen_0..K-1`` of it, refreshed round-robin every
  ``league_snapshot_every_iters`` iterations (only ``main`` is trained).
* Where it runs: a local Ray started with this machine's CPUs, or an existing cluster
  (``rllib.ray_address`` or ``$RAY_ADDRESS``); ``rllib.num_env_runners``, ``num_learners``
  and ``num_gpus_per_learner`` spread sampling and learning over it.

Every ``eval.every_steps`` env steps the ``main`` policy is exported, evaluated with the
same seat-rotated matches as the SB3 path and saved with the whole algorithm as one
checkpoint (:mod:`.checkpoints`): ``RUN_DIR/latest.safetensors`` + ``latest.json``, and
``RUN_DIR/rllib_checkpoint`` for ``--resume`` (``RLModule.from_checkpoint(RUN_DIR/
rllib_checkpoint/learner_group/learner/rl_module/main)`` loads the module alone, without
Ray running); ``best.*`` when it is at least as good on the last opponent listed. Ctrl-C
or SIGTERM stops after the iteration in progress and saves ``latest``.
"""

from __future__ import annotations

import functools
import logging
import os
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from . import scalars
from .checkpoints import RLLIB_DIR, RLLIB_LINK, next_due
from .config import TrainConfig
from .entry import resume_line, run_trainer
from .interrupt import GracefulStop
from .legacy import legacy_module_names
from .logs import CsvLog
from .rllib_env import ENV_NAME, make_rllib_env, register_rllib_env
from .rllib_module import MaskedPPOTorchRLModule, export_rllib_module, module_spec
from .run_folder import RunStart
from .scalars import ScalarWriter, eval_scalars
from .selection import CheckpointSelector, TrainerState

MAIN = "main"
CHECKPOINT_DIR = RLLIB_LINK
MODULE_PATH = ("learner_group", "learner", "rl_module")  # inside an algorithm checkpoint


def frozen_ids(config: TrainConfig) -> list[str]:
    return [f"frozen_{k}" for k in range(config.rllib.league_max_policies)]


def policy_ids(config: TrainConfig) -> list[str]:
    return [MAIN, *frozen_ids(config)] if config.rllib.league else [MAIN]


def _stable_hash(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


def shared_policy_mapping(agent_id: str, episode: Any, **kwargs: Any) -> str:
    """Every seat plays (and trains) the one shared policy."""
    return MAIN


def league_policy_mapping(
    agent_id: str, episode: Any, *, num_players: int, num_frozen: int, **kwargs: Any
) -> str:
    """One seat per episode plays ``main``, each other seat a frozen copy, chosen from the
    episode id (so every call for the same episode and seat agrees)."""
    episode_key = str(episode.id_)
    seat = int(str(agent_id).rsplit("_", 1)[1])
    if seat == _stable_hash(episode_key) % num_players:
        return MAIN
    return f"frozen_{_stable_hash(f'{episode_key}:{agent_id}') % num_frozen}"


def env_config(config: TrainConfig) -> dict[str, Any]:
    return {
        "game": config.env.game,
        "num_players": config.env.num_players,
        "variants": dict(config.env.variants),
        "reward_mode": config.env.reward_mode,
    }


def build_algorithm_config(config: TrainConfig) -> Any:
    """The ``PPOConfig`` of a project config (new API stack, torch, action masking)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec

    r = config.rllib
    register_rllib_env()
    if r.league:
        mapping = functools.partial(
            league_policy_mapping,
            num_players=config.env.num_players,
            num_frozen=r.league_max_policies,
        )
    else:
        mapping = shared_policy_mapping
    spec = functools.partial(module_spec, *_network_args(config))
    ppo = config.ppo
    return (
        PPOConfig()
        .api_stack(enable_rl_module_and_learner=True, enable_env_runner_and_connector_v2=True)
        # RLlib's env check steps random unmasked actions, which this env (rightly) refuses.
        .environment(env=ENV_NAME, env_config=env_config(config), disable_env_checking=True)
        .framework("torch")
        .env_runners(
            num_env_runners=r.num_env_runners,
            num_envs_per_env_runner=r.num_envs_per_env_runner,
            num_cpus_per_env_runner=r.num_cpus_per_env_runner,
        )
        .learners(num_learners=r.num_learners, num_gpus_per_learner=r.num_gpus_per_learner)
        # RLlib's own recovery: Ray restarts a dead env runner actor (up to this many
        # times each) and RLlib brings it back into sampling with the current weights.
        .fault_tolerance(
            restart_failed_env_runners=r.env_runner_restarts > 0,
            max_num_env_runner_restarts=r.env_runner_restarts,
        )
        .training(
            lr=ppo.learning_rate,
            gamma=ppo.gamma,
            lambda_=ppo.gae_lambda,
            clip_param=ppo.clip_range,
            entropy_coeff=ppo.ent_coef,
            vf_loss_coeff=ppo.vf_coef,
            grad_clip=ppo.max_grad_norm,
            use_kl_loss=False,  # clipped PPO only, as MaskablePPO
            train_batch_size_per_learner=r.train_batch_size // max(1, r.num_learners),
            minibatch_size=r.minibatch_size,
            num_epochs=r.num_epochs,
        )
        .multi_agent(
            policies=set(policy_ids(config)),
            policy_mapping_fn=mapping,
            policies_to_train=[MAIN],
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={pid: spec() for pid in policy_ids(config)}
            )
        )
        .debugging(seed=config.seed)
    )


def init_ray(config: TrainConfig) -> bool:
    """Connect to ``rllib.ray_address`` / ``$RAY_ADDRESS``, or start a local Ray sized for
    the config; returns True when this call started (and should shut down) Ray."""
    import ray

    if ray.is_initialized():
        return False
    address = config.rllib.ray_address or os.environ.get("RAY_ADDRESS")
    if address:
        print(f"connecting to the Ray cluster at {address}", flush=True)
        ray.init(address=address)
        return True
    r = config.rllib
    # Logical CPUs for the actors this config asks for (the driver samples and learns
    # without any): e.g. 2 env runners on a 2-core laptop share its cores, and a big
    # machine does not get a Ray worker pool sized for all of its cores.
    needed = r.num_env_runners * r.num_cpus_per_env_runner + r.num_learners
    # address="local": always a new local Ray. Without it ray.init() joins a cluster it
    # finds recorded in /tmp/ray (possibly a stale record of one that is gone).
    ray.init(address="local", num_cpus=max(1, needed), include_dashboard=False)
    return True


def module_checkpoint_path(checkpoint_dir: str | Path, module_id: str = MAIN) -> Path:
    """Where one module's checkpoint lies inside an algorithm checkpoint."""
    return Path(checkpoint_dir).joinpath(*MODULE_PATH, module_id)


def _network_args(config: TrainConfig) -> tuple[Any, ...]:
    """module_spec's arguments: the MLP's sizes, or the structured network's entry."""
    network = config.network
    structured = network.network() if network.type != "mlp" else None
    return network.hidden_sizes, network.activation, structured, config.env.game


class _MainExporter:
    """A local copy of the ``main`` module to pull the learner's weights into and export."""

    def __init__(self, config: TrainConfig) -> None:
        env = make_rllib_env(env_config(config))
        agent = env.possible_agents[0]
        spec = module_spec(*_network_args(config))
        spec.observation_space = env.observation_spaces[agent]
        spec.action_space = env.action_spaces[agent]
        spec.inference_only = True
        self.module: MaskedPPOTorchRLModule = spec.build()
        env.close()

    def export(self, algo: Any, path: Path, meta: dict[str, Any]) -> Path:
        state = main_module_state(algo)
        self.module.set_state(state)
        return export_rllib_module(self.module, path, meta)


def main_module_state(algo: Any) -> dict[str, Any]:
    """The learner's current state of the ``main`` module (works with remote learners)."""
    component = "/".join(MODULE_PATH[1:] + (MAIN,))
    state = algo.learner_group.get_state(components=component)
    return state["learner"]["rl_module"][MAIN]


def snapshot_to_league(algo: Any, frozen_id: str) -> None:
    """Copy ``main``'s weights into the frozen module ``frozen_id`` (learner and runners).

    The env runners are set directly: ``Algorithm.set_state`` syncs them with the learner's
    weights sequence number, which has not moved since the last ``train()``, so they would
    skip the update. A state without a sequence number is always applied.
    """
    import ray

    state = main_module_state(algo)
    algo.learner_group.set_state({"learner": {"rl_module": {frozen_id: state}}})
    ref = ray.put({"rl_module": {frozen_id: state}})
    algo.env_runner_group.foreach_env_runner(
        lambda runner, _ref=ref: runner.set_state(ray.get(_ref)), local_env_runner=True
    )


def _result(result: dict[str, Any], *path: str, default: Any = None) -> Any:
    for key in path:
        if not isinstance(result, dict) or key not in result:
            return default
        result = result[key]
    return result


class _RunLog:
    """``logs/progress.csv``: the columns ``art-gallery plot`` reads, as SB3 writes them
    (atomic rows, continued by a resume: :class:`.logs.CsvLog`); and the TensorBoard
    scalars under SB3's names (:mod:`.scalars`) in the same folder."""

    FIELDS = (
        "time/total_timesteps",
        "time/iterations",
        "time/fps",
        "time/wall_s",
        "rollout/ep_rew_mean",
        "rollout/ep_len_mean",
        "rollout/episodes",
        "train/policy_loss",
        "train/value_loss",
        "train/entropy",
    )

    def __init__(self, run_dir: Path, resume_at: int | None = None) -> None:
        path = run_dir / "logs" / "progress.csv"
        self.log = CsvLog(path, "time/total_timesteps", self.FIELDS, resume_at=resume_at)
        self.scalars = ScalarWriter(run_dir / "logs")

    def row(self, values: dict[str, Any], result: dict[str, Any]) -> None:
        self.log.append({k: values.get(k) for k in self.FIELDS})
        self.scalars.write(values["time/total_timesteps"], tensorboard_scalars(values, result))

    def evaluation(self, steps: int, results: dict[str, Any]) -> None:
        self.scalars.write(steps, eval_scalars(results))

    def close(self) -> None:
        self.scalars.close()


def tensorboard_scalars(row: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """One iteration's TensorBoard scalars under SB3's names: the progress row's, and the
    learner's results of ``main`` that SB3 reports too (:mod:`.scalars`)."""
    from ray.rllib.utils.metrics import LEARNER_RESULTS

    learner = _result(result, LEARNER_RESULTS, MAIN, default={}) or {}
    entropy = _finite(learner.get("entropy"))
    return {
        scalars.FPS: row["time/fps"],
        scalars.EP_REW_MEAN: row["rollout/ep_rew_mean"],
        scalars.EP_LEN_MEAN: row["rollout/ep_len_mean"],
        scalars.POLICY_LOSS: learner.get("policy_loss"),
        scalars.VALUE_LOSS: learner.get("vf_loss_unclipped"),
        scalars.ENTROPY_LOSS: None if entropy is None else -entropy,
        scalars.EXPLAINED_VARIANCE: learner.get("vf_explained_var"),
        scalars.LEARNING_RATE: learner.get("default_optimizer_learning_rate"),
    }


def _summarise(
    result: dict[str, Any], steps_before: int, wall: float, league: bool
) -> dict[str, Any]:
    """One progress row. The reward column is ``main``'s mean final reward in league mode
    (one seat per episode). With one shared policy it is left empty: RLlib sums a module's
    returns over its seats, and the seats' rewards of one game nearly cancel out."""
    from ray.rllib.utils.metrics import (
        ENV_RUNNER_RESULTS,
        EPISODE_LEN_MEAN,
        LEARNER_RESULTS,
        NUM_EPISODES,
    )

    # This iteration's env steps (counted here, so a resumed run continues its own count).
    sampled = sampled_steps(result)
    seconds = float(result.get("time_this_iter_s") or 0.0)
    learner = _result(result, LEARNER_RESULTS, MAIN, default={}) or {}
    return {
        "time/total_timesteps": steps_before + sampled,
        "time/iterations": int(result.get("training_iteration", 0)),
        "time/fps": round(sampled / seconds, 1) if seconds > 0 else None,
        "time/wall_s": round(wall, 1),
        "rollout/ep_rew_mean": (
            _finite(_result(result, ENV_RUNNER_RESULTS, "module_episode_returns_mean", MAIN))
            if league
            else None
        ),
        "rollout/ep_len_mean": _result(result, ENV_RUNNER_RESULTS, EPISODE_LEN_MEAN),
        "rollout/episodes": _result(result, ENV_RUNNER_RESULTS, NUM_EPISODES),
        "train/policy_loss": learner.get("policy_loss"),
        "train/value_loss": learner.get("vf_loss"),
        "train/entropy": learner.get("entropy"),
    }


def sampled_steps(result: dict[str, Any]) -> int:
    """The env steps an iteration sampled: 0 when no env runner returned any (RLlib then
    reports NaN, or nothing, and skips the update)."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED

    sampled = _finite(_result(result, ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED))
    return int(sampled) if sampled else 0


def _finite(value: Any) -> float | None:
    if value is None or not np.isfinite(float(value)):
        return None
    return float(value)


def _format_line(row: dict[str, Any], total_steps: int) -> str:
    def num(key: str, fmt: str) -> str:
        value = row.get(key)
        return "-" if value is None else format(float(value), fmt)

    return (
        f"iter {row['time/iterations']:>4}  steps {row['time/total_timesteps']:>9,}/"
        f"{total_steps:,}  {num('time/fps', '.0f'):>5} steps/s  "
        f"ep_len {num('rollout/ep_len_mean', '.0f')}  "
        f"return(main) {num('rollout/ep_rew_mean', '+.3f')}  "
        f"pi_loss {num('train/policy_loss', '+.3f')}  vf_loss {num('train/value_loss', '.3f')}  "
        f"entropy {num('train/entropy', '.3f')}"
    )


class RLlibState(TrainerState):
    """The algorithm's exports: ``main``'s actor as weights, the algorithm as a folder."""

    trainer = "rllib_ppo"

    def __init__(self, algo: Any, exporter: _MainExporter) -> None:
        self.algo = algo
        self.exporter = exporter

    def export_weights(self, path: Path, meta: dict[str, Any]) -> None:
        self.exporter.export(self.algo, path, meta)

    def save_resume_state(self, folder: Path) -> dict[str, str]:
        self.algo.save_to_path(str((folder / RLLIB_DIR).resolve()))
        return {"rllib": RLLIB_DIR}


def train(config: TrainConfig, **options: Any) -> Path:
    """Run an RLlib config to ``total_steps`` env steps; returns the run folder. The
    options and the run folder's rules: :func:`.entry.run_trainer` (``resume`` may name
    ``rllib_checkpoint``; progress is one line per iteration, with or without
    ``progress_bar``). A stop signal saves latest after the iteration in progress."""
    return run_trainer(config, _run, algorithm="rllib_ppo", **options)


def _run(start: RunStart, stop: GracefulStop, progress_bar: bool) -> int:
    """Set up (Ray, the algorithm, the checkpoint to resume) and train; returns the steps."""
    del progress_bar  # one line per iteration instead
    config, run_dir = start.config, start.run_dir
    with stop.abortable():
        exporter = _MainExporter(config)
    started_ray = init_ray(config)
    algo = None
    runners_lost = False
    try:
        with stop.abortable():
            algo = build_algorithm_config(config).build_algo()
            steps = _restore(algo, config, start)
        selector = CheckpointSelector(
            config,
            run_dir,
            RLlibState(algo, exporter),
            stop,
            start.steps_done if start.resuming else None,
        )
        try:
            return _train_loop(algo, config, run_dir, selector, steps, stop)
        except ChildProcessError:
            runners_lost = True
            raise
        finally:
            if selector.saved_steps is not None:
                start.saved = True
    finally:
        if algo is not None:
            _stop_algorithm(algo, quiet=runners_lost)
        if started_ray:
            import ray

            ray.shutdown()


QUIET_ON_LOST_RUNNERS = ("ray.rllib.env.env_runner_group", "ray.rllib.utils.actor_manager")
"""RLlib's loggers that report a dead or restarting env runner met while stopping the
algorithm, each with a traceback (the actor manager's is that of the run's own stop)."""


def _stop_algorithm(algo: Any, quiet: bool) -> None:
    """``algo.stop()``. With ``quiet`` (an env runner was lost for good: dead, or still
    restarting, as one whose node died and no node took it) RLlib's logs of the actor's
    error while stopping it, tracebacks, are left out: the run's own line says what
    happened."""
    loggers = [logging.getLogger(name) for name in QUIET_ON_LOST_RUNNERS]
    levels = [logger.level for logger in loggers]
    if quiet:
        for logger in loggers:
            logger.setLevel(logging.CRITICAL)
    try:
        algo.stop()
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _restore(algo: Any, config: TrainConfig, start: RunStart) -> int:
    """Load the checkpoint to resume into ``algo`` (or seed the league); returns the env
    steps done."""
    if not start.resuming:
        if config.rllib.league:
            for frozen in frozen_ids(config):  # every slot starts as the initial policy
                snapshot_to_league(algo, frozen)
        return 0
    folder = start.resume_path.resolve().parent / start.resume_meta["files"]["rllib"]
    with legacy_module_names():  # checkpoints from before the one-package layout
        algo.restore_from_path(str(folder.resolve()))
    print(resume_line(start, at=f"at iteration {algo.iteration}"), flush=True)
    return start.steps_done


def _train_loop(
    algo: Any,
    config: TrainConfig,
    run_dir: Path,
    selector: CheckpointSelector,
    steps: int,
    stop: GracefulStop,
) -> int:
    """``algo.train()`` until ``total_steps``: a progress row per iteration, league
    snapshots, and the checkpoint selection every ``eval.every_steps``. A stop signal ends
    it after the iteration in progress (never inside an update) with latest saved. An
    iteration without samples (its env runners died) is not counted; RLlib restarts them,
    and a run whose runners stay lost stops in one line (:func:`_train_once`)."""
    log = _RunLog(run_dir, resume_at=steps)
    start = time.time()
    next_eval = next_due(selector.last_evaluated_steps(), config.eval.every_steps)
    empty_since: float | None = None  # when the iterations began to sample nothing
    try:
        while steps < config.total_steps and not stop.requested:
            result = _train_once(algo, config, empty_since)
            if not sampled_steps(result):
                if empty_since is None:
                    empty_since = time.time()
                    print(_waiting_line(algo, config), flush=True)
                _league_snapshot(algo, config)  # the schedule counts iterations
                continue
            empty_since = None
            row = _summarise(result, steps, time.time() - start, config.rllib.league)
            steps = row["time/total_timesteps"]
            log.row(row, result)
            print(_format_line(row, config.total_steps), flush=True)
            _league_snapshot(algo, config)
            if steps >= next_eval and not stop.requested:
                next_eval = next_due(steps, config.eval.every_steps)
                _evaluate(selector, steps, algo, stop, log)
        if not stop.requested and selector.saved_steps != steps:
            _evaluate(selector, steps, algo, stop, log)
    finally:
        log.close()
    if stop.requested:
        selector.save_and_stop(steps, {"iteration": algo.iteration})
    return steps


LOST_RUNNER_WAIT_S = 120.0
"""How long a run waits for a sample once its env runners stopped returning any (Ray
restarts a killed runner's process in seconds; a runner whose restarts are used up
never comes back): the run then stops."""


def _train_once(algo: Any, config: TrainConfig, empty_since: float | None) -> dict[str, Any]:
    """One ``algo.train()``. An env runner lost for good (its restarts used up, or
    ``rllib.env_runner_restarts: 0``) stops the run: a :class:`ChildProcessError` in one
    line, with the checkpoints already saved left as they are. ``empty_since``: when the
    iterations began to sample nothing (None while they sample)."""
    from ray.exceptions import NodeDiedError, RayActorError, WorkerCrashedError

    if empty_since is not None:
        waited = time.time() - empty_since
        if waited > LOST_RUNNER_WAIT_S:
            raise ChildProcessError(_lost_runners(config, f"no samples for {waited:.0f} s"))
        time.sleep(1.0)  # the restart takes seconds: do not spin on empty iterations
    try:
        return algo.train()
    except (RayActorError, WorkerCrashedError, NodeDiedError) as err:
        reason = f"{type(err).__name__} in iteration {algo.iteration + 1}"
        raise ChildProcessError(_lost_runners(config, reason)) from None


def _waiting_line(algo: Any, config: TrainConfig) -> str:
    return (
        f"iteration {algo.iteration}: no env runner returned samples (one died); waiting up "
        f"to {LOST_RUNNER_WAIT_S:.0f} s for RLlib to restart it (rllib.env_runner_restarts "
        f"{config.rllib.env_runner_restarts})"
    )


def _lost_runners(config: TrainConfig, reason: str) -> str:
    return (
        f"training stopped: an env runner process died and was not brought back ({reason}; "
        f"rllib.env_runner_restarts is {config.rllib.env_runner_restarts})"
    )


def _league_snapshot(algo: Any, config: TrainConfig) -> None:
    every = config.rllib.league_snapshot_every_iters
    if config.rllib.league and algo.iteration % every == 0:
        # Round-robin over the slots by iteration, so a resumed run continues it.
        slot = (algo.iteration // every - 1) % config.rllib.league_max_policies
        snapshot_to_league(algo, frozen_ids(config)[slot])
        print(f"  league: main copied to frozen_{slot}", flush=True)


def _evaluate(
    selector: CheckpointSelector, steps: int, algo: Any, stop: GracefulStop, log: _RunLog
) -> None:
    try:
        results = selector.evaluate_and_keep(steps, {"iteration": algo.iteration})
    except KeyboardInterrupt:
        if not stop.requested:
            raise  # a stop signal ends the evaluation; the caller saves unevaluated
        return
    log.evaluation(steps, results)
