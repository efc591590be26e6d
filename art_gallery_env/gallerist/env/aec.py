"""The Gallerist as a PettingZoo AEC environment.

| | |
|---|---|
| agents | ``player_0`` .. ``player_{N-1}``, N = 1..4 (1 = solo against Lacerda, G17) |
| action space | ``Discrete(113)`` (see :mod:`..rules.actions`) |
| observation space | ``Dict(observation=Box(float32), action_mask=Box(int8, (113,)))`` |
| rewards | only at the end: ``"win"``, ``"score_margin"``, ``"money"`` or (solo) ``"level"`` |

A thin layer over :mod:`..rules`; ``env.unwrapped.state`` is the engine state (which holds
hidden information: agents should use observations).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from art_gallery_env.env.aec import final_rewards

from ..rules.actions import NUM_ACTIONS
from ..rules.data import GameData, default_game_data
from ..rules.game import IllegalActionError
from ..rules.state import GameState, check_num_players, new_game
from .observation import OBSERVATION_SIZE
from .render import render_breakdown, render_text
from .seat import GalleristSeatObserver

MULTI_REWARD_MODES = ("win", "score_margin", "money")
SOLO_REWARD_MODES = ("level", "money")
ILLEGAL_ACTION_MODES = ("raise", "terminate")
RENDER_MODES = ("ansi", "human")
MONEY_SCALE = 100.0
ILLEGAL_ACTION_REWARD = -1.0


def gallerist_rewards(breakdown: list[dict[str, Any]], reward_mode: str) -> list[float]:
    """``win``/``score_margin`` as in Art Gallery; ``money``: own total / 100; ``level``
    (solo): the goal level reached, 0 (none) to 3 (Master Gallerist)."""
    if reward_mode == "money":
        return [b["total"] / MONEY_SCALE for b in breakdown]
    if reward_mode == "level":
        return [float(b["goal_level"]) for b in breakdown]
    return final_rewards(breakdown, reward_mode)


def check_reward_mode(num_players: int, reward_mode: str | None) -> str:
    modes = SOLO_REWARD_MODES if num_players == 1 else MULTI_REWARD_MODES
    if reward_mode is None:
        return modes[0]
    if reward_mode not in modes:
        raise ValueError(
            f"reward_mode for {num_players} player(s) must be one of {list(modes)}, "
            f"got {reward_mode!r}"
        )
    return reward_mode


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's naming convention
    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "gallerist_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        num_players: int = 2,
        *,
        reward_mode: str | None = None,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        data: GameData | None = None,
        render_viewer: int | str | None = "current",
    ) -> None:
        super().__init__()
        self.num_players = check_num_players(num_players)
        self.reward_mode = check_reward_mode(num_players, reward_mode)
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"illegal_action must be one of {list(ILLEGAL_ACTION_MODES)}, "
                f"got {illegal_action!r}"
            )
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be one of {list(RENDER_MODES)} or None, got {render_mode!r}"
            )
        if render_viewer not in ("current", None) and not (
            isinstance(render_viewer, int) and 0 <= render_viewer < num_players
        ):
            raise ValueError(
                "render_viewer must be 'current', None (spectator) or a seat in "
                f"0..{num_players - 1}, "
                f"got {render_viewer!r}"
            )
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.render_viewer = render_viewer
        self.data = data or default_game_data()
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.seats = GalleristSeatObserver()
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, (OBSERVATION_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._seed_rng = random.Random()
        self.state: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- AEC API ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """New game; ``seed`` fixes it entirely. ``options={"start_player": k}`` names the start
        player, ``options={"state": GameState}`` continues a saved game."""
        if seed is not None:
            self._seed_rng = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seed_rng.getrandbits(63)
        options = options or {}
        if "state" in options:
            state = options["state"]
            if not isinstance(state, GameState) or state.num_players != self.num_players:
                raise ValueError(
                    f"options['state'] must be a GameState for {self.num_players} players"
                )
            self.state = state.clone()
        else:
            self.state = new_game(
                self.num_players,
                game_seed,
                start_player=options.get("start_player"),
                data=self.data,
            )
        self.seats.reset()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._after_action()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self.agent_name_mapping[agent]
        return {
            "observation": self.seats.observation(self.state, player),
            "action_mask": self.action_mask(agent),
        }

    def action_mask(self, agent: str) -> np.ndarray:
        """1 for each legal action of ``agent``; all 0 when it is not its turn."""
        return self.seats.action_mask(self.state, self.agent_name_mapping[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        try:
            self.state.apply(action)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            for a in self.agents:
                self.rewards[a] = ILLEGAL_ACTION_REWARD if a == agent else 0.0
                self.terminations[a] = True
                self.infos[a] = {"decision": self.state.phase_name, "illegal_action": agent}
            self._accumulate_rewards()
            return
        if self.state.is_over:
            breakdown = self.state.score_breakdown()
            for a, r in zip(self.possible_agents, gallerist_rewards(breakdown, self.reward_mode)):
                self.rewards[a] = r
                self.terminations[a] = True
            for a, b in zip(self.possible_agents, breakdown):
                self.infos[a] = {"decision": "game_over", "score": b, "breakdown": breakdown}
            self._after_action()
            self._accumulate_rewards()
        else:
            self._after_action()
        if self.render_mode == "human":
            self.render()

    def _after_action(self) -> None:
        self.agent_selection = self.possible_agents[self.state.current_player]
        if not self.state.is_over:
            decision = self.state.phase_name
            for a in self.agents:
                self.infos[a] = {"decision": decision}

    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode=")
            return None
        viewer = self.render_viewer
        if viewer == "current":
            viewer = None if self.state.is_over else self.state.current_player
        text = render_text(self.state, viewer)
        if self.state.is_over:
            text += "\n" + render_breakdown(self.state.score_breakdown())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> AECEnv:
    """The raw env wrapped in PettingZoo's order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
