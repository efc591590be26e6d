"""Agents by name, so command lines accept ``random``, ``heuristic``, ``ismcts:iters=400``
or a checkpoint path.

A spec is ``name`` or ``name:key=value,key=value``. Option values arrive as strings; every
factory converts and validates them and names the valid options in its errors. A spec that
is an existing file (or ends in ``.safetensors``/``.zip``/``.onnx``) is a policy checkpoint;
options may follow the path after a colon (``runs/best.safetensors:deterministic=false``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from .base import Agent
from .heuristic import HeuristicAgent, HeuristicParams
from .ismcts import ROLLOUTS, ISMCTSAgent
from .policy import PolicyAgent
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


def make_heuristic(seed: int | None = None, **options: str) -> Agent:
    """Options: any :class:`HeuristicParams` weight, e.g. ``heuristic:card_cost=0.4``."""
    _unknown("heuristic", options, HeuristicParams.names())
    params = HeuristicParams().with_options(**{k: _to_float(k, v) for k, v in options.items()})
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
    """Options: iters=N, seconds=S, c=X, rollout=random|heuristic, rounds=K, scale=X."""
    _unknown("ismcts", options, list(_ISMCTS_OPTIONS))
    kwargs = {key: _ISMCTS_OPTIONS[key](key, value) for key, value in options.items()}
    if "rollout" in kwargs and kwargs["rollout"] not in ROLLOUTS:
        raise ValueError(
            f"option rollout={kwargs['rollout']!r} must be one of {', '.join(ROLLOUTS)}"
        )
    return ISMCTSAgent(seed=seed, **kwargs)


def make_policy(seed: int | None = None, **options: str) -> Agent:
    """Options: path=FILE (required), deterministic=true|false."""
    _unknown("policy", options, ["path", "deterministic"])
    if "path" not in options:
        raise ValueError("agent 'policy' needs path=FILE (or pass the checkpoint path itself)")
    deterministic = _to_bool("deterministic", options.get("deterministic", "true"))
    return PolicyAgent(options["path"], seed=seed, deterministic=deterministic)


_REGISTRY: dict[str, AgentFactory] = {
    "random": make_random,
    "heuristic": make_heuristic,
    "ismcts": make_ismcts,
    "policy": make_policy,
}


def register(name: str, factory: AgentFactory) -> None:
    _REGISTRY[name] = factory


def agent_names() -> list[str]:
    return sorted(_REGISTRY)


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """'ismcts:iters=400,rollout=heuristic' -> ('ismcts', {'iters': '400', ...})."""
    name, _, rest = spec.partition(":")
    options: dict[str, str] = {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"agent option {item!r} in {spec!r} must look like key=value")
        options[key.strip()] = value.strip()
    return name.strip(), options


def _checkpoint_spec(spec: str) -> tuple[str, dict[str, str]] | None:
    """(path, options) if ``spec`` names a checkpoint file, else None."""
    if os.path.isfile(spec) or spec.endswith(CHECKPOINT_SUFFIXES):
        return spec, {}
    path, sep, rest = spec.rpartition(":")
    if sep and (os.path.isfile(path) or path.endswith(CHECKPOINT_SUFFIXES)):
        return path, parse_spec("x:" + rest)[1]
    return None


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build an agent from a registry spec or a checkpoint path."""
    checkpoint = _checkpoint_spec(spec)
    if checkpoint is not None:
        path, options = checkpoint
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
    return _REGISTRY[name](seed=seed, **options)
