"""Sealed Bids as a PettingZoo AEC env: the core base does everything but name the game."""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from art_gallery_env.core.aec import TurnBasedAEC


class raw_env(TurnBasedAEC):  # noqa: N801 - PettingZoo's naming convention
    metadata = {"render_modes": ["ansi", "human"], "name": "sealed_bids_v0",
                "is_parallelizable": False}  # fmt: skip
    game_name = "sealed_bids"


def env(**kwargs: Any) -> Any:
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
