"""R8 What is public and what is hidden: observations, the event log and determinization."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np

from art_gallery_env import raw_env
from art_gallery_env.games.art_gallery.env.observation import ObservationEncoder, decode_observation
from art_gallery_env.games.art_gallery.rules.actions import bid_action, move_action
from art_gallery_env.games.art_gallery.rules.hidden import visible_events
from art_gallery_env.games.art_gallery.rules.phases import PICK
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game


def _observe(state: GameState, player: int) -> np.ndarray:
    return ObservationEncoder(state.cards).encode(state, player)


def _summary(state: GameState, player: int) -> dict:
    return decode_observation(_observe(state, player))["summary"]


def _started_2p() -> GameState:
    """Seat 0 moved 2 clockwise and bid a 5 face down on gallery 2."""
    s = new_game(2, seed=3, start_player=0)
    s.apply(move_action(2, 0))
    s.apply(bid_action(5))
    return s


def test_R8_opponent_bid_values_are_not_in_others_observation():
    env = raw_env(num_players=2)
    env.reset(seed=3, options={"start_player": 0})
    env.step(move_action(2, 0))
    env.step(bid_action(5))
    mine = decode_observation(env.observe("player_0")["observation"])["summary"]
    theirs = decode_observation(env.observe("player_1")["observation"])["summary"]
    assert mine["marker_bars"][2] == [(0, 5)]  # own bid: seat 0 (self), value 5
    assert theirs["marker_bars"][2] == [(1, None)]  # seat 1 from player 1's view, no value
    # The multiset of the bidder's hand and face-down bids is public, not the split.
    assert theirs["others_hidden_cards"][1] == {v: 1 for v in range(9) if v != 2}
    assert theirs["others_hands"][1] == {}
    env.close()


def test_R8_swapping_a_hidden_bid_with_a_hand_card_is_invisible_to_others():
    s = _started_2p()
    d = s.to_dict()
    d["bids"][2] = [[0, 7]]  # seat 0 bid its 7 and kept the 5 instead
    d["hands"][0][7], d["hands"][0][5] = 0, 1
    other = GameState.from_dict(d)
    assert np.array_equal(_observe(s, 1), _observe(other, 1))
    assert not np.array_equal(_observe(s, 0), _observe(other, 0))


def test_R8_bids_become_public_when_their_area_is_distributed(last_turn):
    # Gallery 2: seat 1 (5), seat 0 (2), seat 1 (7, pending); gallery 4: seat 1's 1.
    bids = {1: [(0, 0), (1, 0)], 2: [(1, 5), (0, 2)], 3: [(0, 1), (0, 3)], 4: [(1, 1)]}
    s = last_turn(2, bids, player=1, at=2, hand=[7, 8])
    assert _summary(s, 0)["marker_bars"][2] == [(1, None), (0, 2)]
    s.apply(bid_action(7))
    assert s.phase == PICK and s.dist_area == 2
    bars = _summary(s, 0)["marker_bars"]
    assert bars[2] == [(1, 5), (0, 2), (1, 7)]  # revealed
    assert bars[4] == [(1, None)]  # not yet distributed: still face down
    # From the start card comparison on, hands are public too (R4.7): seat 1 kept its 8
    # and took a 0 back at gallery 1.
    assert _summary(s, 0)["others_hands"][1] == {0: 1, 8: 1}
    assert s.hands[1] == [1, 0, 0, 0, 0, 0, 0, 0, 1]


def test_R8_event_log_hides_others_face_down_bids_and_the_seed():
    s = _started_2p()
    for_1 = visible_events(s, 1)
    assert [d["value"] for k, d in for_1 if k == "bid"] == [None]
    assert for_1[0][1]["seed"] is None
    for_0 = visible_events(s, 0)
    assert [d["value"] for k, d in for_0 if k == "bid"] == [5]


def test_R8_painting_pile_order_is_hidden_its_size_public():
    s = new_game(4, seed=8)
    d = s.to_dict()
    d["painting_pile"].reverse()
    reordered = GameState.from_dict(d)
    for p in range(4):
        assert np.array_equal(_observe(s, p), _observe(reordered, p))
    d["painting_pile"].pop(0)
    d["collections"][0].append(s.painting_pile[-1])  # one card fewer in the pile
    smaller = GameState.from_dict(d)
    assert not np.array_equal(_observe(s, 1), _observe(smaller, 1))


def test_R8_every_hand_is_public_at_the_start_of_a_round(last_turn, finish_round):
    s = last_turn(2, hand=[3, 8], keep={0: 7})
    s.apply(bid_action(3))
    finish_round(s)
    assert s.round == 2
    for observer in (0, 1):
        seen = _summary(s, observer)["others_hidden_cards"][1]  # the other seat, all hand
        hand = s.hands[1 - observer]
        assert seen == {v: k for v, k in enumerate(hand) if k}


def test_R8_determinize_keeps_public_and_own_information_and_resamples_hidden(last_turn):
    bids = {1: [(0, 0), (1, 0)], 2: [(1, 5), (0, 2)], 3: [(0, 1), (0, 3)], 4: [(1, 1)]}
    s = last_turn(2, bids, player=1, at=2, hand=[7, 8])
    observer = 0
    piles, opponent_bids = set(), set()
    for seed in range(12):
        w = s.determinize(observer, random.Random(seed))
        assert w.hands[observer] == s.hands[observer]
        assert [[p for p, _ in b] for b in w.bids] == [[p for p, _ in b] for b in s.bids]
        own = [[v for p, v in b if p == observer] for b in w.bids]
        assert own == [[v for p, v in b if p == observer] for b in s.bids]
        assert [p[-1] for p in w.tile_piles] == [p[-1] for p in s.tile_piles]
        assert sorted(w.painting_pile) == sorted(s.painting_pile)
        assert w.gallery_painting == s.gallery_painting and w.moved == s.moved
        held = Counter(v for b in w.bids for p, v in b if p == 1)
        held.update({v: k for v, k in enumerate(w.hands[1])})
        assert held == Counter([5, 0, 1, 7, 8])  # seat 1's unseen cards, redistributed
        assert np.array_equal(_observe(w, observer), _observe(s, observer))
        piles.add(tuple(w.painting_pile))
        opponent_bids.add(tuple(v for b in w.bids for p, v in b if p == 1))
    assert len(piles) > 1 and len(opponent_bids) > 1  # hidden things really vary
