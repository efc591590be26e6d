"""art-gallery-env: the board game Art Gallery as a PettingZoo AEC environment."""

from .env.aec import ENV_VERSION, env, raw_env
from .env.observation import OBSERVATION_SIZE, decode_observation
from .gym_envs import GYM_ENV_ID, register_envs
from .rules.actions import NUM_ACTIONS, action_to_str, str_to_action
from .rules.cards import CardSet, load_card_set
from .rules.game import IllegalActionError
from .rules.state import GameState, new_game

__version__ = "0.1.0"

register_envs()  # gymnasium.make("art_gallery_env/ArtGallery-v0", num_players=4, ...)

__all__ = [
    "ENV_VERSION",
    "GYM_ENV_ID",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "CardSet",
    "GameState",
    "IllegalActionError",
    "__version__",
    "action_to_str",
    "decode_observation",
    "env",
    "load_card_set",
    "new_game",
    "raw_env",
    "str_to_action",
]
