"""The seven rulebook faults, one scenario each, named by its rule ID.

Each is a choice the rulebook gives (or an order it sets) that the engine once took away;
each test failed on the engine before the fix.
"""

from __future__ import annotations

from gallerist_helpers import do, fix_visitors, give_artist, names, refresh, started
from test_G6_colony import artist_name, set_bonus

from art_gallery_env.games.gallerist.rules.effects import push_tickets
from art_gallery_env.games.gallerist.rules.game import advance
from art_gallery_env.games.gallerist.rules.state import ASSISTANT, EMPTY

INV, VIP, COL = range(3)
OWN_ASSISTANT = 2 * 0 + ASSISTANT  # player 0's assistant on a location


def test_G8_1_hire_with_four_full_desks_by_leaving_a_desk_assistant_behind():
    """'May leave behind one of his Assistants ... from an office desk', then hire 'as many
    Assistants as he can fit': the desk left empty is room for one."""
    s = started(2, 0, starts=("market", "sales"))
    s.desks[0], s.queue[0] = 4, 6
    refresh(s)
    assert "media hire" in names(s)
    do(s, "media hire")  # the leave-behind must come from a desk: forced, then 'hire 1'
    assert s.occupant[3] == OWN_ASSISTANT and s.desks[0] == 4 and s.queue[0] == 5
    # with one empty desk, leaving one behind from a desk makes room for two
    s = started(2, 1, starts=("market", "sales"))
    s.desks[0], s.queue[0] = 3, 7
    refresh(s)
    do(s, "media hire")
    assert names(s) == ["assistant none", "assistant desk"]
    do(s, "assistant desk")
    assert names(s) == ["hire 1", "hire 2"]


def test_G8_2_promotion_bonus_before_fame():
    """Step 4 'Earn the bonus' (level 5: a visitor from the Plaza), step 5 'Increase the
    Artist's Fame by 1 plus an additional 1 for each Collector': a Collector the bonus
    brings in counts."""
    s = started(2, 0, starts=("market", "sales"))
    slot = s.discovered.index(True)
    assert s.promotion[slot] < 4
    s.promotion[slot] = 4
    s.promo_tokens[3] -= 1  # the level-4 token is on the artist
    s.plaza = [0, 0, 1]
    s.gallery_visitors[0] = [0, 0, 0]
    fix_visitors(s)
    refresh(s)
    fame = s.fame[slot]
    do(s, "media promote", "assistant none")
    if s.phase_name == "artist":
        do(s, artist_name(slot))
    assert s.promotion[slot] == 5 and s.gallery_visitors[0][COL] == 1
    assert s.fame[slot] == fame + 2


def test_G3_3_own_assistant_at_the_destination_may_be_left_behind():
    """The assistant left behind 'may come from ... another Location': the one standing
    where the Gallerist goes can move to the location it leaves instead of going home."""
    s = started(2, 0)  # player 0 at the Artists Colony
    s.occupant[2] = OWN_ASSISTANT  # at the Media Center
    s.desks[0], s.queue[0] = 4, 5  # four full desks: going home would remove it
    refresh(s)
    do(s, "media promote")
    assert names(s) == ["assistant none", "assistant desk", "assistant media"]
    do(s, "assistant media")
    assert s.occupant[0] == OWN_ASSISTANT and s.removed[0] == 0 and s.desks[0] == 4
    # not left behind: it goes home, and with four full desks out of the game (G5.3)
    s = started(2, 0)
    s.occupant[2] = OWN_ASSISTANT
    s.desks[0], s.queue[0] = 4, 5
    refresh(s)
    do(s, "media promote", "assistant none")
    assert s.occupant[0] == EMPTY and s.removed[0] == 1


def test_G10_2_influence_may_pay_more_than_cash_lacks():
    """'Move your Influence disc back to the previous space showing a money icon to gain 1
    money' when spending money: a choice even with cash enough (at 35 later gains are
    lost), for no more money than is spent."""
    s = started(2, 0, starts=("market", "sales"))
    s.influence[0] = 35
    refresh(s)
    do(s, "media hire", "assistant none", "hire 1")  # costs 1
    assert s.phase_name == "pay" and names(s) == ["done", "spend influence"]
    do(s, "spend influence")
    assert s.money[0] == 10 and s.influence[0] == s.data.prev_money_icon[35]
    assert s.phase_name != "pay"  # one money spent: one step at most


def test_G6_3_commission_or_signature_token_is_the_players_choice():
    """'Choose an Artist with either an available Signature token or one you already have a
    commission for': with both, the player may pay the current fame and keep the
    commission."""
    s = started(2, 5, starts=("market", "sales"))
    blue = next(a for a in range(8) if a % 2 == 0 and not s.discovered[a])
    give_artist(s, blue, fame=12)
    s.tokens[blue] -= 1
    s.commission[0] = blue
    s.money[0] = 20
    refresh(s)
    do(s, "colony buy", "assistant none")
    if s.phase_name == "artist":
        do(s, artist_name(blue))
    assert s.phase_name == "commission"
    assert names(s) == ["use commission", "use token"]
    do(s, "use token")
    if s.phase_name == "pay":
        do(s, "done")
    assert s.money[0] == 20 - 12 and s.commission[0] == blue and s.tokens[blue] == 0


def test_G10_3_influence_for_fame_after_a_fame_bonus():
    """'When taking an action that increases an Artist's Fame, move your Influence disc
    back...': discovering an artist with a fame bonus tile increases its fame."""
    s = started(2, 2, starts=("market", "sales"))
    blue = next(a for a in range(8) if a % 2 == 0 and not s.discovered[a])
    set_bonus(s, blue, "fame")
    refresh(s)
    do(s, "colony discover", "assistant none", artist_name(blue))
    initial = s.data.artists[s.artist_tile[blue]].initial_fame
    assert s.fame[blue] == initial + 2
    assert s.phase_name == "fame"
    do(s, "spend influence")
    assert s.fame[blue] == initial + 3 and s.influence[0] == s.data.prev_fame_icon[10]


def test_G11_2_the_player_chooses_the_ticket_to_discard():
    """'If a color is out, remove one of any other ticket to the discard pile': any other
    colour, the player's pick."""
    s = started(2, 14, starts=("market", "sales"))
    s.box_tickets[INV] += s.box_office[INV]
    s.box_office[INV] = 0
    s.box_tickets[INV] -= 1
    s.ticket_discard[INV] = 1
    refresh(s)
    vip, col = s.box_office[VIP], s.box_office[COL]
    assert vip == col  # the engine once discarded by 'most left, VIP before Collector'
    push_tickets(s, 0, (1 << INV,))
    advance(s)
    assert s.phase_name == "discard" and names(s) == ["ticket vip", "ticket collector"]
    do(s, "ticket collector")
    assert s.box_office[VIP] == vip and s.box_office[COL] == col - 1
    assert s.tickets[0][INV] == 1 and s.ticket_discard == [0, 0, 1]
