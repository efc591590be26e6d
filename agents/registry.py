"""Agents by name, so command lines accept ``random``, ``heuristic``, ``heuristic:v1``,
``ismcts:iters=400`` or a checkpoint path.

A spec is ``name`` or ``name:item,item,...`` where an item is ``key=value`` or, for an agent
that has versions, a version tag ``v1``, ``v2``, ... (``heuristic:v1,card_cost=0.4``; the tag is
short for ``version=v1``). Without a tag an agent is its latest version, so a spec names a
fixed player only with its tag. Option values arrive as strings; every factory converts and
validates them and names the valid options (of the chosen version) in its errors. A spec
that is an existing file (or ends in ``.safetensors``/``.zip``/``.onnx``) is a policy checkpoint;
options may follow the path after a colon (``runs/best.safetensors:deterministic=false``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

from .base import Agent
from .heuristic import HEURISTIC_VERSIONS, LATEST_HEURISTIC, HeuristicAgent
from .ismcts import ROLLOUTS, ISMCTSAgent
from .policy import PolicyAgent
from .policy_format import DEFAULT_GAME
from .random_agent import RandomAgent

AgentFactory = Callable[..., Agent]

CHECKPOINT_SUFFIXES = (".safetensors", ".zip", ".onnx")


def _to_int(key: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"option {key}={value!r} must be an integer") from None


def _to_float(key: str, value: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise ValueError(f"option {key}={value!r} must be a number") from None


def _to_bool(key: str, value: str) -> bool:
    lowered = value.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"option {key}={value!r} must be true or false")


def _unknown(agent: str, options: dict[str, Any], valid: list[str]) -> None:
    bad = sorted(set(options) - set(valid))
    if bad:
        shown = ", ".join(valid) if valid else "(none)"
        raise ValueError(f"unknown option {bad[0]!r} for agent {agent!r}; valid options: {shown}")


def make_random(seed: int | None = None, **options: str) -> Agent:
    _unknown("random", options, [])
    return RandomAgent(seed=seed)


def make_heuristic(seed: int | None = None, version: str | None = None, **options: str) -> Agent:
    """Options: any weight of the version's parameters (:class:`~.heuristic.HeuristicParams`,
    :class:`~.heuristic_v1.HeuristicV1Params` for ``v1``), e.g. ``heuristic:card_cost=0.4``."""
    version = version or LATEST_HEURISTIC
    params_class = HEURISTIC_VERSIONS[version]
    label = "heuristic" if version == LATEST_HEURISTIC else f"heuristic:{version}"
    _unknown(label, options, params_class.names())
    params = params_class().with_options(**{k: _to_float(k, v) for k, v in options.items()})
    return HeuristicAgent(seed=seed, params=params)


_ISMCTS_OPTIONS = {
    "iters": _to_int,
    "seconds": _to_float,
    "c": _to_float,
    "rollout": lambda key, value: value,
    "rounds": _to_int,
    "scale": _to_float,
}


def make_ismcts(seed: int | None = None, **options: str) -> Agent:
    """Options: iters=N, seconds=S, c=X, rollout=random|heuristic|heuristic:v1, rounds=K,
    scale=X."""
    _unknown("ismcts", options, list(_ISMCTS_OPTIONS))
    kwargs = {key: _ISMCTS_OPTIONS[key](key, value) for key, value in options.items()}
    if "rollout" in kwargs and kwargs["rollout"] not in ROLLOUTS:
        raise ValueError(
            f"option rollout={kwargs['rollout']!r} must be one of {', '.join(ROLLOUTS)}"
        )
    return ISMCTSAgent(seed=seed, **kwargs)


def make_policy(seed: int | None = None, *, game: str = DEFAULT_GAME, **options: str) -> Agent:
    """Options: path=FILE (required), deterministic=true|false. The checkpoint must be a
    policy for ``game`` (another game's policy cannot read this game's observations)."""
    _unknown("policy", options, ["path", "deterministic"])
    if "path" not in options:
        raise ValueError("agent 'policy' needs path=FILE (or pass the checkpoint path itself)")
    deterministic = _to_bool("deterministic", options.get("deterministic", "true"))
    return PolicyAgent(options["path"], seed=seed, deterministic=deterministic, game=game)


_REGISTRY: dict[str, AgentFactory] = {
    "random": make_random,
    "heuristic": make_heuristic,
    "ismcts": make_ismcts,
    "policy": make_policy,
}

# Agents with versions: name -> (versions, the latest). Their factory takes ``version``.
_VERSIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "heuristic": (tuple(HEURISTIC_VERSIONS), LATEST_HEURISTIC),
}

VERSION_TAG = re.compile(r"v\d+")


def register(
    name: str, factory: AgentFactory, versions: tuple[str, ...] = (), latest: str | None = None
) -> None:
    """Add an agent; with ``versions`` its factory also gets ``version`` (``latest`` if the
    spec names none; default: the last of ``versions``)."""
    _REGISTRY[name] = factory
    if versions:
        _VERSIONS[name] = (tuple(versions), latest or versions[-1])
    else:
        _VERSIONS.pop(name, None)


def agent_names() -> list[str]:
    return sorted(_REGISTRY)


def agent_versions(name: str) -> tuple[str, ...]:
    """The versions of a registered agent (empty if it has none)."""
    return _VERSIONS.get(name, ((), ""))[0]


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


def _check_version(name: str, options: dict[str, str], spec: str) -> None:
    """A ``version`` option must name a version of an agent that has versions."""
    if "version" not in options:
        return
    version = options["version"]
    if name not in _VERSIONS:
        versioned = ", ".join(sorted(_VERSIONS)) or "(none)"
        raise ValueError(
            f"agent {name!r} has no versions (in {spec!r}); agents with versions: {versioned}"
        )
    versions, latest = _VERSIONS[name]
    if version not in versions:
        raise ValueError(
            f"unknown version {version!r} of agent {name!r}; versions: {', '.join(versions)} "
            f"(without a version: {latest})"
        )


def checkpoint_spec(spec: str) -> tuple[str, dict[str, str]] | None:
    """(path, options) if ``spec`` names a checkpoint file, else None."""
    if os.path.isfile(spec) or spec.endswith(CHECKPOINT_SUFFIXES):
        return spec, {}
    path, sep, rest = spec.rpartition(":")
    if sep and (os.path.isfile(path) or path.endswith(CHECKPOINT_SUFFIXES)):
        return path, parse_spec("x:" + rest)[1]
    return None


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build an agent from a registry spec or a checkpoint path."""
    checkpoint = checkpoint_spec(spec)
    if checkpoint is not None:
        path, options = checkpoint
        _check_version("policy", options, spec)
        return make_policy(seed=seed, path=path, **options)
    name, options = parse_spec(spec)
    if name not in _REGISTRY:
        raise ValueError(
            f"unknown agent {name!r}; known agents: {', '.join(agent_names())}, "
            f"or the path of a checkpoint (.safetensors, .onnx, or .zip from art-gallery train)"
        )
    if "seed" in options:
        raise ValueError(
            f"'seed' is not an agent option (in {spec!r}); the caller passes the seed "
            f"(make_agent(spec, seed))"
        )
    _check_version(name, options, spec)
    return _REGISTRY[name](seed=seed, **options)


def agent_spec_problem(
    spec: str,
    make: Callable[[str, int | None], Agent] | None = None,
    names: Callable[[], list[str]] | None = None,
) -> str | None:
    """None if ``spec`` builds an agent, else what is wrong with it, naming the choices.
    The tools check every spec this way before the first game (a checkpoint path is
    loaded once, so a missing or broken file is found too). ``make``/``names``: another
    game's registry (default Art Gallery's)."""
    try:
        (make or make_agent)(spec, 0)
    except Exception as err:  # noqa: BLE001 - any construction failure is a bad spec
        message = str(err)
        if "known agents" not in message and "valid options" not in message:
            message += f" (known agents: {', '.join((names or agent_names)())})"
        return message
    return None
