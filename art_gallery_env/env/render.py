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


def render_text(state: GameState, viewer: int | None) -> str:
    """The board, piles, marker bars, collections and the hands ``viewer`` may see.

    ``viewer=None`` shows everything (a spectator's or debugger's view).
    """
    cards = state.cards
    n = state.num_players
    lines = []
    status = (
        "game over"
        if state.is_over
        else f"phase {state.phase_name}, player {state.current_player} to act"
    )
    who = "spectator view" if viewer is None else f"view of player {viewer}"
    lines.append(f"Art Gallery | round {state.round} | {status} | {who}")
    lines.append(
        f"start card: player {state.start_player} | painting pile: {len(state.painting_pile)} cards"
    )
    for area in range(state.num_areas):
        pieces = " ".join(f"P{p}" for p in range(n) if state.position[p] == area) or "-"
        if area == 0:
            head = "Shop      "
            piles = "  ".join(
                f"pile {mark}: {len(pile):2d} tiles, top " + (f"#{pile[-1]}" if pile else "(empty)")
                for mark, pile in zip(PILE_MARKS, state.tile_piles)
            )
            lines.append(f"{head} pieces {pieces}")
            lines.append(f"           {piles}")
        else:
            number = state.gallery_painting[area]
            label = painting_label(cards, number) if number else "(no painting)"
            lines.append(f"Gallery {area:<2d}pieces {pieces}")
            lines.append(f"           {label}")
        bars = []
        for k, (owner, value) in enumerate(state.bids[area]):
            shown = value if bid_visible(state, area, owner, viewer) else "?"
            bars.append(f"{ROMAN[k]}:P{owner}={shown}")
        free = MARKER_BAR_SIZE - len(state.bids[area])
        lines.append(f"           markers {' '.join(bars) or '-'} ({free} free)")
    if is_distributing(state):
        lines.append(
            f"distributing area {state.dist_area}, marker {ROMAN[state.dist_marker]}; "
            f"cards on the space: {_cards(state.space_cards)}"
        )
    for p in range(n):
        you = " (you)" if p == viewer else ""
        public = hand_visible(state, p, viewer)
        hand = _cards(state.hands[p]) if public else f"{sum(state.hands[p])} cards (hidden)"
        lines.append(f"Player {p}{you}: hand {hand} | face up {_cards(state.moved[p])}")
        tiles = " ".join(f"#{t}" for t in state.tiles_held[p]) or "-"
        lines.append(f"   tiles {tiles}")
        for number in state.collections[p]:
            lines.append(f"   {painting_label(cards, number)}")
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
