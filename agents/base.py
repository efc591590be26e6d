"""The agent protocol every player follows: one class for every game and tool.

``Agent`` and ``legal_from_mask`` live in :mod:`art_gallery_env.core.agent` (the games'
own bots subclass it there); this module re-exports the same objects, so ``isinstance``
holds whichever path an agent was imported from.
"""

from typing import Any

from art_gallery_env.core.agent import Agent, legal_from_mask
from art_gallery_env.core.protocol import SeatView

__all__ = ["Agent", "legal_from_mask", "searchable_legal"]


def searchable_legal(agent: str, action_mask: Any, view: SeatView | None) -> list[int]:
    """The legal actions of a search agent's decision; a search samples worlds from its
    seat's view, so a call without one is an error naming what to pass."""
    legal = legal_from_mask(action_mask).tolist()
    if view is None:
        raise ValueError(
            f"{agent} needs its seat's view (a SeatView, e.g. the game's PlayerView: "
            "act(obs, mask, view)); it cannot search from the observation vector alone"
        )
    return legal
