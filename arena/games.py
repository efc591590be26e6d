"""The games the tools serve come from the registry (:mod:`art_gallery_env.core.registry`).

``Game`` is kept as the name of a game's spec for code written against the arena before
the registry existed.
"""

from art_gallery_env.core.registry import GameSpec, default_game, game_names, game_of, get_game

Game = GameSpec

__all__ = ["Game", "GameSpec", "default_game", "game_names", "game_of", "get_game"]
