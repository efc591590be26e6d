"""R7 Final score: symbol rows, souvenirs, hand, start card, winner and ties."""

from __future__ import annotations

import random

import pytest

from art_gallery_env.games.art_gallery.rules.actions import move_action
from art_gallery_env.games.art_gallery.rules.scoring import best_chains, row_scores, winners
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game

# Rows: figures (woman, man, child, group), animals (bird, horse, mammal),
# nature (flora, mountain, sky), setting (interior, town, landscape, sea).
ROWS = {
    1: [("woman", 3), None, None, ("sea", 1)],
    2: [("woman", 2), None, None, ("town", 3)],
    3: [None, ("bird", 1), None, None],
    4: [("man", 1), None, None, None],
    5: [("woman", 1), None, None, None],
    6: [("woman", 1), None, None, None],
    7: [("woman", 1), None, None, None],
    8: [("man", 3), None, None, None],
    9: [("man", 2), ("horse", 2), ("sky", 2), ("sea", 2)],
    10: [("man", 2), ("horse", 1), ("sky", 1), ("sea", 2)],
}


@pytest.fixture
def rows_of(custom_cards, edit):
    """rows_of(collection) -> the four row scores of that collection (player 0)."""
    cards = custom_cards(ROWS)
    base = new_game(2, seed=0, card_set=cards)

    def score(collection: list[int]) -> list[int]:
        return edit(base, collections={0: collection}).score_breakdown()[0]["rows"]

    return score


# -- R7.1 ------------------------------------------------------------------------------
def test_R7_1_chain_of_one_symbol_scores_its_value_sum(rows_of):
    assert rows_of([1, 2]) == [5, 0, 0, 3]  # woman 3+2; setting: sea 1, town 3 -> 3
    assert rows_of([]) == [0, 0, 0, 0]


def test_R7_1_chain_broken_by_empty_row(rows_of):
    assert rows_of([1, 3, 2]) == [3, 1, 0, 3]  # painting 3 has no figure
    assert rows_of([1, 2, 3]) == [5, 1, 0, 3]


def test_R7_1_chain_broken_by_different_symbol(rows_of):
    assert rows_of([1, 4, 2])[0] == 3  # woman 3, man 1, woman 2
    assert rows_of([1, 2, 4])[0] == 5


def test_R7_1_row_scores_highest_sum_not_longest_chain(rows_of):
    assert rows_of([5, 6, 7, 8, 4])[0] == 4  # woman 1+1+1 = 3 < man 3+1 = 4
    assert rows_of([8, 1, 2, 5])[0] == 6  # man 3 < woman 3+2+1


def test_R7_1_each_of_the_four_rows_is_scored_separately(rows_of, custom_cards, edit):
    assert rows_of([9, 10]) == [4, 3, 3, 4]
    s = edit(new_game(2, seed=0, card_set=custom_cards(ROWS)), collections={0: [9, 10]})
    row = s.score_breakdown()[0]
    assert row["row_total"] == 14 and row["total"] == 14 + row["hand"] + row["start_card"]


def test_R7_1_collection_order_is_play_order(rows_of):
    # The same paintings in another order score differently: order is never changed.
    assert rows_of([1, 4, 2]) != rows_of([1, 2, 4])


def test_R7_1_best_chains_mark_the_first_chain_that_scores_each_row(custom_cards):
    cards = custom_cards(ROWS)
    # woman 1+1+1 (0..2) < man 3+1 (3..4): the man chain; nothing in row 2; sea 2 at 4
    assert best_chains([5, 6, 7, 8, 4], cards)[:3] == [(3, 4), None, None]
    assert best_chains([1, 4, 2], cards) == [(0, 0), None, None, (2, 2)]  # ties: the first
    assert best_chains([9, 10], cards) == [(0, 1), (0, 1), (0, 1), (0, 1)]
    assert best_chains([], cards) == [None] * 4


def test_R7_1_best_chains_agree_with_row_scores_on_random_collections():
    cards = new_game(2, seed=0).cards
    rng = random.Random(7)
    for _ in range(300):
        collection = rng.sample(range(1, 49), rng.randrange(0, 20))
        scores = row_scores(collection, cards)
        for row, span in enumerate(best_chains(collection, cards)):
            if span is None:
                assert scores[row] == 0
                continue
            entries = [cards.painting(n).rows[row] for n in collection[span[0] : span[1] + 1]]
            assert None not in entries and len({symbol for symbol, _ in entries}) == 1
            assert sum(value for _, value in entries) == scores[row]


# -- R7.2 ------------------------------------------------------------------------------
def test_R7_2_souvenir_scores_3_with_matching_painting_else_1(edit):
    s = edit(
        new_game(2, seed=0),
        collections={0: [10, 12]},
        tiles_held={0: [10, 11], 1: [12]},
    )
    breakdown = s.score_breakdown()
    assert breakdown[0]["souvenirs"] == 3 + 1  # 10 matches, 11 does not
    assert breakdown[1]["souvenirs"] == 1  # painting 12 is someone else's
    assert [b["tiles"] for b in breakdown] == [2, 1]


# -- R7.3 ------------------------------------------------------------------------------
def test_R7_3_hand_divided_by_4_rounded_down(edit):
    s = new_game(2, seed=0)
    assert [b["hand"] for b in s.score_breakdown()] == [9, 9]  # 36 / 4
    # Seat 0 swaps its 1 for seat 1's 0: 35 / 4 = 8.75 -> 8; seat 1: 37 / 4 -> 9.
    t = edit(s, hands=[[2, 0, 1, 1, 1, 1, 1, 1, 1], [0, 2, 1, 1, 1, 1, 1, 1, 1]])
    assert [b["hand"] for b in t.score_breakdown()] == [8, 9]
    # Seat 0 swaps its 8 for seat 1's 0: 28 -> 7, 44 -> 11 (not 28 and 44 in full).
    u = edit(s, hands=[[2, 1, 1, 1, 1, 1, 1, 1, 0], [0, 1, 1, 1, 1, 1, 1, 1, 2]])
    assert [b["hand"] for b in u.score_breakdown()] == [7, 11]


def test_R7_3_face_up_movement_cards_count_as_hand():
    s = new_game(2, seed=0, start_player=0)
    s.apply(move_action(8, 0))
    assert s.hands[0][8] == 0
    assert s.score_breakdown()[0]["hand"] == 9  # the 8 is face up, back in hand at the end


def test_R7_3_final_hand_score_uses_the_nine_cards_held_at_the_end():
    rng = random.Random(9)
    s = new_game(3, seed=9)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    for p, row in enumerate(s.score_breakdown()):
        assert sum(s.hands[p]) == 9
        assert row["hand"] == sum(v * k for v, k in enumerate(s.hands[p])) // 4


# -- R7.4 ------------------------------------------------------------------------------
def test_R7_4_start_card_holder_scores_3():
    for holder in range(3):
        rows = new_game(3, seed=1, start_player=holder).score_breakdown()
        assert [r["start_card"] for r in rows] == [3 if p == holder else 0 for p in range(3)]
        assert [r["total"] for r in rows] == [12 if p == holder else 9 for p in range(3)]


def test_R7_4_total_is_rows_souvenirs_hand_and_start_card():
    rng = random.Random(4)
    s = new_game(4, seed=4)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    for row in s.score_breakdown():
        assert row["total"] == row["row_total"] + row["souvenirs"] + row["hand"] + row["start_card"]
    assert sum(r["start_card"] for r in s.score_breakdown()) == 3


# -- R7.5 ------------------------------------------------------------------------------
def _ranked(s: GameState) -> list[tuple[int, int, int]]:
    return [(b["total"], b["tiles"], b["rank"]) for b in s.score_breakdown()]


def test_R7_5_highest_total_wins(edit):
    s = new_game(3, seed=0, start_player=2)
    assert winners(s.score_breakdown()) == [2]  # 9 + 3 against 9 and 9
    assert [b["rank"] for b in s.score_breakdown()] == [2, 2, 1]


def test_R7_5_tie_broken_by_tiles_then_shared(edit):
    # Seat 0: hand 9 + start card 3 = 12, no tile. Seat 1: hand 9 + three odd tiles = 12.
    s = edit(new_game(2, seed=0, start_player=0), tiles_held={1: [1, 2, 3]})
    assert _ranked(s) == [(12, 0, 2), (12, 3, 1)]
    assert winners(s.score_breakdown()) == [1]
    # Seat 0: hand 30/4 = 7 + start 3 + one tile = 11; seat 1: 42/4 = 10 + one tile = 11.
    t = edit(
        new_game(3, seed=0, start_player=0),
        hands=[[1, 1, 2, 1, 1, 1, 1, 1, 0], [1, 1, 0, 1, 1, 1, 1, 1, 2], [1] * 9],
        tiles_held={0: [1], 1: [2]},
    )
    assert _ranked(t) == [(11, 1, 1), (11, 1, 1), (9, 0, 3)]
    assert winners(t.score_breakdown()) == [0, 1]
