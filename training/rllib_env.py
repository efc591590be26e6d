"""A game's AEC env as RLlib sees it (``art-gallery train`` with ``rllib_ppo``).

RLlib's ``PettingZooEnv`` wrapper turns the AEC env into a ``MultiAgentEnv`` (one agent acts
per step; each agent's final reward arrives when the game ends). In between sits
:class:`RLlibObservations`, a PettingZoo wrapper that renames the observation keys to the
ones RLlib's action-masking modules read: ``observations`` (the float32 vector) and
``action_mask`` (float32 0/1, so ``log(mask)`` gives 0 / -inf).

``register_rllib_env()`` registers the creator under :data:`ENV_NAME` for
``PPOConfig().environment(env=ENV_NAME, env_config={...})``; the env_config keys are those of
the project config's ``env:`` section (``game``, ``num_players``, ``variants``,
``reward_mode``). The env is the registered game's own (``GameSpec.make_env``); a game
trains here if its spec has the ``rllib`` capability.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseWrapper

from art_gallery_env.core.registry import get_game

ENV_NAME = "art_gallery_env"  # one creator for every game: env_config names the game
ENV_CONFIG_KEYS = ("game", "num_players", "variants", "reward_mode")


class RLlibObservations(BaseWrapper):
    """Observations ``{"observations": float32 vector, "action_mask": float32 0/1}``."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        agent = env.possible_agents[0]
        inner = env.observation_space(agent)["observation"]
        actions = env.action_space(agent).n
        space = spaces.Dict(
            {
                "observations": spaces.Box(inner.low, inner.high, inner.shape, np.float32),
                "action_mask": spaces.Box(0.0, 1.0, (actions,), np.float32),
            }
        )
        self.observation_spaces = {agent: space for agent in env.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self.env.observe(agent)
        return {
            "observations": obs["observation"],
            "action_mask": obs["action_mask"].astype(np.float32),
        }


def make_rllib_env(env_config: Mapping[str, Any] | None = None) -> Any:
    """An RLlib ``MultiAgentEnv`` of a game; ``env_config``: :data:`ENV_CONFIG_KEYS`
    (``game`` None or absent: the default game)."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    env_config = dict(env_config or {})
    unknown = sorted(set(env_config) - set(ENV_CONFIG_KEYS))
    if unknown:
        raise ValueError(f"unknown env_config key {unknown[0]!r}; known: {ENV_CONFIG_KEYS}")
    spec = get_game(env_config.pop("game", None))
    spec.require("rllib", "algorithm: rllib_ppo")
    variants = spec.check_variants(env_config.pop("variants", None))
    # illegal_action="raise": a masking bug fails loudly instead of ending games quietly.
    raw = spec.make_env(variants=variants, illegal_action="raise", **env_config)
    return PettingZooEnv(RLlibObservations(raw))


def register_rllib_env() -> str:
    """Register :func:`make_rllib_env` with Ray Tune's registry; returns :data:`ENV_NAME`."""
    from ray.tune.registry import register_env

    register_env(ENV_NAME, make_rllib_env)
    return ENV_NAME
