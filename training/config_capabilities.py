"""What a training config asks of its game, checked in one place when the config loads.

Each optional tool of a game is a capability (``core.registry.CAPABILITIES``). The table
:data:`CONFIG_CAPABILITIES` names, for each config key that uses one, the capability, when
the config uses it, and what to write instead; :func:`capability_problems` walks it once,
so a config for a game that lacks a tool is refused before any run folder exists, in one
line per missing capability that names what the game lacks, what it has, and the choice
it offers instead. A new capability that a config key uses is one more row here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from art_gallery_env.core.registry import GameSpec, get_game

if TYPE_CHECKING:
    from .config import TrainConfig


@dataclass(frozen=True)
class CapabilityUse:
    """One row: the config keys (as a line names them) that use ``capability``."""

    capability: str
    uses: Callable[[TrainConfig], list[str]]  # the keys this config sets that need it
    instead: str  # the legal choice without the capability


def _when(test: Callable[[TrainConfig], bool], key: str) -> Callable[[TrainConfig], list[str]]:
    return lambda config: [key] if test(config) else []


def _exit_topk(config: TrainConfig) -> list[str]:
    return [f"exit.topk: {config.exit.topk}"] if config.exit and config.exit.topk else []


def _compiled_search_agents(config: TrainConfig) -> list[str]:
    """The agent specs (eval opponents, pool agents, the cloning teacher) whose search runs
    on the game's compiled engine: ``engine=compiled``, or a ``topk`` rollout mode."""
    from art_gallery_env.agents.registry import parse_spec

    specs = [(f"eval.opponents[{i}]", s) for i, s in enumerate(config.eval.opponents)]
    specs += [(f"pool.agents[{i}]", s) for i, s in enumerate(config.pool.agents)]
    if config.warm_start is not None:
        specs.append(("warm_start.teacher", config.warm_start.teacher))
    found = []
    for key, spec in specs:
        try:
            name, options = parse_spec(spec)
        except ValueError:  # a malformed spec: the agent spec check reports it
            continue
        topk = options.get("topk", "0").strip() not in ("", "0")
        if name in ("ismcts", "search") and (options.get("engine") == "compiled" or topk):
            found.append(f"{key}: {spec}")
    return found


CONFIG_CAPABILITIES: tuple[CapabilityUse, ...] = (
    CapabilityUse(
        "vector",
        _when(lambda c: c.vec_env == "vector", "vec_env: vector"),
        "use vec_env: subproc or dummy (auto picks one)",
    ),
    CapabilityUse(
        "network",
        _when(lambda c: c.algorithm == "expert_iteration", "algorithm: expert_iteration"),
        "use algorithm: maskable_ppo",
    ),
    CapabilityUse(
        "network",
        _when(lambda c: c.network.type == "entity", "network.type: entity"),
        "use network.type: mlp or ebag",
    ),
    CapabilityUse(
        "rllib",
        _when(lambda c: c.algorithm == "rllib_ppo", "algorithm: rllib_ppo"),
        "use algorithm: maskable_ppo",
    ),
    CapabilityUse(
        "warm_start",
        _when(lambda c: c.warm_start is not None, "warm_start:"),
        "leave warm_start: out",
    ),
    CapabilityUse(
        "warm_start",
        _when(
            lambda c: c.exit is not None and c.exit.init == "warm_start", "exit.init: warm_start"
        ),
        "use exit.init: random",
    ),
    CapabilityUse("compiled_search", _exit_topk, "use exit.topk: 0"),
    CapabilityUse(
        "compiled_search", _compiled_search_agents, "use engine=python and no topk option"
    ),
)

NOT_IN_CONFIGS = frozenset({"web", "svg", "openspiel"})
"""The capabilities no training config key uses (the web app, drawings, OpenSpiel)."""


def capability_problems(config: TrainConfig) -> list[str]:
    """One line per capability that ``config`` uses and its game lacks (empty: none)."""
    game = get_game(config.env.game)
    missing: dict[str, tuple[list[str], list[str]]] = {}
    for row in CONFIG_CAPABILITIES:
        keys = row.uses(config)
        if keys and not game.has(row.capability):
            found, instead = missing.setdefault(row.capability, ([], []))
            found += keys
            instead.append(row.instead)
    return [_missing_line(game, cap, keys, instead) for cap, (keys, instead) in missing.items()]


def _missing_line(game: GameSpec, capability: str, keys: list[str], instead: list[str]) -> str:
    """``keys`` need ``capability``, which ``game`` lacks: the registry's sentence, what
    the game has, and the choices without it."""
    uses = " and ".join(keys)
    sentence = f"{uses} needs {capability}"  # require() below always says more
    try:
        game.require(capability, uses)
    except ValueError as err:
        sentence = str(err)
    if len(keys) > 1:
        sentence = sentence.replace(f"{uses} needs ", f"{uses} need ", 1)
    has = ", ".join(sorted(game.capabilities))
    offers = f"{game.title} has: {has}" if has else f"{game.title} has no optional tools"
    return f"{sentence}; {offers}; instead, {' or '.join(dict.fromkeys(instead))}"
