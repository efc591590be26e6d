"""The board as an SVG picture, as one seat may see it (R8) or as a spectator sees all.

A pure function of the state and the viewer: same input, same bytes. The drawing uses
inline attributes only (no CSS, web fonts, images or scripts), so a browser shows it as
served and :mod:`.raster` turns it into an ``rgb_array`` frame offline. The frame size
depends only on the number of players, so every frame of one game has one size (video).

Layout: a header (round, phase, who acts, whose view); the museum loop, the Shop and the
galleries clockwise on a track, each with its pieces, painting (or the Shop's tile piles)
and marker bar; a status card; then one strip per player (hand, face-up cards, tiles,
collection with its R7.1 row scores).
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from art_gallery_env.core.svg import Canvas, num, seat_names

from ..rules.actions import NUM_CARD_VALUES, PILE_MARKS
from ..rules.board import MARKER_BAR_SIZE, MARKERS_PER_PLAYER, SHOP_AREA
from ..rules.cards import MAX_VALUE, CardSet
from ..rules.game import bid_totals
from ..rules.hidden import bid_visible, hand_visible, is_distributing
from ..rules.phases import STAGE_REVEAL
from ..rules.scoring import best_chains, winners
from ..rules.state import GameState
from .render import ROMAN

WIDTH = 1280
MARGIN = 16
HEADER_H = 48
AREA_H = 246
AREA_GAP = 26  # between boxes: the track and its arrows show through
ROW_GAP = 40
STRIP_H = 120
STRIP_GAP = 8

SEAT_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
"""Okabe-Ito colours: told apart with the common colour-vision deficiencies."""
SYMBOL_FILLS = ("#f7c9c2", "#c5dcf3", "#cfe9c6", "#f6e3a4")
"""One pastel per symbol index within a row, so a chain reads as a run of one colour."""

BG = "#f2ede3"
INK = "#2b2926"
MUTED = "#7a7368"
LINE = "#b9ad97"
CARD_FACE = "#fffdf7"
CARD_BACK = "#34425e"
PLAYED_FACE = "#fff3cf"
GOLD = "#e2a400"
TITLE_BAR = "#3b3833"
SHOP_BAR = "#7a5a2b"


def render_svg(state: GameState, viewer: int | None, names: Sequence[str] | None = None) -> str:
    """The board as ``viewer`` may see it (None: a spectator who sees everything).

    ``names`` labels the seats (default ``Player 0`` ..). Another seat's face-down bids are
    drawn as card backs and its hand as a count while they are hidden (R8).
    """
    n = state.num_players
    svg = _Canvas(canvas_size(n), BG)
    board = _Board(state, viewer, seat_names(n, viewer, names), svg)
    board.header()
    board.loop()
    for p in range(n):
        board.player_strip(p, _strips_top() + p * (STRIP_H + STRIP_GAP))
    return svg.document()


def target_boxes(state: GameState, viewer: int) -> dict[str, tuple[float, float, float, float]]:
    """Where :func:`render_svg` draws what a seat may click, as ``(x, y, w, h)``: each area
    (``area-A``), each Shop tile pile (``pile-I``, I its index) and each card value in
    ``viewer``'s hand (``card-V``, all cards of that value)."""
    board = _Board(state, viewer, [""] * state.num_players, _Canvas())
    corners, _, box_w = board._area_boxes()
    boxes = {f"area-{a}": (x, y, box_w, AREA_H) for a, (x, y) in enumerate(corners)}
    sx, sy = corners[SHOP_AREA]
    gap, inner = 6, box_w - 16
    pw = (inner - 3 * gap) / 4
    for i in range(len(PILE_MARKS)):  # as tile_piles draws them
        boxes[f"pile-{i}"] = (sx + 8 + i * (pw + gap), sy + 36 + 18, pw, 106)
    top = _strips_top() + viewer * (STRIP_H + STRIP_GAP) + 42
    values = [v for v in range(NUM_CARD_VALUES) for _ in range(state.hands[viewer][v])]
    for v in sorted(set(values)):  # as _cards draws a visible hand
        first, last = values.index(v), len(values) - 1 - values[::-1].index(v)
        boxes[f"card-{v}"] = (MARGIN + 54 + 25 * first, top, 25 * (last - first) + 22, 30)
    return boxes


def canvas_size(num_players: int) -> tuple[int, int]:
    """(width, height) in pixels; it depends only on the number of players."""
    return WIDTH, _strips_top() + num_players * (STRIP_H + STRIP_GAP) + MARGIN - STRIP_GAP


def _strips_top() -> int:
    return HEADER_H + 8 + 2 * AREA_H + ROW_GAP + 16


# -- text helpers ------------------------------------------------------------------------
def _text_width(text: str, size: float, bold: bool = False) -> float:
    """A conservative estimate for DejaVu Sans (the widest of the listed fonts)."""
    return len(text) * size * (0.63 if bold else 0.58)


def _name_width(text: str, size: float) -> float:
    """A bold name's width, estimated wide (DejaVu Sans Bold's digits are 0.7 em), so that
    the score after it never covers its end."""
    return len(text) * size * 0.66


def fit(text: str, width: float, size: float, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so that it fits ``width`` pixels."""
    if _text_width(text, size, bold) <= width:
        return text
    keep = max(0, int(width / (size * (0.63 if bold else 0.58))) - 1)
    return text[:keep].rstrip() + "\u2026"


def symbol_abbreviations(cards: CardSet) -> tuple[tuple[str, ...], ...]:
    """Per row, the shortest prefixes (3 letters or more) that tell its symbols apart."""
    out = []
    for symbols in cards.row_symbols:
        for k in range(3, max(len(s) for s in symbols) + 1):
            short = tuple(s[:k] for s in symbols)
            if len(set(short)) == len(short):
                break
        out.append(short)
    return tuple(out)


def text_colour_on(fill: str) -> str:
    """Dark or white text, whichever reads better on ``fill`` (#rrggbb)."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


class _Canvas(Canvas):
    """The core's canvas with Art Gallery's ink, and a bold text with a note after it."""

    def __init__(self, size: tuple[int, int] = (0, 0), background: str | None = None) -> None:
        super().__init__(INK, text_size=12, size=size, background=background)

    def text_with_note(
        self,
        x: float,
        y: float,
        text: str,
        size: float,
        fill: str,
        note: str,
        note_size: float,
        note_fill: str,
    ) -> None:
        """Bold ``text`` and a smaller ``note`` after it in one element, a space between
        (two elements read as one word, "Shopresolving", to a screen reader or a copy)."""
        attrs = f'x="{num(x)}" y="{num(y)}" font-size="{num(size)}" fill="{fill}"'
        note_attrs = f'font-size="{num(note_size)}" fill="{note_fill}"'
        self.parts.append(
            f'<text {attrs} font-weight="bold">{escape(text)} '
            f"<tspan {note_attrs}>{escape(note)}</tspan></text>"
        )


class _Board:
    """Draws one state for one viewer onto a canvas."""

    def __init__(self, state: GameState, viewer: int | None, names: list[str], svg: _Canvas):
        self.s = state
        self.viewer = viewer
        self.names = names
        self.svg = svg
        self.short = symbol_abbreviations(state.cards)
        self.breakdown = state.score_breakdown()
        self.distributing = is_distributing(state)

    # -- header ------------------------------------------------------------------------
    def header(self) -> None:
        s, svg = self.s, self.svg
        svg.rect(0, 0, WIDTH, HEADER_H, TITLE_BAR)
        svg.text(MARGIN, 31, "Art Gallery", 21, "#ffffff", bold=True)
        who = "Spectator view (all cards)" if self.viewer is None else self._view_label()
        who = fit(who, 240, 14)
        x = WIDTH - MARGIN
        svg.text(x, 30, who, 14, "#f3e9d2", anchor="end")
        # seat legend, right to left before the view label
        x -= _text_width(who, 14) + 24
        for p in reversed(range(s.num_players)):
            # the whole name, or (too long for a legend) the seat's tag: the strips below
            # carry every name whole
            label = self.names[p]
            if _text_width(label, 12) > 150:
                label = label.split()[0]
            w = _text_width(label, 12) + 26
            x -= w
            svg.rect(x, 14, w - 6, 22, SEAT_COLOURS[p], rx=11)
            svg.text(
                x + (w - 6) / 2, 29.5, label, 12, text_colour_on(SEAT_COLOURS[p]), True, "middle"
            )
        if s.is_over:
            status = f"Round {s.round} \u00b7 game over"
        else:
            status = f"Round {s.round} \u00b7 {s.phase_name} \u00b7 {self.names[s.current_player]}"
            status += " to act"
        svg.text(170, 30, fit(status, x - 180, 15), 15, "#f3e9d2")

    def _view_label(self) -> str:
        return f"{self.names[self.viewer]}'s view"

    # -- the loop of areas -------------------------------------------------------------
    def _area_boxes(self) -> tuple[list[tuple[float, float]], tuple[float, float], float]:
        """Top-left corner of each area's box, of the status card, and the box width.

        The top row runs left to right, the bottom row right to left: clockwise."""
        count = self.s.num_areas  # always odd: 5, 7 or 9
        cols = (count + 1) // 2
        box_w = (WIDTH - 2 * MARGIN - (cols - 1) * AREA_GAP) / cols
        top, bottom = HEADER_H + 8, HEADER_H + 8 + AREA_H + ROW_GAP
        corners = []
        for area in range(count):
            col = area if area < cols else 2 * cols - 1 - area
            corners.append((MARGIN + col * (box_w + AREA_GAP), top if area < cols else bottom))
        return corners, (MARGIN, bottom), box_w

    def loop(self) -> None:
        corners, status_corner, box_w = self._area_boxes()
        self._track(corners, box_w)
        for area, (x, y) in enumerate(corners):
            self.area(area, x, y, box_w)
        self.status_card(*status_corner, box_w)

    def _track(self, corners: list[tuple[float, float]], box_w: float) -> None:
        """The loop the pieces walk, with clockwise arrows in the gaps between boxes."""
        svg = self.svg
        cols = (len(corners) + 1) // 2
        x0 = MARGIN + box_w / 2
        x1 = corners[cols - 1][0] + box_w / 2
        y0 = corners[0][1] + AREA_H / 2
        y1 = y0 + AREA_H + ROW_GAP
        svg.rect(x0, y0, x1 - x0, y1 - y0, "none", "#cdbf9f", 10, rx=30)
        arrow = "#9c8c6a"
        for col in range(cols - 1):  # gaps: rightwards on top, leftwards below
            gx = MARGIN + (col + 1) * box_w + col * AREA_GAP + AREA_GAP / 2
            svg.path(f"M{num(gx - 5)},{num(y0 - 8)} l10,8 l-10,8 z", fill=arrow)
            svg.path(f"M{num(gx + 5)},{num(y1 - 8)} l-10,8 l10,8 z", fill=arrow)
        my = (y0 + y1) / 2
        svg.path(f"M{num(x1 - 8)},{num(my - 5)} l8,10 l8,-10 z", fill=arrow)
        svg.path(f"M{num(x0 - 8)},{num(my + 5)} l8,-10 l8,10 z", fill=arrow)
        svg.text(x0 + 14, my + 4, "clockwise", 11, MUTED, italic=True)

    def area(self, area: int, x: float, y: float, w: float) -> None:
        s, svg = self.s, self.svg
        resolving = self.distributing and s.dist_area == area
        svg.rect(
            x, y, w, AREA_H, "#ffffff", GOLD if resolving else LINE, 4 if resolving else 1.5, 8
        )
        svg.rect(x, y, w, 28, SHOP_BAR if area == SHOP_AREA else TITLE_BAR, rx=8)
        svg.rect(x, y + 20, w, 8, SHOP_BAR if area == SHOP_AREA else TITLE_BAR)
        title = "Shop" if area == SHOP_AREA else f"Gallery {area}"
        if resolving:
            svg.text_with_note(x + 10, y + 19.5, title, 14, "#ffffff", "resolving", 11, GOLD)
        else:
            svg.text(x + 10, y + 19.5, title, 14, "#ffffff", bold=True)
        here = [p for p in range(s.num_players) if s.position[p] == area]
        for k, p in enumerate(reversed(here)):  # pieces on the bench, right-aligned
            cx = x + w - 14 - 21 * k
            svg.circle(cx, y + 14, 9, SEAT_COLOURS[p], "#ffffff", 1.5)
            svg.text(cx, y + 18, str(p), 11, text_colour_on(SEAT_COLOURS[p]), True, "middle")
        if area == SHOP_AREA:
            self.tile_piles(x + 8, y + 36, w - 16)
        else:
            self.painting_space(area, x + 8, y + 36, w - 16)
        self.marker_bar(area, x + 8, y + 174, w - 16)

    def painting_space(self, area: int, x: float, y: float, w: float) -> None:
        number = self.s.gallery_painting[area]
        if number:
            self.painting_card(number, x, y, w)
            return
        svg = self.svg
        svg.rect(x, y, w, 128, "#f7f4ee", LINE, 1, 6, dash="5,4")
        won = self._painting_won_this_round(area)
        if won is None:
            svg.text(x + w / 2, y + 68, "no painting", 12, MUTED, anchor="middle", italic=True)
            return
        painting, player = won
        svg.text(x + w / 2, y + 58, f"#{painting} went to", 12, MUTED, anchor="middle")
        svg.text(x + w / 2, y + 78, self.names[player], 14, SEAT_COLOURS[player], True, "middle")

    def _painting_won_this_round(self, area: int) -> tuple[int, int] | None:
        for kind, data in reversed(self.s.events):
            if kind == "round_start":
                return None
            if kind == "painting" and data["area"] == area:
                return data["painting"], data["player"]
        return None

    def painting_card(self, number: int, x: float, y: float, w: float) -> None:
        svg, cards = self.svg, self.s.cards
        p = cards.painting(number)
        svg.rect(x, y, w, 128, CARD_FACE, "#cbb98e", 1.2, 6)
        badge = f"#{number}"
        bw = _text_width(badge, 13, True) + 10
        svg.rect(x + 6, y + 6, bw, 19, "#5a4a2c", rx=4)
        svg.text(x + 6 + bw / 2, y + 20, badge, 13, "#ffffff", True, "middle")
        svg.text(x + bw + 12, y + 20, fit(p.title, w - bw - 18, 13, True), 13, INK, True)
        svg.text(x + 8, y + 39, fit(f"{p.artist}, {p.date}", w - 16, 11), 11, MUTED, italic=True)
        for row, entry in enumerate(p.rows):
            ry = y + 46 + 20 * row
            svg.text(x + 8, ry + 13, cards.row_themes[row], 10, MUTED)
            chip_x, chip_w = x + 62, w - 62 - 8 - 14 * MAX_VALUE
            if entry is None:
                svg.rect(chip_x, ry + 1, chip_w, 16, "#f1eee8", rx=3)
                svg.text(chip_x + 6, ry + 13, "\u2014", 11, MUTED)
                continue
            symbol, value = entry
            svg.rect(chip_x, ry + 1, chip_w, 16, SYMBOL_FILLS[symbol], rx=3)
            svg.text(chip_x + 6, ry + 13, fit(cards.row_symbols[row][symbol], chip_w - 8, 11), 11)
            for k in range(MAX_VALUE):  # value as pips
                cx = chip_x + chip_w + 10 + 14 * k
                svg.circle(cx, ry + 9, 4.5, INK if k < value else "none", INK, 1)

    def tile_piles(self, x: float, y: float, w: float) -> None:
        s, svg = self.s, self.svg
        gap = 6
        pw = (w - 3 * gap) / 4
        svg.text(x, y + 10, "tile piles: top tile face up", 10, MUTED)
        for i, (mark, pile) in enumerate(zip(PILE_MARKS, s.tile_piles)):
            px, py = x + i * (pw + gap), y + 18
            svg.text(px + pw / 2, py + 10, f"pile {mark}", 11, INK, True, "middle")
            ty = py + 18
            if not pile:
                svg.rect(px + 4, ty + 6, pw - 8, 52, "none", LINE, 1, 4, dash="4,3")
                svg.text(px + pw / 2, ty + 36, "empty", 11, MUTED, anchor="middle", italic=True)
            else:
                for k in reversed(range(min(len(pile), 3))):  # a small stack
                    svg.rect(
                        px + 4 + 3 * k, ty + 6 - 3 * k, pw - 14, 52, "#e9dcc0", "#a4936e", 1, 4
                    )
                top = pile[-1]
                svg.rect(px + 4, ty + 6, pw - 14, 52, "#fbf1da", "#a4936e", 1.2, 4)
                svg.text(px + 4 + (pw - 14) / 2, ty + 38, f"#{top}", 16, INK, True, "middle")
            svg.text(px + pw / 2, ty + 74, f"{len(pile)} left", 11, MUTED, anchor="middle")
            if pile:
                title = fit(s.cards.painting(pile[-1]).title, pw - 2, 9)
                svg.text(px + pw / 2, ty + 88, title, 9, MUTED, anchor="middle", italic=True)

    def marker_bar(self, area: int, x: float, y: float, w: float) -> None:
        s, svg = self.s, self.svg
        bids = s.bids[area]
        gap = 4
        sw = (w - (MARKER_BAR_SIZE - 1) * gap) / MARKER_BAR_SIZE
        resolving_marker = (
            s.dist_marker
            if self.distributing and s.dist_area == area and s.dist_stage != STAGE_REVEAL
            else None
        )
        for k in range(MARKER_BAR_SIZE):
            sx = x + k * (sw + gap)
            svg.text(sx + sw / 2, y + 9, ROMAN[k], 9, MUTED, anchor="middle")
            cy = y + 13
            if k >= len(bids):
                svg.rect(sx + 2, cy, sw - 4, 36, "none", "#cfc6b4", 1, 4, dash="3,3")
                continue
            owner, value = bids[k]
            colour = SEAT_COLOURS[owner]
            if k == resolving_marker:
                svg.rect(sx - 1, cy - 3, sw + 2, 42, "none", GOLD, 3, 6)
            if bid_visible(s, area, owner, self.viewer):
                svg.rect(sx + 2, cy, sw - 4, 36, CARD_FACE, colour, 2.5, 4)
                svg.text(sx + sw / 2, cy + 27, str(value), 17, INK, True, "middle")
            else:
                svg.rect(sx + 2, cy, sw - 4, 36, CARD_BACK, colour, 2.5, 4)
                svg.rect(sx + 6, cy + 4, sw - 12, 28, "none", "#7283a6", 1, 2)
                svg.text(sx + sw / 2, cy + 24, "?", 13, "#c9d3ea", True, "middle")
            svg.circle(sx + sw / 2, cy, 5, colour, "#ffffff", 1.2)  # the marker
        if (
            area != SHOP_AREA
            and bids
            and all(bid_visible(s, area, o, self.viewer) for o, _ in bids)
        ):
            totals = bid_totals(s, area)
            bidders = sorted({o for o, _ in bids})
            text = "totals " + " \u00b7 ".join(f"P{p} {totals[p]}" for p in bidders)
            svg.text(x + 2, y + 64, fit(text, w, 10), 10, MUTED)

    def status_card(self, x: float, y: float, w: float) -> None:
        s, svg = self.s, self.svg
        svg.rect(x, y, w, AREA_H, "#faf7f0", LINE, 1, 8, dash="6,4")
        lines: list[tuple[str, str, bool]] = [(f"Round {s.round}", INK, True)]
        if s.is_over:
            lines.append(("Game over", INK, True))
            won = winners(self.breakdown)
            lines.append(("won by " + ", ".join(self.names[p] for p in won), INK, False))
            reason = next((d["reason"] for k, d in reversed(s.events) if k == "game_over"), "")
            lines.append((reason, MUTED, False))
        else:
            lines.append((f"phase: {s.phase_name}", INK, False))
            lines.append((f"to act: {self.names[s.current_player]}", INK, False))
        lines.append((f"start card: {self.names[s.start_player]}", INK, False))
        lines.append((f"painting pile: {len(s.painting_pile)} cards", INK, False))
        if self.distributing:
            where = "the Shop" if s.dist_area == SHOP_AREA else f"Gallery {s.dist_area}"
            lines.append((f"distributing {where},", INK, True))
            lines.append((f"marker {ROMAN[s.dist_marker]} ({s.phase_name})", INK, True))
            space = [str(v) for v in range(NUM_CARD_VALUES) for _ in range(s.space_cards[v])]
            lines.append(("cards on the space: " + (" ".join(space) or "-"), INK, False))
        elif not s.is_over:
            lines.append((f"turn {s.turn // s.num_players + 1} of 4 this round", MUTED, False))
        ty = y + 26
        for k, (text, colour, bold) in enumerate(lines):
            size = 16 if k == 0 else 12
            svg.text(x + 12, ty, fit(text, w - 24, size, bold), size, colour, bold)
            ty += 24 if k == 0 else 19

    # -- players -----------------------------------------------------------------------
    def player_strip(self, p: int, y: float) -> None:
        s, svg = self.s, self.svg
        x, w = MARGIN, WIDTH - 2 * MARGIN
        colour = SEAT_COLOURS[p]
        acting = not s.is_over and s.current_player == p
        svg.rect(x, y, w, STRIP_H, "#ffffff", colour if acting else LINE, 3 if acting else 1, 8)
        svg.rect(x, y, 8, STRIP_H, colour, rx=4)
        you = p == self.viewer and "you" not in self.names[p].lower()  # not "You (P1) (you)"
        name = self.names[p] + (" (you)" if you else "")
        # the badges first, then the whole name in the room left before the score (a
        # smaller font before any cut), so neither covers the other; the markers below
        bx = x + 18
        for label, fill in (("start card", GOLD), ("to act", colour)):
            if (label == "start card" and s.start_player == p) or (label == "to act" and acting):
                bw = _text_width(label, 10, True) + 10
                svg.rect(bx, y + 8, bw, 16, fill, rx=8)
                svg.text(bx + bw / 2, y + 20, label, 10, text_colour_on(fill), True, "middle")
                bx += bw + 6
        room = x + 452 - 100 - bx  # the score's text ends at x + 452
        size = next((z for z in (14, 13, 12, 11, 10, 9) if _name_width(name, z) <= room), 9)
        if _name_width(name, size) > room:
            name = fit(name, room * 0.58 / 0.66, size, False)
        svg.text(bx, y + 20, name, size, colour, True)
        self._markers_left(p, x + 22, y + 33)
        self._score(p, x + 452, y + 20)
        visible = hand_visible(s, p, self.viewer)
        svg.text(x + 18, y + 63, "hand", 10, MUTED)
        hx = self._cards(s.hands[p], x + 54, y + 42, CARD_FACE, visible)
        svg.text(hx + 16, y + 63, "played", 10, MUTED)
        self._cards(s.moved[p], hx + 56, y + 42, PLAYED_FACE, True)
        svg.text(x + 18, y + 96, "tiles", 10, MUTED)
        self._tiles(p, x + 54, y + 82, 430)
        self._collection(p, x + 500, y + 8, w - 500 - 8)

    def _markers_left(self, p: int, x: float, y: float) -> None:
        placed = sum(1 for bids in self.s.bids for owner, _ in bids if owner == p)
        for k in range(MARKERS_PER_PLAYER):
            fill = SEAT_COLOURS[p] if k < MARKERS_PER_PLAYER - placed else "none"
            self.svg.circle(x + 12 * k, y, 4.5, fill, SEAT_COLOURS[p], 1.2)

    def _score(self, p: int, x: float, y: float) -> None:
        """Points so far (R7); the hand's share only where the viewer may see the hand."""
        b = self.breakdown[p]
        public = b["row_total"] + b["souvenirs"] + b["start_card"]
        if hand_visible(self.s, p, self.viewer):
            total, hand = str(public + b["hand"]), str(b["hand"])
        else:
            total, hand = f"{public}+?", "?"
        self.svg.text(x, y, f"score {total}", 15, INK, True, "end")
        detail = (
            f"rows {b['row_total']} \u00b7 souvenirs {b['souvenirs']} \u00b7 "
            f"start {b['start_card']} \u00b7 hand {hand}"
        )
        self.svg.text(x, y + 14, detail, 9, MUTED, anchor="end")

    def _cards(self, counts: list[int], x: float, y: float, face: str, visible: bool) -> float:
        """A row of cards (values ascending, or backs); returns the x after the last one."""
        svg = self.svg
        cw, ch, step = 22, 30, 25
        if not visible:
            total = sum(counts)
            for k in range(total):
                svg.rect(x + 6 * k, y, cw, ch, CARD_BACK, "#1f2a40", 1, 3)
            end = x + 6 * max(total - 1, 0) + cw
            svg.text(end + 6, y + 20, f"{total} hidden", 11, MUTED, italic=True)
            return end + 6 + _text_width(f"{total} hidden", 11)
        values = [v for v in range(NUM_CARD_VALUES) for _ in range(counts[v])]
        if not values:
            svg.text(x, y + 20, "none", 11, MUTED, italic=True)
            return x + 30
        for k, value in enumerate(values):
            svg.rect(x + step * k, y, cw, ch, face, "#8f8572", 1, 3)
            svg.text(x + step * k + cw / 2, y + 21, str(value), 14, INK, True, "middle")
        return x + step * (len(values) - 1) + cw

    def _tiles(self, p: int, x: float, y: float, w: float) -> None:
        """Souvenir tiles; gold where the own collection holds the painting (R7.2: 3 points)."""
        s, svg = self.s, self.svg
        tiles = s.tiles_held[p]
        if not tiles:
            svg.text(x, y + 15, "none", 11, MUTED, italic=True)
            return
        owned = set(s.collections[p])
        # one row while each tile keeps 30 px, else two or three rows, so that every number
        # stays readable (a 2-player game can end with 38 tiles)
        rows = next((r for r in (1, 2) if w / -(-len(tiles) // r) >= 30), 3)
        per_row = -(-len(tiles) // rows)
        step = min(34.0, w / per_row)
        height = (20, 17, 12)[rows - 1]
        top = y - (0, 6, 8)[rows - 1]
        size = 11 if step >= 30 and rows == 1 else 9 if rows < 3 else 8
        for k, tile in enumerate(tiles):
            matched = tile in owned
            tx = x + (k % per_row) * step
            ty = top + (k // per_row) * (height + 2)
            svg.rect(tx, ty, step - 3, height, "#f6d776" if matched else "#efe7d6", "#a4936e", 1, 3)
            baseline = ty + height / 2 + size * 0.36
            svg.text(tx + (step - 3) / 2, baseline, str(tile), size, INK, matched, "middle")

    def _collection(self, p: int, x: float, y: float, w: float) -> None:
        """Paintings in collection order, one row per theme; each row's scoring chain is
        outlined and its points (R7.1) written at the right."""
        s, svg, cards = self.s, self.svg, self.s.cards
        collection = s.collections[p]
        rows = self.breakdown[p]["rows"]
        chains = best_chains(collection, cards)
        label_w, score_w, row_h = 58, 34, 21
        svg.text(x, y + 10, f"collection ({len(collection)})", 10, MUTED)
        if not collection:
            svg.text(x + label_w, y + 56, "no paintings yet", 11, MUTED, italic=True)
        cell = min(54.0, (w - label_w - score_w) / max(len(collection), 1))
        show_symbol = cell >= 40
        for k, number in enumerate(collection):
            cx = x + label_w + k * cell
            size = 9 if cell >= 22 else 7.5
            svg.text(cx + cell / 2, y + 24, str(number), size, MUTED, anchor="middle")
        for row in range(len(cards.row_themes)):
            ry = y + 28 + row * row_h
            svg.text(x, ry + 14, cards.row_themes[row], 10, MUTED)
            for k, number in enumerate(collection):
                entry = cards.painting(number).rows[row]
                cx = x + label_w + k * cell
                fill = "#f1eee8" if entry is None else SYMBOL_FILLS[entry[0]]
                svg.rect(cx + 0.5, ry, cell - 1, row_h - 2, fill, rx=2)
                if entry is None:
                    continue
                symbol, value = entry
                label = f"{self.short[row][symbol]} {value}" if show_symbol else str(value)
                size = 10 if cell >= 18 else 8
                svg.text(cx + cell / 2, ry + 13.5, label, size, INK, anchor="middle")
            span = chains[row]
            if span is not None:
                first, last = span
                cx = x + label_w + first * cell
                svg.rect(cx, ry - 1, (last - first + 1) * cell, row_h, "none", INK, 1.6, 3)
            svg.text(x + w, ry + 14, str(rows[row]), 13, INK, True, "end")
        svg.text(x + w, y + 10, "row pts", 9, MUTED, anchor="end")
