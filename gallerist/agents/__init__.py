"""Agents for the Gallerist. The uniformly random agent is the shared
:class:`art_gallery_env.agents.random_agent.RandomAgent` (it needs only the action mask)."""

from .heuristic import GalleristHeuristicAgent, HeuristicParams, HeuristicPolicy, evaluate

__all__ = ["GalleristHeuristicAgent", "HeuristicParams", "HeuristicPolicy", "evaluate"]
