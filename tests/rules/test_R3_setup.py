"""R3 Setup: paintings, tile piles, pieces, hands, the start player and seat order."""

from __future__ import annotations

from collections import Counter

import pytest

from art_gallery_env.games.art_gallery.rules.phases import MOVE
from art_gallery_env.games.art_gallery.rules.state import new_game


@pytest.mark.parametrize("n", [2, 4, 5])
def test_R3_1_one_painting_face_up_per_gallery_rest_in_the_pile(n):
    s = new_game(n, seed=3)
    shown = s.gallery_painting[1:]
    assert len(shown) == s.num_galleries and 0 not in shown
    assert len(s.painting_pile) == 48 - s.num_galleries
    assert sorted(shown + s.painting_pile) == list(range(1, 49))
    assert all(c == [] for c in s.collections)


def test_R3_1_paintings_are_shuffled_by_the_seed():
    a, b, again = new_game(2, seed=1), new_game(2, seed=2), new_game(2, seed=1)
    assert a.painting_pile != b.painting_pile
    assert a.painting_pile == again.painting_pile
    assert a.gallery_painting == again.gallery_painting
    assert a.painting_pile != sorted(a.painting_pile)


def test_R3_2_tiles_shuffled_into_piles_of_18_14_10_6():
    a, b, again = new_game(3, seed=1), new_game(3, seed=2), new_game(3, seed=1)
    assert [len(p) for p in a.tile_piles] == [18, 14, 10, 6]
    assert sorted(t for p in a.tile_piles for t in p) == list(range(1, 49))
    assert a.tile_piles != b.tile_piles and a.tile_piles == again.tile_piles
    assert [t for p in a.tile_piles for t in p] != list(range(1, 49))
    assert all(held == [] for held in a.tiles_held)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_R3_3_pieces_on_shop_four_markers_and_cards_0_to_8_each(n):
    s = new_game(n, seed=n)
    assert s.position == [0] * n
    assert all(bids == [] for bids in s.bids)  # all markers still with their owners
    assert s.hands == [[1] * 9 for _ in range(n)]
    assert s.moved == [[0] * 9 for _ in range(n)]
    # Four markers each: every player bids exactly four times in round 1.
    while s.round == 1:
        s.apply(s.legal_actions()[-1])
    bidders = Counter(d["player"] for k, d in s.events if k == "bid")
    assert bidders == {p: 4 for p in range(n)}


@pytest.mark.parametrize("n", [2, 4, 6])
def test_R3_4_named_start_player_gets_start_card_and_first_turn(n):
    for seat in range(n):
        s = new_game(n, seed=5, start_player=seat)
        assert s.start_player == seat and s.current_player == seat and s.phase == MOVE
        assert [r["start_card"] for r in s.score_breakdown()].index(3) == seat


def test_R3_4_start_player_drawn_from_the_seed_uniformly():
    seen = Counter(new_game(4, seed=seed).start_player for seed in range(800))
    assert set(seen) == {0, 1, 2, 3}
    assert all(150 <= k <= 250 for k in seen.values()), seen  # 200 expected each
    assert all(new_game(4, seed=s).start_player == new_game(4, seed=s).start_player for s in (7, 8))


@pytest.mark.parametrize("bad", [-1, 4, 1.0, "0"])
def test_R3_4_start_player_must_be_a_seat(bad):
    with pytest.raises(ValueError, match="start_player"):
        new_game(4, seed=0, start_player=bad)


@pytest.mark.parametrize("n,start", [(5, 3), (3, 2), (6, 0)])
def test_R3_5_seats_numbered_clockwise_next_is_seat_plus_one_mod_n(n, start):
    s = new_game(n, seed=0, start_player=start)
    order = []
    for _ in range(2 * n):
        order.append(s.current_player)
        s.apply(s.legal_actions()[0])  # some move
        s.apply(s.legal_actions()[-1])  # some bid
    assert order == [(start + k) % n for k in range(2 * n)]
