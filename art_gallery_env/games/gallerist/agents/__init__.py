"""The Gallerist's own players: its heuristic, and what ISMCTS needs of the game (its
rollouts and evaluator). The spec (:mod:`art_gallery_env.games.gallerist.spec`) hands them to the
game-free agent registry, so ``make_agent("heuristic:lookahead=0", seed, game="gallerist")``
(:func:`art_gallery_env.agents.registry.make_agent`) builds them; ``random``, ``ismcts``
and policy checkpoints are the shared, generic agents."""

from .heuristic import GalleristHeuristicAgent, HeuristicParams, HeuristicPolicy, evaluate
from .registry import make_heuristic

__all__ = [
    "GalleristHeuristicAgent",
    "HeuristicParams",
    "HeuristicPolicy",
    "evaluate",
    "make_heuristic",
]
