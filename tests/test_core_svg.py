"""The SVG helper the games' board pictures share (art_gallery_env.core.svg)."""

from __future__ import annotations

import pytest

from art_gallery_env.core.svg import Canvas, num, seat_names


def test_numbers_are_written_one_way() -> None:
    assert [num(x) for x in (3, 2.96, 2.94, -0.04, 12.25)] == ["3", "3", "2.9", "0", "12.2"]


def test_canvas_writes_inline_attributes_and_escapes_text() -> None:
    svg = Canvas("#222", text_size=11, size=(20, 10))
    svg.rect(0, 0, 10.5, 4, "#fff", stroke="#000", rx=2)
    svg.circle(1, 2, 3, "#f00")
    svg.text(1, 2, "a < b & c")
    doc = svg.document()
    assert doc.splitlines() == [
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" viewBox="0 0 20 10" '
        'font-family="DejaVu Sans, Verdana, Arial, Helvetica, sans-serif">',
        '<rect x="0" y="0" width="10.5" height="4" fill="#fff" rx="2" stroke="#000" '
        'stroke-width="1"/>',
        '<circle cx="1" cy="2" r="3" fill="#f00"/>',
        '<text x="1" y="2" font-size="11" fill="#222">a &lt; b &amp; c</text>',
        "</svg>",
    ]


def test_viewer_and_names_are_checked() -> None:
    assert seat_names(2, None, None) == ["Player 0", "Player 1"]
    with pytest.raises(ValueError, match=r"viewer must be None \(spectator\) or a seat in 0\.\.1"):
        seat_names(2, 2, None)
    with pytest.raises(ValueError, match=r"one name per seat \(2\), got 1"):
        seat_names(2, 0, ["Ann"])


def test_both_games_draw_on_it() -> None:
    from art_gallery_env.games.art_gallery.env import svg
    from art_gallery_env.games.gallerist import render_svg

    assert issubclass(svg._Canvas, Canvas) and issubclass(render_svg._Canvas, Canvas)
