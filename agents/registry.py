"""Agents by name, for any registered game, so command lines accept ``random``,
``ismcts:iters=400``, a game's own agents (``heuristic``, ``heuristic:v1``) or a checkpoint path.

The generic agents (``random``, ``ismcts``, ``policy``, ``search``, a search guided by a
checkpoint, ``search:ckpt=FILE,iters=200``, and checkpoint paths) serve every game;
a game's own agents come from its spec (``GameSpec.agents``: name -> factory(seed=None,
**string options), and ``GameSpec.agent_versions`` for those with versions). Every function
takes ``game``, a registered game's name (None: the default game, ``get_game(None)``).

A spec is ``name`` or ``name:item,item,...`` where an item is ``key=value`` or, for an agent
that has versions, a version tag ``v1``, ``v2``, ... (``heuristic:v1,card_cost=0.4``; the tag is
short for ``version=v1``). Without a tag an agent is its latest version, so a spec names a
fixed player only with its tag. Option values arrive as strings; every factory converts and
validates them and names the valid options (of the chosen version) in its errors. A spec
that is an existing file (or ends in ``.safetensors``/``.zip``/``.onnx``) is a policy checkpoint;
options may follow the path after a colon (``runs/best.safetensors:deterministic=false``).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable
from typing import Any

from art_gallery_env.core.registry import GameSpec, get_game
from art_gallery_env.processes import raise_a_swallowed_stop

from .base import Agent
from .guided_search import GuidedSearchAgent
from .ismcts import ISMCTSAgent, rollout_names
from .policy import PolicyAgent
from .random_agent import RandomAgent

AgentFactory = Callable[..., Agent]

CHECKPOINT_SUFFIXES = (".safetensors", ".zip", ".onnx")


def _short(value: str, limit: int = 40) -> str:
    """``value`` as quoted in an error, at most ``limit`` characters of it."""
    return repr(value) if len(value) <= limit else repr(value[:limit]) + "..."


def _to_int(key: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"option {key}={_short(value)} must be an integer") from None


def _to_float(key: str, value: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise ValueError(f"option {key}={_short(value)} must be a number") from None


def _to_bool(key: str, value: str) -> bool:
    lowered = value.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"option {key}={_short(value)} must be true or false")


def _unknown(agent: str, options: dict[str, Any], valid: list[str]) -> None:
    bad = sorted(set(options) - set(valid))
    if bad:
        shown = ", ".join(valid) if valid else "(none)"
        raise ValueError(f"unknown option {bad[0]!r} for agent {agent!r}; valid options: {shown}")


def make_random(seed: int | None = None, *, game: str | None = None, **options: str) -> Agent:
    """Uniformly random legal play (any game: it reads only the action mask); no options."""
    _unknown("random", options, [])
    return RandomAgent(seed=seed)


# Upper limits of a search's budget per decision: a spec over them is refused where it is
# parsed (eval, play, serve, configs), so one decision cannot run for hours or days.
MAX_SEARCH_ITERS = 100_000
MAX_SEARCH_SECONDS = 60.0


def _to_iters(key: str, value: str) -> int:
    iters = _to_int(key, value)
    if iters > MAX_SEARCH_ITERS:
        raise ValueError(
            f"option {key}={_short(value)} is over the limit of {MAX_SEARCH_ITERS} iterations "
            f"per decision (valid: 1..{MAX_SEARCH_ITERS})"
        )
    return iters


def _to_seconds(key: str, value: str) -> float:
    seconds = _to_float(key, value)
    if math.isnan(seconds) or seconds > MAX_SEARCH_SECONDS:
        raise ValueError(
            f"option {key}={_short(value)} is over the limit of {MAX_SEARCH_SECONDS:g} s per "
            f"decision (valid: a number of seconds in (0, {MAX_SEARCH_SECONDS:g}])"
        )
    return seconds


_ISMCTS_OPTIONS = {
    "iters": _to_iters,
    "seconds": _to_seconds,
    "c": _to_float,
    "rollout": lambda key, value: value,
    "rounds": _to_int,
    "scale": _to_float,
    "engine": lambda key, value: value,  # ISMCTSAgent names the valid ones
    "topk": _to_int,
    "margin": _to_float,
}


def make_ismcts(seed: int | None = None, *, game: str | None = None, **options: str) -> Agent:
    """Options: iters=N, seconds=S, c=X, rollout=random or one of the game's rollouts
    (``GameSpec.rollouts``), rounds=K, scale=X, engine=auto|python|compiled, topk=K and
    margin=X (the rollout algorithm, ISMCTSAgent)."""
    _unknown("ismcts", options, list(_ISMCTS_OPTIONS))
    kwargs = {key: _ISMCTS_OPTIONS[key](key, value) for key, value in options.items()}
    rollouts = rollout_names(game)
    if "rollout" in kwargs and kwargs["rollout"] not in rollouts:
        raise ValueError(
            f"option rollout={kwargs['rollout']!r} must be one of {', '.join(rollouts)}"
        )
    return ISMCTSAgent(seed=seed, game=game, **kwargs)


_SEARCH_OPTIONS = {
    "ckpt": lambda key, value: value,
    "iters": _to_iters,
    "seconds": _to_seconds,
    "c": _to_float,
    "batch": _to_int,
    "rollout": lambda key, value: value,
    "rounds": _to_int,
    "temperature": _to_float,
    "ptemp": _to_float,
    "topk": _to_int,  # the rollout mode (GuidedSearch topk, margin)
    "margin": _to_float,
}


def make_search(seed: int | None = None, *, game: str | None = None, **options: str) -> Agent:
    """Search guided by a checkpoint (:mod:`.guided_search`). Options: ckpt=FILE (required),
    iters=N, seconds=S, c=X (PUCT), batch=K (leaves per network call), rollout=random or
    one of the game's rollouts, rounds=K, temperature=T (0: the most visited action),
    ptemp=T (the priors' temperature: above 1 flattens them), topk=K and margin=X (the
    network's top-K valued by the game's compiled rollouts)."""
    _unknown("search", options, list(_SEARCH_OPTIONS))
    if "ckpt" not in options:
        raise ValueError(
            "agent 'search' needs ckpt=FILE (a policy checkpoint of this game), e.g. "
            "search:ckpt=checkpoints/quick.safetensors,iters=200"
        )
    kwargs = {key: _SEARCH_OPTIONS[key](key, value) for key, value in options.items()}
    rollouts = rollout_names(game)
    if "rollout" in kwargs and kwargs["rollout"] not in rollouts:
        raise ValueError(
            f"option rollout={kwargs['rollout']!r} must be one of {', '.join(rollouts)}"
        )
    return GuidedSearchAgent(kwargs.pop("ckpt"), seed=seed, game=game, **kwargs)


def make_policy(seed: int | None = None, *, game: str | None = None, **options: str) -> Agent:
    """Options: path=FILE (required), deterministic=true|false. The checkpoint must be a
    policy for ``game`` (another game's policy cannot read this game's observations)."""
    _unknown("policy", options, ["path", "deterministic"])
    if "path" not in options:
        raise ValueError("agent 'policy' needs path=FILE (or pass the checkpoint path itself)")
    deterministic = _to_bool("deterministic", options.get("deterministic", "true"))
    return PolicyAgent(
        options["path"], seed=seed, deterministic=deterministic, game=get_game(game).name
    )


# The generic agents, for every game. Their factories take ``game`` (the game's name).
_REGISTRY: dict[str, AgentFactory] = {
    "random": make_random,
    "ismcts": make_ismcts,
    "policy": make_policy,
    "search": make_search,
}
_GAME_AWARE = {"random", "ismcts", "policy", "search"}  # factories that take ``game``

# Generic agents with versions: name -> (versions, the latest). Their factory takes
# ``version``. A game's own come from ``GameSpec.agent_versions``.
_VERSIONS: dict[str, tuple[tuple[str, ...], str]] = {}

VERSION_TAG = re.compile(r"v\d+")


def register(
    name: str, factory: AgentFactory, versions: tuple[str, ...] = (), latest: str | None = None
) -> None:
    """Add an agent for every game; with ``versions`` its factory also gets ``version``
    (``latest`` if the spec names none; default: the last of ``versions``). A game's own
    agents are listed in its spec instead (``GameSpec.agents``)."""
    _REGISTRY[name] = factory
    _GAME_AWARE.discard(name)
    if versions:
        _VERSIONS[name] = (tuple(versions), latest or versions[-1])
    else:
        _VERSIONS.pop(name, None)


def _factories(spec: GameSpec) -> dict[str, AgentFactory]:
    """The agents of ``spec``'s game: the generic ones and the game's own (which win a
    name both have)."""
    return {**_REGISTRY, **spec.agents}


def _versions(spec: GameSpec) -> dict[str, tuple[tuple[str, ...], str]]:
    versions = {k: v for k, v in _VERSIONS.items() if k not in spec.agents}
    return {**versions, **spec.agent_versions}


def agent_names(game: str | None = None) -> list[str]:
    """The agents ``game`` (None: the default game) can be played by, sorted."""
    return sorted(_factories(get_game(game)))


def agent_versions(name: str, game: str | None = None) -> tuple[str, ...]:
    """The versions of an agent of ``game`` (empty if it has none)."""
    return _versions(get_game(game)).get(name, ((), ""))[0]


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """'ismcts:iters=400,rollout=heuristic' -> ('ismcts', {'iters': '400', ...});
    'heuristic:v1,card_cost=0.4' -> ('heuristic', {'version': 'v1', 'card_cost': '0.4'})."""
    name, _, rest = spec.partition(":")
    options: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep and VERSION_TAG.fullmatch(item):
            key, value = "version", item
        elif not sep or not key.strip():
            raise ValueError(
                f"agent option {item!r} in {spec!r} must look like key=value "
                f"(or be a version tag such as v1)"
            )
        key = key.strip()
        if key in options:
            raise ValueError(f"{key!r} is given twice in {spec!r}")
        options[key] = value.strip()
    return name.strip(), options


def _check_version(
    name: str, options: dict[str, str], spec: str, known: dict[str, tuple[tuple[str, ...], str]]
) -> None:
    """A ``version`` option must name a version of an agent that has versions (``known``)."""
    if "version" not in options:
        return
    version = options["version"]
    if name not in known:
        versioned = ", ".join(sorted(known)) or "(none)"
        raise ValueError(
            f"agent {name!r} has no versions (in {spec!r}); agents with versions: {versioned}"
        )
    versions, latest = known[name]
    if version not in versions:
        raise ValueError(
            f"unknown version {version!r} of agent {name!r}; versions: {', '.join(versions)} "
            f"(without a version: {latest})"
        )


def checkpoint_spec(spec: str) -> tuple[str, dict[str, str]] | None:
    """(path, options) if ``spec`` names a checkpoint file, else None. A generic agent's
    spec whose last option is a file (``search:ckpt=run/best.safetensors``) names that
    agent, not a file."""
    if os.path.isfile(spec):
        return spec, {}
    if spec.partition(":")[0].strip() in _REGISTRY:
        return None
    if spec.endswith(CHECKPOINT_SUFFIXES):
        return spec, {}
    path, sep, rest = spec.rpartition(":")
    if sep and (os.path.isfile(path) or path.endswith(CHECKPOINT_SUFFIXES)):
        return path, parse_spec("x:" + rest)[1]
    return None


def make_agent(spec: str, seed: int | None = None, *, game: str | None = None) -> Agent:
    """Build an agent of ``game`` (None: the default game) from a spec or a checkpoint path."""
    rules = get_game(game)
    checkpoint = checkpoint_spec(spec)
    if checkpoint is not None:
        path, options = checkpoint
        _check_version("policy", options, spec, _versions(rules))
        return make_policy(seed=seed, game=rules.name, path=path, **options)
    name, options = parse_spec(spec)
    factories = _factories(rules)
    if name not in factories:
        raise ValueError(
            f"unknown agent {name!r} for {rules.title}; known agents: "
            f"{', '.join(sorted(factories))}, or the path of a checkpoint (.safetensors, .onnx, "
            f"or an SB3 MaskablePPO .zip)"
        )
    if "seed" in options:
        raise ValueError(
            f"'seed' is not an agent option (in {spec!r}); the caller passes the seed "
            f"(make_agent(spec, seed))"
        )
    _check_version(name, options, spec, _versions(rules))
    if name in _GAME_AWARE and name not in rules.agents:
        return factories[name](seed=seed, game=rules.name, **options)
    return factories[name](seed=seed, **options)


def agent_spec_problem(spec: str, game: str | None = None) -> str | None:
    """None if ``spec`` builds an agent of ``game`` (None: the default game), else what is
    wrong with it, naming the choices. The tools check every spec this way before the first
    game (a checkpoint path is loaded once, so a missing or broken file is found too)."""
    try:
        make_agent(spec, 0, game=game)
    except Exception as err:  # noqa: BLE001 - any construction failure is a bad spec
        raise_a_swallowed_stop()  # unless a Ctrl-C caused it
        message = str(err)
        if not message.startswith("option ") and not any(
            words in message for words in ("known agents", "valid options")
        ):  # a bad option's value is about the option: the agents' list would only distract
            message += f" (known agents: {', '.join(agent_names(game))})"
        return message
    return None


SEARCH_AGENTS = (ISMCTSAgent, GuidedSearchAgent)  # agents with a per-decision budget


def search_seconds(agent: Agent) -> float | None:
    """A search agent's own time budget per decision (None: it has none, or it is no
    search agent)."""
    return agent.seconds if isinstance(agent, SEARCH_AGENTS) else None


def cap_search_seconds(agent: Agent, seconds: float) -> bool:
    """Make a search agent stop after ``seconds`` of any decision, whatever its iteration
    budget (which stays an upper bound: the first reached ends the search), as a server's
    per-decision limit needs. False (and nothing changed) for an agent that is no search."""
    if not isinstance(agent, SEARCH_AGENTS):
        return False
    agent.seconds = seconds if agent.seconds is None else min(agent.seconds, seconds)
    return True
