"""Solo Gallerist (G17) as a single-agent Gymnasium env.

The engine plays Lacerda inside ``step``; the agent always acts for seat 0. It is the same
game as the AEC env with ``num_players=1``. The observation is the AEC observation vector;
the legal actions come as ``info["action_mask"]`` and through ``action_masks()`` (what
sb3-contrib's MaskablePPO asks for). The reward comes at the end: the goal level reached
(``reward_mode="level"``: 0 none, 1 Apprentice, 2 Experienced, 3 Master Gallerist) or the
final money / 100 (``"money"``).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from .env.aec import SOLO_REWARD_MODES, check_reward_mode, gallerist_rewards
from .env.observation import OBSERVATION_SIZE, ObservationEncoder
from .env.render import render_breakdown, render_text
from .rules.actions import NUM_ACTIONS
from .rules.data import GameData, default_game_data
from .rules.game import IllegalActionError
from .rules.state import GameState, new_game

ILLEGAL_ACTION_REWARD = -1.0


class GalleristSoloEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"], "name": "gallerist_solo_v0"}

    def __init__(
        self,
        *,
        reward_mode: str = "level",
        render_mode: str | None = None,
        illegal_action: str = "raise",
        data: GameData | None = None,
    ) -> None:
        self.reward_mode = check_reward_mode(1, reward_mode)
        if illegal_action not in ("raise", "terminate"):
            raise ValueError(
                f"illegal_action must be 'raise' or 'terminate', got {illegal_action!r}"
            )
        self.illegal_action = illegal_action
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be 'ansi' or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.data = data or default_game_data()
        self.observation_space = spaces.Box(0.0, np.inf, (OBSERVATION_SIZE,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.encoder = ObservationEncoder()
        self.state: GameState | None = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        options = options or {}
        if "state" in options:
            if not isinstance(options["state"], GameState) or options["state"].num_players != 1:
                raise ValueError("options['state'] must be a one-player GameState")
            self.state = options["state"].clone()
        else:
            self.state = new_game(1, int(self.np_random.integers(2**63)), data=self.data)
        return self._obs(), self._info()

    def step(self, action: int):
        try:
            self.state.apply(action)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            info = {**self._info(), "illegal_action": True}
            return self._obs(), ILLEGAL_ACTION_REWARD, True, False, info
        reward = 0.0
        info = self._info()
        if self.state.is_over:
            breakdown = self.state.score_breakdown()
            reward = gallerist_rewards(breakdown, self.reward_mode)[0]
            info["score"] = breakdown[0]
        return self._obs(), reward, self.state.is_over, False, info

    def action_masks(self) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[self.state.legal_actions()] = True
        return mask

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        text = render_text(self.state, 0)
        if self.state.is_over:
            text += "\n" + render_breakdown(self.state.score_breakdown())
        return text

    def _obs(self) -> np.ndarray:
        return self.encoder.encode(self.state, 0)

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self.action_masks().astype(np.int8),
            "decision": self.state.phase_name,
        }


__all__ = ["SOLO_REWARD_MODES", "GalleristSoloEnv"]
