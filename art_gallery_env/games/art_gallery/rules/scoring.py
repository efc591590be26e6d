"""Final score (R7): chains (R7.1), souvenirs (R7.2), hand (R7.3), start card (R7.4), rank (R7.5).

This is the one implementation of R7. The observation, the heuristic and the search
agent's evaluator use :func:`chain_summary` / :func:`extend_chain_summary` and
:func:`souvenir_points` from here rather than re-deriving them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from art_gallery_env.core.scoring import win_shares, winners  # noqa: F401 - R7.5, as in every game

from .cards import NUM_ROWS, CardSet

if TYPE_CHECKING:
    from .state import GameState

START_CARD_POINTS = 3  # R7.4
MATCHED_SOUVENIR_POINTS = 3  # R7.2
UNMATCHED_SOUVENIR_POINTS = 1
NO_SYMBOL = -1

RowEntries = tuple[tuple[int, int] | None, ...]
"""One painting's rows: ``(symbol, value)`` or None for an empty row."""


class ChainSummary(NamedTuple):
    """R7.1 for a collection, per row: the best chain so far, and the open chain at the
    collection's right end (its symbol, NO_SYMBOL if the last painting's row is empty, and
    its value sum). The open chain is what a painting added next can extend."""

    best: tuple[int, ...]
    open_symbol: tuple[int, ...]
    open_sum: tuple[int, ...]


EMPTY_CHAIN_SUMMARY = ChainSummary((0,) * NUM_ROWS, (NO_SYMBOL,) * NUM_ROWS, (0,) * NUM_ROWS)


def extend_chain_summary(summary: ChainSummary, rows: RowEntries) -> ChainSummary:
    """R7.1: the summary after appending a painting with ``rows`` at the right end.

    A row's chain is a run of consecutive paintings with the same symbol in that row; an
    empty row breaks it."""
    best, open_symbol, open_sum = summary
    new_best, new_symbol, new_sum = [], [], []
    for row in range(NUM_ROWS):
        entry = rows[row]
        if entry is None:
            new_symbol.append(NO_SYMBOL)
            new_sum.append(0)
            new_best.append(best[row])
            continue
        symbol, value = entry
        total = open_sum[row] + value if symbol == open_symbol[row] else value
        new_symbol.append(symbol)
        new_sum.append(total)
        new_best.append(total if total > best[row] else best[row])
    return ChainSummary(tuple(new_best), tuple(new_symbol), tuple(new_sum))


def chain_summary(collection: Sequence[int], cards: CardSet) -> ChainSummary:
    """R7.1 for a whole collection (paintings in the order they were won)."""
    table = cards.rows_by_number
    summary = EMPTY_CHAIN_SUMMARY
    for number in collection:
        summary = extend_chain_summary(summary, table[number])
    return summary


def row_scores(collection: Sequence[int], cards: CardSet) -> list[int]:
    """R7.1: per row, the highest value sum of a run of consecutive equal symbols."""
    return list(chain_summary(collection, cards).best)


def best_chains(collection: Sequence[int], cards: CardSet) -> list[tuple[int, int] | None]:
    """R7.1 per row: (first, last) collection index of the first chain that scores the
    row's points, or None if the row scores 0. Drawings outline it."""
    table = cards.rows_by_number
    summary = EMPTY_CHAIN_SUMMARY
    starts = [0] * NUM_ROWS
    spans: list[tuple[int, int] | None] = [None] * NUM_ROWS
    for index, number in enumerate(collection):
        after = extend_chain_summary(summary, table[number])
        for row in range(NUM_ROWS):
            if after.open_symbol[row] != summary.open_symbol[row] or after.open_sum[row] == 0:
                starts[row] = index  # a different symbol or an empty row: a new chain
            if after.best[row] > summary.best[row]:
                spans[row] = (starts[row], index)
        summary = after
    return spans


def souvenir_points(tiles: Sequence[int], collection: Sequence[int]) -> int:
    """R7.2: 3 per tile whose painting is in the own collection, else 1."""
    owned = set(collection)
    return sum(
        MATCHED_SOUVENIR_POINTS if tile in owned else UNMATCHED_SOUVENIR_POINTS for tile in tiles
    )


def hand_points(hand_counts: Sequence[int]) -> int:
    """R7.3: sum of the values in hand, divided by 4, rounded down."""
    return sum(value * count for value, count in enumerate(hand_counts)) // 4


def start_card_points(state: GameState, player: int) -> int:
    """R7.4: the start card's holder scores 3."""
    return START_CARD_POINTS if state.start_player == player else 0


def ranks(keys: Sequence[tuple[int, int]]) -> list[int]:
    """R7.5: rank 1 + the number of players with a strictly better (total, tiles)."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def score_breakdown(state: GameState) -> list[dict[str, Any]]:
    """R7 for every player, with rank by R7.5 (1 = winner; shared wins share rank 1)."""
    rows = []
    for p in range(state.num_players):
        row_points = row_scores(state.collections[p], state.cards)
        souvenirs = souvenir_points(state.tiles_held[p], state.collections[p])
        # During a round movement cards are out of hand; R7.3 counts them back (R6.1).
        hand = hand_points([h + m for h, m in zip(state.hands[p], state.moved[p])])
        start = start_card_points(state, p)
        rows.append(
            {
                "player": p,
                "rows": row_points,
                "row_total": sum(row_points),
                "souvenirs": souvenirs,
                "hand": hand,
                "start_card": start,
                "total": sum(row_points) + souvenirs + hand + start,
                "tiles": len(state.tiles_held[p]),
            }
        )
    for row, rank in zip(rows, ranks([(row["total"], row["tiles"]) for row in rows])):
        row["rank"] = rank
    return rows
