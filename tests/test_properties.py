"""Property tests over random games: every player count 2-6, both ``zero_is_ten`` values.

Each example draws (num_players, zero_is_ten, seed) and plays uniformly random legal actions
chosen by a seeded ``random.Random``. The checks are written independently of the engine
where possible (conservation counts, R7 scoring, R6.3 end condition), so that they do not
simply repeat the engine's own code.

Rules covered: R1.1-R1.4 (conservation), R4.1/R4.2 (turn structure), R4.5 (bar size),
R6.1 (9 cards at round start), R6.3 (the game ends), R7.1-R7.5 (score), R8 is in
test_no_leak.py; save/load and clone are engine API guarantees.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from art_gallery_env import raw_env
from art_gallery_env.games.art_gallery.rules.invariants import card_counts_in_play, check_invariants
from art_gallery_env.games.art_gallery.rules.phases import BID, GAME_OVER, MOVE, PICK, SHOP
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game

MAX_DECISIONS = 3000  # generous: random games take 240-450 decisions
NUM_VALUES = 9
MARKERS = 4
BAR = 6
PILE_START = (18, 14, 10, 6)

players = st.integers(min_value=2, max_value=6)
variants = st.booleans()
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def galleries(n: int) -> int:
    return 4 if n <= 3 else 6 if n == 4 else 8


def play_to_end(state: GameState, rng: random.Random, on_decision=None) -> int:
    """Random legal play to the end; returns the number of decisions (bounded)."""
    decisions = 0
    while not state.is_over:
        assert decisions < MAX_DECISIONS, "the game did not end within 3000 decisions (R6.3)"
        if on_decision is not None:
            on_decision(state)
        state.apply(rng.choice(state.legal_actions()))
        decisions += 1
    return decisions


# -- conservation (R1) -----------------------------------------------------------------
def explicit_card_counts(state: GameState) -> list[int]:
    """Action cards per value: hands + face up + face down + on the resolving space."""
    counts = [0] * NUM_VALUES
    for p in range(state.num_players):
        for v in range(NUM_VALUES):
            counts[v] += state.hands[p][v] + state.moved[p][v]
    resolving = state.phase in (SHOP, PICK)
    for area, bids in enumerate(state.bids):
        if resolving and area == state.dist_area:
            continue  # those cards are on space_cards (or already picked into hands)
        for _, value in bids:
            counts[value] += 1
    if resolving:
        for v in range(NUM_VALUES):
            counts[v] += state.space_cards[v]
    return counts


def check_conservation(state: GameState) -> None:
    n = state.num_players
    check_invariants(state)
    # R1.3: each value 0..8 once per player.
    assert explicit_card_counts(state) == [n] * NUM_VALUES
    assert card_counts_in_play(state) == [n] * NUM_VALUES
    # R1.2: the 48 tiles, each exactly once, in piles or held.
    tiles = [t for pile in state.tile_piles for t in pile] + [
        t for held in state.tiles_held for t in held
    ]
    assert sorted(tiles) == list(range(1, 49))
    assert all(len(pile) <= size for pile, size in zip(state.tile_piles, PILE_START))
    # R1.1: the 48 paintings, each exactly once.
    paintings = (
        [p for p in state.gallery_painting if p]
        + list(state.painting_pile)
        + [c for col in state.collections for c in col]
    )
    assert sorted(paintings) == list(range(1, 49))
    assert state.gallery_painting[0] == 0  # the Shop has no painting space
    assert len(state.gallery_painting) == galleries(n) + 1
    # R1.4/R4.4/R4.5: markers. At most 6 per bar, 4 per player; during the turns each
    # completed turn has put exactly one marker out.
    assert all(len(bids) <= BAR for bids in state.bids)
    out = Counter(owner for bids in state.bids for owner, _ in bids)
    assert all(0 <= p < n for p in out)
    assert all(k <= MARKERS for k in out.values())
    if state.phase in (MOVE, BID):
        for p in range(n):
            moves = sum(state.moved[p])
            bids_done = moves - (1 if state.phase == BID and p == state.current_player else 0)
            assert out[p] == bids_done
            # R4.2: a player holds 9 cards minus those played this round
            assert sum(state.hands[p]) + moves + out[p] == 9
        # R4.1: turns go clockwise from the round's starter
        assert state.current_player == (state.round_starter + state.turn) % n
    assert all(0 <= pos <= galleries(n) for pos in state.position)
    assert state.legal_actions(), "a decision point with no legal action"


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(n=players, zero_is_ten=variants, seed=seeds)
def test_conservation_at_every_decision(n: int, zero_is_ten: bool, seed: int) -> None:
    state = new_game(n, seed, zero_is_ten=zero_is_ten)
    phases = set()

    def check(s: GameState) -> None:
        phases.add(s.phase)
        check_conservation(s)

    play_to_end(state, random.Random(seed), check)
    check_invariants(state)
    assert explicit_card_counts(state) == [n] * NUM_VALUES
    assert phases >= {MOVE, BID}


# -- rounds (R6.1) and the end of the game (R6.3) ----------------------------------------
def empty_pile_limit(n: int) -> int:
    return 2 if n <= 3 else 3


@settings(max_examples=150, deadline=None)
@given(n=players, zero_is_ten=variants, seed=seeds)
def test_nine_cards_at_every_round_start_and_the_game_ends(
    n: int, zero_is_ten: bool, seed: int
) -> None:
    state = new_game(n, seed, zero_is_ten=zero_is_ten)
    rng = random.Random(seed)
    rounds_seen = 1
    decisions = 0

    def check_round_start(s: GameState) -> None:
        assert s.phase == MOVE and s.turn == 0
        assert s.current_player == s.round_starter == s.start_player  # R6.2
        for p in range(n):
            assert sum(s.hands[p]) == 9, f"player {p} starts round {s.round} with {s.hands[p]}"
            assert s.moved[p] == [0] * NUM_VALUES
        assert all(not bids for bids in s.bids), "markers return at the end of a round"
        assert all(s.gallery_painting[1:]), "every painting space is refilled (R6.3)"
        empty = sum(1 for pile in s.tile_piles if not pile)
        assert empty < empty_pile_limit(n), "the game should have ended (R6.3b)"

    check_round_start(state)
    while not state.is_over:
        assert decisions < MAX_DECISIONS
        if state.phase == MOVE and state.turn == 0:
            check_round_start(state)
        before = len(state.events)
        state.apply(rng.choice(state.legal_actions()))
        decisions += 1
        for kind, data in state.events[before:]:
            if kind == "round_start":
                rounds_seen += 1
                assert data["round"] == rounds_seen == state.round
                check_round_start(state)
    assert state.phase == GAME_OVER and state.legal_actions() == []
    assert state.events[-1][0] == "game_over"
    for p in range(n):
        assert sum(state.hands[p]) == 9 and state.moved[p] == [0] * NUM_VALUES
    # R6.3: at the end, the pile cannot refill the empty spaces or enough piles are empty.
    empty_spaces = sum(1 for g in state.gallery_painting[1:] if g == 0)
    empty_piles = sum(1 for pile in state.tile_piles if not pile)
    assert len(state.painting_pile) < empty_spaces or empty_piles >= empty_pile_limit(n)
    assert rounds_seen == state.round


# -- the final score (R7) --------------------------------------------------------------
def best_chain(collection: list[int], cards, row: int) -> int:
    """R7.1 by brute force: the best sum over all runs of one repeated symbol."""
    entries = [cards.painting(number).rows[row] for number in collection]
    best = 0
    for i in range(len(entries)):
        for j in range(i, len(entries)):
            run = entries[i : j + 1]
            if any(e is None for e in run):
                continue
            if len({e[0] for e in run}) == 1:
                best = max(best, sum(e[1] for e in run))
    return best


def expected_breakdown(state: GameState) -> list[dict]:
    n = state.num_players
    rows = []
    for p in range(n):
        collection = state.collections[p]
        chains = [best_chain(collection, state.cards, r) for r in range(4)]
        souvenirs = sum(3 if t in collection else 1 for t in state.tiles_held[p])  # R7.2
        hand = sum(v * k for v, k in enumerate(state.hands[p])) // 4  # R7.3
        start = 3 if p == state.start_player else 0  # R7.4
        rows.append(
            {
                "player": p,
                "rows": chains,
                "row_total": sum(chains),
                "souvenirs": souvenirs,
                "hand": hand,
                "start_card": start,
                "total": sum(chains) + souvenirs + hand + start,
                "tiles": len(state.tiles_held[p]),
            }
        )
    order = sorted(range(n), key=lambda p: (-rows[p]["total"], -rows[p]["tiles"]))  # R7.5
    for p in range(n):
        better = [
            q
            for q in order
            if (rows[q]["total"], rows[q]["tiles"])
            > (
                rows[p]["total"],
                rows[p]["tiles"],
            )
        ]
        rows[p]["rank"] = len(better) + 1
    return rows


@settings(max_examples=150, deadline=None)
@given(n=players, zero_is_ten=variants, seed=seeds)
def test_score_breakdown_recomputes_from_the_final_state(
    n: int, zero_is_ten: bool, seed: int
) -> None:
    state = new_game(n, seed, zero_is_ten=zero_is_ten)
    play_to_end(state, random.Random(seed))
    breakdown = state.score_breakdown()
    assert breakdown == expected_breakdown(state)
    # the start card goes to the last R4.7 award
    last_award = [d["player"] for k, d in state.events if k == "start_card"][-1]
    assert state.start_player == last_award
    # at least one winner, and rank 1 is exactly the best (total, tiles)
    best = max((b["total"], b["tiles"]) for b in breakdown)
    assert [b["player"] for b in breakdown if b["rank"] == 1] == [
        b["player"] for b in breakdown if (b["total"], b["tiles"]) == best
    ]
    # every painting awarded this game is in a collection, in award order (R5.4, R7.1)
    awarded = [[] for _ in range(n)]
    for kind, data in state.events:
        if kind == "painting":
            awarded[data["player"]].append(data["painting"])
    assert awarded == state.collections


# -- the env's action mask --------------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(n=players, zero_is_ten=variants, seed=st.integers(0, 2**31 - 1))
def test_env_action_mask_equals_engine_legal_actions(n: int, zero_is_ten: bool, seed: int) -> None:
    """The env's masks match an engine game played alongside with the same actions."""
    e = raw_env(num_players=n, zero_is_ten=zero_is_ten)
    e.reset(seed=seed)
    shadow = new_game(n, seed, zero_is_ten=zero_is_ten)
    rng = random.Random(seed)
    steps = 0
    while not shadow.is_over:
        assert steps < MAX_DECISIONS
        legal = shadow.legal_actions()
        current = f"player_{shadow.current_player}"
        assert e.agent_selection == current
        for agent in e.possible_agents:
            expected = np.zeros(47, dtype=np.int8)
            if agent == current:
                expected[legal] = 1
            assert np.array_equal(e.action_mask(agent), expected)
            assert np.array_equal(e.observe(agent)["action_mask"], expected)
        action = rng.choice(legal)
        e.step(action)
        shadow.apply(action)
        steps += 1
    assert all(e.terminations.values())
    assert e.state.to_dict() == shadow.to_dict()


# -- save / load -----------------------------------------------------------------------
@settings(max_examples=100, deadline=None)
@given(n=players, zero_is_ten=variants, seed=seeds, cut=st.integers(0, 500))
def test_to_dict_from_dict_round_trip_mid_game(
    n: int, zero_is_ten: bool, seed: int, cut: int
) -> None:
    state = new_game(n, seed, zero_is_ten=zero_is_ten)
    rng = random.Random(seed)
    for _ in range(cut):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    saved = state.to_dict()
    text = json.dumps(saved)
    loaded = GameState.from_dict(json.loads(text))
    assert loaded.to_dict() == saved
    assert json.dumps(loaded.to_dict()) == text
    assert loaded.legal_actions() == state.legal_actions()
    assert (loaded.current_player, loaded.phase) == (state.current_player, state.phase)
    assert loaded.score_breakdown() == state.score_breakdown()
    # continuing both with the same random choices reaches the same end
    play_to_end(state, random.Random(seed + 1))
    play_to_end(loaded, random.Random(seed + 1))
    assert loaded.score_breakdown() == state.score_breakdown()
    assert loaded.to_dict() == state.to_dict()


# -- clone -----------------------------------------------------------------------------
@settings(max_examples=100, deadline=None)
@given(n=players, zero_is_ten=variants, seed=seeds, cut=st.integers(0, 500))
def test_clone_is_equal_and_independent(n: int, zero_is_ten: bool, seed: int, cut: int) -> None:
    state = new_game(n, seed, zero_is_ten=zero_is_ten)
    rng = random.Random(seed)
    for _ in range(cut):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    state.legal_actions()  # fill the cache before cloning
    before = state.to_dict()
    legal_before = list(state.legal_actions())
    copy = state.clone()
    assert copy.to_dict() == before
    assert copy.legal_actions() == legal_before
    # playing the clone to the end does not touch the original
    play_to_end(copy, random.Random(seed + 2))
    assert state.to_dict() == before
    assert state.legal_actions() == legal_before
    # ... and the original, played the same way, reaches the same end
    if not state.is_over:
        play_to_end(state, random.Random(seed + 2))
        assert state.to_dict() == copy.to_dict()
    # direct mutation of the clone's containers does not reach the original either
    twin = state.clone()
    twin.hands[0][0] += 1
    twin.position[0] = -1
    twin.bids[0].append((0, 0))
    twin.tile_piles[0].append(999)
    twin.tiles_held[0].append(999)
    twin.collections[0].append(999)
    twin.painting_pile.append(999)
    twin.events.append(("bogus", {}))
    assert state.to_dict() == copy.to_dict()


def test_clone_does_not_share_the_legal_action_list() -> None:
    """``clone()`` promises a deep copy sharing only immutable data; the cached list of
    legal actions is mutable and is handed out by ``legal_actions()``, so a search agent
    that pops tried actions from its node's list must not change another state's list."""
    state = new_game(3, 1)
    original = list(state.legal_actions())
    copy = state.clone()
    copy.legal_actions().remove(original[0])
    assert state.legal_actions() == original, (
        "clone() shares the cached _legal list with the original (GameState.clone: "
        "`other._legal = self._legal`)"
    )
