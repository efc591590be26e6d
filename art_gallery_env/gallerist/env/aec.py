"""The Gallerist as a PettingZoo AEC environment.

| | |
|---|---|
| agents | ``player_0`` .. ``player_{N-1}``, N = 1..4 (1 = solo against Lacerda, G17) |
| action space | ``Discrete(113)`` (see :mod:`..rules.actions`) |
| observation space | ``Dict(observation=Box(float32), action_mask=Box(int8, (113,)))`` |
| rewards | only at the end: ``"win"``, ``"score_margin"``, ``"money"`` or (solo) ``"level"`` |

A thin layer over :mod:`..rules`; ``env.unwrapped.state`` is the engine state (which holds
hidden information: agents should use observations). Reset, step, the seed stream, saved
states, illegal actions and the finish are the game-free
:class:`~art_gallery_env.core.aec.TurnBasedAEC`'s; this module adds the component data and
the reward modes of the solo game.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from art_gallery_env.core.aec import TurnBasedAEC, wrap
from art_gallery_env.core.env_checks import ILLEGAL_ACTION_MODES, ILLEGAL_ACTION_REWARD
from art_gallery_env.core.scoring import final_rewards
from art_gallery_env.gallerist import ENV_VERSION

from ..rules.data import GameData, default_game_data

MULTI_REWARD_MODES = ("win", "score_margin", "money")
SOLO_REWARD_MODES = ("level", "money")
RENDER_MODES = ("ansi", "human", "rgb_array", "svg")
MONEY_SCALE = 100.0

__all__ = [
    "ILLEGAL_ACTION_MODES",
    "ILLEGAL_ACTION_REWARD",
    "MULTI_REWARD_MODES",
    "SOLO_REWARD_MODES",
    "env",
    "gallerist_rewards",
    "raw_env",
]


def gallerist_rewards(breakdown: list[dict[str, Any]], reward_mode: str) -> list[float]:
    """``win``/``score_margin`` as in every game (:func:`art_gallery_env.core.scoring.
    final_rewards`); ``money``: own total / 100; ``level`` (solo): the goal level reached,
    0 (none) to 3 (Master Gallerist)."""
    if reward_mode == "money":
        return [b["total"] / MONEY_SCALE for b in breakdown]
    if reward_mode == "level":
        return [float(b["goal_level"]) for b in breakdown]
    return final_rewards(breakdown, reward_mode)


class raw_env(TurnBasedAEC):  # noqa: N801 - PettingZoo's naming convention
    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": ENV_VERSION,  # the spec's env_version: records and checkpoints store it
        "is_parallelizable": False,
    }
    game_name = "gallerist"
    info_key = "decision"  # the Gallerist's rules speak of decisions (G20.1), not phases
    data_label = "component data"
    data_hint = "data=state.data"

    def __init__(
        self,
        num_players: int = 2,
        *,
        data: GameData | None = None,
        **options: Any,
    ) -> None:
        """``data``: another component file; the other options are
        :class:`~art_gallery_env.core.aec.TurnBasedAEC`'s: ``reward_mode`` (None: ``"win"``,
        or ``"level"`` in the solo game), ``render_mode``, ``illegal_action``
        (``"terminate"``, the default, or the strict ``"raise"``) and ``render_viewer``
        (``variants`` too: the Gallerist has none)."""
        self.data = data or default_game_data()
        super().__init__(num_players, **options)

    def _setup_options(self) -> dict[str, Any]:
        return {"data": self.data}

    def _data_fingerprint(self) -> tuple[str, str]:
        return self.game_name, self.data.fingerprint  # as the spec names a state's data


def env(**kwargs: Any) -> AECEnv:
    """The raw env wrapped in PettingZoo's order-enforcing wrapper (the core's, which keeps
    the dead-step rule after the end)."""
    return wrap(raw_env(**kwargs))
