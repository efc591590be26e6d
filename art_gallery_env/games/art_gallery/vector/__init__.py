"""A batched engine compiled with numba: B games of one table size on arrays.

Needs numba (``pip install 'art-gallery-env[fast]'``, included in ``[train]``); the rest
of the package works without it. See docs/vector.md.
"""

from __future__ import annotations

try:
    import numba  # noqa: F401
except ImportError as err:  # pragma: no cover - exercised only where numba is missing
    raise ImportError(
        "art_gallery_env.games.art_gallery.vector needs numba: pip install 'art-gallery-env[fast]' "
        "(the train extra includes it)"
    ) from err

from .game import VectorGame, VectorIllegalActionError

__all__ = ["VectorGame", "VectorIllegalActionError"]
