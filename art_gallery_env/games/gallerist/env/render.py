"""Plain-text rendering of a Gallerist game as one seat sees it (G18), or as a spectator."""

from __future__ import annotations

from typing import Any

from ..rules.actions import LOCATION_NAMES, action_to_str
from ..rules.data import MARKET_COLUMNS, MARKET_LOWER_ROWS, MARKET_UPPER_ROWS, NUM_ARTIST_SLOTS
from ..rules.effects import renowned_value, sales_value
from ..rules.state import EMPTY, HOME, KICKED, LACERDA, SLOT_EMPTY, GameState

_SLOT_STATES = ("-", "up", "down/influence", "down/money")


def _who(owner: int) -> str:
    return "Lacerda" if owner == LACERDA else f"P{owner}"


def _visitors(counts: list[int]) -> str:
    return f"inv {counts[0]} vip {counts[1]} col {counts[2]}"


def artist_label(s: GameState, a: int) -> str:
    d = s.data
    form, colour = d.art_forms[a // 2], ("blue", "red")[a % 2]
    artist = d.artists[s.artist_tile[a]]
    if not s.discovered[a]:
        bonus = (
            d.artist_bonus_tiles[s.artist_bonus[a]].describe()
            if s.artist_bonus[a] != EMPTY
            else "-"
        )
        extra = " +collector" if s.artist_collector[a] else ""
        return (
            f"{form} {colour}: undiscovered (initial fame {artist.initial_fame}, "
            f"bonus {bonus}{extra})"
        )
    state = "CELEBRITY" if s.celebrity[a] else f"fame {s.fame[a]}"
    return (
        f"{form} {colour}: {state}, value {sales_value(s, a)}, promotion {s.promotion[a]}, "
        f"tokens {s.tokens[a]}"
    )


def render_text(s: GameState, viewer: int | None) -> str:
    """The board and what ``viewer`` may see (``None``: a spectator who sees every card)."""
    lines = _header_lines(s, viewer)
    lines += _location_lines(s)
    lines += _supply_lines(s)
    lines += _works_lines(s)
    lines.append(_display_line(s))
    lines += [_market_column_line(s, col) for col in range(MARKET_COLUMNS)]
    lines += _lacerda_lines(s)
    for p in range(s.num_players):
        lines += _player_lines(s, p, viewer)
    return "\n".join(lines)


def _header_lines(s: GameState, viewer: int | None) -> list[str]:
    """Round, pending decision and viewer; the legal actions only for the seat to act."""
    status = "game over" if s.over else f"{s.phase_name} decision of player {s.current_player}"
    who = "spectator view" if viewer is None else f"view of player {viewer}"
    lines = [f"The Gallerist | round {s.round} | {status} | {who}"]
    if not s.over and (viewer is None or viewer == s.current_player):
        lines.append("legal: " + ", ".join(action_to_str(a) for a in s.legal_actions()))
    return lines


def _location_lines(s: GameState) -> list[str]:
    """The piece on each location and a pending kick-out."""
    places = []
    for loc, name in enumerate(LOCATION_NAMES):
        occ = s.occupant[loc]
        piece = "-" if occ == EMPTY else f"{_who(occ // 2)} {('gallerist', 'assistant')[occ % 2]}"
        places.append(f"{name}: {piece}")
    lines = [" | ".join(places)]
    if s.kicked is not None:
        owner, kind, loc = s.kicked
        lines.append(
            f"kicked out: {_who(owner)} {('gallerist', 'assistant')[kind]} "
            f"from {LOCATION_NAMES[loc]}"
        )
    return lines


def _supply_lines(s: GameState) -> list[str]:
    """Plaza, bag and box office, and the artists."""
    bag = [s.bag.count(c) for c in range(3)]
    lines = [
        f"plaza: {_visitors(s.plaza)} | bag: {_visitors(bag)} | box office {s.box_office} "
        f"discard {s.ticket_discard}"
    ]
    lines += ["  " + artist_label(s, a) for a in range(NUM_ARTIST_SLOTS)]
    return lines


def _works_lines(s: GameState) -> list[str]:
    """The work stack of each form with the visitors on its top work, and the easels."""
    d = s.data
    lines = []
    for form, stack in enumerate(s.stacks):
        top = d.works[stack[-1]] if stack else None
        text = f"top fame +{top.fame}, {len(top.tickets)} tickets" if top else "empty"
        lines.append(
            f"  {d.art_forms[form]} stack: {len(stack)} works, {text}, "
            f"visitors {_visitors(s.work_visitors[form])}"
        )
    easels = ", ".join(
        f"{d.art_forms[d.works[w].form]} (value {renowned_value(s, w)})" for w in s.easels
    )
    lines.append(
        f"easels: {easels or '-'} | promotion tokens {s.promo_tokens} | deck {len(s.deck)}"
    )
    return lines


def _display_line(s: GameState) -> str:
    """The top contract of each display column."""
    d = s.data
    display = []
    for col, stack in enumerate(s.display):
        card = d.contracts[stack[-1]] if stack else None
        display.append(
            f"{col}: {d.art_forms[card.form]} {card.bonus.describe()}" if card else f"{col}: -"
        )
    return "contracts: " + " | ".join(display)


def _market_column_line(s: GameState, col: int) -> str:
    """One market column: reputation tiles or who took them, then the auction offers."""
    d = s.data
    cells = []
    for row in range(MARKET_UPPER_ROWS):
        i = MARKET_UPPER_ROWS * col + row
        tile = s.market_tiles[i]
        owner = s.market_upper[i]
        cells.append(
            _who(owner)
            if owner != EMPTY
            else (d.reputation_tiles[tile].id if tile != EMPTY else "-")
        )
    for row in range(MARKET_LOWER_ROWS):
        owner = s.market_lower[MARKET_LOWER_ROWS * col + row]
        cells.append(f"${d.auction_offers[row]}:{_who(owner) if owner != EMPTY else '-'}")
    return f"market column {col + 1}: " + " ".join(cells)


def _lacerda_lines(s: GameState) -> list[str]:
    """Where the solo bot stands (G17); nothing outside the solo game."""
    if not s.solo:
        return []
    where = LOCATION_NAMES[s.lacerda_pos] if s.lacerda_pos != EMPTY else "off the board"
    return [
        f"Lacerda: {where}{' (kicked out)' if s.lacerda_kicked else ''}, supply {s.lacerda_supply}"
    ]


def _player_lines(s: GameState, p: int, viewer: int | None) -> list[str]:
    """Player ``p``'s board; the secret cards only for ``p`` itself or a spectator (G18)."""
    d = s.data
    you = " (you)" if p == viewer else ""
    pos = s.gpos[p]
    where = "gallery" if pos == HOME else "kicked out" if pos == KICKED else LOCATION_NAMES[pos]
    lines = [
        f"Player {p}{you}: money {s.money[p]} influence {s.influence[p]} "
        f"tickets {s.tickets[p]} "
        f"| gallerist at {where} | desks {s.desks[p]} unemployed {s.queue[p]}"
    ]
    lines += _player_works_lines(s, p)
    if viewer is None or viewer == p:
        lines.append(
            f"   curator {d.curators[s.curator[p]].id}, art dealer {d.dealers[s.dealer[p]].id}"
        )
    return lines


def _player_works_lines(s: GameState, p: int) -> list[str]:
    """Player ``p``'s gallery and visitors, sold works, contracts and reputation tiles."""
    d = s.data
    works = ", ".join(
        f"{d.art_forms[d.works[w].form]} ({sales_value(s, s.work_artist[w])}"
        f"{', masterpiece' if s.masterpiece[w] else ''})"
        for w in s.gallery[p]
    )
    lines = [
        f"   gallery: {works or '-'} | visitors {_visitors(s.gallery_visitors[p])} "
        f"| lobby {_visitors(s.lobby[p])}"
    ]
    sold = ", ".join(d.art_forms[d.works[w].form] for w in s.sold[p])
    contracts = ", ".join(
        f"{d.art_forms[d.contracts[c].form]} {_SLOT_STATES[st]}{' +assistant' if on else ''}"
        for c, st, on in s.contracts[p]
        if st != SLOT_EMPTY
    )
    lines.append(f"   sold: {sold or '-'} | contracts: {contracts or '-'}")
    tiles = ", ".join(d.reputation_tiles[t].id for t in s.spaces[p] if t != EMPTY)
    lines.append(f"   reputation: {tiles or '-'}")
    return lines


def render_breakdown(breakdown: list[dict[str, Any]]) -> str:
    """The G16 score table."""
    keys = (
        "money",
        "majorities",
        "auction",
        "reputation",
        "exhibition",
        "curator",
        "dealer",
        "influence",
        "total",
        "rank",
    )
    head = "player | " + " | ".join(keys)
    lines = [head, "-" * len(head)]
    for b in breakdown:
        lines.append(f"{b['player']:>6} | " + " | ".join(f"{b[k]:>{len(k)}}" for k in keys))
        if "goal_level" in b:
            lines.append(f"solo goal reached: {b['goal_name']} (level {b['goal_level']})")
    return "\n".join(lines)
