"""The AEC env in TorchRL, through TorchRL's own ``PettingZooWrapper``, for any registered
game (``torchrl_env(game="gallerist")``).

``PettingZooWrapper(env=raw_env(...), use_mask=True)`` refuses the env as it is: TorchRL
builds a tensor spec for every ``infos`` entry with ``torch.as_tensor``, and this env's
infos are text and nested dicts (``{"phase": "move"}``, and at the end the score
breakdown), so it stops with ``TypeError: new(): invalid data type 'str'``. It would also
nest the observation dict's vector one level deep, as ``(player, "observation",
"observation")``. :class:`FlatObservation` hands TorchRL the observation vector alone and
the mask in ``infos["action_mask"]`` (the one info entry TorchRL takes, which it moves to
``(player, "action_mask")``), and changes nothing else; :func:`torchrl_env` builds the
wrapped env (the ``[torchrl]`` extra).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import BaseWrapper

from art_gallery_env.core.registry import get_game


class WithoutInfos(BaseWrapper):
    """The AEC env with every agent's ``infos`` empty (TorchRL only takes numeric infos)."""

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        return {agent: {} for agent in self.env.infos}


class FlatObservation(BaseWrapper):
    """The AEC env with the observation vector as each agent's observation and the action
    mask as its only info, so that TorchRL's keys are ``(player, "observation")`` and
    ``(player, "action_mask")``."""

    def observation_space(self, agent: str) -> spaces.Space:
        return self.env.observation_space(agent)["observation"]

    def observe(self, agent: str) -> np.ndarray:
        return self.env.observe(agent)["observation"]

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        raw = self.env.unwrapped
        return {agent: {"action_mask": raw.action_mask(agent)} for agent in self.env.infos}


def torchrl_env(
    num_players: int = 2, *, seed: int | None = None, game: str | None = None, **env_kwargs: Any
) -> Any:
    """A TorchRL env of ``game``'s AEC env (None: the default game) at ``num_players``,
    built with ``env_kwargs``: one group per seat (``player_0`` ...), each with the flat
    ``observation`` vector, a boolean ``action_mask`` and the ``mask`` of the seat that
    acts; actions are categorical (the game's action ids). The AEC env's defaults apply
    (``illegal_action="terminate"``, the game's first reward mode)."""
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    return PettingZooWrapper(
        env=FlatObservation(get_game(game).make_env(num_players=num_players, **env_kwargs)),
        use_mask=True,
        categorical_actions=True,
        return_state=False,
        seed=seed,
    )
