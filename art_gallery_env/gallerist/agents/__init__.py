"""Agents for the Gallerist. The uniformly random agent is the shared
:class:`art_gallery_env.agents.random_agent.RandomAgent` (it needs only the action mask);
``make_agent("heuristic:lookahead=0", seed)`` builds either by spec."""

from .heuristic import GalleristHeuristicAgent, HeuristicParams, HeuristicPolicy, evaluate
from .registry import agent_names, make_agent

__all__ = [
    "GalleristHeuristicAgent",
    "HeuristicParams",
    "HeuristicPolicy",
    "agent_names",
    "evaluate",
    "make_agent",
]
