"""The Gallerist's board as an SVG picture, as one seat may see it (G18) or as a spectator.

A pure function of the state and the viewer: same input, same bytes. Inline attributes
only (no CSS, fonts, images or scripts), so a browser shows it as served and CairoSVG
turns it into an ``rgb_array`` frame offline. The size depends only on the number of
players, so every frame of one game has one size.

Layout: a header (round, decision, who acts, whose view); the four locations with the
piece on each; the four art forms, each with its work stack (top work, its visitors) and
its blue and red artist; the Plaza, bag, box office, contract display, easels and the
International Market; then one board per player. What a seat may not see (G18) is never
read for it: the other players' Curator and Art Dealer cards are drawn as card backs; the
deck, the works below each stack's top and the bag's order are drawn as counts only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from art_gallery_env.core.svg import Canvas, seat_names

from .env.narration import artist_name
from .rules.actions import LOCATION_NAMES
from .rules.data import (
    BONUS_KINDS,
    MARKET_COLUMNS,
    MARKET_LOWER_ROWS,
    MARKET_UPPER_ROWS,
    NUM_COLOURS,
    NUM_FORMS,
    TILE_SCORINGS,
    Bonus,
)
from .rules.effects import renowned_value, sales_value
from .rules.state import (
    ASSISTANT,
    EMPTY,
    HOME,
    KICKED,
    LACERDA,
    SLOT_DOWN_INFLUENCE,
    SLOT_EMPTY,
    SLOT_UP,
    GameState,
)

WIDTH = 1280
MARGIN = 16
HEADER_H = 40
LOC_TOP, LOC_H = 48, 92
FORM_TOP, FORM_H = 148, 178
SUPPLY_TOP, SUPPLY_H = 334, 196
STRIPS_TOP = 538
STRIP_H, STRIP_GAP = 150, 8

SEAT_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7")
"""Okabe-Ito colours, as Art Gallery's seats (told apart with colour-vision deficiencies)."""
LACERDA_COLOUR = "#6b6b6b"
VISITOR_FILLS = ("#8b5a2b", "#e58fb0", "#ffffff")  # investor (brown), VIP (pink), collector
VISITOR_LETTERS = ("I", "V", "C")
ARTIST_FILLS = ("#cfe0f5", "#f5d0cb")  # blue, red artists
BG = "#f2ede3"
INK = "#2b2926"
MUTED = "#7a7368"
LINE = "#b9ad97"
PANEL = "#fbf8f1"
CARD_FACE = "#fffdf7"
CARD_BACK = "#34425e"
GOLD = "#e2a400"
TITLE_BAR = "#3b3833"
LOC_ACTIONS = ("discover / buy", "sign contract / sell", "hire / promote", "reputation / auction")


def canvas_size(num_players: int) -> tuple[int, int]:
    """(width, height) of the picture: it depends only on the table size."""
    return WIDTH, STRIPS_TOP + num_players * (STRIP_H + STRIP_GAP) + MARGIN - STRIP_GAP


class _Canvas(Canvas):
    """The core's canvas with the Gallerist's ink and text size."""

    def __init__(self, size: tuple[int, int] = (0, 0), background: str | None = None) -> None:
        super().__init__(INK, text_size=11, size=size, background=background)


def render_svg(state: GameState, viewer: int | None, names: Sequence[str] | None = None) -> str:
    """The board as ``viewer`` may see it (None: a spectator who sees every card).

    ``names`` labels the seats (default ``Player 0`` ..)."""
    n = state.num_players
    svg = _Canvas(canvas_size(n), BG)
    board = _Board(state, viewer, seat_names(n, viewer, names), svg)
    board.header()
    board.locations()
    board.forms()
    board.supply()
    board.market()
    for p in range(n):
        board.player(p, STRIPS_TOP + p * (STRIP_H + STRIP_GAP))
    return svg.document()


def svg_to_rgb(svg: str) -> Any:
    """The drawing as an HxWx3 uint8 frame (the core's rasteriser, CairoSVG)."""
    from art_gallery_env.core.raster import svg_to_rgb as rasterise

    return rasterise(svg)


def bonus_text(
    bonus: Bonus | None, colours: Sequence[str] = ("investor", "VIP", "collector")
) -> str:
    """A bonus icon in a few words ('+2 money', 'a ticket', 'a visitor from the Plaza')."""
    if bonus is None:
        return "-"
    words = {
        "money": f"+{bonus.amount} money",
        "influence": f"+{bonus.amount} influence",
        "fame": f"+{bonus.amount} fame",
        "ticket_any": "a ticket",
        "tickets_two": "two tickets",
        "visitor_plaza": "a Plaza visitor",
        "visitor_plaza_vip_investor": "a VIP/investor from the Plaza",
        "visitor_bag": "a bag visitor",
        "assistant": "an assistant",
        "contract": "a contract",
    }
    kind = BONUS_KINDS[bonus.kind]
    if kind in words:
        return words[kind]
    what = "influence" if kind.startswith("influence") else "money"
    return f"+{bonus.amount} {what} per {colours[bonus.colour]}"


def _fit(text: str, chars: int) -> str:
    """``text`` cut to ``chars`` characters (with an ellipsis), so it stays in its box."""
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _tickets_text(mask: int) -> str:
    return "/".join(VISITOR_LETTERS[c] for c in range(NUM_COLOURS) if mask >> c & 1)


class _Board:
    """Draws the parts of the board onto one canvas."""

    def __init__(self, s: GameState, viewer: int | None, names: list[str], svg: _Canvas) -> None:
        self.s, self.viewer, self.names, self.svg = s, viewer, names, svg
        self.d = s.data

    def who(self, owner: int) -> str:
        return "Lacerda" if owner == LACERDA else self.names[owner]

    def colour(self, owner: int) -> str:
        return LACERDA_COLOUR if owner == LACERDA else SEAT_COLOURS[owner % len(SEAT_COLOURS)]

    def visitors(self, x: float, y: float, counts: Sequence[int], r: float = 7) -> float:
        """One disc per colour with its count beside it; returns the x after them."""
        svg = self.svg
        for c in range(NUM_COLOURS):
            svg.circle(x + r, y, r, VISITOR_FILLS[c], INK)
            svg.text(
                x + r, y + 3.5, VISITOR_LETTERS[c], 9, "#fff" if c == 0 else INK, True, "middle"
            )
            svg.text(x + 2 * r + 3, y + 4, str(counts[c]), 11)
            x += 2 * r + 20
        return x

    def piece(self, x: float, y: float, owner: int, kind: int) -> None:
        """A Gallerist (a tall rounded box) or an assistant (a disc) in its owner's colour."""
        fill = self.colour(owner)
        if kind == ASSISTANT:
            self.svg.circle(x + 8, y + 8, 8, fill, "#fff")
            self.svg.text(x + 8, y + 12, "A", 10, "#fff", True, "middle")
        else:
            self.svg.rect(x, y - 4, 18, 24, fill, "#fff", rx=5)
            self.svg.text(x + 9, y + 12, "G", 11, "#fff", True, "middle")

    # -- header -------------------------------------------------------------------------
    def header(self) -> None:
        s, svg = self.s, self.svg
        svg.rect(0, 0, WIDTH, HEADER_H, TITLE_BAR)
        if s.over:
            status = "game over"
        else:
            status = f"{s.phase_name} decision of {self.who(s.current_player)}"
        final = " (final round)" if s.final_round else ""
        svg.text(MARGIN, 26, f"The Gallerist · round {s.round}{final} · {status}", 16, "#fff", True)
        who = "spectator view" if self.viewer is None else f"view of {self.names[self.viewer]}"
        svg.text(WIDTH - MARGIN, 26, who, 13, "#f3e9d2", anchor="end")

    # -- the four locations --------------------------------------------------------------
    def locations(self) -> None:
        w = (WIDTH - 2 * MARGIN - 3 * 8) / 4
        for loc in range(4):
            self.location(loc, MARGIN + loc * (w + 8), LOC_TOP, w)

    def location(self, loc: int, x: float, y: float, w: float) -> None:
        s, svg = self.s, self.svg
        svg.rect(x, y, w, LOC_H, PANEL, LINE, rx=8)
        svg.rect(x, y, w, 20, "#7a5a2b", rx=8)
        svg.text(x + 8, y + 15, LOCATION_NAMES[loc], 12, "#fff", True)
        svg.text(x + w - 8, y + 15, LOC_ACTIONS[loc], 10, "#f3e9d2", anchor="end")
        occ = s.occupant[loc]
        if occ == EMPTY:
            svg.text(x + 10, y + 46, "empty", 11, MUTED)
        else:
            owner, kind = divmod(occ, 2)
            self.piece(x + 10, y + 32, owner, kind)
            piece = "assistant" if kind == ASSISTANT else "Gallerist"
            svg.text(x + 36, y + 46, f"{self.who(owner)}'s {piece}", 11)
        if s.kicked is not None and s.kicked[2] == loc:
            owner, kind, _ = s.kicked
            piece = "assistant" if kind == ASSISTANT else "Gallerist"
            svg.text(x + 10, y + 68, f"kicked out: {self.who(owner)}'s {piece}", 11, "#b3261e")
        if s.solo and s.lacerda_pos == loc:
            svg.text(x + w - 8, y + 46, "Lacerda here", 11, LACERDA_COLOUR, True, "end")
        tile = s.location_tiles[loc]
        if tile != EMPTY:
            svg.text(x + 10, y + 84, _fit(f"start tile: {self.tile_text(tile)}", 52), 10, MUTED)

    def tile_text(self, tile: int) -> str:
        """A reputation tile: what it scores, and what it gives when taken as a start tile."""
        t = self.d.reputation_tiles[tile]
        scoring = TILE_SCORINGS[t.scoring].replace("_", " ")
        name = scoring if t.id == TILE_SCORINGS[t.scoring] else f"{t.id}: {scoring}"
        return f"{name} ({t.money} money, {t.influence} infl.)"

    # -- art forms: work stacks and artists ------------------------------------------------
    def forms(self) -> None:
        w = (WIDTH - 2 * MARGIN - 3 * 8) / 4
        for form in range(NUM_FORMS):
            self.form(form, MARGIN + form * (w + 8), FORM_TOP, w)

    def form(self, form: int, x: float, y: float, w: float) -> None:
        s, d, svg = self.s, self.d, self.svg
        svg.rect(x, y, w, FORM_H, PANEL, LINE, rx=8)
        svg.text(x + 8, y + 16, d.art_forms[form].upper(), 12, INK, True)
        stack = s.stacks[form]
        if stack:
            top = d.works[stack[-1]]
            tickets = " ".join(_tickets_text(m) for m in top.tickets)
            text = f"{len(stack)} works · top: fame +{top.fame}, tickets {tickets}"
        else:
            text = "no works left"
        svg.text(x + 8, y + 32, text, 10)
        svg.text(x + 8, y + 48, "on it:", 10, MUTED)
        self.visitors(x + 44, y + 44, s.work_visitors[form], 6)
        cw = (w - 24) / 2
        for colour in (0, 1):
            self.artist(2 * form + colour, x + 8 + colour * (cw + 8), y + 58, cw)

    def artist(self, a: int, x: float, y: float, w: float) -> None:
        s, d, svg = self.s, self.d, self.svg
        svg.rect(x, y, w, 112, ARTIST_FILLS[a % 2], LINE, rx=6)
        tile = d.artists[s.artist_tile[a]]
        svg.text(x + 6, y + 14, f"{('blue', 'red')[a % 2]} · {tile.id}", 10, INK, True)
        if not s.discovered[a]:
            svg.text(x + 6, y + 30, "undiscovered", 10, MUTED)
            svg.text(x + 6, y + 44, f"initial fame {tile.initial_fame}", 10)
            bonus = s.artist_bonus[a]
            if bonus != EMPTY:
                svg.text(x + 6, y + 58, f"bonus: {bonus_text(d.artist_bonus_tiles[bonus])}", 10)
            if s.artist_collector[a]:
                svg.text(x + 6, y + 72, "+ a collector", 10)
        elif s.celebrity[a]:
            svg.text(x + 6, y + 32, "★ CELEBRITY", 12, "#8a5a00", True)
            svg.text(x + 6, y + 48, f"sells for {sales_value(s, a)}", 10)
        else:
            svg.text(x + 6, y + 32, f"fame {s.fame[a]}", 12, INK, True)
            svg.text(x + 6, y + 48, f"sells for {sales_value(s, a)}", 10)
        svg.text(x + 6, y + 88, f"promotion {s.promotion[a]}", 10)
        svg.text(x + 6, y + 102, f"signature tokens {s.tokens[a]}", 10)
        holders = [p for p in range(s.num_players) if s.commission[p] == a]
        for k, p in enumerate(holders):
            svg.circle(x + w - 10 - 16 * k, y + 30, 6, self.colour(p), "#fff")

    # -- Plaza, bag, box office, contracts, easels ------------------------------------------
    def supply(self) -> None:
        s, d, svg = self.s, self.d, self.svg
        x, y, w = MARGIN, SUPPLY_TOP, 620
        svg.rect(x, y, w, SUPPLY_H, PANEL, LINE, rx=8)
        svg.text(x + 8, y + 18, "Plaza", 11, INK, True)
        self.visitors(x + 60, y + 14, s.plaza)
        bag = [s.bag.count(c) for c in range(NUM_COLOURS)]
        svg.text(x + 260, y + 18, "bag", 11, INK, True)
        self.visitors(x + 292, y + 14, bag)
        svg.text(x + 8, y + 40, "box office", 11, INK, True)
        self.visitors(x + 80, y + 36, s.box_office)
        svg.text(x + 260, y + 40, "discard", 11, INK, True)
        self.visitors(x + 312, y + 36, s.ticket_discard)
        svg.text(x + 8, y + 62, f"contracts (deck {len(s.deck)})", 11, INK, True)
        cw = (w - 16 - 3 * 6) / 4
        for col, stack in enumerate(s.display):
            cx = x + 8 + col * (cw + 6)
            svg.rect(cx, y + 68, cw, 46, CARD_FACE, LINE, rx=4)
            if stack:
                card = d.contracts[stack[-1]]
                svg.text(cx + 6, y + 84, f"{col}: {d.art_forms[card.form]}", 10, INK, True)
                svg.text(cx + 6, y + 100, _fit(bonus_text(card.bonus), 26), 10)
            else:
                svg.text(cx + 6, y + 84, f"{col}: empty", 10, MUTED)
        svg.text(x + 8, y + 134, "easels (renowned works)", 11, INK, True)
        for e, work in enumerate(s.easels):
            form = d.art_forms[d.works[work].form]
            svg.text(x + 8 + e * 150, y + 150, f"{e}: {form}, worth {renowned_value(s, work)}", 10)
        promo = " ".join(f"L{k + 1}:{n}" for k, n in enumerate(s.promo_tokens))
        svg.text(x + 8, y + 172, f"promotion tokens {promo}", 10)
        if s.solo:
            where = LOCATION_NAMES[s.lacerda_pos] if s.lacerda_pos != EMPTY else "off the board"
            svg.text(x + 8, y + 188, f"Lacerda: {where}, {s.lacerda_supply} assistants", 10)

    def market(self) -> None:
        s, d, svg = self.s, self.d, self.svg
        x, y, w = MARGIN + 628, SUPPLY_TOP, WIDTH - 2 * MARGIN - 628
        svg.rect(x, y, w, SUPPLY_H, PANEL, LINE, rx=8)
        svg.text(x + 8, y + 18, "International Market", 11, INK, True)
        cw = (w - 16) / MARKET_COLUMNS
        for col in range(MARKET_COLUMNS):
            cx = x + 8 + col * cw
            need = " ".join(_tickets_text(m) for m in d.column_requirements[col])
            svg.text(cx, y + 34, f"column {col + 1} · lobby {need}", 10, MUTED)
            for row in range(MARKET_UPPER_ROWS):
                i = MARKET_UPPER_ROWS * col + row
                self.market_cell(
                    cx,
                    y + 40 + row * 22,
                    cw - 6,
                    s.market_upper[i],
                    s.market_tiles[i],
                    d.art_forms[row],
                )
            for row in range(MARKET_LOWER_ROWS):
                i = MARKET_LOWER_ROWS * col + row
                owner = s.market_lower[i]
                top = y + 132 + row * 20
                svg.rect(cx, top, cw - 6, 18, "#efe4cc", LINE, rx=3)
                svg.text(cx + 4, top + 13, f"offer {d.auction_offers[row]}", 10)
                if owner != EMPTY:
                    svg.circle(cx + cw - 18, top + 9, 6, self.colour(owner), "#fff")

    def market_cell(self, x: float, y: float, w: float, owner: int, tile: int, form: str) -> None:
        svg = self.svg
        svg.rect(x, y, w, 20, CARD_FACE, LINE, rx=3)
        if owner != EMPTY:
            svg.circle(x + 10, y + 10, 6, self.colour(owner), "#fff")
            svg.text(x + 22, y + 14, f"{form}: taken by {self.who(owner)}", 9)
        elif tile != EMPTY:
            svg.text(x + 4, y + 14, f"{form}: {self.d.reputation_tiles[tile].id}", 9)
        else:
            svg.text(x + 4, y + 14, f"{form}: -", 9, MUTED)

    # -- player boards -----------------------------------------------------------------------
    def player(self, p: int, y: float) -> None:
        s, svg = self.s, self.svg
        x, w = MARGIN, WIDTH - 2 * MARGIN
        acting = not s.over and s.current_player == p
        svg.rect(x, y, w, STRIP_H, PANEL, GOLD if acting else LINE, rx=8)
        svg.rect(x, y, 8, STRIP_H, self.colour(p), rx=4)
        mine = p == self.viewer and "you" not in self.names[p].lower()  # not "You (P0) (you)"
        you = " (you)" if mine else ""
        svg.text(x + 16, y + 18, f"{self.names[p]}{you}", 13, self.colour(p), True)
        pos = s.gpos[p]
        where = (
            "in the gallery"
            if pos == HOME
            else "kicked out"
            if pos == KICKED
            else f"at the {LOCATION_NAMES[pos]}"
        )
        svg.text(x + 16, y + 34, f"Gallerist {where}", 10)
        svg.text(x + 16, y + 52, f"money {s.money[p]}", 12, INK, True)
        svg.text(x + 110, y + 52, f"influence {s.influence[p]}", 12, INK, True)
        svg.text(x + 16, y + 72, "tickets", 10, MUTED)
        self.visitors(x + 60, y + 68, s.tickets[p])
        svg.text(x + 16, y + 92, "lobby", 10, MUTED)
        self.visitors(x + 60, y + 88, s.lobby[p])
        svg.text(x + 16, y + 112, "gallery", 10, MUTED)
        self.visitors(x + 60, y + 108, s.gallery_visitors[p])
        office = f"assistants: {s.desks[p]} at desks, {s.queue[p]} to hire"
        if s.removed[p]:
            office += f", {s.removed[p]} out"
        svg.text(x + 16, y + 132, office, 10)
        self.works(p, x + 250, y)
        self.contracts(p, x + 600, y)
        self.reputation(p, x + 860, y)
        self.secret_cards(p, x + 1080, y)

    def works(self, p: int, x: float, y: float) -> None:
        s, d, svg = self.s, self.d, self.svg
        svg.text(x, y + 18, "works exhibited", 10, MUTED)
        for k, work in enumerate(s.gallery[p]):
            wx = x + k * 84
            svg.rect(wx, y + 24, 78, 46, GOLD if s.masterpiece[work] else CARD_FACE, LINE, rx=4)
            svg.text(wx + 4, y + 38, f"{k}: {d.art_forms[d.works[work].form]}", 10, INK, True)
            svg.text(wx + 4, y + 52, f"value {sales_value(s, s.work_artist[work])}", 10)
            if s.masterpiece[work]:
                svg.text(wx + 4, y + 65, "masterpiece", 9)
        sold = ", ".join(d.art_forms[d.works[w].form] for w in s.sold[p]) or "-"
        svg.text(x, y + 88, f"sold: {sold}", 10)
        commission = s.commission[p]
        if commission != EMPTY:
            svg.text(x, y + 104, f"commission: {artist_name(d, commission)}", 10)
        if s.renowned[p] != EMPTY:
            work = s.renowned[p]
            svg.text(x, y + 120, f"renowned: {d.art_forms[d.works[work].form]}", 10)
        if s.start_tile[p] != EMPTY:
            svg.text(x, y + 136, f"start tile: {self.tile_text(s.start_tile[p])}", 9, MUTED)

    def contracts(self, p: int, x: float, y: float) -> None:
        s, d, svg = self.s, self.d, self.svg
        svg.text(x, y + 18, "contracts", 10, MUTED)
        for slot, (card, state, on) in enumerate(s.contracts[p]):
            top = y + 24 + slot * 40
            ticket = VISITOR_LETTERS[d.contract_slot_tickets[slot]]
            if state == SLOT_EMPTY:
                svg.rect(x, top, 240, 36, "none", LINE, rx=4, dash="4 3")
                svg.text(x + 6, top + 22, f"slot {slot}: empty (ticket {ticket})", 10, MUTED)
                continue
            svg.rect(x, top, 240, 36, CARD_FACE if state == SLOT_UP else "#e8e1d2", LINE, rx=4)
            form = d.art_forms[d.contracts[card].form]
            if state == SLOT_UP:
                what = f"{form}, bonus {bonus_text(d.contracts[card].bonus)}"
            else:
                half = 0 if state == SLOT_DOWN_INFLUENCE else 1
                what = f"{form} (sold), {bonus_text(d.contract_back[half])}"
            svg.text(x + 6, top + 15, _fit(f"slot {slot}: {what}", 46), 9)
            if on:
                svg.text(x + 6, top + 30, "an assistant is on its bonus", 9, MUTED)

    def reputation(self, p: int, x: float, y: float) -> None:
        s, d, svg = self.s, self.d, self.svg
        svg.text(x, y + 18, "reputation tiles", 10, MUTED)
        for i, tile in enumerate(s.spaces[p]):
            top = y + 24 + i * 20
            svg.rect(x, top, 206, 18, CARD_FACE if tile != EMPTY else "none", LINE, rx=3)
            text = (
                d.reputation_tiles[tile].id
                if tile != EMPTY
                else f"({bonus_text(d.reputation_spaces[i])})"
            )
            svg.text(x + 4, top + 13, f"{i}: {text}", 9, INK if tile != EMPTY else MUTED)

    def secret_cards(self, p: int, x: float, y: float) -> None:
        """The Curator and Art Dealer cards: face up for their owner or a spectator, card
        backs for anyone else (G18) until the final scoring reveals them (G16)."""
        s, d, svg = self.s, self.d, self.svg
        svg.text(x, y + 18, "secret cards", 10, MUTED)
        visible = self.viewer is None or self.viewer == p or s.over
        for k, (label, cards, index) in enumerate(
            (("curator", d.curators, s.curator[p]), ("art dealer", d.dealers, s.dealer[p]))
        ):
            top = y + 24 + k * 58
            if visible:
                svg.rect(x, top, 150, 52, CARD_FACE, LINE, rx=4)
                svg.text(x + 6, top + 15, f"{label}: {cards[index].id}", 10, INK, True)
                goals = cards[index].goals
                worth = ", ".join(str(g.value) for g in goals)
                svg.text(x + 6, top + 31, f"{len(goals)} goals, worth {worth}", 9)
            else:
                svg.rect(x, top, 150, 52, CARD_BACK, LINE, rx=4)
                svg.text(x + 75, top + 31, f"{label} (hidden)", 10, "#dfe6f3", anchor="middle")
