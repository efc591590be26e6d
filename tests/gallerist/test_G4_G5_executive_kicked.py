"""G4 executive actions and G5 kicked-out actions."""

from __future__ import annotations

from gallerist_helpers import (
    do,
    fix_visitors,
    give_tickets,
    give_work,
    names,
    refresh,
    started,
)

from art_gallery_env.games.gallerist.rules.state import (
    ASSISTANT,
    HOME,
    KICKED,
    SLOT_UP,
)

INV, VIP, COL = range(3)


def with_contract(s, p: int, slot: int = 0, kind: str | None = None) -> int:
    """Give ``p`` a face-up contract (of bonus ``kind`` if given) in board ``slot``."""
    d = s.data
    card = next(
        c for c in s.deck if kind is None or d.contracts[c].bonus.describe().startswith(kind)
    )
    s.deck.remove(card)
    s.contracts[p][slot] = [card, SLOT_UP, 0]
    return card


def test_G4_1_one_executive_action_per_turn_before_or_after():
    s = started(2, 0)
    with_contract(s, 0, 0, "money")
    give_tickets(s, 0, INV, 2)
    s.plaza[INV] += 1
    fix_visitors(s)
    refresh(s)
    assert "bonus 0" in names(s) and "move investor plaza" in names(s)
    money = s.money[0]
    do(s, "bonus 0")  # the contract bonus before the location action (assistant from the desk)
    assert s.money[0] == money + 3 and s.contracts[0][0][2] == 1
    assert not [a for a in names(s) if a.startswith(("move", "bonus"))]  # used for this turn
    do(s, "media hire", "assistant none", "hire 1", "done")  # cash pays (G10.2)
    assert s.current_player == 1  # after the location action only "done" was left


def test_G4_1_moving_visitors_is_one_executive_action_of_many_tickets():
    s = started(2, 0)
    give_tickets(s, 0, INV, 2)
    s.plaza[INV] += 1
    fix_visitors(s)
    refresh(s)
    do(s, "move investor plaza")
    assert s.phase_name == "turn" and "done" in names(s)
    assert not [a for a in names(s) if a.split()[0] in ("colony", "sales", "media", "market")]
    do(s, "move investor lobby 0")  # no ticket left: "done" was the only choice, applied
    assert s.gallery_visitors[0][INV] == 1
    assert not [a for a in names(s) if a.startswith(("move", "bonus"))]
    assert any(a.startswith("sales") for a in names(s))


def test_G4_2_a_ticket_moves_a_visitor_one_step_towards_the_own_gallery():
    s = started(3, 0)
    give_tickets(s, 0, VIP, 3)
    s.lobby[1][VIP] += 1  # a VIP in the next player's Lobby
    s.plaza[VIP] += 1
    fix_visitors(s)
    refresh(s)
    plaza, lobby0, lobby1 = s.plaza[VIP], s.lobby[0][VIP], s.lobby[1][VIP]
    do(s, "move vip lobby 1")  # another Lobby -> the Plaza
    assert s.lobby[1][VIP] == lobby1 - 1 and s.plaza[VIP] == plaza + 1
    do(s, "move vip plaza")  # the Plaza -> the own Lobby
    assert s.lobby[0][VIP] == lobby0 + 1
    do(s, "move vip lobby 0")  # the own Lobby -> the own Gallery
    assert s.gallery_visitors[0][VIP] == 1
    assert s.tickets[0][VIP] == 0 and s.ticket_discard[VIP] == 3


def test_G4_3_gallery_visitors_never_move_by_tickets():
    s = started(2, 0)
    give_tickets(s, 1, INV, 2)
    s.gallery_visitors[0][INV] += 2
    s.lobby = [[0, 0, 0], [0, 0, 0]]
    s.plaza = [0, 0, 0]
    fix_visitors(s)
    refresh(s)
    do(s, "media hire", "assistant none", "hire 1", "done")
    # player 1 holds investor tickets but no investor is anywhere it could move
    assert not [a for a in names(s) if a.startswith("move")]


def test_G4_4_collectors_rule_one_more_than_works_sold():
    s = started(2, 0)
    give_tickets(s, 0, COL, 2)
    s.gallery_visitors[0][COL] = 1
    s.lobby[0] = [0, 0, 1]
    fix_visitors(s)
    refresh(s)
    assert "move collector lobby 0" not in names(s)  # 0 sold: one Collector at most
    slot = s.discovered.index(True)
    work = give_work(s, 0, slot)
    s.gallery[0].remove(work)
    s.sold[0].append(work)
    s.tokens[slot] += 1
    refresh(s)
    assert "move collector lobby 0" in names(s)


def test_G4_5_a_contract_bonus_once_per_side_with_an_assistant_on_it():
    s = started(2, 0)
    with_contract(s, 0, 1, "influence")
    refresh(s)
    influence = s.influence[0]
    do(s, "bonus 1")
    assert s.influence[0] == influence + 3
    assert s.contracts[0][1][2] == 1 and s.desks[0] == 1
    assert "bonus 1" not in names(s)  # its assistant is on it: this side is used
    s.frames[-1] = (s.frames[-1][0], 0, 0)  # even a fresh turn of the same player
    refresh(s)
    assert "bonus 1" not in names(s)


def test_G5_1_the_kicked_out_player_acts_after_the_active_player():
    s = started(2, 0)
    do(s, "sales contract", "assistant none")
    assert s.gpos[1] == KICKED and s.current_player == 0
    while s.phase_name != "post":
        do(s, names(s)[0])
    do(s, "done")
    assert s.phase_name == "kicked" and s.current_player == 1


def _kicked_out_holding_an_investor_ticket(influence: int | None = None):
    """P1's executive kicked out by P0's sales contract, with an investor ticket to use (and
    ``influence``, where given); P1 to decide."""
    s = started(2, 0)
    if influence is not None:
        s.influence[1] = influence
    give_tickets(s, 1, INV, 1)
    s.plaza[INV] += 1
    fix_visitors(s)
    refresh(s)
    do(s, "sales contract", "assistant none")
    while s.current_player == 0:
        do(s, "done") if "done" in names(s) else do(s, names(s)[0])
    return s


def test_G5_2_location_action_for_influence_or_executive_or_nothing():
    s = _kicked_out_holding_an_investor_ticket()
    legal = names(s)
    assert "sales contract" in legal and "done" in legal and "move investor plaza" in legal
    assert not [a for a in legal if a.startswith(("colony", "media", "market"))]
    assert s.influence[1] == 10
    do(s, "sales contract")
    assert s.influence[1] == 5  # back to the previous fame icon
    # with influence 0 there is no previous fame icon
    s = _kicked_out_holding_an_investor_ticket(influence=0)
    assert s.phase_name == "kicked"
    assert "done" in names(s) and "move investor plaza" in names(s)
    assert not [a for a in names(s) if a.startswith(("colony", "sales", "media", "market"))]


def test_G5_3_going_home_gallery_desk_or_out_of_the_game():
    s = started(2, 0)
    do(s, "sales contract", "assistant none")
    while s.current_player == 0:
        do(s, "done") if "done" in names(s) else do(s, names(s)[0])
    do(s, "done")  # player 1 passes its kicked-out action
    assert s.gpos[1] == HOME and s.kicked is None
    # an assistant with all four desks taken leaves the game
    s = started(2, 0)
    s.occupant[2] = 2 * 1 + ASSISTANT
    s.queue[1] -= 3
    s.desks[1] = 4
    refresh(s)
    do(s, "media hire")
    assert s.kicked == (1, ASSISTANT, 2)
    while s.current_player == 0:
        do(s, "done") if "done" in names(s) else do(s, names(s)[0])
    do(s, "done")
    assert s.removed[1] == 1 and s.desks[1] == 4


def test_G5_4_no_kicked_out_action_in_the_final_round():
    s = started(2, 0)
    s.final_round = s.end_triggered = True
    refresh(s)
    do(s, "sales contract", "assistant none")
    while s.current_player == 0 and not s.is_over:
        do(s, "done") if "done" in names(s) else do(s, names(s)[0])
    assert s.gpos[1] == HOME and s.kicked is None
    assert s.phase_name != "kicked"
