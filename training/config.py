"""Training run configs: YAML files validated on load (pydantic), so a typo or a wrong
type fails before any training starts, with the key path and the accepted values."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator


class ConfigError(ValueError):
    """A config that cannot be used; the message names the file and the bad keys."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class EnvConfig(_Strict):
    num_players: int = Field(2, ge=2, le=6)
    zero_is_ten: bool = False
    reward_mode: Literal["win", "score_margin"] = "score_margin"


class NetworkConfig(_Strict):
    hidden_sizes: list[int] = Field(default_factory=lambda: [256, 256], min_length=1)
    activation: Literal["tanh", "relu"] = "tanh"

    @model_validator(mode="after")
    def _positive_sizes(self) -> NetworkConfig:
        if any(size < 1 for size in self.hidden_sizes):
            raise ValueError(f"hidden_sizes must be positive, got {self.hidden_sizes}")
        return self


class PPOConfig(_Strict):
    """sb3_contrib.MaskablePPO hyper-parameters (same names as its constructor)."""

    learning_rate: float = Field(3e-4, gt=0)
    n_steps: int = Field(512, ge=8)
    batch_size: int = Field(256, ge=8)
    n_epochs: int = Field(4, ge=1)
    gamma: float = Field(1.0, gt=0, le=1)
    gae_lambda: float = Field(0.95, ge=0, le=1)
    clip_range: float = Field(0.2, gt=0)
    ent_coef: float = Field(0.01, ge=0)
    vf_coef: float = Field(0.5, ge=0)
    max_grad_norm: float = Field(0.5, gt=0)


class PoolConfig(_Strict):
    """Who sits in the other seats: frozen learner snapshots, the heuristic, random."""

    snapshot_every_steps: int = Field(20_000, ge=1)
    max_snapshots: int = Field(10, ge=1)
    self_play: float = Field(0.6, ge=0)
    heuristic: float = Field(0.2, ge=0)
    random: float = Field(0.2, ge=0)

    @model_validator(mode="after")
    def _some_weight(self) -> PoolConfig:
        if self.self_play + self.heuristic + self.random <= 0:
            raise ValueError("pool weights self_play, heuristic and random must not all be 0")
        return self


class EvalConfig(_Strict):
    """Periodic evaluation during training, and the final one of ``best`` at the end."""

    every_steps: int = Field(50_000, ge=1)
    games: int = Field(100, ge=1)
    opponents: list[str] = Field(default_factory=lambda: ["random", "heuristic"], min_length=1)
    workers: int = Field(1, ge=1)
    final_games: int = Field(200, ge=0)
    final_workers: int = Field(2, ge=1)


class RLlibConfig(_Strict):
    """Ray RLlib PPO (``algorithm: rllib_ppo``): where it runs and its batch sizes.

    The defaults run on a 2-core laptop: sampling and learning in the driver process. Steps
    are env steps (one per decision of any seat); the PPO coefficients come from ``ppo:``.
    """

    num_env_runners: int = Field(0, ge=0)  # 0: sample in the driver process
    num_envs_per_env_runner: int = Field(1, ge=1)
    num_cpus_per_env_runner: int = Field(1, ge=1)
    num_learners: int = Field(0, ge=0)  # 0: one learner in the driver process
    num_gpus_per_learner: float = Field(0, ge=0)  # with num_learners 0: the driver's GPU
    train_batch_size: int = Field(4000, ge=8)  # env steps per iteration, all learners
    minibatch_size: int = Field(256, ge=8)
    num_epochs: int = Field(4, ge=1)
    league: bool = False  # main vs frozen copies of itself instead of one shared policy
    league_snapshot_every_iters: int = Field(10, ge=1)
    league_max_policies: int = Field(4, ge=1)  # frozen copies kept (oldest replaced)
    ray_address: str | None = None  # None: $RAY_ADDRESS if set, else a local Ray

    @model_validator(mode="after")
    def _minibatch_fits(self) -> RLlibConfig:
        per_learner = self.train_batch_size // max(1, self.num_learners)
        if self.minibatch_size > per_learner:
            raise ValueError(
                f"rllib.minibatch_size {self.minibatch_size} is larger than the batch per "
                f"learner ({per_learner} = train_batch_size / max(1, num_learners))"
            )
        return self


# Keys of the MaskablePPO path that mean nothing to RLlib, and what to use instead.
_SB3_ONLY = {
    "n_envs": "rllib.num_env_runners / rllib.num_envs_per_env_runner",
    "vec_env": "rllib.num_env_runners",
    "pool": "rllib.league",
}
_SB3_ONLY_PPO = {
    "n_steps": "rllib.train_batch_size",
    "batch_size": "rllib.minibatch_size",
    "n_epochs": "rllib.num_epochs",
}


class TrainConfig(_Strict):
    name: str = Field(min_length=1)
    algorithm: Literal["maskable_ppo", "rllib_ppo"] = "maskable_ppo"
    seed: int = 0
    total_steps: int = Field(ge=1)
    n_envs: int = Field(2, ge=1)
    vec_env: Literal["subproc", "dummy"] = "subproc"
    torch_threads: int = Field(1, ge=1)
    run_dir: str | None = None
    env: EnvConfig = Field(default_factory=EnvConfig)
    network: NetworkConfig = Field(default_factory=NetworkConfig)
    ppo: PPOConfig = Field(default_factory=PPOConfig)
    pool: PoolConfig = Field(default_factory=PoolConfig)
    eval: EvalConfig = Field(default_factory=EvalConfig)
    rllib: RLlibConfig = Field(default_factory=RLlibConfig)

    @model_validator(mode="after")
    def _keys_match_algorithm(self) -> TrainConfig:
        if self.algorithm == "maskable_ppo":
            if "rllib" in self.model_fields_set:
                raise ValueError("the rllib: section is only used with algorithm: rllib_ppo")
            return self
        misplaced = [f"{k} (use {v})" for k, v in _SB3_ONLY.items() if k in self.model_fields_set]
        misplaced += [
            f"ppo.{k} (use {v})" for k, v in _SB3_ONLY_PPO.items() if k in self.ppo.model_fields_set
        ]
        if misplaced:
            raise ValueError("algorithm rllib_ppo does not use " + ", ".join(misplaced))
        return self

    @property
    def resolved_run_dir(self) -> Path:
        return Path(self.run_dir) if self.run_dir else Path("runs") / self.name


def config_from_dict(data: Any, source: str = "config") -> TrainConfig:
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping of keys, got {type(data).__name__}")
    try:
        return TrainConfig.model_validate(data)
    except ValidationError as err:
        problems = []
        for e in err.errors():
            where = ".".join(str(part) for part in e["loc"]) or "(top level)"
            message = e["msg"]
            if e["type"] == "extra_forbidden":
                message = f"unknown key; known keys here: {_known_keys(e['loc'][:-1])}"
            problems.append(f"  {where}: {message}")
        raise ConfigError(f"{source}: invalid config\n" + "\n".join(problems)) from None


def load_config(path: str | Path) -> TrainConfig:
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except yaml.YAMLError as err:
        raise ConfigError(f"{path}: not valid YAML: {err}") from None
    return config_from_dict(data, str(path))


def _known_keys(location: tuple[Any, ...]) -> str:
    model: type[BaseModel] = TrainConfig
    for part in location:
        field = model.model_fields.get(str(part))
        if field is None or not isinstance(field.annotation, type):
            break
        if issubclass(field.annotation, BaseModel):
            model = field.annotation
    return ", ".join(model.model_fields)
