"""art-gallery-env: board games as multi-agent reinforcement-learning environments.

The package root is the game-free core (:mod:`.core`: the engine protocol, the AEC base,
the single-agent env, the registry) and its tools; each game is one folder under
:mod:`.games` that registers itself. The versioned PettingZoo entry modules are
``art_gallery_v1`` and ``gallerist_v1``::

    from art_gallery_env import art_gallery_v1, gallerist_v1
    env = art_gallery_v1.env(num_players=4)

The names of the first releases stay: ``env``, ``raw_env`` and the engine's names below are
Art Gallery's (re-exported from :mod:`.games.art_gallery`), and the old module paths
(``art_gallery_env.rules`` ...) import with a DeprecationWarning (:mod:`.compat`). Names
are exported lazily (PEP 562): importing an engine loads neither pettingzoo nor gymnasium.
"""

from __future__ import annotations

import sys
from types import ModuleType

from . import compat
from .core.lazy import lazy_exports
from .gym_envs import GYM_ENV_ID as GYM_ENV_ID  # public: the README's id
from .gym_envs import register_envs as register_envs  # public before the exports went lazy
from .gym_envs import register_when_gymnasium_loads

__version__ = "0.1.0"

compat.install()  # art_gallery_env.rules, .vector, ... as aliases of their new paths
register_when_gymnasium_loads()  # gymnasium.make("art_gallery_env/ArtGallery-v1", ...)

_ART_GALLERY = ".games.art_gallery"
_EXPORTS = {
    "art_gallery_v1": ".art_gallery_v1",  # the versioned PettingZoo entry modules
    "gallerist_v1": ".gallerist_v1",
    **{
        name: _ART_GALLERY
        for name in (
            "ENV_VERSION",
            "env",
            "raw_env",
            "OBSERVATION_SIZE",
            "decode_observation",
            "NUM_ACTIONS",
            "action_to_str",
            "str_to_action",
            "CardSet",
            "load_card_set",
            "IllegalActionError",
            "GameState",
            "new_game",
        )
    },
}

__all__ = [
    *_EXPORTS,
    "GYM_ENV_ID",
    "__version__",
]


class _Package(ModuleType):
    """``art_gallery_env.env`` stays the env() function even after an old-path import of
    ``art_gallery_env.env.aec``: the import system would bind the aliased subpackage here."""

    def __setattr__(self, name: str, value: object) -> None:
        if name == "env" and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
