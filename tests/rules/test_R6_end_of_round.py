"""R6 End of round: cards back to hand, pieces stay, the end of the game and the refill."""

from __future__ import annotations

import pytest

from art_gallery_env.games.art_gallery.rules.actions import (
    bid_action,
    move_action,
    pick_action,
    shop_action,
)
from art_gallery_env.games.art_gallery.rules.game import IllegalActionError
from art_gallery_env.games.art_gallery.rules.phases import GAME_OVER, MOVE
from art_gallery_env.games.art_gallery.rules.serialize import StateFormatError
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game


def _game_over(s: GameState) -> dict | None:
    return next((d for k, d in s.events if k == "game_over"), None)


# -- R6.1 ------------------------------------------------------------------------------
def test_R6_1_face_up_cards_return_and_every_hand_holds_nine_cards(last_turn, finish_round):
    # Gallery 2: I seat 1 (5), II seat 0 (2), III seat 1 (7, pending): seat 1 takes
    # seat 0's 2, seat 0 takes seat 1's 7.
    bids = {1: [(0, 0), (1, 0)], 2: [(1, 5), (0, 2)], 3: [(0, 1), (0, 3)], 4: [(1, 1)]}
    s = last_turn(2, bids, player=1, at=2, hand=[7, 8])
    assert [sum(m) for m in s.moved] == [4, 4]
    s.apply(bid_action(7))
    s.apply(pick_action(2))
    s.apply(pick_action(7))
    finish_round(s)
    assert s.round == 2 and s.phase == MOVE
    assert s.moved == [[0] * 9, [0] * 9]
    assert [sum(h) for h in s.hands] == [9, 9]
    assert s.hands[0] == [1, 1, 0, 1, 1, 1, 1, 2, 1]  # two 7s, no 2
    assert s.hands[1] == [1, 1, 2, 1, 1, 1, 1, 0, 1]  # two 2s, no 7
    # The next round is played with those cards (all bars are empty again).
    mover, legal = s.current_player, s.legal_actions()
    assert [move_action(v, 0) in legal for v in range(9)] == [k > 0 for k in s.hands[mover]]


def test_R6_1_game_over_state_with_a_card_missing_from_hand_is_rejected():
    d = new_game(2, seed=1).to_dict()
    d["phase"] = "game_over"
    d["hands"][0][8] -= 1
    d["moved"][0][8] += 1  # conserved, but face up after the game ended
    with pytest.raises(StateFormatError, match="hands"):
        GameState.from_dict(d)


# -- R6.2 ------------------------------------------------------------------------------
def test_R6_2_pieces_stay_and_start_card_holder_starts_next_round(load_state, finish_round):
    s = load_state("R4_7_start_card_tie_4p")  # seat 1 started; seat 3 will win the card
    assert s.round_starter == 1
    positions = s.position[:]
    s.apply(bid_action(3))
    finish_round(s)
    assert s.round == 2 and s.turn == 0 and s.phase == MOVE
    assert s.position == positions
    assert s.start_player == 3 and s.current_player == 3
    order = []
    for _ in range(4):
        order.append(s.current_player)
        s.apply(s.legal_actions()[0])
        s.apply(s.legal_actions()[0])
    assert order == [3, 0, 1, 2]


# -- R6.3 ------------------------------------------------------------------------------
def test_R6_3_game_ends_when_pile_cannot_refill(load_state, finish_round):
    s = load_state("R6_3_pile_cannot_refill_2p")  # 4 galleries will empty, 3 cards left
    pile = s.painting_pile[:]
    assert len(pile) == 3
    s.apply(bid_action(3))
    finish_round(s)
    assert s.phase == GAME_OVER and s.is_over
    assert "painting pile" in _game_over(s)["reason"]
    assert s.gallery_painting == [0, 0, 0, 0, 0]  # no partial refill
    assert s.painting_pile == pile
    assert [sum(h) for h in s.hands] == [9, 9]  # R6.1 happens before the end
    assert s.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        s.apply(0)


def test_R6_3_exact_refill_continues(load_state, finish_round):
    s = load_state("R6_3_exact_refill_2p")
    pile = s.painting_pile[:]
    assert len(pile) == 4
    s.apply(bid_action(3))
    finish_round(s)
    assert s.phase == MOVE and s.round == 2 and _game_over(s) is None
    # Gallery by gallery clockwise, each taking the top (last) card of the pile.
    assert s.gallery_painting == [0, pile[3], pile[2], pile[1], pile[0]]
    assert s.painting_pile == []


def test_R6_3_game_ends_next_round_when_the_emptied_pile_cannot_refill(load_state, finish_round):
    s = load_state("R6_3_exact_refill_2p")
    s.apply(bid_action(3))
    finish_round(s)  # refilled exactly, pile now empty
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    assert s.round == 2 and "painting pile" in _game_over(s)["reason"]


@pytest.mark.parametrize(
    "n,empty,ends",
    [
        (2, (3,), False),
        (2, (2, 3), True),
        (3, (0, 3), True),
        (4, (2, 3), False),
        (4, (1, 2, 3), True),
        (5, (0, 1), False),
        (5, (0, 1, 2), True),
        (6, (0, 1, 2, 3), True),
    ],
)
def test_R6_3_two_empty_piles_end_2p_three_for_4p(n, empty, ends, last_turn, finish_round):
    s = last_turn(n, empty_piles=empty)  # no Shop bids: piles do not change this round
    assert sum(1 for p in s.tile_piles if not p) == len(empty)
    s.apply(bid_action(3))
    finish_round(s)
    assert s.is_over is ends
    if ends:
        assert _game_over(s)["reason"] == f"{len(empty)} tile piles are empty"
    else:
        assert s.round == 2 and s.current_player == s.start_player


@pytest.mark.parametrize("take,ends", [((7,), True), ((), False)])
def test_R6_3_pile_emptied_in_this_rounds_shop_counts(take, ends, last_turn, edit, finish_round):
    # Pile 5 is empty and pile 7 holds one tile; seat 1's Shop 7 may take it.
    bids = {1: [(0, 0), (1, 0)], 2: [(0, 1), (1, 1)], 3: [(0, 2), (1, 2)], 4: [(0, 3)]}
    s = last_turn(2, bids, player=1, at=0, hand=[7, 8])
    s = edit(s, tiles_held={0: s.tile_piles[2] + s.tile_piles[3][:-1]})
    assert [len(p) for p in s.tile_piles] == [18, 14, 0, 1]
    s.apply(bid_action(7))
    s.apply(shop_action(take))
    finish_round(s)
    assert s.is_over is ends
    assert s.round == 1 if ends else s.round == 2
    assert len(_events_of(s, "painting")) == 4  # the galleries were still distributed


def _events_of(s: GameState, kind: str) -> list[dict]:
    return [d for k, d in s.events if k == kind]
