"""R5 Distribution: Shop tiles, card picks, gallery totals, ties and the zero_is_ten variant.

Most scenarios are two-player positions on the round's last turn (seat 1 about to place
its fourth bid); placing it starts the distribution.
"""

from __future__ import annotations

import pytest

from art_gallery_env.games.art_gallery.rules.actions import (
    SHOP_BASE,
    SHOP_CHOICES,
    bid_action,
    pick_action,
    shop_action,
)
from art_gallery_env.games.art_gallery.rules.phases import MOVE, PICK, SHOP
from art_gallery_env.games.art_gallery.rules.state import GameState

NOTHING: tuple[int, ...] = ()


def _shop_choices(s: GameState) -> list[tuple[int, ...]]:
    assert s.phase == SHOP
    return [SHOP_CHOICES[a - SHOP_BASE] for a in s.legal_actions()]


def _events(s: GameState, kind: str) -> list[dict]:
    return [d for k, d in s.events if k == kind]


def _painting_event(s: GameState, area: int) -> dict:
    return next(d for d in _events(s, "painting") if d["area"] == area)


# -- R5.1 ------------------------------------------------------------------------------
def test_R5_1_six_in_shop_allows_1_3_5_and_pairs_1_3_1_5_only(load_state):
    s = load_state("R5_1_shop_six_2p")
    s.apply(bid_action(6))  # the round's last bid, on the Shop
    assert s.phase == SHOP and s.current_player == 1
    assert _shop_choices(s) == [NOTHING, (1,), (3,), (5,), (1, 3), (1, 5)]


SHOP_CHOICES_BY_VALUE = {
    1: [NOTHING, (1,)],
    2: [NOTHING, (1,)],
    3: [NOTHING, (1,), (3,)],
    4: [NOTHING, (1,), (3,), (1, 3)],
    5: [NOTHING, (1,), (3,), (5,), (1, 3)],
    6: [NOTHING, (1,), (3,), (5,), (1, 3), (1, 5)],
    7: [NOTHING, (1,), (3,), (5,), (7,), (1, 3), (1, 5)],
    8: [NOTHING, (1,), (3,), (5,), (7,), (1, 3), (1, 5), (1, 7), (3, 5)],
}


def _single_shop_marker(last_turn, value: int, **changes) -> GameState:
    """Seat 1's pending bid of ``value`` is the only Shop marker."""
    keep = 8 if value != 8 else 7
    placed = sorted(set(range(9)) - {value, keep})[:3]
    bids = {1: [(0, 0), (1, placed[0])], 2: [(0, 1), (1, placed[1])], 3: [(0, 2), (1, placed[2])]}
    bids[4] = [(0, 3)]
    return last_turn(2, bids, player=1, at=0, hand=[value, keep], **changes)


@pytest.mark.parametrize("value", sorted(SHOP_CHOICES_BY_VALUE))
def test_R5_1_one_pile_with_mark_up_to_value_or_two_different_piles_summing_up_to_it(
    value, last_turn
):
    s = _single_shop_marker(last_turn, value)
    s.apply(bid_action(value))
    assert _shop_choices(s) == SHOP_CHOICES_BY_VALUE[value]


def test_R5_1_zero_in_shop_takes_nothing_without_a_decision(last_turn):
    s = _single_shop_marker(last_turn, 0)
    tiles = [p[:] for p in s.tile_piles]
    s.apply(bid_action(0))
    assert s.phase != SHOP
    assert _events(s, "shop") == [
        {"player": 1, "marker": 0, "choice": 0, "tiles": []},
    ]
    assert s.tile_piles == tiles


def test_R5_1_takes_the_top_tile_of_each_chosen_pile(load_state):
    s = load_state("R5_1_shop_six_2p")
    tops = [p[-1] for p in s.tile_piles]
    sizes = [len(p) for p in s.tile_piles]
    s.apply(bid_action(6))
    s.apply(shop_action((1, 5)))
    assert s.tiles_held[1] == [tops[0], tops[2]]
    assert [len(p) for p in s.tile_piles] == [sizes[0] - 1, sizes[1], sizes[2] - 1, sizes[3]]


def test_R5_1_taking_nothing_is_allowed_and_unused_value_is_lost(load_state):
    s = load_state("R5_1_shop_six_2p")
    s.apply(bid_action(6))
    s.apply(shop_action(()))
    assert s.tiles_held == [[], []]
    assert _events(s, "shop")[-1]["tiles"] == []
    assert s.phase != SHOP  # no second chance for the same marker


def test_R5_1_an_empty_pile_cannot_be_chosen(load_state, edit):
    s = edit(load_state("R5_1_shop_six_2p"), empty_piles=(0,), empty_to=0)
    assert s.tile_piles[0] == []
    s.apply(bid_action(6))
    assert _shop_choices(s) == [NOTHING, (3,), (5,)]


def test_R5_1_shop_markers_resolved_in_bar_order(last_turn):
    # Shop bar: I seat 2 (a 5), II seat 0 (a 4), III seat 1 (a 7, pending).
    bids = {
        0: [(2, 5), (0, 4)],
        1: [(0, 0), (1, 0), (2, 0)],
        2: [(0, 1), (1, 1), (2, 1)],
        3: [(0, 2), (1, 2), (2, 2)],
    }
    s = last_turn(3, bids, player=1, at=0, hand=[7, 8])
    s.apply(bid_action(7))
    order = []
    while s.phase == SHOP:
        order.append((s.current_player, max(sum(c) for c in _shop_choices(s))))
        s.apply(s.legal_actions()[-1])
    assert [p for p, _ in order] == [2, 0, 1]
    assert [p for p, _ in order] == [d["player"] for d in _events(s, "shop")]


# -- R5.2 ------------------------------------------------------------------------------
SHOP_PICKS = {
    0: [(1, 7), (0, 2)],
    1: [(0, 0)],
    2: [(0, 1), (1, 0)],
    3: [(0, 3), (1, 1)],
}


def test_R5_2_any_card_may_be_picked_and_last_marker_gets_last_card(last_turn):
    # Shop bar: I seat 1 (7), II seat 0 (2), III seat 1 (5, pending).
    s = last_turn(2, SHOP_PICKS, player=1, at=0, hand=[5, 8])
    s.apply(bid_action(5))
    while s.phase == SHOP:
        s.apply(shop_action(()))
    assert s.phase == PICK and s.current_player == 1  # marker I picks first
    assert s.legal_actions() == [pick_action(2), pick_action(5), pick_action(7)]
    s.apply(pick_action(2))  # seat 0's card
    assert s.current_player == 0  # marker II
    assert s.legal_actions() == [pick_action(5), pick_action(7)]
    s.apply(pick_action(7))  # seat 1's card
    shop_picks = [(d["player"], d["value"]) for d in _events(s, "pick") if d["area"] == 0]
    assert shop_picks == [(1, 2), (0, 7), (1, 5)]  # marker III: the last card, no choice
    assert s.hands[1][2] == 1 and s.hands[1][5] == 1 and s.hands[0][7] == 1


def test_R5_2_shop_markers_return_to_their_owners(last_turn, finish_round):
    s = last_turn(2, SHOP_PICKS, player=1, at=0, hand=[5, 8])
    s.apply(bid_action(5))
    while s.phase == SHOP or (s.phase == PICK and s.dist_area == 0):
        s.apply(s.legal_actions()[0])
    assert s.bids[0] == []  # the Shop's markers are back; galleries follow
    finish_round(s)
    assert all(bids == [] for bids in s.bids)
    assert s.phase == MOVE


# -- R5.3 ------------------------------------------------------------------------------
@pytest.mark.parametrize("second,winner", [(4, 0), (2, 1)])
def test_R5_3_totals_add_up_in_galleries_but_not_in_the_shop(second, winner, last_turn):
    # Gallery 2: seat 0 bids a 3 and `second`, seat 1 a 6.
    bids = {
        1: [(0, 0), (1, 0)],
        2: [(0, 3), (1, 6), (0, second)],
        3: [(0, 1)],
        4: [(1, 2)],
    }
    s = last_turn(2, bids, player=1, at=4, hand=[1, 8])
    s.apply(bid_action(1))
    while _painting_event_or_none(s, 2) is None:
        s.apply(s.legal_actions()[0])
    event = _painting_event(s, 2)
    assert event["totals"] == [3 + second, 6]
    assert event["player"] == winner


def _painting_event_or_none(s: GameState, area: int) -> dict | None:
    return next((d for d in _events(s, "painting") if d["area"] == area), None)


def test_R5_3_shop_values_of_one_player_are_not_added(last_turn):
    # Seat 0 has two Shop markers, a 3 and a 4: each is used alone (3 + 4 would buy a 7).
    bids = {0: [(0, 3), (0, 4)], 1: [(0, 0), (1, 0)], 2: [(0, 1), (1, 1)], 3: [(1, 3)]}
    s = last_turn(2, bids, player=1, at=3, hand=[2, 8])
    s.apply(bid_action(2))
    assert s.current_player == 0 and _shop_choices(s) == [NOTHING, (1,), (3,)]
    s.apply(shop_action((3,)))
    assert s.current_player == 0 and _shop_choices(s) == [NOTHING, (1,), (3,), (1, 3)]


# -- R5.4 ------------------------------------------------------------------------------
def test_R5_4_tie_goes_to_tile_holder(load_state):
    s = load_state("R5_4_gallery_tie_2p")  # gallery 1: seat 0 (marker I) 3, seat 1 3
    assert s.gallery_painting[1] == 20 and 20 in s.tiles_held[1]
    s.apply(bid_action(3))
    s.apply(shop_action(()))  # seat 1's Shop marker
    event = _painting_event(s, 1)
    assert event["totals"] == [3, 3] and event["player"] == 1
    assert s.collections[1][0] == 20  # gallery 1 is resolved first


@pytest.mark.parametrize("take,winner", [((1,), 1), ((), 0)])
def test_R5_4_tie_tile_taken_in_this_rounds_shop_counts(take, winner, load_state, edit):
    # As above, but tile 20 lies on top of pile 1: seat 1 may take it with its Shop 1.
    s = edit(load_state("R5_4_gallery_tie_2p"), tiles_held={1: []}, pile_tops={0: 20})
    assert s.tile_piles[0][-1] == 20 and s.tiles_held == [[], []]
    s.apply(bid_action(3))
    s.apply(shop_action(take))
    assert _painting_event(s, 1)["player"] == winner


def test_R5_4_tie_without_tile_goes_to_lowest_marker(load_state, edit):
    s = edit(load_state("R5_4_gallery_tie_2p"), tiles_held={1: []})
    assert 20 not in s.tiles_held[0] + s.tiles_held[1]
    s.apply(bid_action(3))
    s.apply(shop_action((1,)))  # takes tile 21, which does not match
    event = _painting_event(s, 1)
    assert event["totals"] == [3, 3] and event["player"] == 0  # seat 0 holds marker I


def test_R5_4_tie_lowest_marker_counts_each_players_lowest_marker(last_turn):
    # Gallery 3: I seat 1 (2), II seat 0 (1), III seat 0 (1), IV seat 1 (0): 2 : 2.
    # Seat 1 has the lowest marker (I) though also the highest (IV).
    bids = {
        1: [(0, 0)],
        2: [(0, 3), (1, 3)],
        3: [(1, 2), (0, 1), (0, 1), (1, 0)],
    }
    owned = {0: [0, 1, 1, 3, 4, 5, 6, 7, 8], 1: [0, 2, 2, 3, 4, 5, 6, 7, 8]}
    s = last_turn(2, bids, player=1, at=4, hand=[8, 7], owned=owned)
    s.apply(bid_action(8))
    while _painting_event_or_none(s, 3) is None:
        s.apply(s.legal_actions()[0])
    event = _painting_event(s, 3)
    assert event["totals"] == [2, 2] and event["player"] == 1


def test_R5_4_highest_total_takes_the_painting_appended_at_the_right_end(last_turn):
    # Seat 0 already owns painting 5; it wins galleries 1, 2 and 3, seat 1 gallery 4.
    bids = {1: [(0, 0)], 2: [(0, 1), (1, 1)], 3: [(0, 2), (1, 2)], 4: [(0, 3), (1, 4)]}
    s = last_turn(2, bids, player=1, at=4, hand=[5, 8], collections={0: [5]})
    shown = s.gallery_painting[:]
    s.apply(bid_action(5))
    while s.phase != MOVE:
        s.apply(s.legal_actions()[0])
    assert s.collections[0] == [5, shown[1], shown[2], shown[3]]  # clockwise order
    assert s.collections[1] == [shown[4]]


def test_R5_4_distribution_runs_shop_first_then_galleries_clockwise(last_turn, finish_round):
    s = last_turn(3, player=0, hand=[3, 4])
    s.apply(bid_action(3))
    finish_round(s)
    revealed = [d["area"] for d in _events(s, "reveal")]
    assert revealed == sorted(revealed) and revealed[0] == 1  # no Shop bids here
    d = last_turn(2, SHOP_PICKS, player=1, at=0, hand=[5, 8])
    d.apply(bid_action(5))
    finish_round(d)
    assert [e["area"] for e in _events(d, "reveal")] == [0, 1, 2, 3]


def test_R5_4_total_zero_can_win(last_turn):
    # Gallery 1's only bid is seat 0's 0.
    bids = {1: [(0, 0)], 2: [(0, 1), (1, 1)], 3: [(0, 2), (1, 2)], 4: [(0, 3), (1, 4)]}
    s = last_turn(2, bids, player=1, at=4, hand=[5, 8])
    painting = s.gallery_painting[1]
    s.apply(bid_action(5))
    while _painting_event_or_none(s, 1) is None:
        s.apply(s.legal_actions()[0])
    assert _painting_event(s, 1) == {
        "area": 1,
        "painting": painting,
        "player": 0,
        "totals": [0, 0],
    }
    assert s.collections[0][0] == painting


def test_R5_4_no_bid_painting_stays(last_turn, finish_round):
    # Nobody bids at gallery 3.
    bids = {0: [(1, 1)], 1: [(0, 0), (1, 0)], 2: [(0, 1), (0, 2)], 4: [(0, 3), (1, 2)]}
    s = last_turn(2, bids, player=1, at=4, hand=[3, 8])
    before = s.gallery_painting[:]
    s.apply(bid_action(3))
    finish_round(s)
    assert s.round == 2
    assert s.gallery_painting[3] == before[3]  # still there, not replaced
    assert all(s.gallery_painting[a] != before[a] for a in (1, 2, 4))  # taken and refilled
    assert before[3] not in s.collections[0] + s.collections[1]
    assert 3 not in [d["area"] for d in _events(s, "painting")]


# -- R5.5 ------------------------------------------------------------------------------
def test_R5_5_gallery_card_picks_in_marker_order_any_card(last_turn):
    # Gallery 2: I seat 1 (5), II seat 0 (2), III seat 1 (7, pending).
    bids = {1: [(0, 0), (1, 0)], 2: [(1, 5), (0, 2)], 3: [(0, 1), (0, 3)], 4: [(1, 1)]}
    s = last_turn(2, bids, player=1, at=2, hand=[7, 8])
    s.apply(bid_action(7))
    assert (s.phase, s.dist_area, s.current_player) == (PICK, 2, 1)
    assert _painting_event(s, 2)["player"] == 1  # 12 against 2; painting first, then picks
    assert s.legal_actions() == [pick_action(2), pick_action(5), pick_action(7)]
    s.apply(pick_action(2))  # seat 0's card
    assert s.current_player == 0 and s.legal_actions() == [pick_action(5), pick_action(7)]
    s.apply(pick_action(7))
    picks = [(d["player"], d["value"]) for d in _events(s, "pick") if d["area"] == 2]
    assert picks == [(1, 2), (0, 7), (1, 5)]


# Marker orders that read differently backwards (the other tests' 1, 0, 1 is a
# palindrome), so picking in reversed marker order would fail here.
THREE_SEAT_SHOP = {
    0: [(2, 3), (0, 5)],  # + seat 1's pending 7: markers I seat 2, II seat 0, III seat 1
    1: [(0, 0), (1, 0), (2, 0)],
    2: [(0, 1), (1, 1), (2, 1)],
    3: [(0, 2), (1, 2), (2, 2)],
}
THREE_SEAT_GALLERY = {
    1: [(0, 0), (1, 0), (2, 0)],
    2: [(1, 5), (0, 3)],  # + seat 2's pending 7: markers I seat 1, II seat 0, III seat 2
    3: [(0, 1), (1, 1), (2, 1)],
    4: [(0, 2), (1, 2), (2, 2)],
}


def test_R5_2_shop_tiles_and_picks_follow_marker_order_not_its_reverse(last_turn):
    s = last_turn(3, THREE_SEAT_SHOP, player=1, at=0, hand=[7, 8])
    s.apply(bid_action(7))
    shoppers = []
    while s.phase == SHOP:
        shoppers.append(s.current_player)
        s.apply(shop_action(()))
    assert shoppers == [2, 0, 1]
    pickers = []
    while s.phase == PICK and s.dist_area == 0:
        pickers.append(s.current_player)
        s.apply(s.legal_actions()[0])
    picks = [d["player"] for d in _events(s, "pick") if d["area"] == 0]
    assert pickers == [2, 0] and picks == [2, 0, 1]  # marker III takes the last card


def test_R5_5_gallery_picks_follow_marker_order_not_its_reverse(last_turn):
    s = last_turn(3, THREE_SEAT_GALLERY, player=2, at=2, hand=[7, 8])
    s.apply(bid_action(7))
    assert (s.phase, s.dist_area) == (PICK, 2)
    assert _painting_event(s, 2)["player"] == 2  # 7 against 5 and 3
    pickers = []
    while s.phase == PICK and s.dist_area == 2:
        pickers.append(s.current_player)
        s.apply(s.legal_actions()[-1])
    picks = [(d["player"], d["value"]) for d in _events(s, "pick") if d["area"] == 2]
    assert pickers == [1, 0] and picks == [(1, 7), (0, 5), (2, 3)]


# -- R5.6 ------------------------------------------------------------------------------
ZERO_BIDS = {1: [(0, 2), (1, 0)], 2: [(0, 0), (1, 8), (0, 1)], 3: [(0, 3), (1, 1)]}


@pytest.mark.parametrize("variant,totals,winner", [(False, [1, 8], 1), (True, [11, 8], 0)])
def test_R5_6_zero_is_ten_variant(variant, totals, winner, last_turn, finish_round):
    # Gallery 2: seat 0 bids 0 and 1, seat 1 an 8. Gallery 1: seat 1's single 0.
    s = last_turn(2, ZERO_BIDS, player=1, at=4, hand=[2, 7], zero_is_ten=variant)
    assert s.zero_is_ten is variant
    s.apply(bid_action(2))
    finish_round(s)
    assert _painting_event(s, 2)["totals"] == totals
    assert _painting_event(s, 2)["player"] == winner
    assert _painting_event(s, 1)["totals"] == [2, 0]  # a lone 0 stays 0 either way


TWO_ZEROS = {1: [(0, 1), (1, 1)], 2: [(0, 0), (1, 8), (0, 0), (1, 7)], 3: [(0, 2)]}
OWN_TWO_ZEROS = {0: [0, 0, 1, 2, 3, 4, 5, 6, 7], 1: [1, 2, 3, 4, 5, 6, 7, 8, 8]}


@pytest.mark.parametrize("variant,totals,winner", [(False, [0, 15], 1), (True, [20, 15], 0)])
def test_R5_6_two_zeros_of_one_player_count_ten_each(
    variant, totals, winner, last_turn, finish_round
):
    # Gallery 2: seat 0 bids both 0s (it picked seat 1's 0 earlier), seat 1 an 8 and a 7.
    s = last_turn(
        2, TWO_ZEROS, player=1, at=4, hand=[3, 8], owned=OWN_TWO_ZEROS, zero_is_ten=variant
    )
    s.apply(bid_action(3))
    finish_round(s)
    assert _painting_event(s, 2)["totals"] == totals
    assert _painting_event(s, 2)["player"] == winner


def test_R5_6_zero_is_ten_is_off_by_default_and_not_in_the_shop(last_turn):
    assert last_turn(2).zero_is_ten is False
    # Shop bar: I seat 1 (0), II seat 0 (5), III seat 1 (2): seat 1 bid two cards there.
    bids = {0: [(1, 0), (0, 5)], 1: [(0, 0), (1, 1)], 2: [(0, 1)], 3: [(0, 2), (1, 3)]}
    s = last_turn(2, bids, player=1, at=0, hand=[2, 8], zero_is_ten=True)
    s.apply(bid_action(2))
    assert _events(s, "shop")[0] == {"player": 1, "marker": 0, "choice": 0, "tiles": []}
    assert s.current_player == 0  # marker II is the first decision
