"""R1 Components: paintings, tiles, action cards, markers and the start card."""

from __future__ import annotations

import random

import pytest

from art_gallery_env.games.art_gallery.rules.actions import bid_action, move_action
from art_gallery_env.games.art_gallery.rules.cards import (
    CardDataError,
    card_set_from_dict,
    default_card_set,
)
from art_gallery_env.games.art_gallery.rules.phases import BID, MOVE
from art_gallery_env.games.art_gallery.rules.serialize import StateFormatError
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game


def _all_paintings(s: GameState) -> list[int]:
    return sorted(
        [p for p in s.gallery_painting if p]
        + s.painting_pile
        + [c for col in s.collections for c in col]
    )


def _card_counts_at_turn(s: GameState) -> list[int]:
    """Per value: cards in hands, face up and face down (no distribution in progress)."""
    out = [0] * 9
    for p in range(s.num_players):
        for v in range(9):
            out[v] += s.hands[p][v] + s.moved[p][v]
    for bids in s.bids:
        for _, v in bids:
            out[v] += 1
    return out


def test_R1_1_48_paintings_numbered_1_to_48_each_in_play_once():
    for n in (2, 4, 6):
        s = new_game(n, seed=n)
        assert _all_paintings(s) == list(range(1, 49))
    cards = default_card_set()
    assert all(len(cards.painting(k).rows) == 4 for k in range(1, 49))


def test_R1_1_state_with_a_painting_twice_is_rejected():
    d = new_game(2, seed=1).to_dict()
    d["painting_pile"][0] = d["gallery_painting"][1]  # one painting twice, one missing
    with pytest.raises(StateFormatError, match="paintings"):
        GameState.from_dict(d)


def test_R1_1_each_painting_row_is_empty_or_one_symbol_with_a_value():
    cards = default_card_set()
    entries = [e for p in cards.paintings for e in p.rows]
    assert None in entries and any(e is not None for e in entries)
    data = default_card_set().to_dict()
    data["paintings"][0]["rows"][0] = [
        {"symbol": "woman", "value": 1},
        {"symbol": "man", "value": 1},
    ]  # two symbols in one row
    with pytest.raises(CardDataError, match=r"paintings\[0\]\.rows\[0\]"):
        card_set_from_dict(data)
    data = default_card_set().to_dict()
    data["paintings"][0]["rows"][0] = {"symbol": "woman"}  # a symbol without a value
    with pytest.raises(CardDataError, match=r"paintings\[0\]\.rows\[0\]"):
        card_set_from_dict(data)


def test_R1_2_48_tiles_numbered_1_to_48_each_once():
    s = new_game(3, seed=7)
    assert sorted(t for pile in s.tile_piles for t in pile) == list(range(1, 49))
    d = s.to_dict()
    d["tiles_held"][0].append(d["tile_piles"][0][0])  # a tile both held and in a pile
    with pytest.raises(StateFormatError, match="tiles"):
        GameState.from_dict(d)


def test_R1_2_tile_n_matches_painting_n(edit):
    s = edit(new_game(2, seed=3), collections={0: [17]}, tiles_held={0: [17], 1: [18]})
    breakdown = s.score_breakdown()
    assert breakdown[0]["souvenirs"] == 3  # tile 17 matches painting 17
    assert breakdown[1]["souvenirs"] == 1  # tile 18: painting 18 is not in player 1's


def test_R1_3_every_player_starts_with_one_card_of_each_value_0_to_8():
    for n in range(2, 7):
        s = new_game(n, seed=n)
        assert s.hands == [[1] * 9 for _ in range(n)]


@pytest.mark.parametrize("n", [2, 4, 6])
def test_R1_3_card_multiset_is_constant_through_a_game(n):
    rng = random.Random(n)
    s = new_game(n, seed=100 + n)
    steps = 0
    while not s.is_over:
        if s.phase in (MOVE, BID):
            assert _card_counts_at_turn(s) == [n] * 9
        s.apply(rng.choice(s.legal_actions()))
        steps += 1
    assert _card_counts_at_turn(s) == [n] * 9
    assert all(sum(h) == 9 for h in s.hands)
    assert steps > 8 * n  # at least two rounds were played


def test_R1_3_state_with_an_extra_card_is_rejected():
    d = new_game(2, seed=1).to_dict()
    d["hands"][0][8] = 2  # a third 8 with two players
    with pytest.raises(StateFormatError, match="R1.3"):
        GameState.from_dict(d)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_R1_4_two_to_six_players_are_allowed(n):
    s = new_game(n, seed=0)
    assert s.num_players == n and len(s.hands) == n and len(s.position) == n


@pytest.mark.parametrize("n", [0, 1, 7, True, "2"])
def test_R1_4_other_player_counts_are_rejected(n):
    with pytest.raises(ValueError, match="num_players"):
        new_game(n, seed=0)


def test_R1_4_each_player_places_exactly_four_markers_per_round():
    rng = random.Random(5)
    s = new_game(3, seed=5)
    while s.round == 1:
        out = [sum(1 for bids in s.bids for p, _ in bids if p == q) for q in range(3)]
        assert max(out) <= 4
        s.apply(rng.choice(s.legal_actions()))
    bids = [data["player"] for kind, data in s.events if kind == "bid"]
    assert sorted(bids) == [0] * 4 + [1] * 4 + [2] * 4


def test_R1_4_a_player_with_five_markers_out_is_rejected(last_turn):
    d = last_turn(2).to_dict()
    assert sum(1 for bids in d["bids"] for p, _ in bids if p == 0) == 4
    # A fifth marker of player 0, on one of its face-up cards (cards stay conserved).
    value = d["moved"][0].index(1)
    d["moved"][0][value] -= 1
    d["bids"][2].append([0, value])
    with pytest.raises(StateFormatError, match=r"player 0 has 5 markers"):
        GameState.from_dict(d)


def test_R1_4_one_start_card_scores_for_exactly_one_player():
    s = new_game(4, seed=2, start_player=2)
    points = [row["start_card"] for row in s.score_breakdown()]
    assert points == [0, 0, 3, 0]


def test_R1_5_engine_accepts_another_card_set_in_the_same_schema():
    data = default_card_set().to_dict()
    data["name"] = "dropped-in set"
    for painting in data["paintings"]:  # every card: one woman worth 3 in row 0, rest empty
        painting["rows"] = [{"symbol": "woman", "value": 3}, None, None, None]
    cards = card_set_from_dict(data)
    assert cards.fingerprint != default_card_set().fingerprint
    s = new_game(2, seed=4, card_set=cards)
    s.apply(move_action(1, 0))
    s.apply(bid_action(2))
    d = s.to_dict()
    d["collections"][0] = [d["painting_pile"].pop(), d["painting_pile"].pop()]
    loaded = GameState.from_dict(d, cards)
    assert loaded.score_breakdown()[0]["rows"] == [6, 0, 0, 0]  # a chain of two 3s
    with pytest.raises(StateFormatError, match="card_set"):
        GameState.from_dict(d)  # saved with another set: the default set must not load it


def test_R1_5_card_data_is_validated_on_load():
    data = default_card_set().to_dict()
    data["paintings"][4]["rows"][0] = {"symbol": "woman", "value": 9}
    with pytest.raises(CardDataError, match=r"paintings\[4\]\.rows\[0\]\.value"):
        card_set_from_dict(data)
    data = default_card_set().to_dict()
    data["paintings"][0]["rows"][1] = {"symbol": "dragon", "value": 1}
    with pytest.raises(CardDataError, match="dragon"):
        card_set_from_dict(data)
