"""The Gymnasium registration: ``gymnasium.make("art_gallery_env/ArtGallery-v0", ...)``.

Gymnasium 1.x finds third-party envs only once the package that registers them is imported
(it dropped 0.x's ``gymnasium.envs`` entry-point plugins), so ``import art_gallery_env``
calls :func:`register_envs`, and ``gymnasium.make("art_gallery_env:art_gallery_env/ArtGallery-v0")``
imports the package itself. The entry point is a string, so registering imports nothing
above this layer: the env class (:mod:`art_gallery_env.arena.single_agent`) loads at the
first ``make``.
"""

from __future__ import annotations

GYM_ENV_ID = "art_gallery_env/ArtGallery-v0"
GYM_ENTRY_POINT = "art_gallery_env.arena.single_agent:SingleAgentEnv"
GYM_DEFAULT_KWARGS = {"illegal_action": "terminate"}
"""``make`` defaults: an unmasked or random action ends the episode with -1 (PettingZoo's
convention) instead of raising, so unmasked algorithms and ``check_env`` can step it."""


def register_envs() -> None:
    """Register ``art_gallery_env/ArtGallery-v0`` (once; calling again changes nothing)."""
    import gymnasium

    if GYM_ENV_ID not in gymnasium.registry:
        gymnasium.register(
            id=GYM_ENV_ID, entry_point=GYM_ENTRY_POINT, kwargs=dict(GYM_DEFAULT_KWARGS)
        )
