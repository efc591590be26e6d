"""Final score (R7) and the reward helpers built on it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CardSet

if TYPE_CHECKING:
    from .state import GameState

START_CARD_POINTS = 3  # R7.4
MATCHED_SOUVENIR_POINTS = 3  # R7.2
UNMATCHED_SOUVENIR_POINTS = 1


def row_scores(collection: list[int], cards: CardSet) -> list[int]:
    """R7.1: per row, the highest value sum of a run of consecutive equal symbols."""
    scores = []
    for row in range(len(cards.row_themes)):
        best = run = 0
        previous = None
        for number in collection:
            entry = cards.painting(number).rows[row]
            if entry is None:
                previous, run = None, 0
                continue
            symbol, value = entry
            run = run + value if symbol == previous else value
            previous = symbol
            best = max(best, run)
        scores.append(best)
    return scores


def souvenir_points(tiles: list[int], collection: list[int]) -> int:
    """R7.2: 3 per tile whose painting is in the own collection, else 1."""
    owned = set(collection)
    return sum(
        MATCHED_SOUVENIR_POINTS if tile in owned else UNMATCHED_SOUVENIR_POINTS for tile in tiles
    )


def hand_points(hand_counts: list[int]) -> int:
    """R7.3: sum of the values in hand, divided by 4, rounded down."""
    return sum(value * count for value, count in enumerate(hand_counts)) // 4


def score_breakdown(state: GameState) -> list[dict[str, Any]]:
    """R7 for every player, with rank by R7.5 (1 = winner; shared wins share rank 1)."""
    rows = []
    for p in range(state.num_players):
        row_points = row_scores(state.collections[p], state.cards)
        souvenirs = souvenir_points(state.tiles_held[p], state.collections[p])
        # During a round movement cards are out of hand; R7.3 counts them back (R6.1).
        hand = hand_points([h + m for h, m in zip(state.hands[p], state.moved[p])])
        start = START_CARD_POINTS if state.start_player == p else 0
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
    for row in rows:
        key = (row["total"], row["tiles"])
        row["rank"] = 1 + sum(1 for other in rows if (other["total"], other["tiles"]) > key)
    return rows


def winners(breakdown: list[dict[str, Any]]) -> list[int]:
    """R7.5: the players sharing rank 1."""
    return [row["player"] for row in breakdown if row["rank"] == 1]
