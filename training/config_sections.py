"""The sections of a training config (pydantic models): the game trained on (``env:``),
the network, PPO's hyper-parameters, the opponent pool, the evaluation, behaviour cloning
(``warm_start:``) and RLlib. Each checks its own keys; what needs several sections is
checked by :class:`.config.TrainConfig`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, field_validator, model_validator

from art_gallery_env.core.registry import GameSpec, default_game, game_names, get_game

from . import config_checks as checks
from .config_types import Count, Number, Strict, table_sizes_from_text


def spec_or_none(game: Any) -> GameSpec | None:
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
    spec = spec_or_none(env.get("game"))
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


class EnvConfig(Strict):
    """The game trained on. ``num_players`` is one table size, or a list of them (mixed
    tables: every episode draws its size, ``player_weights`` the chance of each size,
    equal when omitted). ``variants`` are the game's setup options (its spec names them,
    with their defaults); a variant given as a key of its own (``zero_is_ten: true``, as
    configs before ``variants`` did) is read as one of ``variants``."""

    game: str | None = None  # a registered game (core.game_names()); None: the default game
    num_players: Annotated[int | list[int], BeforeValidator(table_sizes_from_text)] = 2
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


class NetworkConfig(Strict):
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


class PPOConfig(Strict):
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


class PoolConfig(Strict):
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


class EvalConfig(Strict):
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


class WarmStartConfig(Strict):
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


class RLlibConfig(Strict):
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
    env_runner_restarts: Count = Field(1000, ge=0)  # RLlib's; 0: a dead env runner stops the run
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
