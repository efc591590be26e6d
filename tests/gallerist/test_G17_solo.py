"""G17 solo play against Lacerda."""

from __future__ import annotations

import random

import pytest
from gallerist_helpers import do, names, refresh, started

from art_gallery_env.games.gallerist.env.aec import goals_reward
from art_gallery_env.games.gallerist.rules.data import default_game_data
from art_gallery_env.games.gallerist.rules.game import advance, auction_order
from art_gallery_env.games.gallerist.rules.lacerda import (
    LACERDA_ASSISTANT,
    LACERDA_GALLERIST,
    lacerda_move,
    lacerda_to_market,
)
from art_gallery_env.games.gallerist.rules.scoring import (
    goal_progress,
    majority_money,
    score_breakdown,
    solo_level,
)
from art_gallery_env.games.gallerist.rules.state import (
    A_AUCTION,
    A_GAME_OVER,
    EMPTY,
    KICKED,
    LACERDA,
    new_game,
)

D = default_game_data()


def solo(seed: int = 0, start: str = "colony"):
    return started(1, seed, starts=(start,))


def test_G17_1_solo_setup():
    s = new_game(1, 1)
    assert s.box_office == [10, 10, 10] and s.box_visitors == [4, 4, 4]
    assert len(s.easels) == 1
    assert sum(t != EMPTY for t in s.market_tiles) == 8
    assert all(s.market_tiles[4 + r] == EMPTY for r in range(4))  # column 2 unused
    assert s.lacerda_supply == 10 and s.lacerda_pos == EMPTY
    assert s.num_players == 1 and s.current_player == 0


def test_G17_2_lacerda_opposite_then_clockwise_leaving_assistants():
    s = solo(2, "colony")
    do(s, "sales contract", "assistant none")
    while s.lacerda_pos == EMPTY:
        do(s, "done") if "done" in names(s) else do(s, names(s)[0])
    assert s.lacerda_pos == (1 + 2) % 4  # opposite the Sales Office: the Market
    assert s.occupant[3] == LACERDA_GALLERIST and s.current_player == 0
    supply = s.lacerda_supply
    t = s.clone()
    lacerda_move(t)
    assert t.lacerda_pos == 0 and t.occupant[3] == LACERDA_ASSISTANT
    assert t.lacerda_supply == supply - 1
    # arriving kicks the player's Gallerist out; the player may act
    s = solo(3, "colony")
    s.occupant[0] = EMPTY
    s.gpos[0] = 2
    s.occupant[2] = 0
    s.lacerda_pos = 1
    s.occupant[1] = LACERDA_GALLERIST
    refresh(s)
    lacerda_move(s)
    assert s.gpos[0] == KICKED and s.kicked == (0, 0, 2)


def test_G17_2_current_player_is_always_seat_zero():
    s = new_game(1, 4)
    rng = random.Random(4)
    while not s.is_over:
        assert s.current_player == 0
        s.apply(rng.choice(s.legal_actions()))
    assert any(k == "lacerda" for k, _ in s.events)


def test_G17_3_kicking_lacerda_pieces_discards_a_ticket():
    s = solo(5, "colony")
    s.lacerda_pos = 3
    s.occupant[3] = LACERDA_GALLERIST
    s.occupant[2] = LACERDA_ASSISTANT
    s.lacerda_supply -= 1
    s.box_office = [10, 9, 10]
    s.box_tickets[1] += 1
    refresh(s)
    do(s, "media hire")  # onto Lacerda's assistant
    assert s.lacerda_supply == 10
    assert s.box_office == [9, 9, 10] and s.ticket_discard == [1, 0, 0]
    # his Gallerist: it waits and moves on clockwise from there
    s = solo(6, "colony")
    s.lacerda_pos = 2
    s.occupant[2] = LACERDA_GALLERIST
    refresh(s)
    do(s, "media hire")
    assert s.lacerda_kicked and sum(s.ticket_discard) == 1
    while s.current_player == 0 and s.lacerda_kicked:
        do(s, "done") if "done" in names(s) else do(s, names(s)[0])
    assert s.lacerda_pos == 3 and s.occupant[2] == 0  # nothing left behind at Media


def test_G17_4_lacerda_in_the_market_alternates_parts_and_discards_tiles():
    s = solo(7)
    tiles = s.market_tiles[:]
    lacerda_to_market(s)
    assert s.market_upper[0] == LACERDA and s.market_tiles[0] == EMPTY
    assert s.tile_discard == [tiles[0]]
    lacerda_to_market(s)
    assert s.market_lower[0] == LACERDA
    lacerda_to_market(s)
    assert s.market_upper[8] == LACERDA  # top row, next used column (the third)
    lacerda_to_market(s)
    assert s.market_lower[3] == LACERDA  # top row of the auction part, second column
    # one part full: the other
    s = solo(8)
    s.market_upper = [LACERDA if i // 4 in (0, 2) else EMPTY for i in range(12)]
    s.lacerda_next_lower = False
    lacerda_to_market(s)
    assert s.market_lower[0] == LACERDA


def test_G17_5_the_round_the_box_office_empties_then_one_more_turn():
    s = solo(9)
    s.box_tickets = [
        a + b - (1 if c == 0 else 0)
        for c, (a, b) in enumerate(zip(s.box_tickets, s.box_office, strict=True))
    ]
    s.box_office = [1, 0, 0]
    refresh(s)
    rng = random.Random(9)
    while s.box_office[0] and not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    rounds = s.round
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    assert s.round <= rounds + 1
    assert any(k == "final_round" for k, _ in s.events)
    lacerda_moves_in_final = [
        k for k, e in s.events[[k for k, _ in s.events].index("final_round") :] if k == "lacerda"
    ]
    assert lacerda_moves_in_final == []


def test_G17_6_goal_levels():
    s = new_game(1, 10)
    row = {
        "curator_goals": 1, "curator_top": False, "dealer_goals": 1, "curator": 6, "dealer": 5,
        "reputation_tiles": 4, "masterpieces": 1, "total": 160,
    }  # fmt: skip
    assert solo_level(s, row) == 1
    assert solo_level(s, {**row, "total": 159}) == 0
    assert (
        solo_level(
            s, {**row, "curator_top": True, "reputation_tiles": 5, "masterpieces": 2, "total": 180}
        )
        == 2
    )
    master = {
        **row,
        "curator": 20,
        "dealer": 15,
        "reputation_tiles": 5,
        "masterpieces": 3,
        "total": 100,
    }
    assert solo_level(s, master) == 3  # Master has no money condition
    assert solo_level(s, {**master, "dealer": 14}) == 0
    assert D.solo_goals[2].name == "Master Gallerist"
    breakdown = score_breakdown(s)
    assert breakdown[0]["goal_level"] == 0 and breakdown[0]["goal_name"] == "none"


NOTHING = {
    "curator_goals": 0, "curator_top": False, "dealer_goals": 0, "curator": 0, "dealer": 0,
    "reputation_tiles": 0, "masterpieces": 0, "total": 0,
}  # fmt: skip


def graded(**row) -> float:
    """The ``goals`` reward of a constructed end row (its level from the engine's check)."""
    full = {**NOTHING, **row}
    return goals_reward({**full, "goal_level": solo_level(new_game(1, 10), full)})


def test_G17_6_graded_goals_reward_credits_the_next_levels_conditions():
    assert graded() == 0.0  # nothing toward Apprentice: exactly the level
    # 3 of Apprentice's 5 conditions (a Curator goal, an Art Dealer goal, a masterpiece)
    assert graded(curator_goals=1, dealer_goals=1, masterpieces=1) == pytest.approx(0.6)
    # the other two in part: 2 of 4 tiles, 80 of 160 money
    partial = graded(curator_goals=1, dealer_goals=1, masterpieces=1, reputation_tiles=2, total=80)
    assert partial == pytest.approx((3 + 0.5 + 0.5) / 5)
    # money and goals beyond the asked amount count no more than the amount
    assert graded(total=500, curator_goals=3) == pytest.approx(0.4)
    # all five: Apprentice, plus the share of Experienced's 6 (Curator goal 1, highest
    # Curator goal 0, Art Dealer goal 1, tiles 4/5, masterpieces 1/2, money 160/180)
    apprentice = {"curator_goals": 1, "dealer_goals": 1, "reputation_tiles": 4,
                  "masterpieces": 1, "total": 160}  # fmt: skip
    assert graded(**apprentice) == pytest.approx(1 + (1 + 0 + 1 + 0.8 + 0.5 + 160 / 180) / 6)
    experienced = {**apprentice, "curator_top": True, "reputation_tiles": 5, "masterpieces": 2,
                   "total": 180, "curator": 10, "dealer": 5}  # fmt: skip
    # Experienced, plus Master's 3: goal money 15/35, tiles 5/5, masterpieces 2/3
    assert graded(**experienced) == pytest.approx(2 + (15 / 35 + 1 + 2 / 3) / 3)
    assert graded(**{**experienced, "masterpieces": 3, "dealer": 25}) == 3.0  # the top level
    # Master without Experienced's money: the level is 3 all the same
    assert graded(curator=20, dealer=15, reputation_tiles=5, masterpieces=3) == 3.0


def test_G17_6_graded_goals_reward_is_strictly_monotone_in_the_level():
    rng = random.Random(26)
    by_level: dict[int, list[float]] = {0: [], 1: [], 2: [], 3: []}
    for _ in range(3000):
        row = {
            "curator_goals": rng.randint(0, 3), "curator_top": rng.random() < 0.4,
            "dealer_goals": rng.randint(0, 2), "curator": rng.choice([0, 6, 10, 20]),
            "dealer": rng.choice([0, 5, 15]), "reputation_tiles": rng.randint(0, 6),
            "masterpieces": rng.randint(0, 4), "total": rng.randint(0, 250),
        }  # fmt: skip
        if row["curator_top"]:
            row["curator_goals"] = max(1, row["curator_goals"])
        level = solo_level(new_game(1, 10), row)
        reward = goals_reward({**row, "goal_level": level})
        assert level <= reward < level + 1 or reward == level == 3
        by_level[level].append(reward)
    assert all(by_level.values())  # every level drawn
    for low, high in ((0, 1), (1, 2), (2, 3)):
        assert max(by_level[low]) < min(by_level[high])
    assert goal_progress(D.solo_goals, NOTHING, 3) == 0.0


def test_G17_6_graded_goals_reward_refuses_a_level_other_data_gave():
    with pytest.raises(ValueError, match="packaged solo goals"):
        goals_reward({**NOTHING, "goal_level": 1})


def test_G17_7_lacerda_counts_in_majorities_but_makes_no_offers():
    s = new_game(1, 11)
    s.market_upper[0] = LACERDA
    s.market_lower[0] = LACERDA
    s.market_lower[1] = 0
    assert majority_money(s) == {LACERDA: 6, 0: 3}  # his assistants are on the table
    s.market_lower[2] = LACERDA
    assert auction_order(s) == [0]  # he paid for no offer: only the player bids
    assert score_breakdown(s)[0]["lacerda_majorities"] == 6
    s.market_lower[1] = EMPTY
    assert auction_order(s) == []


def test_G17_7_the_player_takes_the_renowned_work_against_lacerda_assistants():
    s = new_game(1, 11)
    for i in (0, 3, 6, 2):  # Lacerda on four auction spaces, offers 1 + 1 + 1 + 6
        s.market_lower[i] = LACERDA
    s.market_lower[1] = 0  # the player's one offer of 3
    s.frames = [(A_GAME_OVER,), (A_AUCTION,)]
    s._legal = None
    advance(s)  # one easel, one bidder: the choice is forced
    assert s.is_over and s.renowned[0] != EMPTY and not s.easels
