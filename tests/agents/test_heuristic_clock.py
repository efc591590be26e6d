"""The heuristic's clock (R6.3) and standings (R7), and the decisions version 2 bases on them:
constructed positions where one Shop choice ends the game, open chains and the start card in
the last round, and information-set safety of the policies themselves."""

from __future__ import annotations

import random

import pytest
from agent_test_helpers import mid_round_state, twin_state

from art_gallery_env.games.art_gallery.clock import read_clock, standings, tiles_to_end
from art_gallery_env.games.art_gallery.heuristic import (
    ClockTurnTable,
    HeuristicPolicy,
    HeuristicV1Policy,
)
from art_gallery_env.games.art_gallery.rules.actions import SHOP_BASE, SHOP_CHOICE_PILES
from art_gallery_env.games.art_gallery.rules.board import PILE_SIZES, SHOP_AREA
from art_gallery_env.games.art_gallery.rules.game import game_end_reason, shop_card_value
from art_gallery_env.games.art_gallery.rules.phases import BID, MOVE, PICK, SHOP
from art_gallery_env.games.art_gallery.rules.scoring import chain_summary
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game

MARK_1, MARK_3 = 0, 1  # pile indices


def _random_until(state: GameState, stop, seed: int) -> GameState | None:
    rng = random.Random(seed)
    while not state.is_over:
        if stop(state):
            return state
        state.apply(rng.choice(state.legal_actions()))
    return None


def later_rival_markers(state: GameState) -> list[int]:
    """Card values under rivals' Shop markers that resolve after the current one."""
    me = state.current_player
    return [v for p, v in state.bids[SHOP_AREA][state.dist_marker + 1 :] if p != me]


def shop_decision(
    num_players: int, min_value: int, seed: int = 1, rival_after: bool = False
) -> GameState:
    """A round-1 Shop choice (R5.1) of a seat whose card is worth at least ``min_value``;
    with ``rival_after`` a rival's marker comes later in the Shop, else none does."""

    def wanted(s: GameState) -> bool:
        if s.round > 1 or s.phase != SHOP or shop_card_value(s) < min_value:
            return s.round > 1
        return bool(later_rival_markers(s)) == rival_after

    for attempt in range(500):
        found = _random_until(new_game(num_players, seed * 1000 + attempt), wanted, attempt)
        if found is not None and found.round == 1:
            return found
    raise AssertionError("no suitable Shop decision found")


def one_tile_from_the_end(state: GameState, my_share: int) -> GameState:
    """The same Shop decision with the pile marked 3 empty and one tile left on the pile
    marked 1: taking it makes 2 empty piles, which ends a 2-3 player game at this round's
    end (R6.3b). The removed 31 tiles go to the deciding seat (``my_share`` of them) and its
    rival, which sets who leads."""
    me = state.current_player
    data = state.to_dict()
    piles = data["tile_piles"]
    removed = piles[MARK_3] + piles[MARK_1][:-1]
    piles[MARK_3], piles[MARK_1] = [], piles[MARK_1][-1:]
    data["tiles_held"][me] += removed[:my_share]
    data["tiles_held"][1 - me] += removed[my_share:]
    return GameState.from_dict(data)


def ends_the_game(state: GameState, action: int) -> bool:
    after = state.clone()
    after.apply(action)
    while not after.is_over and after.round == state.round and after.phase in (SHOP, PICK):
        if after.current_player == state.current_player and after.dist_area > SHOP_AREA:
            break
        after.apply(after.legal_actions()[0])  # others take nothing / the lowest card
    empty = sum(1 for pile in after.tile_piles if not pile)
    return empty >= 2


@pytest.mark.parametrize(("my_share", "leading"), [(26, True), (20, True), (10, False), (4, False)])
def test_R6_3_last_tile_taken_when_leading_left_when_behind(my_share: int, leading: bool) -> None:
    state = one_tile_from_the_end(shop_decision(2, min_value=8), my_share)
    me = state.current_player
    assert not later_rival_markers(state)  # only this choice can end the game this round
    policy = HeuristicPolicy()
    lead = policy.lead(state, me)
    assert (lead > 0) == leading, lead
    legal = state.legal_actions()
    ending = [a for a in legal if MARK_1 in SHOP_CHOICE_PILES[a - SHOP_BASE]]
    assert ending and len(ending) < len(legal) - 1  # other tiles are on offer too
    for seed in range(3):
        choice = policy.choose(state, random.Random(seed))
        assert (choice in ending) == leading, (lead, SHOP_CHOICE_PILES[choice - SHOP_BASE])
        if not leading:
            assert choice != SHOP_BASE  # it still takes the tiles that keep the game going
    # Version 1 ignores the clock: it takes the most tiles either way.
    v1 = HeuristicV1Policy().choose(state, random.Random(0))
    assert v1 in ending


def test_R6_3_last_tile_taken_when_a_later_rival_would_take_it() -> None:
    """Behind, but a rival's Shop marker resolves later this round with a card that can take
    the last tile (R5.1, revealed cards): leaving it would not keep the game going, so the
    heuristic takes the tiles."""
    state = one_tile_from_the_end(shop_decision(2, min_value=8, rival_after=True), 4)
    me = state.current_player
    policy = HeuristicPolicy()
    assert policy.lead(state, me) < 0
    assert max(later_rival_markers(state)) >= 1  # enough for the pile marked 1
    choice = policy.choose(state, random.Random(0))
    assert MARK_1 in SHOP_CHOICE_PILES[choice - SHOP_BASE]


def test_taking_the_last_tile_really_ends_the_game() -> None:
    """The scenario's premise, checked with the engine: after that Shop choice the round's
    end finds 2 empty piles (R6.3b)."""
    state = one_tile_from_the_end(shop_decision(2, min_value=8), 20)
    take = next(a for a in state.legal_actions() if SHOP_CHOICE_PILES[a - SHOP_BASE] == (0,))
    after = state.clone()
    after.apply(take)
    assert sum(1 for pile in after.tile_piles if not pile) == 2
    assert game_end_reason(after) == "2 tile piles are empty"


def test_R6_3_clock_at_the_start_and_after_the_shop() -> None:
    start = read_clock(new_game(2, 0))
    assert start.p_end < 0.01 and start.later >= 3
    assert start.tile_rate == pytest.approx(7.0)
    # Once this round's Shop is resolved the piles are final: the end is certain or not.
    state = one_tile_from_the_end(shop_decision(2, min_value=8), 20)
    take = next(a for a in state.legal_actions() if SHOP_CHOICE_PILES[a - SHOP_BASE] == (0,))
    state.apply(take)
    resolved = _random_until(state, lambda s: s.dist_area > SHOP_AREA, 0)
    if resolved is not None and not resolved.is_over:
        clock = read_clock(resolved)
        assert clock.p_end == 1.0 and clock.later == 0.0


@pytest.mark.parametrize("num_players", [2, 4, 6])
def test_R6_3_clock_runs_down_over_a_game(num_players: int) -> None:
    """Over a heuristic game the expected rounds left fall and the chance that this round is
    the last rises: the last round's turns all see p_end > 0.5, the first round's < 0.05."""
    policy = HeuristicPolicy()
    rng = random.Random(num_players)
    state = new_game(num_players, 40 + num_players)
    seen: dict[int, list] = {}
    while not state.is_over:
        if state.phase == MOVE:
            seen.setdefault(state.round, []).append(read_clock(state))
        state.apply(policy.choose(state, rng))
    last = max(seen)
    assert all(c.p_end < 0.05 for c in seen[1])
    assert all(c.p_end > 0.5 for c in seen[last][-num_players:])
    assert seen[1][0].later > seen[last][0].later


def test_tiles_to_end_drains_the_two_cheapest_piles() -> None:
    # 2 players: piles 1 and 3 drain together until 3 is empty (28 tiles), then 1 and 5
    # until 1 is empty (8 more).
    assert tiles_to_end(list(PILE_SIZES), 2) == 36
    # 4+ players: then 5 and 7 until both are empty (12 more): an upper bound.
    assert tiles_to_end(list(PILE_SIZES), 3) == 48
    assert tiles_to_end([1, 0, 3, 6], 2) == 2  # one from 1, one from 5 alongside
    assert tiles_to_end([1, 0, 3, 6], 3) == 6  # 1 and 5 together (2 tiles), then 5 and 7
    assert tiles_to_end([0, 0, 0, 6], 3) == 0


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_R7_standings_are_the_final_score_at_the_end(num_players: int) -> None:
    policy = HeuristicPolicy()
    rng = random.Random(3)
    state = new_game(num_players, 9)
    while not state.is_over:
        state.apply(policy.choose(state, rng))
    totals = [row["total"] for row in state.score_breakdown()]
    assert standings(state, chain_summary) == totals


def test_last_round_weights() -> None:
    """With the end near, open chains count nothing, the start card its 3 points (R7.4)
    and a lost card a quarter point per pip (R7.3); at the start, version 1's weights."""
    policy = HeuristicPolicy()
    params = policy.params
    early = new_game(2, 5)
    table = ClockTurnTable(policy, early, read_clock(early))
    assert table.potential == pytest.approx(params.potential)
    assert table.start_card == pytest.approx(params.start_card, abs=0.02)
    late = _random_until(new_game(2, 5), lambda s: s.phase in (MOVE, BID), 0)
    assert late is not None
    data = late.to_dict()
    data["tiles_held"][0] += data["tile_piles"][MARK_3] + data["tile_piles"][MARK_1]
    data["tile_piles"][MARK_3], data["tile_piles"][MARK_1] = [], []
    late = GameState.from_dict(data)
    clock = read_clock(late)
    assert clock.p_end > 0.99 and clock.later < 0.01
    table = ClockTurnTable(policy, late, clock)
    assert table.potential == pytest.approx(0.0, abs=0.01)
    assert table.start_card == pytest.approx(params.start_final, abs=0.01)
    assert table.card_cost == pytest.approx(params.cost_final, abs=0.01)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_policies_read_only_the_information_set(num_players: int) -> None:
    """Not through determinization: the policies themselves, on two full states that differ
    only in what the acting seat cannot see, compute the same clock and standings and make
    the same decision with the same random stream (R8)."""
    for case, phases in enumerate([(MOVE,), (BID,), (SHOP, PICK)]):
        state = mid_round_state(num_players, seed=7 * case + num_players, phases=phases)
        twin = twin_state(state, case)
        assert read_clock(state) == read_clock(twin)
        assert standings(state, chain_summary) == standings(twin, chain_summary)
        for policy in (HeuristicPolicy(), HeuristicV1Policy()):
            for seed in range(3):
                a = policy.choose(state, random.Random(seed))
                b = policy.choose(twin, random.Random(seed))
                assert a == b, (type(policy).__name__, num_players, phases, seed)


def test_the_default_policy_is_version_2() -> None:
    assert type(HeuristicPolicy()) is HeuristicPolicy
    assert issubclass(HeuristicPolicy, HeuristicV1Policy)
    assert BID != MOVE  # the phases used above are distinct
