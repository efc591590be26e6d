"""SVG drawing that every game's board picture shares: a canvas of the few shapes a board
needs, written with inline attributes only (no CSS, web fonts, images or scripts), so a
browser shows the picture as served and :mod:`.raster` turns it into an ``rgb_array`` frame
offline; and the check of a drawing's viewer and seat names.

A canvas is a pure accumulator: the same calls give the same bytes, with every number
written at most one decimal, always the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
"""Fonts every rasteriser has (DejaVu Sans), then the common ones of browsers."""


def num(x: float) -> str:
    """A coordinate with at most one decimal, always written the same way."""
    r = round(x, 1)
    return str(int(r)) if r == int(r) else f"{r:.1f}"


def seat_names(num_players: int, viewer: int | None, names: Sequence[str] | None) -> list[str]:
    """The seat labels of a drawing (default ``Player 0`` ..), after checking that
    ``viewer`` is None (a spectator) or a seat and that ``names`` has one name a seat."""
    n = num_players
    if viewer is not None and (
        isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < n
    ):
        raise ValueError(f"viewer must be None (spectator) or a seat in 0..{n - 1}, got {viewer!r}")
    if names is None:
        return [f"Player {p}" for p in range(n)]
    if len(names) != n:
        raise ValueError(f"names must give one name per seat ({n}), got {len(names)}")
    return list(names)


class Canvas:
    """A list of SVG elements with the shapes the boards need; ``ink`` and ``text_size``
    are a text's defaults, ``font`` the document's font family. ``size`` (width, height)
    with ``background`` starts the picture with its background."""

    def __init__(
        self,
        ink: str,
        text_size: float = 12,
        font: str = FONT,
        size: tuple[int, int] = (0, 0),
        background: str | None = None,
    ) -> None:
        self.parts: list[str] = []
        self.ink, self.text_size, self.font = ink, text_size, font
        self.size = size
        if background:
            self.rect(0, 0, size[0], size[1], background)

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: str,
        stroke: str | None = None,
        width: float = 1,
        rx: float = 0,
        dash: str | None = None,
    ) -> None:
        attrs = f'x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" fill="{fill}"'
        if rx:
            attrs += f' rx="{num(rx)}"'
        if stroke:
            attrs += f' stroke="{stroke}" stroke-width="{num(width)}"'
        if dash:
            attrs += f' stroke-dasharray="{dash}"'
        self.parts.append(f"<rect {attrs}/>")

    def circle(
        self, cx: float, cy: float, r: float, fill: str, stroke: str | None = None, width: float = 1
    ) -> None:
        attrs = f'cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}" fill="{fill}"'
        if stroke:
            attrs += f' stroke="{stroke}" stroke-width="{num(width)}"'
        self.parts.append(f"<circle {attrs}/>")

    def path(self, d: str, stroke: str = "none", width: float = 1, fill: str = "none") -> None:
        self.parts.append(
            f'<path d="{d}" fill="{fill}" stroke="{stroke}" stroke-width="{num(width)}" '
            'stroke-linejoin="round"/>'
        )

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float | None = None,
        fill: str | None = None,
        bold: bool = False,
        anchor: str = "start",
        italic: bool = False,
    ) -> None:
        size = self.text_size if size is None else size
        attrs = f'x="{num(x)}" y="{num(y)}" font-size="{num(size)}" fill="{fill or self.ink}"'
        if bold:
            attrs += ' font-weight="bold"'
        if italic:
            attrs += ' font-style="italic"'
        if anchor != "start":
            attrs += f' text-anchor="{anchor}"'
        self.parts.append(f"<text {attrs}>{escape(text)}</text>")

    def document(self) -> str:
        """The whole picture (``size``), one element a line."""
        width, height = self.size
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="{self.font}">'
        )
        return "\n".join([head, *self.parts, "</svg>"]) + "\n"
