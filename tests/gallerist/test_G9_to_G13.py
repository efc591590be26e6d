"""G9 International Market, G10 influence, G11 tickets, G12 visitors, G13 fame."""

from __future__ import annotations

import random

from gallerist_helpers import (
    do,
    fix_visitors,
    give_artist,
    give_tickets,
    give_work,
    names,
    pay_cash,
    refresh,
    started,
)

from art_gallery_env.games.gallerist.rules.actions import REP_BASE
from art_gallery_env.games.gallerist.rules.data import default_game_data
from art_gallery_env.games.gallerist.rules.effects import (
    affordable,
    apply_bonus,
    gain_influence,
    gain_ticket,
    increase_fame,
    pay,
    push_tickets,
    sales_value,
)
from art_gallery_env.games.gallerist.rules.frames import F_DISCARD
from art_gallery_env.games.gallerist.rules.game import advance
from art_gallery_env.games.gallerist.rules.locations import (
    artist_options,
    lobby_meets,
    reputation_options,
)
from art_gallery_env.games.gallerist.rules.state import EMPTY, P_BUY, new_game

INV, VIP, COL = range(3)
D = default_game_data()


def at(seed: int, first_location: str = "media"):
    return started(2, seed, starts=(first_location, "sales"))


def set_lobby(s, p: int, counts: list[int]) -> None:
    s.lobby[p] = list(counts)
    fix_visitors(s)


def test_G9_1_column_requirements_from_lobby_visitors_and_column_influence():
    s = at(1)
    for lobby, ok in (
        ([1, 0, 0], [True, False, False]),
        ([0, 0, 1], [True, False, False]),
        ([1, 1, 0], [True, True, False]),
        ([1, 0, 1], [True, False, True]),
        ([0, 1, 1], [True, False, True]),
        ([0, 0, 2], [True, False, False]),
    ):
        set_lobby(s, 0, lobby)
        assert [lobby_meets(s, 0, c) for c in range(3)] == ok, lobby
    set_lobby(s, 0, [1, 0, 0])
    refresh(s)
    influence = s.influence[0]
    do(s, "market auction", "assistant none")
    assert names(s) == ["auction 0 0", "auction 0 1", "auction 0 2"]
    do(s, "auction 0 1")  # offer 3, bonus: an assistant
    assert s.influence[0] == influence + 3
    # gallery visitors do not count
    s = at(2)
    set_lobby(s, 0, [0, 0, 0])
    s.gallery_visitors[0] = [1, 1, 1]
    fix_visitors(s)
    refresh(s)
    assert "market auction" not in names(s)


def test_G9_2_reputation_tile_needs_an_acquired_form_and_pays_the_space_bonus():
    s = at(3)
    slot = s.discovered.index(True)
    form = slot // 2
    set_lobby(s, 0, [1, 0, 0])
    refresh(s)
    assert "market reputation" not in names(s)  # nothing acquired yet
    give_work(s, 0, slot)
    refresh(s)
    assert reputation_options(s, 0) == [REP_BASE + form]  # column 0, the row of its form
    index = form
    tile = s.market_tiles[index]
    influence = s.influence[0]
    do(s, "market reputation", "assistant none")  # the one tile is taken at once
    assert s.phase_name == "space" and len(names(s)) == 6
    do(s, "space 0")  # influence 2
    assert s.spaces[0][0] == tile and s.market_tiles[index] == EMPTY
    assert s.influence[0] == influence + 3 + 2
    assert s.lobby[0] == [0, 0, 0]  # the Lobby visitor went to the Plaza
    assert s.market_upper[index] == 0 and s.desks[0] == 1  # an assistant from the desk
    # no empty reputation space: not possible
    s = at(4)
    slot = s.discovered.index(True)
    give_work(s, 0, slot)
    set_lobby(s, 0, [1, 0, 0])
    spare = [t for t in s.box_tiles][:6]
    s.box_tiles = [t for t in s.box_tiles if t not in spare]
    s.spaces[0] = spare
    refresh(s)
    assert "market reputation" not in names(s)


def test_G9_3_auction_offer_pays_gains_the_bonus_places_an_assistant():
    s = at(5)
    set_lobby(s, 0, [1, 0, 0])
    refresh(s)
    money, influence = s.money[0], s.influence[0]
    do(s, "market auction", "assistant none", "auction 0 2")  # offer 6, bonus: a Plaza visitor
    pay_cash(s)  # the payment (G10.2) comes before the bonus
    if s.phase_name == "visitor":
        do(s, names(s)[0])
    assert s.money[0] == money - 6 and s.influence[0] == influence + 3
    assert s.market_lower[2] == 0
    assert sum(s.gallery_visitors[0]) == 1
    # the offer may be paid with influence; an unaffordable row is not offered
    s = at(6)
    set_lobby(s, 0, [1, 0, 0])
    s.money[0], s.influence[0] = 0, 2
    refresh(s)
    do(s, "market auction", "assistant none")
    # influence 2 + 3 = 5 can pay 3 money (icons at 4, 1, 0): offers 1 and 3, not 6
    assert names(s) == ["auction 0 0", "auction 0 1"]
    do(s, "auction 0 1")
    assert s.market_lower[1] == 0 and s.money[0] == 0 and s.influence[0] == 0


def test_G9_4_market_assistants_stay_for_the_rest_of_the_game():
    for seed in range(6):
        s = new_game(3, seed)
        rng = random.Random(seed)
        placed: dict[tuple[str, int], int] = {}
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
            for part, spaces in (("upper", s.market_upper), ("lower", s.market_lower)):
                for i, owner in enumerate(spaces):
                    if (part, i) in placed:
                        assert owner == placed[part, i]
                    elif owner != EMPTY:
                        placed[part, i] = owner
        assert placed


def test_G9_5_one_and_two_players_use_columns_one_and_three_for_tiles():
    s = at(7)
    slot = s.discovered.index(True)
    give_work(s, 0, slot)
    set_lobby(s, 0, [1, 1, 0])  # columns 1 and 2 are open to this Lobby
    refresh(s)
    form = slot // 2
    assert s.market_tiles[4 + form] == EMPTY  # column 2 (index 1) holds no tiles
    assert reputation_options(s, 0) == [REP_BASE + form]  # so only column 1 is offered


def test_G10_1_influence_track_ends_at_35():
    s = at(8)
    s.influence[0] = 34
    gain_influence(s, 0, 3)
    assert s.influence[0] == 35
    assert D.influence_money[35] == 19 and D.influence_money[0] == 0
    assert D.prev_money_icon[10] == 8 and D.prev_fame_icon[10] == 5


def test_G10_2_influence_pays_money_one_icon_at_a_time():
    s = at(9)
    s.money[0], s.influence[0] = 2, 10
    assert affordable(s, 0, 6) and not affordable(s, 0, 7)  # icons 8, 4, 1, 0 below 10
    pay(s, 0, 4)
    assert s.money[0] == 0 and s.influence[0] == 4  # two money: 10 -> 8 -> 4
    s.money[0], s.influence[0] = 5, 10
    pay(s, 0, 4)
    assert s.money[0] == 1 and s.influence[0] == 10  # cash first


def test_G10_3_influence_adds_fame_when_buying_or_promoting():
    s = at(10, "market")
    slot = s.discovered.index(True)
    refresh(s)
    do(s, "colony buy", "assistant none")
    if s.phase_name == "artist":
        do(s, names(s)[0])
    pay_cash(s)
    assert s.phase_name == "fame"
    fame, influence = s.fame[slot], s.influence[0]
    do(s, "spend influence fame")
    assert s.fame[slot] == fame + 1 and s.influence[0] == D.prev_fame_icon[influence]
    do(s, "done")
    assert s.phase_name != "fame"


def test_G10_4_money_and_influence_never_negative():
    s = at(11)
    s.money[0], s.influence[0] = 0, 1
    assert affordable(s, 0, 1) and not affordable(s, 0, 2)
    pay(s, 0, 1)
    assert s.money[0] == 0 and s.influence[0] == 0
    for seed in range(4):
        t = new_game(4, seed)
        rng = random.Random(seed)
        while not t.is_over:
            t.apply(rng.choice(t.legal_actions()))
            assert min(t.money) >= 0 and min(t.influence) >= 0


def test_G11_1_ticket_choices_never_two_of_a_colour_at_once():
    s = at(12)
    push_tickets(s, 0, (0b111, 0b111))
    advance(s)
    assert names(s) == ["ticket investor", "ticket vip", "ticket collector"]
    do(s, "ticket vip")
    assert names(s) == ["ticket investor", "ticket collector"]
    do(s, "ticket collector")
    assert s.tickets[0] == [0, 1, 1]
    # a fixed icon first, then a choice that may not repeat it: forced
    s = at(13)
    push_tickets(s, 0, (1 << INV, (1 << INV) | (1 << COL)))
    advance(s)
    assert s.tickets[0] == [1, 0, 1]


def test_G11_2_a_colour_that_is_out_is_bought_through_the_discard():
    s = at(14)
    s.box_tickets = [s.box_tickets[0] + s.box_office[0], s.box_tickets[1], s.box_tickets[2]]
    s.box_office[0] = 0
    s.box_tickets[0] -= 1
    s.ticket_discard[0] = 1
    s.box_tickets[2] += s.box_office[2]  # Collectors out too: VIP is the only other colour
    s.box_office[2] = 0
    vip = s.box_office[1]
    gain_ticket(s, 0, INV)
    assert s.tickets[0][INV] == 1 and s.ticket_discard == [0, 1, 0]
    assert s.box_office[1] == vip - 1 and s.frames[-1][0] != F_DISCARD  # no choice to make
    gain_ticket(s, 0, INV)  # none in the discard pile: lost (a VIP still goes)
    assert s.tickets[0][INV] == 1 and s.ticket_discard == [0, 2, 0]


def test_G11_3_an_empty_box_office_gives_from_the_discard_pile():
    s = at(15)
    for c in range(3):
        s.box_tickets[c] += s.box_office[c] - 1
        s.box_office[c] = 0
        s.ticket_discard[c] = 1
    gain_ticket(s, 0, COL)
    assert s.tickets[0] == [0, 0, 1] and s.ticket_discard == [1, 1, 0]
    gain_ticket(s, 0, COL)
    assert s.tickets[0] == [0, 0, 1]


def test_G11_4_spent_tickets_go_to_the_discard_pile():
    s = at(16)
    give_tickets(s, 0, INV, 1)
    s.plaza[INV] += 1
    fix_visitors(s)
    refresh(s)
    do(s, "move investor plaza")
    assert s.ticket_discard[INV] == 1 and s.tickets[0][INV] == 0


def test_G12_1_visitors_come_from_the_bag_until_it_is_empty():
    s = at(17, "market")
    slot = s.discovered.index(True)
    form = slot // 2
    s.plaza = [s.plaza[c] + s.bag.count(c) for c in range(3)]
    s.bag = []
    refresh(s)
    pay_cash(do(s, "colony buy", "assistant none"))
    assert s.phase_name != "artist"
    assert s.work_visitors[form] == [0, 0, 0]  # the new top work gets nobody
    assert len({tuple(new_game(2, seed).bag) for seed in range(5)}) == 5


def test_G12_2_visitor_bonuses_respect_the_collectors_rule():
    s = at(18)
    s.plaza = [1, 0, 2]
    s.gallery_visitors[0] = [0, 0, 1]  # no room for another Collector (nothing sold)
    fix_visitors(s)
    refresh(s)
    from art_gallery_env.games.gallerist.rules.data import B_VISITOR_BAG, B_VISITOR_PLAZA, Bonus

    apply_bonus(s, 0, Bonus(B_VISITOR_PLAZA))
    advance(s)
    assert s.gallery_visitors[0] == [1, 0, 1]  # the only allowed one: the Investor
    s.bag.append(COL)
    s.plaza[COL] -= 1
    lobby = s.lobby[0][COL]
    apply_bonus(s, 0, Bonus(B_VISITOR_BAG))
    assert s.lobby[0][COL] == lobby + 1 and s.gallery_visitors[0][COL] == 1


def test_G13_1_sales_value_by_stars():
    assert D.star_values == (0, 5, 8, 11, 14, 17, 20)
    s = at(19)
    slot = s.discovered.index(True)
    stars = D.artists[s.artist_tile[slot]].stars
    for k, threshold in enumerate(stars, start=1):
        give_artist(s, slot, fame=threshold)
        assert sales_value(s, slot) == D.star_values[k]


def test_G13_2_celebrity_pays_five_and_makes_masterpieces():
    s = at(20)
    slot = s.discovered.index(True)
    mine = give_work(s, 0, slot)
    theirs = give_work(s, 1, slot)
    money = s.money[1]
    give_artist(s, slot, fame=17)
    increase_fame(s, 1, slot, 3)
    assert s.celebrity[slot] and s.fame[slot] == 19
    assert s.money[1] == money + 5
    assert s.masterpiece[mine] and s.masterpiece[theirs]
    assert slot not in artist_options(s, 0, P_BUY)  # retired, except a commission


def test_G13_3_fame_stops_at_nineteen():
    s = at(21)
    slot = s.discovered.index(True)
    increase_fame(s, 0, slot, 40)
    assert s.fame[slot] == 19
    money = s.money[0]
    increase_fame(s, 0, slot, 2)
    assert s.fame[slot] == 19 and s.money[0] == money  # no second celebrity bonus
