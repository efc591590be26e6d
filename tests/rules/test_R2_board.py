"""R2 Board: the loop of areas, marker bars, painting spaces and the Shop's tile piles."""

from __future__ import annotations

import random

import pytest

from art_gallery_env.games.art_gallery.env.observation import ObservationEncoder, decode_observation
from art_gallery_env.games.art_gallery.rules.actions import bid_action, move_action
from art_gallery_env.games.art_gallery.rules.serialize import StateFormatError
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game

GALLERIES = {2: 4, 3: 4, 4: 6, 5: 8, 6: 8}


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_R2_1_gallery_count_is_4_for_2_3_players_6_for_4_and_8_for_5_6(n):
    s = new_game(n, seed=n)
    assert s.num_galleries == GALLERIES[n]
    assert s.num_areas == GALLERIES[n] + 1  # the Shop is area 0
    assert len(s.gallery_painting) == GALLERIES[n] + 1
    assert len(s.bids) == GALLERIES[n] + 1


@pytest.mark.parametrize("n", [2, 4, 6])
def test_R2_1_clockwise_is_increasing_index_modulo_the_loop(n):
    g = GALLERIES[n]
    for value in range(1, 9):
        cw = new_game(n, seed=0, start_player=0)
        cw.apply(move_action(value, 0))
        assert cw.position[0] == value % (g + 1)
        acw = new_game(n, seed=0, start_player=0)
        acw.apply(move_action(value, 1))
        assert acw.position[0] == -value % (g + 1)


@pytest.mark.parametrize("n", [2, 4, 6])
def test_R2_1_loop_closes_between_last_gallery_and_shop(n, edit):
    g = GALLERIES[n]
    s = new_game(n, seed=0, start_player=0)
    s.apply(move_action(1, 1))  # one step anticlockwise from the Shop
    assert s.position[0] == g
    at_last = edit(new_game(n, seed=0, start_player=0), position=[g] * n)
    landed = []
    for value in range(1, 9):
        t = at_last.clone()
        t.apply(move_action(value, 0))  # clockwise from the last gallery
        landed.append(t.position[0])
    assert landed[:2] == [0, 1]  # the Shop, then gallery 1
    assert landed == [(g + v) % (g + 1) for v in range(1, 9)]


def test_R2_2_every_gallery_has_a_painting_space_and_the_shop_none():
    s = new_game(5, seed=11)
    assert s.gallery_painting[0] == 0
    assert all(p != 0 for p in s.gallery_painting[1:])
    d = s.to_dict()
    d["gallery_painting"][0] = d["painting_pile"].pop()  # a painting on the Shop
    with pytest.raises(StateFormatError, match=r"gallery_painting\[0\]"):
        GameState.from_dict(d)


def test_R2_2_a_marker_bar_has_six_spaces(last_turn):
    d = last_turn(4).to_dict()  # standard bids: four markers on gallery bars at most
    # Move all of player 0's and player 1's markers to gallery 1: 8 on one bar.
    moved = [b for area in d["bids"] for b in area if b[0] in (0, 1)]
    for area in d["bids"]:
        area[:] = [b for b in area if b[0] not in (0, 1)]
    d["bids"][1].extend(moved)
    with pytest.raises(StateFormatError, match=r"bids\[1\].*at most 6"):
        GameState.from_dict(d)
    overflow = d["bids"][1][6:]
    del d["bids"][1][6:]
    d["bids"][2].extend(overflow)
    assert len(GameState.from_dict(d).bids[1]) == 6  # six is fine


def test_R2_2_every_area_has_a_bench_action_space_and_marker_bar():
    s = new_game(2, seed=0, start_player=0)
    for area_move, bid in ((move_action(2, 0), 4), (move_action(2, 0), 5)):
        s.apply(area_move)  # both pieces on the bench of gallery 2
        s.apply(bid_action(bid))
    assert s.position == [2, 2]
    assert s.bids[2] == [(0, 4), (1, 5)]  # one action space and one bar per area
    assert all(bids == [] for a, bids in enumerate(s.bids) if a != 2)


def test_R2_3_shop_piles_marked_1_3_5_7_hold_18_14_10_6_tiles():
    for n in (2, 6):
        s = new_game(n, seed=n)
        assert [len(p) for p in s.tile_piles] == [18, 14, 10, 6]
    d = new_game(2, seed=1).to_dict()
    d["tile_piles"][3].append(d["tile_piles"][0].pop())  # 7 tiles on the 7-pile
    with pytest.raises(StateFormatError, match=r"tile_piles\[3\]"):
        GameState.from_dict(d)


def _observations(state: GameState) -> list:
    encoder = ObservationEncoder(state.cards)
    return [encoder.encode(state, p) for p in range(state.num_players)]


def test_R2_3_top_tile_of_each_pile_is_public_the_rest_hidden():
    s = new_game(3, seed=21)
    for p in range(3):
        tops = decode_observation(ObservationEncoder(s.cards).encode(s, p))["summary"]["pile_tops"]
        assert tops == {mark: s.tile_piles[i][-1] for i, mark in enumerate((1, 3, 5, 7))}
    # Reordering the tiles below each top (even across piles) changes no observation...
    d = s.to_dict()
    below = [t for pile in d["tile_piles"] for t in pile[:-1]]
    random.Random(0).shuffle(below)
    for pile in d["tile_piles"]:
        k = len(pile) - 1
        pile[:k], below = below[:k], below[k:]
    reordered = GameState.from_dict(d)
    assert reordered.tile_piles != s.tile_piles
    for a, b in zip(_observations(s), _observations(reordered)):
        assert (a == b).all()
    # ...but another tile on top is seen by everybody.
    d = s.to_dict()
    d["tile_piles"][0][-1], d["tile_piles"][0][0] = d["tile_piles"][0][0], d["tile_piles"][0][-1]
    swapped = GameState.from_dict(d)
    for a, b in zip(_observations(s), _observations(swapped)):
        assert not (a == b).all()
