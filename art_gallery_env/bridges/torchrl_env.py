"""The AEC env in TorchRL, through TorchRL's own ``PettingZooWrapper``.

``PettingZooWrapper(env=raw_env(...), use_mask=True)`` refuses the env as it is: TorchRL
builds a tensor spec for every ``infos`` entry with ``torch.as_tensor``, and this env's
infos are text and nested dicts (``{"phase": "move"}``, and at the end the score
breakdown), so it stops with ``TypeError: new(): invalid data type 'str'``. The masks
themselves work: the observation dict's ``action_mask`` becomes each group's boolean
``action_mask``. :class:`WithoutInfos` hands TorchRL empty infos and changes nothing else;
:func:`torchrl_env` builds the wrapped env (the ``[torchrl]`` extra).
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import BaseWrapper

from art_gallery_env.core.registry import get_game


class WithoutInfos(BaseWrapper):
    """The AEC env with every agent's ``infos`` empty (TorchRL only takes numeric infos)."""

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        return {agent: {} for agent in self.env.infos}


def torchrl_env(
    num_players: int = 2, *, seed: int | None = None, game: str | None = None, **env_kwargs: Any
) -> Any:
    """A TorchRL env of ``game``'s AEC env (None: the default game) at ``num_players``,
    built with ``env_kwargs``: one group per seat (``player_0`` ...), each with
    ``observation``, a boolean ``action_mask`` and the ``mask`` of the seat that acts;
    actions are categorical (the game's action ids)."""
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    return PettingZooWrapper(
        env=WithoutInfos(get_game(game).make_env(num_players=num_players, **env_kwargs)),
        use_mask=True,
        categorical_actions=True,
        return_state=False,
        seed=seed,
    )
