"""Training run configs: YAML files validated on load (pydantic), so a typo or a wrong
type fails before any training starts, with the key path and the accepted values.

Numbers may be written as YAML reads them as text: ``3e-4`` (YAML 1.1 wants a dot and a
signed exponent for a float) or ``1e5`` for a count. Agent specs (``eval.opponents``) are
built once on load, so an unknown name or a missing checkpoint fails here too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from art_gallery_env.core.registry import GameSpec, default_game, game_names, get_game

from . import config_checks as checks
from .config_checks import ConfigError


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def _number_from_text(value: Any) -> Any:
    """'3e-4' -> 0.0003: YAML 1.1 reads a float without a dot as a string. Infinity and
    NaN (``.inf``, ``.nan``) are refused here, before the field's range: NaN compares
    false with every bound, and infinity passes a lower one."""
    if not isinstance(value, str):
        return checks.finite_number(value)
    try:
        number = float(value.strip())
    except ValueError:
        raise ValueError(f"{value!r} is not a number") from None
    if not math.isfinite(number):
        raise ValueError(f"{value!r} is not a finite number")
    return number


def _count_from_text(value: Any) -> Any:
    """'1e5' or 100000.0 -> 100000; 2.5 is refused (a count is a whole number)."""
    if isinstance(value, str):
        text = value.strip()
        try:
            return int(text.replace("_", ""))
        except ValueError:
            pass
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a whole number") from None
    if isinstance(value, float):
        if not value.is_integer():  # also NaN and infinity
            raise ValueError(f"{value!r} is not a whole number")
        return int(value)
    return value


Number = Annotated[float, BeforeValidator(_number_from_text)]
Count = Annotated[int, BeforeValidator(_count_from_text), AfterValidator(checks.bounded_count)]
Seed = Annotated[int, BeforeValidator(_count_from_text), AfterValidator(checks.checked_seed)]


def _table_sizes_from_text(value: Any) -> Any:
    """One table size or a non-empty list of distinct ones; counts as for Count (the
    game's own range is checked once the game is known)."""
    sizes = value if isinstance(value, list) else [value]
    checked = []
    for size in sizes:
        size = _count_from_text(size)
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(
                f"table sizes must be whole numbers of players (one, or a list of them), "
                f"got {value!r}"
            )
        checked.append(size)
    if isinstance(value, list) and (not checked or len(set(checked)) != len(checked)):
        raise ValueError(f"a list of table sizes must be non-empty and distinct, got {value!r}")
    return checked if isinstance(value, list) else checked[0]


def _spec_or_none(game: Any) -> GameSpec | None:
    """The registered game ``game`` names (None: the default game), or None if it names
    none (the ``game`` field's own check then reports it)."""
    try:
        return get_game(game)
    except (ValueError, TypeError):  # an unknown name, or not a name at all
        return None


def fold_variant_keys(env: Mapping[str, Any]) -> dict[str, Any]:
    """An ``env:`` section with its game's variants under ``variants``: configs written
    before ``variants`` existed set a variant as a key of its own (``zero_is_ten: true``),
    and so do the configs saved in their checkpoints. Any key that is one of the chosen
    game's variant names (and no key of the section) moves there; other keys stay, to be
    refused as unknown."""
    env = dict(env)
    spec = _spec_or_none(env.get("game"))
    if spec is None:
        return env
    old = {
        k: env.pop(k) for k in list(env) if k in spec.variants and k not in EnvConfig.model_fields
    }
    if not old:
        return env
    variants = env.get("variants", {})
    if not isinstance(variants, Mapping):
        return env | old  # the variants field reports its type; the old keys stay unknown
    for key, value in old.items():
        if key in variants and variants[key] != value:
            raise ValueError(
                f"{key} is given twice, as env.{key} ({value!r}) and env.variants.{key} "
                f"({variants[key]!r}); give it once, under variants"
            )
    env["variants"] = {**old, **variants}
    return env


def saved_config_as_now(saved: Mapping[str, Any]) -> dict[str, Any]:
    """A config a checkpoint saved (``model_dump``), with its ``env:`` section as configs
    read today: a config saved before games were named trained the default game, and one
    saved before ``variants`` existed kept each variant as a key of its own. Nothing is
    validated: ``--resume`` compares it with the new config key by key."""
    saved = dict(saved)
    env = saved.get("env")
    if isinstance(env, Mapping):
        env = {"game": default_game().name, **env}
        if env["game"] is None:
            env["game"] = default_game().name
        saved["env"] = fold_variant_keys(env)
    return saved


def trains_solo(game: GameSpec) -> bool:
    """Whether ``game`` trains at one player: it is played by one (``min_players`` 1) and
    names its own reward modes there (``reward_modes_at``; a solo game ranks no seats)."""
    return game.min_players <= 1 and game.reward_modes_at is not None


class EnvConfig(_Strict):
    """The game trained on. ``num_players`` is one table size, or a list of them (mixed
    tables: every episode draws its size, ``player_weights`` the chance of each size,
    equal when omitted). ``variants`` are the game's setup options (its spec names them,
    with their defaults); a variant given as a key of its own (``zero_is_ten: true``, as
    configs before ``variants`` did) is read as one of ``variants``."""

    game: str | None = None  # a registered game (core.game_names()); None: the default game
    num_players: Annotated[int | list[int], BeforeValidator(_table_sizes_from_text)] = 2
    player_weights: list[Number] | None = None
    variants: dict[str, Any] = Field(default_factory=dict)  # every variant once validated
    reward_mode: str = "score_margin"  # one of the game's reward modes at every table size

    @model_validator(mode="before")
    @classmethod
    def _old_variant_keys(cls, data: Any) -> Any:
        return fold_variant_keys(data) if isinstance(data, Mapping) else data

    @field_validator("game")
    @classmethod
    def _known_game(cls, value: str | None) -> str | None:
        if value is not None and value not in game_names():
            raise ValueError(f"unknown game {value!r}; games: {', '.join(game_names())}")
        return value

    @model_validator(mode="after")
    def _fits_game(self) -> EnvConfig:
        game = get_game(self.game)
        self.game = game.name  # a config that names no game trains the default one
        sizes = self.num_players if isinstance(self.num_players, list) else [self.num_players]
        low = max(2, game.min_players)  # the reward modes rank the learner against others
        solo = ", or 1 alone (its solo game)" if trains_solo(game) else ""
        for n in sizes:
            if not (low <= n <= game.max_players or (n == 1 and solo)):
                raise ValueError(
                    f"num_players: {game.title} trains at {low}..{game.max_players} "
                    f"players{solo}, got {n}"
                )
        if 1 in sizes and len(sizes) > 1:
            raise ValueError(
                f"num_players: the solo game trains alone (its reward modes "
                f"{list(game.reward_modes_for(1))} rank no seats), not mixed with {sizes}"
            )
        if sizes == [1] and "reward_mode" not in self.model_fields_set:
            self.reward_mode = game.reward_modes_for(1)[0]  # the game's own solo default
        self.variants = game.check_variants(self.variants)
        for n in sizes:
            game.check_reward_mode(self.reward_mode, n)
        return self

    @property
    def spec(self) -> GameSpec:
        """The registered game trained on."""
        return get_game(self.game)

    @model_validator(mode="after")
    def _weights_match_sizes(self) -> EnvConfig:
        weights = self.player_weights
        if weights is None:
            return self
        if not isinstance(self.num_players, list):
            raise ValueError("player_weights needs num_players to be a list of table sizes")
        if len(weights) != len(self.num_players):
            raise ValueError(
                f"player_weights has {len(weights)} entries for {len(self.num_players)} "
                f"table sizes {self.num_players}; give one weight per size"
            )
        if any(w < 0 for w in weights) or sum(weights) <= 0:
            raise ValueError(f"player_weights must be >= 0 and not all 0, got {weights}")
        problem = checks.finite_sum_problem("player_weights", weights)
        if problem:
            raise ValueError(problem)
        return self

    @property
    def table_sizes(self) -> list[int]:
        """The table sizes trained on (one entry for a single size)."""
        return list(self.num_players) if isinstance(self.num_players, list) else [self.num_players]

    @property
    def solo(self) -> bool:
        """Whether this trains the game's one-player (solo) game: no opponents, no pool."""
        return self.table_sizes == [1]

    @property
    def table_weights(self) -> list[float]:
        """The chance of each table size per episode (equal when not given)."""
        return list(self.player_weights or [1.0] * len(self.table_sizes))


NETWORK_KEYS = {"ebag": {"shared"}, "entity": {"token_dim", "pointer_dim", "pointer"}}
"""The keys of ``network:`` that only one type reads (training/networks.py)."""


class NetworkConfig(_Strict):
    """The policy network: ``mlp`` (separate actor and critic MLPs of ``hidden_sizes``),
    ``ebag`` (an embedding-bag first layer, actor and critic ``shared`` or not) or
    ``entity`` (the game's tokens, a shared trunk of ``hidden_sizes``, and the pointer
    from an action to its token; the game needs the ``network`` capability)."""

    type: Literal["mlp", "ebag", "entity"] = "mlp"
    hidden_sizes: list[Count] = Field(default_factory=lambda: [256, 256], min_length=1)
    activation: Literal["tanh", "relu"] = "tanh"
    shared: bool = True
    token_dim: Count = Field(32, ge=1)
    pointer_dim: Count = Field(64, ge=1)
    pointer: bool = True

    @model_validator(mode="after")
    def _positive_sizes(self) -> NetworkConfig:
        if any(size < 1 for size in self.hidden_sizes):
            raise ValueError(f"hidden_sizes must be positive, got {self.hidden_sizes}")
        for kind, keys in NETWORK_KEYS.items():
            stray = sorted(keys & self.model_fields_set)
            if stray and self.type != kind:
                raise ValueError(f"{stray[0]} applies to network type {kind}, not {self.type}")
        return self

    def network(self) -> dict[str, Any]:
        """The ``training.sb3_policy.build_network`` entry of a structured type."""
        entry: dict[str, Any] = {
            "type": self.type,
            "hidden_sizes": list(self.hidden_sizes),
            "activation": self.activation,
        }
        if self.type == "ebag":
            entry["shared"] = self.shared
        if self.type == "entity":
            entry.update(
                token_dim=self.token_dim, pointer_dim=self.pointer_dim, use_pointer=self.pointer
            )
        return entry


class PPOConfig(_Strict):
    """sb3_contrib.MaskablePPO hyper-parameters (same names as its constructor)."""

    learning_rate: Number = Field(3e-4, gt=0, le=1)  # Adam diverges at once above 1
    n_steps: Count = Field(512, ge=8)
    batch_size: Count = Field(256, ge=8)
    n_epochs: Count = Field(4, ge=1)
    gamma: Number = Field(1.0, gt=0, le=1)
    gae_lambda: Number = Field(0.95, ge=0, le=1)
    clip_range: Number = Field(0.2, gt=0)
    ent_coef: Number = Field(0.01, ge=0)
    vf_coef: Number = Field(0.5, ge=0)
    max_grad_norm: Number = Field(0.5, gt=0)


class PoolConfig(_Strict):
    """Who sits in the other seats: frozen learner snapshots, the heuristic, random, and
    any other agents by spec with their weights (``agents``: a league of fixed players such
    as heuristic variants, ISMCTS or a frozen checkpoint)."""

    snapshot_every_steps: Count = Field(20_000, ge=1)
    max_snapshots: Count = Field(10, ge=1)  # pool/ keeps the newest ones, deletes older
    keep_all_snapshots: bool = False  # keep every snapshot file (only the newest play)
    self_play: Number = Field(0.6, ge=0)
    heuristic: Number = Field(0.2, ge=0)
    random: Number = Field(0.2, ge=0)
    agents: dict[str, Number] = Field(default_factory=dict)  # agent spec -> weight

    @model_validator(mode="after")
    def _some_weight(self) -> PoolConfig:
        weights = [self.self_play, self.heuristic, self.random, *self.agents.values()]
        if any(w < 0 for w in self.agents.values()):
            raise ValueError("pool.agents weights must be >= 0")
        if sum(weights) <= 0:
            raise ValueError(
                "pool weights self_play, heuristic, random and agents must not all be 0"
            )
        problem = checks.finite_sum_problem("pool weights self_play, heuristic and random", weights)
        if problem:
            raise ValueError(problem)
        return self


class EvalConfig(_Strict):
    """Periodic evaluation during training, and the final one of ``best`` at the end."""

    every_steps: Count = Field(50_000, ge=1)
    games: Count = Field(100, ge=1)
    opponents: list[str] = Field(default_factory=lambda: ["random", "heuristic"], min_length=1)
    workers: Count = Field(1, ge=1)
    # Table sizes played at each evaluation (None: every size trained on); a subset
    # saves evaluation time when the config trains on many sizes.
    table_sizes: list[Count] | None = None
    final_games: Count = Field(200, ge=0)
    final_workers: Count = Field(2, ge=1)


class WarmStartConfig(_Strict):
    """Behaviour cloning before PPO (:mod:`.warm_start`): ``bc_games`` games per table size
    of ``teacher`` in every seat, the policy net trained ``epochs`` times over them with
    cross-entropy on masked logits, the value net on each seat's final reward."""

    teacher: str = "heuristic"
    bc_games: Count = Field(200, ge=1)
    epochs: Count = Field(4, ge=1)
    batch_size: Count = Field(256, ge=8)
    learning_rate: Number = Field(1e-3, gt=0, le=1)
    holdout: Number = Field(0.05, ge=0, lt=1)  # share of games kept out to report agreement
    # chance that a seat plays a random legal action instead (the teacher's choice is
    # still the label): data from states off the teacher's own path
    explore: Number = Field(0.0, ge=0, lt=1)
    # DAgger rounds after cloning: the clone plays one seat of dagger_games more games per
    # table size, the teacher labels them, and the clone trains dagger_epochs more epochs
    # over all the data so far (0: no DAgger)
    dagger_rounds: Count = Field(0, ge=0)
    dagger_games: Count = Field(100, ge=1)
    dagger_epochs: Count = Field(2, ge=1)
    # a trained MLP checkpoint (.safetensors) of the config's game and network to start
    # from instead of a clone: its actor is loaded as it is and only the critic learns
    # from the teacher's games (its value targets), so PPO fine-tunes a finished policy
    init: str | None = Field(None, min_length=1)

    @model_validator(mode="after")
    def _init_is_not_cloned(self) -> WarmStartConfig:
        """DAgger would pull a loaded policy back toward the teacher it was trained past."""
        if self.init is not None and self.dagger_rounds:
            raise ValueError(
                "warm_start.dagger_rounds: a policy loaded from warm_start.init is not "
                "cloned, so it has no DAgger rounds; use 0"
            )
        return self


class RLlibConfig(_Strict):
    """Ray RLlib PPO (``algorithm: rllib_ppo``): where it runs and its batch sizes.

    The defaults run on a 2-core laptop: sampling and learning in the driver process. Steps
    are env steps (one per decision of any seat); the PPO coefficients come from ``ppo:``.
    """

    num_env_runners: Count = Field(0, ge=0, le=10_000)  # 0: sample in the driver process
    num_envs_per_env_runner: Count = Field(1, ge=1)
    num_cpus_per_env_runner: Count = Field(1, ge=1)
    num_learners: Count = Field(0, ge=0, le=10_000)  # 0: one learner in the driver process
    num_gpus_per_learner: Number = Field(0, ge=0)  # with num_learners 0: the driver's GPU
    train_batch_size: Count = Field(4000, ge=8)  # env steps per iteration, all learners
    minibatch_size: Count = Field(256, ge=8)
    num_epochs: Count = Field(4, ge=1)
    league: bool = False  # main vs frozen copies of itself instead of one shared policy
    league_snapshot_every_iters: Count = Field(10, ge=1)
    league_max_policies: Count = Field(4, ge=1)  # frozen copies kept (oldest replaced)
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


INIT_WARM_START, INIT_RANDOM = "warm_start", "random"
GENERATIONS_RANGE = "a whole number in 1..2**63 - 1"


def _generations_from_text(value: Any) -> int:
    """``exit.generations``, the run's length (``total_steps`` and ``--total-steps`` set it
    too, so a bad value is reported once, here, with the legal range)."""
    count = _count_or_none(value)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= checks.MAX_COUNT:
        raise ValueError(
            f"must be {GENERATIONS_RANGE} (the run's length; total_steps and "
            f"--total-steps set it too), got {_short(value)}"
        )
    return count


class ExitConfig(_Strict):
    """Expert iteration (``algorithm: expert_iteration``, :mod:`.expert_iteration`): each
    generation plays ``games_per_generation`` self-play games with the network-guided
    search in every seat (table sizes drawn from ``env.num_players`` / ``player_weights``),
    trains the network on the last ``replay_generations`` generations' search visits
    (policy) and win shares (value), and evaluates it (``eval.games`` per opponent).

    ``generations`` is the run's length (it sets ``total_steps``: a generation is a
    step). ``init``: ``warm_start`` (clone the ``warm_start:`` teacher, the heuristic by
    default), ``random`` (a fresh network), or the path of an entity checkpoint of the
    same ``network:`` to start from. ``workers`` self-play processes (numpy only, one
    thread each)."""

    generations: Annotated[int, BeforeValidator(_generations_from_text)] = 20
    games_per_generation: Count = Field(40, ge=1)
    iters: Count = Field(64, ge=1, le=100_000)  # search iterations per decision
    search_batch: Count = Field(8, ge=1)  # leaves per network evaluation (virtual loss)
    # PUCT's constant and the priors' temperature (GuidedSearch prior_temperature, above
    # 1 flattens a cloned policy's near-certain priors): the search agent's defaults
    # (agents/guided_search.py AGENT_C, AGENT_PTEMP), so self-play searches as it plays
    c_puct: Number = Field(0.5, gt=0)
    prior_temperature: Number = Field(3.0, gt=0, le=100)
    dirichlet: Number = Field(0.25, ge=0, le=1)  # root noise in self-play (0: none)
    # > 0: the rollout mode (GuidedSearch topk; the game's compiled rollouts value the
    # net's top-K, iters rollouts a decision) with the policy target softmax(mean /
    # target_temperature) over the candidates (exit_selfplay's docstring says why)
    topk: Count = Field(0, ge=0, le=64)
    target_temperature: Number = Field(0.05, gt=0, le=10)
    target_prior: bool = True  # the target: prior * exp(mean / T) (else the plain softmax)
    temperature_moves: Count = Field(4, ge=0)  # per seat, first decisions sampled by visits
    replay_generations: Count = Field(4, ge=1)
    epochs: Count = Field(2, ge=1)
    batch_size: Count = Field(256, ge=8)
    learning_rate: Number = Field(1e-3, gt=0, le=1)
    value_weight: Number = Field(1.0, ge=0)  # the value loss's weight beside the policy's
    workers: Count = Field(2, ge=1)
    init: str = Field(INIT_WARM_START, min_length=1)
    # The anchor to the start (0: none; issue 25's drift from the clone). anchor_games:
    # compiled games of the warm_start: teacher (the heuristic by default) per table size,
    # played again at every start (seeded, a few seconds), whose decisions (one-hot policy,
    # win share) join every generation's replay rows. anchor_kl: the weight of
    # KL(generation 0's policy || the net's) on every training row, generation 0 read from
    # pool/gen_000.safetensors. best_candidates: at the run's end the top K generations by
    # the eval.games curve play eval.final_games more games each and the best of them
    # becomes best (0 or 1: the curve's pick).
    anchor_games: Count = Field(0, ge=0, le=10_000)
    anchor_kl: Number = Field(0.0, ge=0, le=100)
    best_candidates: Count = Field(0, ge=0, le=20)


EXPERT_ITERATION = "expert_iteration"
# Keys of the PPO trainers that mean nothing to expert iteration, and what it uses instead.
_NOT_EXIT = {
    "n_envs": "exit.workers",
    "vec_env": "exit.workers",
    "ppo": "exit.learning_rate / epochs / batch_size",
    "pool": "self-play in every seat",
    "rllib": "exit:",
}


def _generations_as_steps(data: Any) -> Any:
    """An expert-iteration config with ``total_steps`` equal to ``exit.generations``: one
    number, given as either (a run folder's saved config.yaml holds both)."""
    if not isinstance(data, Mapping) or data.get("algorithm") != EXPERT_ITERATION:
        return data
    section = data.get("exit")
    section = {} if section is None else section
    if not isinstance(section, Mapping):  # the exit field reports its type
        return {"total_steps": ExitConfig.model_fields["generations"].default, **data}
    data, section = dict(data), dict(section)
    if "total_steps" in data and "generations" in section:
        steps, generations = data["total_steps"], section["generations"]
        if _count_or_none(steps) != _count_or_none(generations):
            raise ValueError(
                f"total_steps ({steps!r}) and exit.generations ({generations!r}) differ; with "
                f"algorithm expert_iteration a step is a generation: give exit.generations only"
            )
    elif "total_steps" in data:
        section["generations"] = data["total_steps"]
    generations = section.get("generations", ExitConfig.model_fields["generations"].default)
    try:
        data["total_steps"] = _generations_from_text(generations)
    except ValueError:  # exit.generations reports it, once: total_steps is its stand-in
        data["total_steps"] = ExitConfig.model_fields["generations"].default
    data["exit"] = section
    return data


def _count_or_none(value: Any) -> int | None:
    try:
        return _count_from_text(value)
    except ValueError:
        return None


def _check_expert_iteration(config: TrainConfig) -> bool:
    """Whether the config is an expert-iteration one, after checking what it needs (an
    ``exit:`` section is refused with the other algorithms)."""
    if config.algorithm != EXPERT_ITERATION:
        if config.exit is not None:
            raise ValueError("the exit: section is only used with algorithm: expert_iteration")
        return False
    _check_exit_keys(config)
    _check_exit_start(config)
    return True


def _check_exit_keys(config: TrainConfig) -> None:
    """The entity network, win shares as the value target, the game's network tools, and
    none of the PPO trainers' keys."""
    misplaced = [f"{k} (it uses {v})" for k, v in _NOT_EXIT.items() if k in config.model_fields_set]
    if misplaced:
        raise ValueError("algorithm expert_iteration does not use " + ", ".join(misplaced))
    game = get_game(config.env.game)
    game.require("network", "algorithm: expert_iteration")
    if config.network.type != "entity":
        raise ValueError(
            f"algorithm expert_iteration trains the entity network (its numpy export guides "
            f"the search): set network.type: entity, got {config.network.type}"
        )
    env = config.env
    if "reward_mode" in env.model_fields_set and env.reward_mode != "win":
        raise ValueError(
            f"env.reward_mode: algorithm expert_iteration learns win shares; use win (or "
            f"leave it out), got {env.reward_mode!r}"
        )
    env.reward_mode = "win"  # the warm start's value target: win share (losers -1 -> 0)


def _check_exit_start(config: TrainConfig) -> None:
    """``exit.init`` and the ``warm_start:`` section agree."""
    game = get_game(config.env.game)
    section = config.exit
    assert section is not None  # _generations_as_steps always gives one
    if section.init != INIT_WARM_START and config.warm_start is not None:
        raise ValueError(
            f"warm_start: is only used with exit.init: {INIT_WARM_START} (exit.init is "
            f"{section.init!r})"
        )
    if section.init == INIT_WARM_START:
        game.require("warm_start", "exit.init: warm_start")
    if config.warm_start is not None and config.warm_start.dagger_rounds:
        raise ValueError("warm_start.dagger_rounds: expert iteration clones without DAgger; use 0")
    if section.topk:
        game.require("compiled_search", f"exit.topk: {section.topk} (0 searches without it)")


def _generations_override(data: dict[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """``--total-steps N`` of an expert-iteration config: N generations."""
    section = data.get("exit")
    if data.get("algorithm") != EXPERT_ITERATION or "total_steps" not in given:
        return data
    if not (section is None or isinstance(section, Mapping)):
        return data  # the exit field reports its type
    return {**data, "exit": {**(section or {}), "generations": given["total_steps"]}}


def _exit_problems(config: TrainConfig) -> list[str]:
    """What this machine and the files must allow of an ``exit:`` section."""
    if config.exit is None:
        return []
    found = [
        _exit_init_problem(config),
        checks.processes_problem("exit.workers", config.exit.workers),
        checks.games_problem("exit.games_per_generation", config.exit.games_per_generation),
    ]
    return [problem for problem in found if problem]


def _exit_init_problem(config: TrainConfig) -> str | None:
    """``exit.init`` as a checkpoint path: an entity checkpoint of the config's game whose
    network is the config's ``network:`` (its weights are loaded into that network)."""
    section = config.exit
    if section is None or section.init in (INIT_WARM_START, INIT_RANDOM):
        return None
    from art_gallery_env.agents.policy_format import CheckpointError, load_weights

    where = f"exit.init: {_short(section.init)}"
    accepted = f"give {INIT_WARM_START}, {INIT_RANDOM} or an entity .safetensors checkpoint"
    try:
        policy = load_weights(section.init)
    except CheckpointError as err:
        return _one_line(f"{where}: {err}; {accepted}")
    header = policy.meta
    net = header.get("network") or {}
    if net.get("type") != "entity":
        return f"{where}: not an entity network checkpoint; {accepted}"
    if policy.game != config.env.game:
        return f"{where}: a policy for the game {policy.game!r}, not {config.env.game!r}"
    want = config.network.network()
    have = {
        "hidden_sizes": net.get("hidden_sizes"),
        "activation": header.get("activation"),
        "token_dim": net.get("token_dim"),
        "pointer_dim": net.get("pointer_dim"),
        "use_pointer": net.get("pointer_group") is not None,
    }
    return _network_difference(where, have, want)


def _warm_init_problem(config: TrainConfig) -> str | None:
    """``warm_start.init``: an MLP checkpoint of the config's game whose hidden sizes and
    activation are the config's ``network:`` (its layers are copied into the actor)."""
    ws = config.warm_start
    if ws is None or ws.init is None:
        return None
    from art_gallery_env.agents.policy_format import CheckpointError, load_weights

    where = f"warm_start.init: {_short(ws.init)}"
    if config.network.type != "mlp":
        return f"{where}: loads an MLP checkpoint, so network.type must be mlp"
    try:
        policy = load_weights(ws.init)
    except CheckpointError as err:
        return _one_line(f"{where}: {err}; give an MLP .safetensors policy checkpoint")
    if (policy.meta.get("network") or {}).get("type", "mlp") != "mlp":
        return f"{where}: not an MLP checkpoint; give an MLP .safetensors policy checkpoint"
    if policy.game != config.env.game:
        return f"{where}: a policy for the game {policy.game!r}, not {config.env.game!r}"
    have = {"hidden_sizes": policy.meta["hidden_sizes"], "activation": policy.meta["activation"]}
    want = {"hidden_sizes": config.network.hidden_sizes, "activation": config.network.activation}
    return _network_difference(where, have, want)


def _network_difference(where: str, have: dict[str, Any], want: Mapping[str, Any]) -> str | None:
    """A checkpoint's network settings against the config's ``network:``, in one line."""
    differ = [f"{k} {have[k]!r} (network: says {want[k]!r})" for k in have if have[k] != want[k]]
    if differ:
        return f"{where}: its network differs from the config's: " + ", ".join(differ)
    return None


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


class TrainConfig(_Strict):
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
        return _generations_as_steps(data)

    @model_validator(mode="after")
    def _game_has_the_tools(self) -> TrainConfig:
        """A tool the config asks for that its game lacks is refused in one sentence."""
        game = get_game(self.env.game)
        if self.algorithm == "rllib_ppo":
            game.require("rllib", "algorithm: rllib_ppo")
        if self.warm_start is not None:
            game.require("warm_start", "warm_start:")
        if self.vec_env == "vector":
            game.require("vector", "vec_env: vector")
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
        _check_solo(self)
        if _check_expert_iteration(self):
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


# pydantic errors whose message states the accepted values but not the value given
_SAY_GOT = {
    "greater_than",
    "greater_than_equal",
    "less_than",
    "less_than_equal",
    "too_short",
    "too_long",
    "literal_error",
    "int_type",
    "float_type",
    "string_type",
    "bool_type",
    "list_type",
    "dict_type",
}


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _pydantic_problem(error: Any, data: Any) -> str:
    """One pydantic error as ``key.path: message``; a model check names its keys itself."""
    loc = error["loc"]
    message = error["msg"].removeprefix("Value error, ")
    if error["type"] == "extra_forbidden":
        message = f"unknown key; known keys here: {_known_keys(loc[:-1], data)}"
    elif error["type"] in _SAY_GOT:
        message += f", got {_short(error.get('input'))}"
    where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc)
    where = where.removeprefix(".")
    return _one_line(f"{where}: {message}" if where else message)


def _problems_error(source: str, problems: list[str]) -> ConfigError:
    """One problem: one line. Several: a heading and one line each."""
    if len(problems) == 1:
        return ConfigError(f"{source}: {problems[0]}")
    lines = "\n".join(f"  {problem}" for problem in problems)
    return ConfigError(f"{source}: invalid config ({len(problems)} problems)\n{lines}")


def config_from_dict(
    data: Any, source: str = "config", overrides: Mapping[str, Any] | None = None
) -> TrainConfig:
    """The validated config of ``data`` (a YAML file's mapping), with ``overrides`` (the
    command line's ``--run-dir``, ``--total-steps``: None values ignored) checked as if
    written in it. Every problem found is raised at once, one line each."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping of keys, got {type(data).__name__}")
    given = {k: v for k, v in (overrides or {}).items() if v is not None}
    data = {**_generations_override(_set_keys_of_a_whole_dump(data), given), **given}
    try:
        config = TrainConfig.model_validate(data)
    except ValidationError as err:
        problems = [_pydantic_problem(e, data) for e in err.errors()]
        raise _problems_error(source, problems) from None
    game = get_game(config.env.game)
    problems = checks.config_problems(config, game.observation_size, game.num_actions)
    problems += _agent_spec_problems("eval.opponents", config.eval.opponents, config.env.game)
    problems += _agent_spec_problems("pool.agents", list(config.pool.agents), config.env.game)
    if config.warm_start is not None:
        problems += _agent_spec_problems(
            "warm_start.teacher", [config.warm_start.teacher], config.env.game
        )
    problems += _exit_problems(config)
    problems += [problem for problem in [_warm_init_problem(config)] if problem]
    if problems:
        raise _problems_error(source, problems)
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
            problems.append(_one_line(f"{key}[{i}]: {_short(spec)}: {problem}"))
    return problems


def load_config(path: str | Path, overrides: Mapping[str, Any] | None = None) -> TrainConfig:
    """The config in the YAML file ``path`` (see :func:`config_from_dict`). Nothing is
    written: a folder, a file that is not UTF-8 or not YAML, or a key given twice is a
    ConfigError naming the file."""
    path = Path(path)
    data = checks.load_yaml(checks.read_config_text(path), str(path))
    return config_from_dict(data, str(path), overrides)


def _known_keys(location: tuple[Any, ...], data: Any = None) -> str:
    """The keys of the section at ``location``; for ``env:`` also its game's variants
    (``data``: the config as read, to find the game)."""
    model: type[BaseModel] = TrainConfig
    section = data
    for part in location:
        field = model.model_fields.get(str(part))
        if field is None:
            break
        # a section such as ``warm_start: WarmStartConfig | None`` is a union with None
        sections = [
            t
            for t in (field.annotation, *get_args(field.annotation))
            if isinstance(t, type) and issubclass(t, BaseModel)
        ]
        if not sections:
            break
        model = sections[0]
        section = section.get(part) if isinstance(section, Mapping) else None
    keys = ", ".join(model.model_fields)
    if model is EnvConfig:
        spec = _spec_or_none(section.get("game") if isinstance(section, Mapping) else None)
        if spec is not None:
            keys += f" (variants of {spec.title}: {', '.join(spec.variants) or 'none'})"
    return keys
