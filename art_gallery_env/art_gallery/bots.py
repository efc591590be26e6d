"""Art Gallery's own agents, as its spec hands them to the agent registry.

TEMPORARY: the heuristic still lives in ``agents/heuristic*.py``; it moves here.
"""

from __future__ import annotations

from typing import Any

from art_gallery_env.agents.heuristic import HEURISTIC_VERSIONS, LATEST_HEURISTIC
from art_gallery_env.agents.registry import make_heuristic

__all__ = ["HEURISTIC_VERSIONS", "LATEST_HEURISTIC", "make_heuristic", "rollouts"]


def rollouts() -> dict[str, Any]:
    return {}
