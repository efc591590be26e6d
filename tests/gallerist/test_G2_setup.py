"""G2 setup."""

from __future__ import annotations

import pytest
from gallerist_helpers import do, names

from art_gallery_env.games.gallerist.rules.data import default_game_data
from art_gallery_env.games.gallerist.rules.effects import assistants_available
from art_gallery_env.games.gallerist.rules.state import EMPTY, HOME, new_game

D = default_game_data()


@pytest.mark.parametrize("n, removed", [(1, 4), (2, 4), (3, 2), (4, 0)])
def test_G2_1_visitors_by_player_count(n, removed):
    s = new_game(n, 7)
    assert s.box_visitors == [removed] * 3
    in_bag_or_placed = [D.visitors[c] - removed for c in range(3)]
    on_board = [
        s.bag.count(c)
        + s.plaza[c]
        + sum(v[c] for v in s.work_visitors)
        + sum(lob[c] for lob in s.lobby)
        + (sum(s.artist_collector) if c == 2 else 0)
        for c in range(3)
    ]
    assert on_board == in_bag_or_placed


@pytest.mark.parametrize("n, per_colour", [(1, 10), (2, 10), (3, 15), (4, 20)])
def test_G2_2_box_office_tickets(n, per_colour):
    s = new_game(n, 1)
    assert s.box_office == [per_colour] * 3
    assert s.box_tickets == [20 - per_colour] * 3
    assert s.tickets == [[0, 0, 0]] * n


def test_G2_3_contract_deck_and_four_face_up():
    s = new_game(2, 3)
    assert [len(st) for st in s.display] == [1, 1, 1, 1]
    assert len(s.deck) == 16
    assert sorted(s.deck + [st[0] for st in s.display]) == list(range(20))
    assert new_game(2, 4).deck != s.deck  # shuffled by the seed


def test_G2_4_one_artist_tile_per_form_and_colour():
    s = new_game(2, 5)
    for slot, tile in enumerate(s.artist_tile):
        artist = D.artists[tile]
        assert (artist.form, artist.colour) == (slot // 2, slot % 2)
    assert sorted(s.artist_tile + s.box_artists) == list(range(16))
    assert len({tuple(new_game(2, seed).artist_tile) for seed in range(20)}) > 1


def test_G2_5_first_blue_discovered_bonus_tiles_and_collectors_on_red():
    for seed in range(10):
        s = new_game(2, seed)
        assert sum(s.discovered) == 1
        first = s.discovered.index(True)
        assert first % 2 == 0  # blue
        assert s.fame[first] == D.artists[s.artist_tile[first]].initial_fame
        assert s.artist_bonus[first] == EMPTY
        assert all(s.artist_bonus[a] != EMPTY for a in range(8) if a != first)
        assert s.artist_collector == [a % 2 == 1 for a in range(8)]


def test_G2_6_two_signature_tokens_per_artist():
    assert new_game(4, 1).tokens == [2] * 8


def test_G2_7_stacks_per_form_top_work_set_aside():
    s = new_game(2, 8)
    for form, stack in enumerate(s.stacks):
        assert len(stack) == 7
        assert all(D.works[w].form == form for w in stack)
    aside = s.easels + s.box_works
    assert sorted(D.works[w].form for w in aside) == [0, 1, 2, 3]


def test_G2_8_visitors_on_top_works_one_per_ticket_icon():
    for seed in range(5):
        s = new_game(3, seed)
        for form in range(4):
            assert sum(s.work_visitors[form]) == len(D.works[s.stacks[form][-1]].tickets)


def test_G2_9_promotion_tokens_on_their_levels():
    assert new_game(2, 9).promo_tokens == [4, 4, 4, 4, 4]


@pytest.mark.parametrize(
    "n, columns, count", [(1, {0, 2}, 8), (2, {0, 2}, 8), (3, {0, 1, 2}, 12), (4, {0, 1, 2}, 12)]
)
def test_G2_10_market_tiles_by_player_count(n, columns, count):
    s = new_game(n, 10)
    used = [i for i, t in enumerate(s.market_tiles) if t != EMPTY]
    assert len(used) == count
    assert {i // 4 for i in used} == columns
    assert s.market_upper == [EMPTY] * 12 and s.market_lower == [EMPTY] * 9


@pytest.mark.parametrize("n, easels", [(1, 1), (2, 1), (3, 2), (4, 3)])
def test_G2_11_easels_by_player_count(n, easels):
    s = new_game(n, 11)
    assert len(s.easels) == easels and len(s.box_works) == 4 - easels


def test_G2_12_four_visitors_in_the_plaza_one_per_lobby():
    s = new_game(4, 12)
    assert sum(s.plaza) == 4
    assert [sum(lob) for lob in s.lobby] == [1, 1, 1, 1]


def test_G2_13_one_tile_beside_each_location():
    s = new_game(3, 13)
    assert all(t != EMPTY for t in s.location_tiles)
    tiles = [t for t in s.market_tiles if t != EMPTY] + s.location_tiles + s.box_tiles
    assert sorted(tiles) == list(range(20))


def test_G2_14_start_locations_chosen_in_reverse_order():
    s = new_game(3, 14, start_player=1)
    assert s.phase_name == "start" and s.current_player == 0  # the seat before the start player
    assert names(s) == ["start colony", "start sales", "start media", "start market"]
    tile = s.location_tiles[2]
    do(s, "start media")
    assert s.gpos[0] == 2 and s.start_tile[0] == tile and s.location_tiles[2] == EMPTY
    assert s.current_player == 2 and "start media" not in names(s)
    do(s, "start colony")
    assert s.current_player == 1
    do(s, "start market")
    assert s.phase_name == "turn" and s.current_player == 1
    assert {new_game(4, seed).start_player for seed in range(30)} == {0, 1, 2, 3}


def test_G2_15_player_boards():
    s = new_game(4, 15)
    assert s.money == [10] * 4 and s.influence == [10] * 4
    assert s.desks == [2] * 4 and s.queue == [8] * 4
    assert s.gpos == [HOME] * 4
    assert all(assistants_available(s, p) == 2 for p in range(4))
    assert len(set(s.curator)) == 4 and len(set(s.dealer)) == 4
