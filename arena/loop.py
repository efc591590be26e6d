"""The one game loop lives in :mod:`art_gallery_env.core.loop`; this name is kept for
the tools and user code that import it from the arena."""

from art_gallery_env.core.loop import AgentError, Decision, GameResult, play, play_game

__all__ = ["AgentError", "Decision", "GameResult", "play", "play_game"]
