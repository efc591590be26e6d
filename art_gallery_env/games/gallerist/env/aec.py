"""The Gallerist as a PettingZoo AEC environment.

| | |
|---|---|
| agents | ``player_0`` .. ``player_{N-1}``, N = 1..4 (1 = solo against Lacerda, G17) |
| action space | ``Discrete(113)`` (see :mod:`..rules.actions`) |
| observation space | ``Dict(observation=Box(float32), action_mask=Box(int8, (113,)))`` |
| rewards | at the end: ``"win"``, ``"score_margin"``, ``"money"``; solo ``"level"``, ``"goals"`` |

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
from art_gallery_env.core.env_checks import (
    ILLEGAL_ACTION_MODES,
    ILLEGAL_ACTION_REWARD,
    RENDER_FPS,
)
from art_gallery_env.core.scoring import final_rewards
from art_gallery_env.games.gallerist import ENV_VERSION

from ..rules.data import GameData, default_game_data
from ..rules.scoring import goal_level, goal_progress

MULTI_REWARD_MODES = ("win", "score_margin", "money")
SOLO_REWARD_MODES = ("level", "money", "goals")  # the first is the default and what the
# solo evaluation counts goal games by
RENDER_MODES = ("ansi", "human", "rgb_array", "svg")
MONEY_SCALE = 100.0

__all__ = [
    "ILLEGAL_ACTION_MODES",
    "ILLEGAL_ACTION_REWARD",
    "MULTI_REWARD_MODES",
    "SOLO_REWARD_MODES",
    "env",
    "gallerist_rewards",
    "goals_reward",
    "raw_env",
]


def gallerist_rewards(breakdown: list[dict[str, Any]], reward_mode: str) -> list[float]:
    """``win``/``score_margin`` as in every game (:func:`art_gallery_env.core.scoring.
    final_rewards`); ``money``: own total / 100; ``level`` (solo): the goal level reached,
    0 (none) to 3 (Master Gallerist); ``goals`` (solo): :func:`goals_reward`."""
    if reward_mode == "money":
        return [b["total"] / MONEY_SCALE for b in breakdown]
    if reward_mode == "level":
        return [float(b["goal_level"]) for b in breakdown]
    if reward_mode == "goals":
        return [goals_reward(b) for b in breakdown]
    return final_rewards(breakdown, reward_mode)


def goals_reward(row: dict[str, Any]) -> float:
    """The solo reward ``goals``: the goal level reached plus the share of the next
    level's conditions met (G17.6, :func:`..rules.scoring.goal_progress`)::

        goals = level + mean over the next level's conditions of min(1, value / asked)

    (0 or 1 for a Curator or Art Dealer goal count of 1 and for the highest Curator goal;
    nothing added at the highest level). Apprentice asks 5 (a Curator goal, an Art Dealer
    goal, 4+ reputation tiles, 1+ masterpiece, 160+ money), Experienced 6 (those, with the
    highest Curator goal, 5 tiles, 2 masterpieces and 180 money), Master Gallerist 3 (35+
    money from the goals, 5 tiles, 3 masterpieces). It lies in [level, level + 1), so a
    game at a higher level always gets more, and it is the level exactly when every
    condition of the next level is at 0. The levels are the packaged component data's (a
    breakdown row holds no thresholds); a row whose ``goal_level`` they do not give (other
    data's goals) is refused."""
    goals = default_game_data().solo_goals
    level = int(row["goal_level"])
    if goal_level(goals, row) != level:
        raise ValueError(
            f"reward_mode 'goals' measures against the packaged solo goals, which give "
            f"level {goal_level(goals, row)}, not this game's {level} (other component data)"
        )
    return level + goal_progress(goals, row, level)


class raw_env(TurnBasedAEC):  # noqa: N801 - PettingZoo's naming convention
    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": ENV_VERSION,  # the spec's env_version: records and checkpoints store it
        "is_parallelizable": False,
        "render_fps": RENDER_FPS,
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
