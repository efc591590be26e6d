"""G18 hidden information and determinization, G19 bonuses, G20 engine conventions."""

from __future__ import annotations

import random

import pytest
from gallerist_helpers import do, names, started
from game_states import random_moves

from art_gallery_env.games.gallerist.rules.actions import (
    ALL_ACTION_NAMES,
    NUM_ACTIONS,
    action_to_str,
    str_to_action,
)
from art_gallery_env.games.gallerist.rules.data import BONUS_KINDS, Bonus
from art_gallery_env.games.gallerist.rules.effects import apply_bonus
from art_gallery_env.games.gallerist.rules.game import IllegalActionError, advance
from art_gallery_env.games.gallerist.rules.hidden import PlayerView, visible_events
from art_gallery_env.games.gallerist.rules.invariants import check_invariants
from art_gallery_env.games.gallerist.rules.state import new_game

PUBLIC = (
    "money", "influence", "tickets", "desks", "queue", "gpos", "lobby", "gallery_visitors",
    "gallery", "sold", "contracts", "spaces", "occupant", "artist_tile", "fame", "tokens",
    "market_tiles", "market_upper", "market_lower", "display", "easels", "plaza", "frames",
)  # fmt: skip


def midgame(n: int, seed: int, steps: int = 60):
    return random_moves(new_game(n, seed), steps, seed)


def test_G18_determinize_resamples_exactly_the_secret_part():
    changed = {"curator": False, "deck": False, "bag": False, "stacks": False}
    for seed in range(6):
        s = midgame(3, seed)
        for k in range(3):
            w = s.determinize(0, random.Random(k))
            check_invariants(w)
            for name in PUBLIC:
                assert getattr(w, name) == getattr(s, name), name
            assert w.curator[0] == s.curator[0] and w.dealer[0] == s.dealer[0]
            assert sorted(w.bag) == sorted(s.bag) and sorted(w.deck) == sorted(s.deck)
            assert [st[-1:] for st in w.stacks] == [st[-1:] for st in s.stacks]
            assert [sorted(st) for st in w.stacks] == [sorted(st) for st in s.stacks]
            changed["curator"] |= w.curator[1:] != s.curator[1:]
            changed["deck"] |= w.deck != s.deck
            changed["bag"] |= w.bag != s.bag
            changed["stacks"] |= w.stacks != s.stacks
            assert w.legal_actions() == s.legal_actions()
    assert all(changed.values()), changed
    # the world depends only on the information set and the rng
    s = midgame(2, 9)
    t = s.clone()
    t.curator[1], t.box_curators[0] = t.box_curators[0], t.curator[1]
    t.bag.reverse()
    a, b = s.determinize(0, random.Random(5)), t.determinize(0, random.Random(5))
    assert a.to_dict() == b.to_dict()
    assert visible_events(s, 0)[0][1]["seed"] is None
    view = PlayerView(s, s.current_player)
    assert view.legal_actions() == s.legal_actions() and view.is_my_turn
    assert PlayerView(s, 1 - s.current_player).legal_actions() == []
    with pytest.raises(ValueError, match="observer"):
        s.determinize(5, random.Random(0))


@pytest.mark.parametrize("kind", BONUS_KINDS)
def test_G19_every_bonus_kind(kind):
    s = started(2, 1, starts=("market", "sales"))
    k = BONUS_KINDS.index(kind)
    amount = (
        2
        if kind in ("money", "influence", "fame", "influence_per_visitor", "money_per_visitor")
        else 0
    )
    colour = 0 if kind.endswith("per_visitor") else -1
    s.gallery_visitors[0] = [2, 1, 0]
    s.plaza = [1, 1, 1]
    from gallerist_helpers import fix_visitors

    fix_visitors(s)
    before = s.clone()
    apply_bonus(s, 0, Bonus(k, amount, colour))
    advance(s)
    while s.current_player == 0 and s.phase_name not in ("turn", "post"):
        do(s, names(s)[0])
    slot = s.discovered.index(True)
    if kind == "money":
        assert s.money[0] == before.money[0] + 2
    elif kind == "influence":
        assert s.influence[0] == before.influence[0] + 2
    elif kind == "fame":
        assert s.fame[slot] == before.fame[slot] + 2
    elif kind == "ticket_any":
        assert sum(s.tickets[0]) == 1
    elif kind == "tickets_two":
        assert sorted(s.tickets[0]) == [0, 1, 1]
    elif kind in ("visitor_plaza", "visitor_plaza_vip_investor", "visitor_bag"):
        assert sum(s.gallery_visitors[0]) == 4
    elif kind == "assistant":
        assert s.desks[0] == 3 and s.queue[0] == 7 and s.money[0] == before.money[0]
    elif kind == "contract":
        assert sum(1 for c in s.contracts[0] if c[1] == 1) == 1
    elif kind == "influence_per_visitor":
        assert s.influence[0] == before.influence[0] + 2 * 2
    elif kind == "money_per_visitor":
        assert s.money[0] == before.money[0] + 2 * 2
    check_invariants(s)


def test_G20_1_forced_choices_are_applied_so_every_decision_offers_two():
    forced = 0
    for n in (1, 2, 3, 4):
        s = new_game(n, 20 + n)
        rng = random.Random(n)
        while not s.is_over:
            assert len(s.legal_actions()) >= 2
            s.apply(rng.choice(s.legal_actions()))
        forced += sum(1 for k, e in s.events if k == "decision" and e.get("forced"))
    assert forced > 0


def test_G20_2_one_discrete_layout_with_readable_names_and_relative_seats():
    assert NUM_ACTIONS == 115 == len(ALL_ACTION_NAMES) == len(set(ALL_ACTION_NAMES))
    for a in range(NUM_ACTIONS):
        assert str_to_action(action_to_str(a)) == a
    assert str_to_action("Move Collector Plaza") == str_to_action("move white plaza")
    with pytest.raises(ValueError, match="unknown action"):
        str_to_action("fly away")
    assert str_to_action("spend influence fame") == str_to_action("spend influence")  # old name
    with pytest.raises(ValueError, match="0..114"):
        action_to_str(115)
    # relative seats: player 1 moving player 0's Lobby visitor names "lobby 1" (2 players)
    s = started(2, 2, starts=("colony", "sales"), first=1)
    s.tickets[1][0] += 1
    s.box_office[0] -= 1
    s.lobby[0] = [1, 0, 0]
    from gallerist_helpers import fix_visitors, refresh

    fix_visitors(s)
    refresh(s)
    assert "move investor lobby 1" in names(s)
    # an illegal action names the legal ones and changes nothing
    before = s.to_dict()
    with pytest.raises(IllegalActionError, match="legal actions:.*move investor lobby 1"):
        s.apply(str_to_action("easel 0"))
    with pytest.raises(IllegalActionError, match="0..114"):
        s.apply(999)
    with pytest.raises(IllegalActionError):
        s.apply(True)
    assert s.to_dict() == before
