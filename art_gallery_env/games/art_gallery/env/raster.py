"""The old import path of the game-free rasteriser (:mod:`art_gallery_env.core.raster`)."""

from art_gallery_env.core.raster import RENDER_EXTRA, require_rasteriser, svg_to_rgb

__all__ = ["RENDER_EXTRA", "require_rasteriser", "svg_to_rgb"]
