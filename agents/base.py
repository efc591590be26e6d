"""The agent protocol every player follows: one class for every game and tool.

``Agent`` and ``legal_from_mask`` live in :mod:`art_gallery_env.core.agent` (the games'
own bots subclass it there); this module re-exports the same objects, so ``isinstance``
holds whichever path an agent was imported from.
"""

from art_gallery_env.core.agent import Agent, legal_from_mask

__all__ = ["Agent", "legal_from_mask"]
