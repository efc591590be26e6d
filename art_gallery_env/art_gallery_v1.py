"""Art Gallery's PettingZoo entry module, named as PettingZoo names its envs (``chess_v6``):
``from art_gallery_env import art_gallery_v1; art_gallery_v1.env(num_players=4)``.

The version is the env's (:data:`ENV_VERSION`): a change to the rules, observation or
action layout gets a new module, and this one keeps loading the old checkpoints' env.
"""

from __future__ import annotations

from art_gallery_env.games.art_gallery.env.aec import ENV_VERSION, env, raw_env
from art_gallery_env.games.art_gallery.env.observation import OBSERVATION_SIZE
from art_gallery_env.games.art_gallery.rules.actions import NUM_ACTIONS

__all__ = ["ENV_VERSION", "NUM_ACTIONS", "OBSERVATION_SIZE", "env", "raw_env"]
