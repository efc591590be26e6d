"""Gallerist agents by spec, as Art Gallery's :mod:`art_gallery_env.agents.registry`:
``random``, ``heuristic`` or ``heuristic:lookahead=0,solo_tile=12`` (any
:class:`~.heuristic.HeuristicParams` weight). The spec syntax is that registry's
(:func:`~art_gallery_env.agents.registry.parse_spec`); options arrive as strings and are
converted and checked here, and errors name the valid choices.
"""

from __future__ import annotations

from collections.abc import Callable

from art_gallery_env.agents.base import Agent
from art_gallery_env.agents.random_agent import RandomAgent
from art_gallery_env.agents.registry import checkpoint_spec, make_policy, parse_spec

from .heuristic import GalleristHeuristicAgent, HeuristicParams

AgentFactory = Callable[..., Agent]


def make_random(seed: int | None = None, **options: str) -> Agent:
    """The shared uniformly random agent (it needs only the action mask); no options."""
    if options:
        raise ValueError(
            f"unknown option {sorted(options)[0]!r} for agent 'random'; valid options: (none)"
        )
    return RandomAgent(seed=seed)


def make_heuristic(seed: int | None = None, **options: str) -> Agent:
    """Options: any :class:`HeuristicParams` weight, e.g. ``heuristic:lookahead=0``."""
    valid = HeuristicParams.names()
    values: dict[str, float] = {}
    for key, value in options.items():
        if key not in valid:
            raise ValueError(
                f"unknown option {key!r} for agent 'heuristic'; valid options: {', '.join(valid)}"
            )
        try:
            values[key] = float(value)
        except ValueError:
            raise ValueError(f"option {key}={value!r} must be a number") from None
    return GalleristHeuristicAgent(seed=seed, params=HeuristicParams().with_options(**values))


AGENTS: dict[str, AgentFactory] = {"random": make_random, "heuristic": make_heuristic}


def agent_names() -> list[str]:
    return sorted(AGENTS)


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build a Gallerist agent from a spec such as ``heuristic:lookahead=0``, or the path
    of a Gallerist policy checkpoint (as Art Gallery's registry takes its own)."""
    checkpoint = checkpoint_spec(spec)
    if checkpoint is not None:
        path, options = checkpoint
        return make_policy(seed=seed, game="gallerist", path=path, **options)
    name, options = parse_spec(spec)
    if name not in AGENTS:
        raise ValueError(
            f"unknown Gallerist agent {name!r}; known agents: {', '.join(agent_names())}, "
            f"or the path of a Gallerist policy checkpoint"
        )
    if "seed" in options:
        raise ValueError(
            f"'seed' is not an agent option (in {spec!r}); the caller passes the seed "
            f"(make_agent(spec, seed))"
        )
    return AGENTS[name](seed=seed, **options)
