"""Training run configs: YAML files validated on load (pydantic), so a typo or a wrong
type fails before any training starts, with the key path and the accepted values.

Numbers may be written as YAML reads them as text: ``3e-4`` (YAML 1.1 wants a dot and a
signed exponent for a float) or ``1e5`` for a count. Agent specs (``eval.opponents``) are
built once on load, so an unknown name or a missing checkpoint fails here too, and so does
a tool the game lacks (:mod:`.config_capabilities`).

The whole config is :class:`TrainConfig`; its sections live in :mod:`.config_sections`
and :mod:`.config_exit`, their value types in :mod:`.config_types`, the checks beyond
types in :mod:`.config_checks`, :mod:`.config_capabilities` and :mod:`.config_starts`,
and how a problem reads in :mod:`.config_messages`. Every name is importable from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError, model_validator

from art_gallery_env.core.registry import get_game

from . import config_checks as checks
from .config_capabilities import capability_problems
from .config_checks import ConfigError
from .config_exit import (
    EXPERT_ITERATION,
    GENERATIONS_RANGE,
    INIT_RANDOM,
    INIT_WARM_START,
    ExitConfig,
    check_expert_iteration,
    exit_problems,
    generations_as_steps,
    generations_override,
)
from .config_messages import problems_error, pydantic_problems
from .config_sections import (
    NETWORK_KEYS,
    EnvConfig,
    EvalConfig,
    NetworkConfig,
    PoolConfig,
    PPOConfig,
    RLlibConfig,
    WarmStartConfig,
    fold_variant_keys,
    saved_config_as_now,
    trains_solo,
)
from .config_starts import start_problems
from .config_types import Count, Number, Seed, Strict, one_line, short

__all__ = [
    "EXPERT_ITERATION",
    "GENERATIONS_RANGE",
    "INIT_RANDOM",
    "INIT_WARM_START",
    "NETWORK_KEYS",
    "ConfigError",
    "Count",
    "EnvConfig",
    "EvalConfig",
    "ExitConfig",
    "NetworkConfig",
    "Number",
    "PPOConfig",
    "PoolConfig",
    "RLlibConfig",
    "Seed",
    "TrainConfig",
    "WarmStartConfig",
    "config_from_dict",
    "fold_variant_keys",
    "load_config",
    "saved_config_as_now",
    "trains_solo",
]


def _check_solo(config: TrainConfig) -> None:
    """A solo config (``env.num_players: 1``) trains with MaskablePPO and has no opponents:
    a ``pool:`` or ``eval.opponents`` other than the defaults is refused, not ignored (a
    run folder's saved config.yaml holds the defaults, so it still loads)."""
    if not config.env.solo:
        return
    if config.algorithm != "maskable_ppo":
        raise ValueError(
            f"env.num_players 1 (the solo game) trains with algorithm: maskable_ppo, got "
            f"{config.algorithm}"
        )
    if config.pool != PoolConfig():
        raise ValueError(
            "pool: the solo game has no opponents (nor snapshots of them); leave pool: out"
        )
    if config.eval.opponents != EvalConfig.model_fields["opponents"].get_default(
        call_default_factory=True
    ):
        raise ValueError(
            "eval.opponents: the solo game has no opponents (its evaluation plays the policy "
            "alone and counts the games that reach a goal); leave eval.opponents out"
        )


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


class TrainConfig(Strict):
    name: str = Field(min_length=1)
    algorithm: Literal["maskable_ppo", "rllib_ppo", "expert_iteration"] = "maskable_ppo"
    seed: Seed = 0  # 0..2**32 - 1: what numpy.random.seed takes
    total_steps: Count = Field(ge=1)
    n_envs: Count = Field(2, ge=1)
    # auto: the game's compiled engine (vector) where it has one and numba imports, else
    # subprocess workers (sb3_trainer.resolved_vec_env)
    vec_env: Literal["auto", "subproc", "dummy", "vector"] = "auto"
    torch_threads: Count = Field(1, ge=1)
    run_dir: str | None = None
    env: EnvConfig = Field(default_factory=EnvConfig)
    network: NetworkConfig = Field(default_factory=NetworkConfig)
    ppo: PPOConfig = Field(default_factory=PPOConfig)
    pool: PoolConfig = Field(default_factory=PoolConfig)
    eval: EvalConfig = Field(default_factory=EvalConfig)
    rllib: RLlibConfig = Field(default_factory=RLlibConfig)
    warm_start: WarmStartConfig | None = None
    exit: ExitConfig | None = None

    @model_validator(mode="before")
    @classmethod
    def _generations_are_steps(cls, data: Any) -> Any:
        """Expert iteration counts steps in generations: ``total_steps`` is
        ``exit.generations`` (given once; ``--total-steps`` sets the generations)."""
        return generations_as_steps(data)

    @model_validator(mode="after")
    def _solo_rules(self) -> TrainConfig:
        """The solo game's own rules first: they say more than a tool it lacks."""
        _check_solo(self)
        return self

    @model_validator(mode="after")
    def _game_has_the_tools(self) -> TrainConfig:
        """A tool the config asks for that its game lacks is refused in one line each,
        before the checks that assume the tool (:mod:`.config_capabilities`)."""
        problems = capability_problems(self)
        if problems:
            raise ValueError("\n".join(problems))
        return self

    @model_validator(mode="after")
    def _keys_match_algorithm(self) -> TrainConfig:
        eval_sizes = self.eval.table_sizes
        if eval_sizes is not None and (
            not eval_sizes or not set(eval_sizes) <= set(self.env.table_sizes)
        ):
            raise ValueError(
                f"eval.table_sizes {eval_sizes} must be a non-empty subset of the table "
                f"sizes trained on, env.num_players {self.env.table_sizes}"
            )
        if check_expert_iteration(self):
            return self
        if self.algorithm == "maskable_ppo":
            if "rllib" in self.model_fields_set:
                raise ValueError("the rllib: section is only used with algorithm: rllib_ppo")
            return self
        if len(self.env.table_sizes) > 1:
            raise ValueError(
                "algorithm rllib_ppo trains one table size; mixed tables (env.num_players as "
                "a list) need algorithm: maskable_ppo"
            )
        if self.warm_start is not None:
            raise ValueError("warm_start (behaviour cloning) needs algorithm: maskable_ppo")
        misplaced = [f"{k} (use {v})" for k, v in _SB3_ONLY.items() if k in self.model_fields_set]
        misplaced += [
            f"ppo.{k} (use {v})" for k, v in _SB3_ONLY_PPO.items() if k in self.ppo.model_fields_set
        ]
        if misplaced:
            raise ValueError("algorithm rllib_ppo does not use " + ", ".join(misplaced))
        return self

    @property
    def eval_table_sizes(self) -> list[int]:
        """The table sizes each evaluation plays, with their weights (from env)."""
        return self.eval.table_sizes or self.env.table_sizes

    @property
    def resolved_run_dir(self) -> Path:
        return Path(self.run_dir) if self.run_dir else Path("runs") / self.name


def config_from_dict(
    data: Any, source: str = "config", overrides: Mapping[str, Any] | None = None
) -> TrainConfig:
    """The validated config of ``data`` (a YAML file's mapping), with ``overrides`` (the
    command line's ``--run-dir``, ``--total-steps``: None values ignored) checked as if
    written in it; a dotted key (``env.game``) sets that key of its section. Every problem
    found is raised at once, one line each."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping of keys, got {type(data).__name__}")
    given = {k: v for k, v in (overrides or {}).items() if v is not None}
    data = _with_overrides(generations_override(_set_keys_of_a_whole_dump(data), given), given)
    try:
        config = TrainConfig.model_validate(data)
    except ValidationError as err:
        problems = [p for e in err.errors() for p in pydantic_problems(e, data, TrainConfig)]
        raise problems_error(source, problems) from None
    game = get_game(config.env.game)
    problems = checks.config_problems(config, game.observation_size, game.num_actions)
    problems += _agent_spec_problems("eval.opponents", config.eval.opponents, config.env.game)
    problems += _agent_spec_problems("pool.agents", list(config.pool.agents), config.env.game)
    problems += _pool_weight_problems(config)
    if config.warm_start is not None:
        problems += _agent_spec_problems(
            "warm_start.teacher", [config.warm_start.teacher], config.env.game
        )
    if config.exit is not None:
        league = config.exit.league.fixed_specs()
        problems += _agent_spec_problems("exit.league", league, config.env.game)
    problems += exit_problems(config)
    problems += start_problems(config)
    if problems:
        raise problems_error(source, problems)
    return config


# The top-level keys of every whole dump (run_dir included, which configs do not give).
_WHOLE_DUMP_KEYS = {"name", "algorithm", "seed", "total_steps", "n_envs", "vec_env", "run_dir"}
_WHOLE_DUMP_KEYS |= {"torch_threads", "env", "network", "ppo", "pool", "eval"}


def _set_keys_of_a_whole_dump(data: dict[str, Any]) -> dict[str, Any]:
    """A run folder's ``config.yaml`` written before it held only the keys that were set
    (23df60b) is the whole dump, defaults included, and a key that its algorithm or network
    type does not read is refused when given, even at its default. A mapping with every
    top-level key that such dumps held (``_WHOLE_DUMP_KEYS``; later keys such as ``exit``
    may be missing) is one: it is read without the keys at their defaults (the same
    config), so that old run folders' configs load and resume."""
    fields = TrainConfig.model_fields
    if not set(data) >= _WHOLE_DUMP_KEYS:
        return data
    kept: dict[str, Any] = {}
    for key, value in data.items():
        field = fields.get(key)
        if field is None or field.is_required():
            kept[key] = value  # an unknown key is reported as in any config
            continue
        default = field.get_default(call_default_factory=True)
        if isinstance(default, BaseModel):
            default = default.model_dump()
        if isinstance(value, Mapping) and isinstance(default, Mapping):
            value = {k: v for k, v in value.items() if k not in default or v != default[k]}
            if value:
                kept[key] = value
        elif value != default:
            kept[key] = value
    return kept


def _agent_spec_problems(key: str, specs: list[str], game: str | None) -> list[str]:
    """Every agent spec is built once now: a typo or a missing checkpoint (or another
    game's policy) is found before training, not at the first evaluation after hours."""
    from art_gallery_env.agents.registry import agent_spec_problem

    problems = []
    for i, spec in enumerate(specs):
        problem = agent_spec_problem(spec, game)
        if problem is not None:
            problems.append(one_line(f"{key}[{i}]: {short(spec)}: {problem}"))
    return problems


def _pool_weight_problems(config: TrainConfig) -> list[str]:
    """``pool.heuristic`` and ``pool.random`` name agents too: weighted above 0, the game
    must have them (a game without a heuristic trains with ``pool.heuristic: 0``)."""
    from art_gallery_env.agents.registry import agent_spec_problem

    problems = []
    for name in ("heuristic", "random"):
        problem = agent_spec_problem(name, config.env.game)
        if getattr(config.pool, name) > 0 and problem is not None:
            problems.append(one_line(f"pool.{name}: {problem}; or set pool.{name}: 0"))
    return problems


def _with_overrides(data: dict[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with each override set; ``section.key`` sets one key of a section (a
    section that is not a mapping is left for its field to report)."""
    data = dict(data)
    for key, value in given.items():
        section, dot, name = key.partition(".")
        if not dot:
            data[key] = value
        elif isinstance(data.get(section, {}), Mapping):
            data[section] = {**data.get(section, {}), name: value}
    return data


def load_config(path: str | Path, overrides: Mapping[str, Any] | None = None) -> TrainConfig:
    """The config in the YAML file ``path`` (see :func:`config_from_dict`). Nothing is
    written: a folder, a file that is not UTF-8 or not YAML, or a key given twice is a
    ConfigError naming the file."""
    path = Path(path)
    data = checks.load_yaml(checks.read_config_text(path), str(path))
    return config_from_dict(data, str(path), overrides)
