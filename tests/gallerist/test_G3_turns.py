"""G3 turns and location actions."""

from __future__ import annotations

import random

from gallerist_helpers import do, fix_visitors, give_tickets, names, refresh, started

from art_gallery_env.games.gallerist.rules.state import (
    ASSISTANT,
    EMPTY,
    F_TURN,
    GALLERIST,
    HOME,
    KICKED,
    SLOT_UP,
    new_game,
)

LOCATION_ACTIONS = {
    "colony discover", "colony buy", "sales contract", "sales sell", "media hire",
    "media promote", "market reputation", "market auction",
}  # fmt: skip


def test_G3_1_turns_go_clockwise_from_the_start_player_and_rounds_follow():
    for n in (2, 3, 4):
        s = new_game(n, 31, start_player=n - 1)
        rng = random.Random(n)
        seen = []
        while not s.is_over and s.round <= 6:
            owner = s.frames[0][1]  # the bottom frame is the turn being played
            if s.frames[0][0] == F_TURN and (not seen or seen[-1][:2] != (s.round, s.turn)):
                seen.append((s.round, s.turn, owner))
            s.apply(rng.choice(s.legal_actions()))
        assert len(seen) > 3 * n
        for rnd, turn, owner in seen:
            assert owner == (s.start_player + turn) % n, (rnd, turn, owner)
            assert 0 <= turn < n


def test_G3_2_must_move_to_a_different_location():
    s = started(2, 0)  # player 0 at the Artists Colony
    assert s.gpos[0] == 0
    offered = {a for a in names(s) if a in LOCATION_ACTIONS}
    assert not offered & {"colony discover", "colony buy"}
    assert offered  # somewhere else something is possible
    # a Gallerist at home may go anywhere, including where it came from
    s.occupant[0] = EMPTY
    s.gpos[0] = HOME
    refresh(s)
    assert "colony discover" in names(s)


def test_G3_3_leave_an_assistant_behind_from_a_desk_or_another_location():
    s = started(2, 0)
    do(s, "sales contract")  # player 0 leaves the Colony (and kicks player 1 out of Sales)
    assert s.phase_name == "leave"
    assert names(s) == ["assistant none", "assistant desk"]
    do(s, "assistant desk")
    assert s.occupant[0] == 2 * 0 + ASSISTANT and s.desks[0] == 1
    # an assistant standing at another location can be the one left behind
    s2 = started(2, 1)
    s2.occupant[2] = ASSISTANT  # player 0's assistant at the Media Center
    s2.desks[0] -= 1
    refresh(s2)
    do(s2, "sales contract")
    assert "assistant media" in names(s2)
    do(s2, "assistant media")
    assert s2.occupant[0] == ASSISTANT and s2.occupant[2] == EMPTY and s2.desks[0] == 1


def test_G3_4_arriving_kicks_out_others_and_sends_the_own_assistant_home():
    s = started(2, 0)  # player 1 stands at the Sales Office
    do(s, "sales contract", "assistant none")
    assert s.kicked == (1, GALLERIST, 1) and s.gpos[1] == KICKED
    assert s.occupant[1] == 2 * 0 + GALLERIST
    # the own assistant: home, no kick-out
    s = started(2, 0)
    s.occupant[2] = ASSISTANT
    s.desks[0] -= 1
    refresh(s)
    do(s, "media hire", "assistant none")  # G3.3: it could have been the one left behind
    assert s.kicked is None and s.desks[0] == 2
    # another player's assistant is kicked out
    s = started(2, 0)
    s.occupant[2] = 2 * 1 + ASSISTANT
    s.desks[1] -= 1
    refresh(s)
    do(s, "media hire")
    assert s.kicked == (1, ASSISTANT, 2) and s.occupant[2] == 2 * 0 + GALLERIST


def test_G3_5_a_location_action_must_be_possible_else_the_player_passes():
    s = started(2, 0)
    p = 0
    # nothing is possible anywhere: no money, no influence, commission taken, contracts full
    s.money[p] = 0
    s.influence[p] = 0
    slot = s.discovered.index(True)
    s.commission[p] = slot
    s.tokens[slot] -= 1
    for i in range(3):
        s.contracts[p][i] = [s.deck.pop(), SLOT_UP, 1]  # their assistants come from the office
    s.queue[p] -= 1
    s.desks[p] = 0
    s.lobby[p] = [0, 0, 0]
    give_tickets(s, p, 0, 1)  # something else to do, so the pass is a real decision
    s.plaza[0] += 1
    fix_visitors(s)
    refresh(s)
    legal = names(s)
    assert not set(legal) & LOCATION_ACTIONS
    assert "done" in legal
    do(s, "done")
    assert s.current_player == 1 and s.gpos[0] == 0  # passed without moving
