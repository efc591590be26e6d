"""Plain-text rendering of a game as one seat sees it (R8), or as a spectator sees all."""

from __future__ import annotations

from ..rules.actions import NUM_CARD_VALUES, PILE_MARKS
from ..rules.board import MARKER_BAR_SIZE
from ..rules.cards import CardSet
from ..rules.hidden import bid_visible, hand_visible, is_distributing
from ..rules.state import GameState

ROMAN = ("I", "II", "III", "IV", "V", "VI")


def painting_label(cards: CardSet, number: int) -> str:
    """'#5 Mona Lisa (Leonardo Da Vinci, 1503) [woman 2 | - | sky 1 | landscape 1]'."""
    p = cards.painting(number)
    rows = [
        "-" if entry is None else f"{cards.row_symbols[row][entry[0]]} {entry[1]}"
        for row, entry in enumerate(p.rows)
    ]
    return f"#{number} {p.title} ({p.artist}, {p.year}) [{' | '.join(rows)}]"


def _cards(counts: list[int]) -> str:
    values = [str(v) for v in range(NUM_CARD_VALUES) for _ in range(counts[v])]
    return " ".join(values) if values else "-"


def _header(state: GameState, viewer: int | None) -> list[str]:
    status = (
        "game over"
        if state.is_over
        else f"phase {state.phase_name}, player {state.current_player} to act"
    )
    who = "spectator view" if viewer is None else f"view of player {viewer}"
    return [
        f"Art Gallery | round {state.round} | {status} | {who}",
        f"start card: player {state.start_player} | "
        f"painting pile: {len(state.painting_pile)} cards",
    ]


def _area_lines(state: GameState, area: int, viewer: int | None) -> list[str]:
    """An area's pieces, then the Shop's piles or the gallery's painting, then its markers."""
    pieces = " ".join(f"P{p}" for p in range(state.num_players) if state.position[p] == area)
    pieces = pieces or "-"
    if area == 0:
        piles = "  ".join(
            f"pile {mark}: {len(pile):2d} tiles, top " + (f"#{pile[-1]}" if pile else "(empty)")
            for mark, pile in zip(PILE_MARKS, state.tile_piles)
        )
        lines = [f"Shop       pieces {pieces}", f"           {piles}"]
    else:
        number = state.gallery_painting[area]
        label = painting_label(state.cards, number) if number else "(no painting)"
        lines = [f"Gallery {area:<2d}pieces {pieces}", f"           {label}"]
    bars = []
    for k, (owner, value) in enumerate(state.bids[area]):
        shown = value if bid_visible(state, area, owner, viewer) else "?"
        bars.append(f"{ROMAN[k]}:P{owner}={shown}")
    free = MARKER_BAR_SIZE - len(state.bids[area])
    lines.append(f"           markers {' '.join(bars) or '-'} ({free} free)")
    return lines


def _player_lines(state: GameState, p: int, viewer: int | None) -> list[str]:
    """A seat's hand (hidden unless ``viewer`` may see it), face-up cards, tiles, paintings."""
    you = " (you)" if p == viewer else ""
    public = hand_visible(state, p, viewer)
    hand = _cards(state.hands[p]) if public else f"{sum(state.hands[p])} cards (hidden)"
    tiles = " ".join(f"#{t}" for t in state.tiles_held[p]) or "-"
    lines = [
        f"Player {p}{you}: hand {hand} | face up {_cards(state.moved[p])}",
        f"   tiles {tiles}",
    ]
    lines.extend(f"   {painting_label(state.cards, number)}" for number in state.collections[p])
    return lines


def render_text(state: GameState, viewer: int | None) -> str:
    """The board, piles, marker bars, collections and the hands ``viewer`` may see.

    ``viewer=None`` shows everything (a spectator's or debugger's view).
    """
    lines = _header(state, viewer)
    for area in range(state.num_areas):
        lines.extend(_area_lines(state, area, viewer))
    if is_distributing(state):
        lines.append(
            f"distributing area {state.dist_area}, marker {ROMAN[state.dist_marker]}; "
            f"cards on the space: {_cards(state.space_cards)}"
        )
    for p in range(state.num_players):
        lines.extend(_player_lines(state, p, viewer))
    return "\n".join(lines)


def render_breakdown(breakdown: list[dict]) -> str:
    """The R7 score table."""
    head = "player | rows (4)        | row pts | souvenirs | hand | start | total | tiles | rank"
    lines = [head, "-" * len(head)]
    for b in breakdown:
        rows = " ".join(f"{r:2d}" for r in b["rows"])
        lines.append(
            f"{b['player']:>6} | {rows:<15} | {b['row_total']:>7} | {b['souvenirs']:>9} | "
            f"{b['hand']:>4} | {b['start_card']:>5} | {b['total']:>5} | {b['tiles']:>5} | "
            f"{b['rank']:>4}"
        )
    return "\n".join(lines)
