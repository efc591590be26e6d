"""The Gallerist (Vital Lacerda) as a second environment of art-gallery-env (1-4 players,
solo against the Lacerda bot). Rules: ``docs/gallerist_rules.md``.

The engine (``rules``) has no RL imports; ``env`` holds the PettingZoo AEC env,
``solo`` the single-agent Gymnasium env, ``agents`` the heuristic agent. Names are exported
lazily (PEP 562), so ``import art_gallery_env.games.gallerist.rules`` loads no RL library either.
"""

from __future__ import annotations

from art_gallery_env.core.lazy import lazy_exports

from . import env  # the subpackage, only to drop the name (as in art_gallery_env/__init__)

ENV_VERSION = "gallerist_v1"
"""v1: the rulebook choices and orders (G3.3, G6.3, G8.1, G8.2, G10.2, G10.3,
G11.2) and the Discrete(115) layout; v0 records and states are refused."""

# ``gallerist.env`` is the env() function: the import system binds a subpackage's name on
# its first import only, so dropping it now leaves ``env`` to ``__getattr__`` for good.
del env

_EXPORTS = {
    "env": ".env.aec",
    "raw_env": ".env.aec",
    "describe_event": ".env.narration",
    "describe_events": ".env.narration",
    "OBSERVATION_SIZE": ".env.observation",
    "decode_observation": ".env.observation",
    "layout_fingerprint": ".env.observation_fields",
    "render_breakdown": ".env.render",
    "render_text": ".env.render",
    "NUM_ACTIONS": ".rules.actions",
    "action_to_str": ".rules.actions",
    "str_to_action": ".rules.actions",
    "GameData": ".rules.data",
    "load_game_data": ".rules.data",
    "IllegalActionError": ".rules.game",
    "PlayerView": ".rules.hidden",
    "GameState": ".rules.state",
    "new_game": ".rules.state",
    "GalleristSoloEnv": ".solo",
}

__all__ = [
    "ENV_VERSION",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "GalleristSoloEnv",
    "GameData",
    "GameState",
    "IllegalActionError",
    "PlayerView",
    "action_to_str",
    "decode_observation",
    "describe_event",
    "describe_events",
    "env",
    "layout_fingerprint",
    "load_game_data",
    "new_game",
    "raw_env",
    "render_breakdown",
    "render_text",
    "str_to_action",
]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
