"""Art Gallery as a PettingZoo AEC environment.

| | |
|---|---|
| agents | ``player_0`` .. ``player_{N-1}``, N = 2..6 |
| action space | ``Discrete(47)`` (see :mod:`art_gallery_env.games.art_gallery.rules.actions`) |
| observation space | ``Dict(observation=Box(float32), action_mask=Box(int8, (47,)))`` |
| rewards | only at the end: ``"win"`` or ``"score_margin"`` |
| render modes | ``ansi``, ``human`` (text); ``svg``, ``rgb_array`` (the drawn board) |

The env is a thin layer over :mod:`art_gallery_env.games.art_gallery.rules`;
``env.unwrapped.state`` is the
engine state (which holds hidden information: agents should use observations). Reset,
step, the seed stream, saved states, illegal actions and the finish are the game-free
:class:`~art_gallery_env.core.aec.TurnBasedAEC`'s; this module adds the card set, the
``zero_is_ten`` shorthand and the drawn board.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pettingzoo import AECEnv

from art_gallery_env.core.aec import TurnBasedAEC, wrap
from art_gallery_env.core.env_checks import (
    ILLEGAL_ACTION_MODES,
    ILLEGAL_ACTION_REWARD,
    RENDER_FPS,
)
from art_gallery_env.core.scoring import REWARD_MODES, SCORE_MARGIN_SCALE, final_rewards

from ..rules.cards import CardSet, default_card_set
from .raster import require_rasteriser

ENV_VERSION = "art_gallery_v1"
"""The env's name and version (PettingZoo's convention); records and checkpoints store it.
v1: ``illegal_action="terminate"`` is the default (v0 raised); the game is unchanged."""
RENDER_MODES = ("ansi", "human", "rgb_array", "svg")

__all__ = [
    "ENV_VERSION",
    "ILLEGAL_ACTION_MODES",
    "ILLEGAL_ACTION_REWARD",
    "RENDER_FPS",
    "RENDER_MODES",
    "REWARD_MODES",
    "SCORE_MARGIN_SCALE",
    "env",
    "final_rewards",  # R7.5's win shares or the score margin: the core's, for every game
    "raw_env",
]


class raw_env(TurnBasedAEC):  # noqa: N801 - PettingZoo's naming convention
    metadata = {
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
        "name": ENV_VERSION,
        "is_parallelizable": False,
    }
    game_name = "art_gallery"
    info_key = "phase"
    data_label = "card set"
    data_hint = "card_set=state.cards"

    def __init__(
        self,
        num_players: int = 2,
        *,
        variants: Mapping[str, Any] | None = None,
        zero_is_ten: bool | None = None,
        card_set: CardSet | None = None,
        **options: Any,
    ) -> None:
        """``zero_is_ten=`` is short for ``variants={"zero_is_ten": ...}`` (R5.6); the other
        options are :class:`~art_gallery_env.core.aec.TurnBasedAEC`'s: ``reward_mode``
        (``"win"``, the default, or ``"score_margin"``), ``render_mode``,
        ``illegal_action`` (``"terminate"``, the default: PettingZoo's -1 to the offender
        and the game ends; ``"raise"``: the strict mode) and ``render_viewer``."""
        variants = dict(variants or {})
        if zero_is_ten is not None:
            if not isinstance(zero_is_ten, bool):
                raise ValueError(f"zero_is_ten must be True or False, got {zero_is_ten!r}")
            if variants.get("zero_is_ten", zero_is_ten) != zero_is_ten:
                raise ValueError(
                    f"zero_is_ten={zero_is_ten} contradicts variants={variants!r}; give one"
                )
            variants["zero_is_ten"] = zero_is_ten
        self.card_set = card_set or default_card_set()
        super().__init__(num_players, variants=variants, **options)
        self.zero_is_ten: bool = self.variants["zero_is_ten"]
        if self.render_mode == "rgb_array":
            require_rasteriser()  # a missing extra fails here, not at the first frame

    def _setup_options(self) -> dict[str, Any]:
        return {"card_set": self.card_set}

    def _data_fingerprint(self) -> tuple[str, str]:
        return self.card_set.name, self.card_set.fingerprint


def env(**kwargs: Any) -> AECEnv:
    """The raw env wrapped in PettingZoo's order-enforcing wrapper (the core's, which keeps
    the dead-step rule after the end). Its drawn board (``svg``, ``rgb_array``: R8, only
    what the viewer may see) is the game spec's ``render_frame``."""
    return wrap(raw_env(**kwargs))
