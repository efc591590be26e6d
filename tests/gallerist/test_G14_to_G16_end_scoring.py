"""G14 intermediate scoring, G15 end of the game, G16 final scoring."""

from __future__ import annotations

import random

from gallerist_helpers import do, fix_visitors, give_artist, give_work, refresh, started

from art_gallery_env.games.gallerist.rules.actions import DONE
from art_gallery_env.games.gallerist.rules.data import default_game_data
from art_gallery_env.games.gallerist.rules.effects import renowned_value, sales_value
from art_gallery_env.games.gallerist.rules.game import (
    MAX_ROUNDS,
    advance,
    auction_order,
    end_conditions,
)
from art_gallery_env.games.gallerist.rules.scoring import (
    assign_ranks,
    card_goals,
    majority_money,
    reputation_scores,
    score_breakdown,
)
from art_gallery_env.games.gallerist.rules.state import EMPTY, F_POST, F_TURN, SLOT_UP, new_game

D = default_game_data()
INV, VIP, COL = range(3)


def tile(name: str) -> int:
    return next(i for i, t in enumerate(D.reputation_tiles) if t.id == name)


def test_G14_intermediate_scoring_once_when_a_colour_runs_out():
    s = started(2, 0, starts=("market", "media"))
    s.box_tickets[COL] += s.box_office[COL] - 1
    s.box_office[COL] = 1
    s.gallery_visitors[0] = [1, 1, 1]
    s.gallery_visitors[1] = [2, 0, 0]
    fix_visitors(s)
    refresh(s)
    money0, money1, inf0, inf1 = s.money[0], s.money[1], s.influence[0], s.influence[1]
    do(s, "sales contract", "assistant none", "contract 0 slot 2")  # slot 2: a collector ticket
    assert s.box_office[COL] == 0 and s.intermediate_pending
    while s.current_player == 0:
        do(s, "done")
    assert s.intermediate_done and not s.intermediate_pending
    assert s.money[0] == money0 + 2 + 1 and s.influence[0] == inf0 + 2 + 1
    assert s.money[1] == money1 + 4 and s.influence[1] == inf1
    assert sum(1 for kind, _ in s.events if kind == "intermediate_scoring") == 1


def test_G15_1_two_of_three_end_conditions():
    s = started(2, 0)
    assert end_conditions(s) == [False, False, False]
    s.plaza = [s.plaza[c] + s.bag.count(c) for c in range(3)]
    s.bag = []
    refresh(s)
    assert end_conditions(s) == [False, False, True]
    s.box_tickets = [a + b for a, b in zip(s.box_tickets, s.box_office, strict=True)]
    s.box_office = [0, 0, 0]
    refresh(s)
    assert end_conditions(s) == [True, False, True]
    for a in (0, 2):
        give_artist(s, a, fame=19)
        s.celebrity[a] = True
    assert end_conditions(s)[1]


def test_G15_2_the_round_ends_then_everyone_plays_once_more():
    s = started(3, 1, first=1, starts=("colony", "sales", "media"))
    s.plaza = [s.plaza[c] + s.bag.count(c) for c in range(3)]
    s.bag = []
    s.box_tickets = [a + b for a, b in zip(s.box_tickets, s.box_office, strict=True)]
    s.box_office = [0, 0, 0]
    refresh(s)
    rng = random.Random(2)
    turns = []
    while not s.is_over:
        if s.frames[0][0] in (F_TURN, F_POST):  # the bottom frame is the turn being played
            key = (s.round, s.turn, s.frames[0][1])
            if not turns or turns[-1] != key:
                turns.append(key)
        s.apply(rng.choice(s.legal_actions()))
    # round 1: seats 1, 2, 0 (end triggered at once); round 2, the final one: 1, 2, 0
    assert [t[2] for t in turns] == [1, 2, 0, 1, 2, 0]
    assert [t[0] for t in turns] == [1, 1, 1, 2, 2, 2]
    kinds = [k for k, _ in s.events]
    assert kinds.index("end_triggered") < kinds.index("final_round") < kinds.index("game_over")


def test_G15_3_a_safety_limit_ends_every_game():
    s = started(2, 3)
    s.round = MAX_ROUNDS
    refresh(s)
    rng = random.Random(3)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    assert s.round == MAX_ROUNDS + 1
    triggered = [e for k, e in s.events if k == "end_triggered"]
    assert triggered and triggered[0]["round"] == MAX_ROUNDS


def stuck(s, p: int) -> None:
    """Leave seat ``p`` with no possible location action (G3.5): no cash or influence,
    three face-up contracts (assistants on them), no works, no Lobby visitors."""
    s.money[p] = s.influence[p] = 0
    for slot in range(3):
        s.contracts[p][slot] = [s.deck.pop(), SLOT_UP, 1]
    s.desks[p], s.queue[p] = 0, s.queue[p] - 1  # three assistants on the contracts
    for c in range(3):
        s.plaza[c] += s.lobby[p][c]
        s.lobby[p][c] = 0


def test_G15_3_a_round_without_any_location_action_ends_the_game():
    s = started(2, 5)
    for a in range(8):  # nothing left to discover
        give_artist(s, a)
    for p in (0, 1):
        stuck(s, p)
    refresh_and_advance(s)  # each turn offers only the pass: the engine plays it (G20.1)
    triggered = [e for k, e in s.events if k == "end_triggered"]
    assert len(triggered) == 1 and triggered[0]["reason"] == "no_action"
    assert triggered[0]["round"] == 1
    passes = [e for k, e in s.events if k == "decision" and e["action"] == DONE]
    assert len(passes) == 4  # round 1, then the final round (G15.2)
    assert s.is_over and s.round == 2


def test_G15_3_one_location_action_in_a_round_keeps_the_game_going():
    s = started(2, 5)
    for a in range(8):
        give_artist(s, a)
    stuck(s, 1)
    refresh_and_advance(s)
    do(s, "sales contract")  # player 0 can still act
    while s.phase_name != "post":
        s.apply(s.legal_actions()[0])
    do(s, "done")  # player 1 can only pass: the engine plays it
    assert s.current_player == 0 and s.round == 2
    assert not s.end_triggered and not s.round_active


def refresh_and_advance(s) -> None:
    s._legal = None
    advance(s)
    refresh(s)


def test_G16_1_market_majorities_with_shared_places():
    s = new_game(3, 4)
    s.market_upper[0] = 0  # column 1: player 0 twice, player 1 once
    s.market_lower[0] = 0
    s.market_lower[1] = 1
    s.market_lower[3] = 1  # column 2: players 1 and 2 once each
    s.market_upper[4] = 2
    s.market_lower[6] = 2  # column 3: only player 2
    money = majority_money(s)
    assert money == {0: 6, 1: 3 + (8 + 4) // 2, 2: (8 + 4) // 2 + 10}


def test_G16_2_auction_order_and_renowned_work_value():
    s = new_game(4, 5)
    s.market_lower[2] = 0  # column 1, offer 6
    s.market_lower[8] = 1  # column 3, offer 6: same total, more in column 3
    s.market_lower[0] = 2  # offer 1
    assert auction_order(s) == [1, 0, 2]
    # the renowned works of finished games went to the highest offers, paid by value
    for seed in range(8):
        g = new_game(4, seed)
        rng = random.Random(seed)
        easels = len(g.easels)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        order = auction_order(g)[:easels]
        assert sorted(p for p in range(4) if g.renowned[p] != EMPTY) == sorted(order)
        for row in score_breakdown(g):
            p = row["player"]
            expected = renowned_value(g, g.renowned[p]) if g.renowned[p] != EMPTY else 0
            assert row["auction"] == expected


def test_G16_3_reputation_tiles_influence_per_three_first():
    s = new_game(2, 6)
    s.influence[0] = 9
    s.gallery_visitors[0] = [0, 0, 2]
    s.spaces[0][0] = tile("collectors")
    s.spaces[0][3] = tile("influence_per_3")
    money, influence = reputation_scores(s, 0)
    assert (money, influence) == (9 // 3 + 3 * 2, 2)
    s.spaces[0][1] = tile("reputation_tiles")
    assert reputation_scores(s, 0) == (3 + 6 + 2 * 3, 2 + 3)


def test_G16_4_exhibition_pays_sales_values():
    s = started(2, 7)
    slot = s.discovered.index(True)
    give_artist(s, slot, fame=9)
    give_work(s, 0, slot)
    give_work(s, 0, slot)
    row = score_breakdown(s)[0]
    assert row["exhibition"] == 2 * sales_value(s, slot) > 0


def test_G16_5_curator_collections_a_work_may_count_twice():
    for seed in range(4):
        s = started(2, seed)
        card = D.curators[s.curator[0]]
        largest = card.goals[2]  # four works; the smallest collection uses two of its forms
        for mask in largest.slots:
            form = next(f for f in range(4) if mask >> f & 1)
            give_artist(s, 2 * form + 1, fame=10)
            give_work(s, 0, 2 * form + 1)
        done, _ = card_goals(s, 0)
        assert done[0] and done[2]  # four works complete both: they count twice
        row = score_breakdown(s)[0]
        assert row["curator"] == sum(g.value for g, ok in zip(card.goals, done, strict=True) if ok)
        s.gallery[0].pop()
        assert not card_goals(s, 0)[0][2]


def test_G16_6_art_dealer_sets_of_sold_works():
    s = started(2, 9)
    card = D.dealers[s.dealer[0]]
    form = next(f for f in range(4) if card.goals[0].slots[0] >> f & 1)
    slot = 2 * form + 1
    give_artist(s, slot, fame=10)
    for _ in range(2):
        work = give_work(s, 0, slot)
        s.gallery[0].remove(work)
        s.sold[0].append(work)
        s.tokens[slot] += 1
    _, done = card_goals(s, 0)
    assert done[0] and not done[1]  # two of its form; not three different forms
    assert score_breakdown(s)[0]["dealer"] == card.goals[0].value


def test_G16_7_influence_pays_by_the_money_icons_passed():
    s = new_game(2, 10)
    for influence, money in ((0, 0), (1, 1), (3, 1), (4, 2), (10, 3), (26, 10), (35, 19)):
        s.influence[0] = influence
        assert score_breakdown(s)[0]["influence"] == money


def test_G16_8_winner_by_money_then_tie_breakers_shared_wins():
    rows = [
        {
            "player": 0,
            "total": 100,
            "works_acquired": 3,
            "gallery_visitors": 2,
            "assistants_in_play": 5,
        },
        {
            "player": 1,
            "total": 100,
            "works_acquired": 4,
            "gallery_visitors": 0,
            "assistants_in_play": 2,
        },
        {
            "player": 2,
            "total": 120,
            "works_acquired": 1,
            "gallery_visitors": 0,
            "assistants_in_play": 2,
        },
        {
            "player": 3,
            "total": 100,
            "works_acquired": 3,
            "gallery_visitors": 2,
            "assistants_in_play": 5,
        },
    ]
    assign_ranks(rows)
    assert [r["rank"] for r in rows] == [3, 2, 1, 3]
    rows[2]["total"] = 100
    rows[2]["works_acquired"] = 4
    assign_ranks(rows)
    assert [r["rank"] for r in rows] == [3, 1, 1, 3]  # all four keys tied: a shared win
    s = new_game(2, 11)  # the engine's breakdown ranks the same way
    rng = random.Random(11)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    breakdown = score_breakdown(s)
    again = [dict(r) for r in breakdown]
    assign_ranks(again)
    assert [r["rank"] for r in again] == [r["rank"] for r in breakdown]
    assert any(r["rank"] == 1 for r in breakdown)
