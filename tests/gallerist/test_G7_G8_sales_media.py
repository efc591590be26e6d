"""G7 Sales Office and G8 Media Center."""

from __future__ import annotations

from gallerist_helpers import do, fix_visitors, give_artist, give_work, names, refresh, started

from art_gallery_env.games.gallerist.rules.effects import sales_value
from art_gallery_env.games.gallerist.rules.locations import artist_options, promote
from art_gallery_env.games.gallerist.rules.state import (
    EMPTY,
    HOME,
    P_PROMOTE,
    SLOT_DOWN_INFLUENCE,
    SLOT_DOWN_MONEY,
    SLOT_UP,
)

INV, VIP, COL = range(3)


def at_market(seed: int = 0):
    return started(2, seed, starts=("market", "media"))


def test_G7_1_sign_a_contract_slot_ticket_or_discard_the_fulfilled_one():
    s = at_market(1)
    top = s.display[0][-1]
    do(s, "sales contract", "assistant none")
    assert "redraw contracts" in names(s)
    do(s, "contract 0 slot 2")
    assert s.contracts[0][2] == [top, SLOT_UP, 0]
    assert s.tickets[0] == [0, 0, 1]  # slot 2 shows a collector ticket
    assert len(s.display[0]) == 1 and s.display[0][-1] != top  # refilled from the deck
    # signing over a fulfilled contract discards it and sends its assistant home
    s = at_market(2)
    old = s.deck.pop()
    s.contracts[0][0] = [old, SLOT_DOWN_MONEY, 1]
    s.desks[0] -= 1
    refresh(s)
    do(s, "sales contract", "assistant none", "contract 1 slot 0")
    assert s.contract_discard == [old] and s.desks[0] == 2 and s.tickets[0] == [0, 0, 0]


def test_G7_1_redraw_covers_the_display_with_four_new_contracts():
    s = at_market(3)
    under = [st[-1] for st in s.display]
    new = s.deck[-4:][::-1]
    do(s, "sales contract", "assistant none", "redraw contracts")
    assert [st[:-1] for st in s.display] == [[u] for u in under]
    assert [st[-1] for st in s.display] == new
    assert "redraw contracts" not in names(s)
    do(s, "contract 3 slot 1")
    assert s.display[3] == [under[3]]  # the covered card is on top again, not refilled


def test_G7_2_three_face_up_contracts_block_signing():
    s = at_market(4)
    for i in range(3):
        s.contracts[0][i] = [s.deck.pop(), SLOT_UP, 0]
    refresh(s)
    assert "sales contract" not in names(s)


def test_G7_3_refill_from_the_deck_and_no_redraw_when_it_is_short():
    s = at_market(5)
    s.contract_discard += s.deck[:-1]
    s.deck = s.deck[-1:]
    refresh(s)
    do(s, "sales contract", "assistant none")
    assert "redraw contracts" not in names(s)
    do(s, "contract 0 slot 0")
    assert len(s.display[0]) == 1 and s.deck == []
    s2 = at_market(6)
    s2.contract_discard += s2.deck
    s2.deck = []
    refresh(s2)
    do(s2, "sales contract", "assistant none", "contract 1 slot 0")
    assert s2.display[1] == []


def sell_position(seed: int, gallery_visitor: int | None):
    s = at_market(seed)
    slot = s.discovered.index(True)
    give_artist(s, slot, fame=9)
    work = give_work(s, 0, slot)
    form = slot // 2
    card = next(c for c in s.deck if s.data.contracts[c].form == form)
    s.deck.remove(card)
    s.contracts[0][1] = [card, SLOT_UP, 1]  # with an assistant on its bonus
    s.desks[0] -= 1
    if gallery_visitor is not None:
        s.gallery_visitors[0][gallery_visitor] += 1
    fix_visitors(s)
    refresh(s)
    return s, slot, work


def test_G7_4_sell_money_token_visitor_out_contract_flips():
    s, slot, work = sell_position(7, VIP)
    value = sales_value(s, slot)
    money, tokens, plaza = s.money[0], s.tokens[slot], s.plaza[VIP]
    do(s, "sales sell", "assistant none")  # one work, one contract, one visitor: all forced
    assert s.money[0] == money + value and value > 0
    assert s.sold[0] == [work] and s.gallery[0] == [] and s.tokens[slot] == tokens + 1
    assert s.plaza[VIP] == plaza + 1 and s.gallery_visitors[0][VIP] == 0
    assert s.contracts[0][1][1] == SLOT_DOWN_INFLUENCE  # a VIP left: influence half up
    assert s.contracts[0][1][2] == 0 and s.desks[0] == 2  # its assistant went home
    # an Investor: money half up; a Collector or nobody: the player chooses
    s, _, _ = sell_position(8, INV)
    do(s, "sales sell", "assistant none")
    assert s.contracts[0][1][1] == SLOT_DOWN_MONEY
    for visitor in (COL, None):
        s, _, _ = sell_position(9, visitor)
        do(s, "sales sell", "assistant none")
        assert s.phase_name == "orient"
        do(s, "orient money")
        assert s.contracts[0][1][1] == SLOT_DOWN_MONEY


def test_G8_1_hire_pay_each_cost_fill_desks_gain_bonuses():
    s = started(2, 0, starts=("market", "sales"))
    assert s.queue[0] == 8 and s.desks[0] == 2
    do(s, "media hire", "assistant none")
    assert names(s) == ["hire 1", "hire 2"]  # two empty desks
    tickets = sum(s.tickets[0])
    do(s, "hire 2", "done")  # costs 1 + 2, cash pays; the second one shows a ticket
    if s.phase_name == "ticket":
        do(s, "ticket vip")
    assert s.money[0] == 10 - 3 and s.desks[0] == 4 and s.queue[0] == 6
    assert sum(s.tickets[0]) == tickets + 1
    # no empty desk and none to make by leaving one behind (coming from the Gallery, G3.3)
    s = started(2, 1, starts=("market", "sales"))
    s.desks[0], s.queue[0] = 4, 6
    s.gpos[0], s.occupant[3] = HOME, EMPTY
    refresh(s)
    assert "media hire" not in names(s)
    # costs may be paid with influence
    s = started(2, 2, starts=("market", "sales"))
    s.money[0] = 0
    refresh(s)
    do(s, "media hire", "assistant none")
    assert names(s) == ["hire 1", "hire 2"]  # influence 10 can pay up to 4 money
    do(s, "hire 1")
    assert s.money[0] == 0 and s.influence[0] == 8  # one money: from 10 back to the icon at 8


def test_G8_2_promote_influence_token_bonus_fame():
    s = started(2, 0, starts=("market", "sales"))
    slot = s.discovered.index(True)
    level = s.promotion[slot]
    fame = s.fame[slot]
    s.gallery_visitors[0] = [0, 0, 1]
    fix_visitors(s)
    refresh(s)
    do(s, "media promote", "assistant none")
    if s.phase_name == "artist":
        do(s, f"artist {('painting', 'photo', 'sculpture', 'digital')[slot // 2]} blue")
    while s.phase_name in ("ticket", "visitor"):  # the bonus comes before the fame (G8.2)
        do(s, names(s)[0])
    assert s.promotion[slot] == level + 1
    assert s.influence[0] <= 10 - (level + 1)
    assert s.promo_tokens[level] == 3  # one token of the new level taken
    assert s.fame[slot] >= fame + 2  # +1, +1 per Collector
    # promoting again returns the old token
    s.promotion[slot] = level + 1
    t = s.clone()
    t.influence[0] = 10
    promote(t, 0, slot)
    assert t.promo_tokens[level] == 4 and t.promo_tokens[level + 1] == 3
    # no token of the next level left: not possible
    s = started(2, 3, starts=("market", "sales"))
    slot = s.discovered.index(True)
    assert slot in artist_options(s, 0, P_PROMOTE)
    s.promo_tokens[s.promotion[slot]] = 0
    assert slot not in artist_options(s, 0, P_PROMOTE)
