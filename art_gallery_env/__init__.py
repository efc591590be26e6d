"""art-gallery-env: the board game Art Gallery as a PettingZoo AEC environment.

Names are exported lazily (PEP 562): ``import art_gallery_env.rules`` (the engine alone:
search, the web views, the vector engine's tests) loads neither pettingzoo nor gymnasium
until ``env``, ``raw_env`` or another env name is asked for.
"""

from __future__ import annotations

from . import env  # the subpackage, only to drop the name: see below
from .core.lazy import lazy_exports
from .gym_envs import GYM_ENV_ID, register_when_gymnasium_loads
from .gym_envs import register_envs as register_envs  # public before the exports went lazy

__version__ = "0.1.0"

# ``art_gallery_env.env`` is the env() function, not the subpackage. The import system binds
# a subpackage's name on the package at its first import only, so importing it here (its
# __init__ is a docstring) and dropping the name leaves ``env`` to ``__getattr__`` for good;
# a later ``from art_gallery_env.env.aec import ...`` does not shadow the function.
del env

register_when_gymnasium_loads()  # gymnasium.make("art_gallery_env/ArtGallery-v1", ...)

_EXPORTS = {
    "ENV_VERSION": ".env.aec",
    "env": ".env.aec",
    "raw_env": ".env.aec",
    "OBSERVATION_SIZE": ".env.observation",
    "decode_observation": ".env.observation",
    "NUM_ACTIONS": ".rules.actions",
    "action_to_str": ".rules.actions",
    "str_to_action": ".rules.actions",
    "CardSet": ".rules.cards",
    "load_card_set": ".rules.cards",
    "IllegalActionError": ".rules.game",
    "GameState": ".rules.state",
    "new_game": ".rules.state",
}

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


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
