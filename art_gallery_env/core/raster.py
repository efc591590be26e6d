"""SVG to an ``rgb_array`` frame (HxWx3 uint8), with CairoSVG.

CairoSVG was chosen by measurement (see docs/render.md): on this project's board it
rasterises 1.3-1.8x faster than resvg-py, and its pixels can be read straight from the
cairo surface, which skips a PNG encode and decode. It needs the system cairo library
(Debian's libcairo2, present on these machines) and is installed by the ``render`` extra.
"""

from __future__ import annotations

import sys

import numpy as np

RENDER_EXTRA = 'pip install "art-gallery-env[render]"'


def require_rasteriser() -> None:
    """Raise a clear error now, rather than at the first frame, if CairoSVG cannot load."""
    _cairosvg()


def _cairosvg():  # noqa: ANN202 - the module, whose type is only known when installed
    from gymnasium.error import DependencyNotInstalled

    try:
        import cairosvg.parser
        import cairosvg.surface
    except ImportError as error:
        raise DependencyNotInstalled(
            f"render_mode='rgb_array' needs CairoSVG: {RENDER_EXTRA} ({error})"
        ) from error
    except OSError as error:  # cairocffi found no libcairo.so.2
        raise DependencyNotInstalled(
            "render_mode='rgb_array' needs the system cairo library "
            f"(Debian/Ubuntu: apt-get install libcairo2): {error}"
        ) from error
    return cairosvg


def svg_to_rgb(svg: str) -> np.ndarray:
    """The picture as an HxWx3 uint8 array, at one pixel per SVG unit."""
    cairosvg = _cairosvg()
    tree = cairosvg.parser.Tree(bytestring=svg.encode("utf-8"))
    # PNGSurface is the class behind cairosvg.svg2png; its cairo ImageSurface is read
    # before any PNG is written (tests/test_render_svg.py checks both give one image).
    surface = cairosvg.surface.PNGSurface(tree, None, 96).cairo
    surface.flush()
    height, width, stride = surface.get_height(), surface.get_width(), surface.get_stride()
    pixels = np.frombuffer(surface.get_data(), np.uint8).reshape(height, stride // 4, 4)
    # cairo's ARGB32 is a native-endian word: B, G, R, A in memory on little-endian
    # machines. The board paints an opaque background, so premultiplied alpha changes nothing.
    rgb = pixels[:, :width, 2::-1] if sys.byteorder == "little" else pixels[:, :width, 1:]
    return np.ascontiguousarray(rgb)
