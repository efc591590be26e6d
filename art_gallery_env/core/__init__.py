"""The game-agnostic core every game plugs into and every tool builds on.

- :mod:`.protocol`: what an engine state and a seat's view provide;
- :mod:`.errors`: ``IllegalActionError``, ``check_action_id``, ``check_num_players``;
- :mod:`.scoring`: ``winners``, ``win_shares``, ``final_rewards``;
- :mod:`.fields`: the observation ``Field`` table, ``layout_fingerprint``;
- :mod:`.seat`: ``SeatInputs``, the observer protocol, the action-mask cache;
- :mod:`.agent`: the ``Agent`` protocol; :mod:`.loop`: the one game loop;
- :mod:`.registry`: ``GameSpec``, ``register_game``, ``get_game``, ``game_names``;
- :mod:`.aec`: the one PettingZoo AEC base env (``TurnBasedAEC``);
- :mod:`.single_agent`: the one single-agent Gymnasium env over any game.

Names are exported lazily (PEP 562): ``import art_gallery_env.core`` loads neither
pettingzoo nor gymnasium until ``TurnBasedAEC`` or the single-agent env is asked for.
"""

from __future__ import annotations

from .lazy import lazy_exports

_EXPORTS = {
    "EngineState": "protocol",
    "SeatView": "protocol",
    "IllegalActionError": "errors",
    "check_action_id": "errors",
    "check_num_players": "errors",
    "final_rewards": "scoring",
    "winners": "scoring",
    "win_shares": "scoring",
    "Field": "fields",
    "layout_fingerprint": "fields",
    "SeatInputs": "seat",
    "MaskCache": "seat",
    "Agent": "agent",
    "play": "loop",
    "play_game": "loop",
    "GameSpec": "registry",
    "register_game": "registry",
    "unregister_game": "registry",
    "get_game": "registry",
    "game_names": "registry",
    "game_of": "registry",
    "default_game": "registry",
    "TurnBasedAEC": "aec",
    "SingleAgentEnv": "single_agent",
}

__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy_exports(__name__, {k: f".{m}" for k, m in _EXPORTS.items()}, globals())
