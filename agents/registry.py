"""Agents by name, so command lines accept ``random``, ``heuristic``, ``ismcts:iters=400``
or a checkpoint path."""

from __future__ import annotations

from collections.abc import Callable

from .base import Agent
from .random_agent import RandomAgent

AgentFactory = Callable[..., Agent]

_REGISTRY: dict[str, AgentFactory] = {"random": RandomAgent}


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
        if not sep or not key:
            raise ValueError(f"agent option {item!r} in {spec!r} must look like key=value")
        options[key.strip()] = value.strip()
    return name.strip(), options


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build an agent from a registry spec."""
    name, options = parse_spec(spec)
    if name not in _REGISTRY:
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(agent_names())}")
    return _REGISTRY[name](seed=seed, **options)
