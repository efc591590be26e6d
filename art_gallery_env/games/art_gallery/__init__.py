"""Art Gallery, the first game (2-6 players). Rules: ``docs/rules.md``.

``rules`` is the pure-Python engine (no RL imports), ``env`` the PettingZoo AEC env and
its observation, ``vector`` the batched engine compiled with numba; the rule-based player
(:mod:`.heuristic`, version 2 over the frozen :mod:`.heuristic_v1` and :mod:`.clock`), the
search's evaluation (:mod:`.search`), the OpenSpiel game and :mod:`.spec`, the game's
registration, sit beside them. Names are exported lazily (PEP 562), so
``import art_gallery_env.games.art_gallery.rules`` loads no RL library.
"""

from __future__ import annotations

from art_gallery_env.core.lazy import lazy_exports

from . import env  # the subpackage, only to drop the name (as in art_gallery_env/__init__)

# ``art_gallery.env`` is the env() function: the import system binds a subpackage's name on
# its first import only, so dropping it now leaves ``env`` to ``__getattr__`` for good.
del env

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

__all__ = sorted(_EXPORTS)

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
