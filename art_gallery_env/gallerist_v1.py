"""The Gallerist's PettingZoo entry module, named as PettingZoo names its envs:
``from art_gallery_env import gallerist_v1; gallerist_v1.env(num_players=2)``; the solo
game's single-agent env is :class:`GalleristSoloEnv`.
"""

from __future__ import annotations

from art_gallery_env.games.gallerist import ENV_VERSION
from art_gallery_env.games.gallerist.env.aec import env, raw_env
from art_gallery_env.games.gallerist.env.observation import OBSERVATION_SIZE
from art_gallery_env.games.gallerist.rules.actions import NUM_ACTIONS
from art_gallery_env.games.gallerist.solo import GalleristSoloEnv

__all__ = ["ENV_VERSION", "NUM_ACTIONS", "OBSERVATION_SIZE", "GalleristSoloEnv", "env", "raw_env"]
