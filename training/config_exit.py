"""Expert iteration's section (``exit:``) and the rules of an expert-iteration config:
a step is a generation (``total_steps`` is ``exit.generations``), the entity network, win
shares as the value target, and none of the PPO trainers' keys.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from . import config_checks as checks
from .config_types import Count, Number, Strict, count_or_none, short
from .league import LeagueConfig

if TYPE_CHECKING:
    from .config import TrainConfig


INIT_WARM_START, INIT_RANDOM = "warm_start", "random"
GENERATIONS_RANGE = "a whole number in 1..2**63 - 1"


def _generations_from_text(value: Any) -> int:
    """``exit.generations``, the run's length (``total_steps`` and ``--total-steps`` set it
    too, so a bad value is reported once, here, with the legal range)."""
    count = count_or_none(value)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= checks.MAX_COUNT:
        raise ValueError(
            f"must be {GENERATIONS_RANGE} (the run's length; total_steps and "
            f"--total-steps set it too), got {short(value)}"
        )
    return count


class ExitConfig(Strict):
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
    # The anchor to the start (0: none; the drift from the clone). anchor_games:
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
    # who the learner meets in self-play (training/league.py): plain self-play by default
    league: LeagueConfig = Field(default_factory=LeagueConfig)
    # where self-play runs: local worker processes, or Ray tasks (training/exit_ray.py) on
    # ray_address, else $RAY_ADDRESS, else a local Ray of `workers` CPUs
    backend: Literal["local", "ray"] = "local"
    ray_address: str | None = None


EXPERT_ITERATION = "expert_iteration"
# Keys of the PPO trainers that mean nothing to expert iteration, and what it uses instead.
_NOT_EXIT = {
    "n_envs": "exit.workers",
    "vec_env": "exit.workers",
    "ppo": "exit.learning_rate / epochs / batch_size",
    "pool": "exit.league",
    "rllib": "exit:",
}


def generations_as_steps(data: Any) -> Any:
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
        if count_or_none(steps) != count_or_none(generations):
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


def check_expert_iteration(config: TrainConfig) -> bool:
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
    """The entity network, win shares as the value target, and none of the PPO trainers'
    keys (the game's network tools: :mod:`.config_capabilities`)."""
    misplaced = [f"{k} (it uses {v})" for k, v in _NOT_EXIT.items() if k in config.model_fields_set]
    if misplaced:
        raise ValueError("algorithm expert_iteration does not use " + ", ".join(misplaced))
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
    """``exit.init`` and the ``warm_start:`` section agree (what they need of the game:
    :mod:`.config_capabilities`)."""
    section = config.exit
    assert section is not None  # generations_as_steps always gives one
    if section.init != INIT_WARM_START and config.warm_start is not None:
        raise ValueError(
            f"warm_start: is only used with exit.init: {INIT_WARM_START} (exit.init is "
            f"{section.init!r})"
        )
    if config.warm_start is not None and config.warm_start.dagger_rounds:
        raise ValueError("warm_start.dagger_rounds: expert iteration clones without DAgger; use 0")


def generations_override(data: dict[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """``--total-steps N`` of an expert-iteration config: N generations."""
    section = data.get("exit")
    if data.get("algorithm") != EXPERT_ITERATION or "total_steps" not in given:
        return data
    if not (section is None or isinstance(section, Mapping)):
        return data  # the exit field reports its type
    return {**data, "exit": {**(section or {}), "generations": given["total_steps"]}}


def exit_problems(config: TrainConfig) -> list[str]:
    """What this machine and the files must allow of an ``exit:`` section."""
    if config.exit is None:
        return []
    found = [
        checks.processes_problem("exit.workers", config.exit.workers),
        checks.games_problem("exit.games_per_generation", config.exit.games_per_generation),
        _backend_problem(config.exit),
    ]
    return [problem for problem in found if problem]


def _backend_problem(section: ExitConfig) -> str | None:
    """``exit.backend: ray`` needs Ray installed; ``ray_address`` means nothing without it."""
    if section.backend != "ray":
        if section.ray_address is not None:
            return "exit.ray_address is only used with exit.backend: ray"
        return None
    if importlib.util.find_spec("ray") is None:
        return "exit.backend: ray needs Ray: pip install 'art-gallery-env[rllib]'"
    return None
