"""The Gallerist (Vital Lacerda) as a second environment of art-gallery-env (1-4 players,
solo against the Lacerda bot). Rules: ``docs/gallerist_rules.md``.

The engine (``rules``) has no RL imports; ``env`` holds the PettingZoo AEC env,
``solo`` the single-agent Gymnasium env, ``agents`` the heuristic agent.
"""

from .env.aec import env, raw_env
from .env.narration import describe_event, describe_events
from .env.observation import OBSERVATION_SIZE, decode_observation
from .env.observation_fields import layout_fingerprint
from .env.render import render_breakdown, render_text
from .rules.actions import NUM_ACTIONS, action_to_str, str_to_action
from .rules.data import GameData, load_game_data
from .rules.game import IllegalActionError
from .rules.hidden import PlayerView
from .rules.state import GameState, new_game
from .solo import GalleristSoloEnv

ENV_VERSION = "gallerist_v0"

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
