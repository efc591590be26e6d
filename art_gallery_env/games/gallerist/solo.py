"""Solo Gallerist (G17) as a single-agent Gymnasium env.

It is the core's one single-agent env (:class:`art_gallery_env.core.single_agent.
SingleAgentEnv`) with the Gallerist at one player: the engine plays Lacerda inside
``step``; the agent always acts for seat 0. It is the same game as the AEC env with
``num_players=1``. The observation is the AEC observation vector; the legal actions come
from ``action_masks()`` (the documented accessor, what sb3-contrib's MaskablePPO asks for;
``info["action_mask"]`` is an alias), the pending decision as ``info["decision"]``. The
reward comes at the end: the goal level reached (``reward_mode="level"``: 0 none, 1
Apprentice, 2 Experienced, 3 Master Gallerist), the final money / 100 (``"money"``), or
the level plus the share of the next level's conditions met (``"goals"``: level + the
mean over those conditions of min(1, value / asked), e.g. 3 of Apprentice's 5 met and
the others at 0 gives 0.6; in [level, level + 1), 3 at Master Gallerist;
:func:`.env.aec.goals_reward`).
``illegal_action="terminate"`` (the default, as at every entry point) ends the episode
with -1; ``"raise"`` is the strict mode. Registered as
``gymnasium.make("art_gallery_env/GalleristSolo-v0")``.
"""

from __future__ import annotations

from art_gallery_env.core.env_checks import RENDER_FPS
from art_gallery_env.core.single_agent import DEFAULT_ILLEGAL_ACTION, SingleAgentEnv

from .env.aec import SOLO_REWARD_MODES
from .rules.data import GameData, default_game_data

__all__ = ["SOLO_REWARD_MODES", "GalleristSoloEnv"]


class GalleristSoloEnv(SingleAgentEnv):
    """``SingleAgentEnv("gallerist", 1, ...)`` with the solo game's options."""

    metadata = {
        "render_modes": ["ansi", "rgb_array", "svg"],  # the drawn board: render_svg
        "render_fps": RENDER_FPS,
        "name": "gallerist_solo_v0",
    }
    phase_info_key = "decision"

    def __init__(
        self,
        *,
        reward_mode: str = "level",
        render_mode: str | None = None,
        illegal_action: str = DEFAULT_ILLEGAL_ACTION,
        data: GameData | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__(
            "gallerist",
            1,
            reward_mode=reward_mode,
            render_mode=render_mode,
            illegal_action=illegal_action,
            setup_options=None if data is None else {"data": data},
            seed=seed,
        )
        self.data = data or default_game_data()
