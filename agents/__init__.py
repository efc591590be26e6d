"""Agents that play Art Gallery through the env's observation and action mask.

Every agent follows :class:`~agents.base.Agent`: ``act(observation, action_mask, view)``
and ``reset(seed)``. Build them by name with :func:`~agents.registry.make_agent`
(``random``, ``heuristic``, ``ismcts:iters=400``, ``path/to/policy.safetensors``).
"""

from .base import Agent
from .heuristic import (
    HeuristicAgent,
    HeuristicParams,
    HeuristicPolicy,
    HeuristicV1Params,
    HeuristicV1Policy,
    heuristic_policy,
)
from .ismcts import ISMCTSAgent
from .policy import CheckpointError, PolicyAgent, layout_fingerprint, load_policy
from .random_agent import RandomAgent
from .registry import agent_names, make_agent

__all__ = [
    "Agent",
    "CheckpointError",
    "HeuristicAgent",
    "HeuristicParams",
    "HeuristicPolicy",
    "HeuristicV1Params",
    "HeuristicV1Policy",
    "ISMCTSAgent",
    "PolicyAgent",
    "RandomAgent",
    "agent_names",
    "heuristic_policy",
    "layout_fingerprint",
    "load_policy",
    "make_agent",
]
