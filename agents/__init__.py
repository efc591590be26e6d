"""The game-free agents and the agent registry: they play any registered game through its
observation, action mask and seat view.

Every agent follows :class:`~art_gallery_env.core.agent.Agent` (re-exported by
:mod:`.base`): ``act(observation, action_mask, view)`` and ``reset(seed)``. Build them by
name with :func:`~.registry.make_agent` (``random``, ``ismcts:iters=400``,
``path/to/policy.safetensors``, or a game's own agents such as ``heuristic``, which live in
the game's folder and come from its spec): ``make_agent(spec, seed, game=...)``.
"""

from .base import Agent
from .ismcts import ISMCTSAgent
from .policy import CheckpointError, PolicyAgent, layout_fingerprint, load_policy
from .random_agent import RandomAgent
from .registry import agent_names, make_agent

__all__ = [
    "Agent",
    "CheckpointError",
    "ISMCTSAgent",
    "PolicyAgent",
    "RandomAgent",
    "agent_names",
    "layout_fingerprint",
    "load_policy",
    "make_agent",
]
