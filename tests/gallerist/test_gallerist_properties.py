"""Property tests over random Gallerist games at 1-4 players.

Each example draws (num_players, seed) and plays uniformly random legal actions chosen by a
seeded ``random.Random``. At every decision the test counts the limited components itself
(G1.11: visitors, tickets, assistants, works, signature tokens, reputation tiles) rather
than trusting the engine's own checker, which also runs. Money and influence are never
negative (G10.4) and every game ends (G15.3). The fast run plays a few dozen games; the
slow one (``-m slow``) plays 2,000.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from art_gallery_env.games.gallerist.rules.game import MAX_ROUNDS
from art_gallery_env.games.gallerist.rules.invariants import check_invariants
from art_gallery_env.games.gallerist.rules.scoring import public_scores
from art_gallery_env.games.gallerist.rules.state import EMPTY, LACERDA, GameState, new_game

MAX_DECISIONS = 5000
players = st.integers(min_value=1, max_value=4)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def visitor_counts(s: GameState) -> list[int]:
    """Every visitor by colour, wherever it is (written apart from the engine's checker).
    Column sums and Counter's C loop: this runs at every decision of 2,000 games."""
    colours = len(s.data.visitors)
    places = [s.plaza, s.box_visitors, *s.work_visitors, *s.lobby, *s.gallery_visitors]
    assert all(len(place) == colours for place in places)
    counts = [sum(column) for column in zip(*places)]
    bag = Counter(s.bag)
    assert set(bag) <= set(range(colours)), f"bag colours {sorted(bag)}"
    for colour, k in bag.items():
        counts[colour] += k
    counts[2] += sum(map(bool, s.artist_collector))
    return counts


def assistant_counts(s: GameState) -> list[int]:
    """Assistants by owner (seats 0-3, LACERDA 4), wherever they are; a list, not a
    Counter: this runs at every decision of 2,000 games."""
    counts = [0] * (LACERDA + 1)
    for p in range(s.num_players):
        counts[p] += s.queue[p] + s.desks[p] + s.removed[p]
        counts[p] += sum(slot[2] for slot in s.contracts[p])
    counts[LACERDA] += s.lacerda_supply
    owners = [code // 2 for code in s.occupant if code != EMPTY and code % 2 == 1]
    owners += [owner for owner in s.market_upper + s.market_lower if owner != EMPTY]
    if s.kicked is not None and s.kicked[1] == 1:
        owners.append(s.kicked[0])
    assert all(0 <= owner <= LACERDA for owner in owners), f"assistant owners {owners}"
    for owner in owners:
        counts[owner] += 1
    return counts


def check_components(s: GameState) -> None:
    d = s.data
    assert visitor_counts(s) == list(d.visitors)
    tickets = [
        s.box_office[c] + s.ticket_discard[c] + s.box_tickets[c] + sum(t[c] for t in s.tickets)
        for c in range(3)
    ]
    assert tickets == [20, 20, 20]
    expected = [10 if p < s.num_players else 0 for p in range(LACERDA)] + [10 * s.solo]
    assert assistant_counts(s) == expected
    works = [w for st_ in s.stacks for w in st_] + s.easels + s.box_works + s.renowned
    works += [w for g in s.gallery for w in g] + [w for x in s.sold for w in x]
    assert sorted(w for w in works if w != EMPTY) == list(range(32))
    signatures = sum(s.tokens) + sum(c != EMPTY for c in s.commission)
    assert signatures + sum(len(g) for g in s.gallery) == 16
    tiles = s.market_tiles + s.location_tiles + s.start_tile + s.pending_tile
    tiles += [t for sp in s.spaces for t in sp] + s.box_tiles + s.tile_discard
    assert sorted(t for t in tiles if t != EMPTY) == list(range(20))
    assert min(s.money) >= 0 and min(s.influence) >= 0
    assert max(s.influence) <= d.influence_max


def play_checked(n: int, seed: int, engine_checks: bool = True) -> GameState:
    s = new_game(n, seed)
    rng = random.Random(seed)
    decisions = 0
    while not s.is_over:
        assert decisions < MAX_DECISIONS
        check_components(s)
        if engine_checks:
            check_invariants(s)
        legal = s.legal_actions()
        assert len(legal) >= 2 and legal == sorted(set(legal))
        assert all(s.current_player == p for p in [s.frames[-1][1]])
        s.apply(rng.choice(legal))
        decisions += 1
    check_components(s)
    assert s.round <= MAX_ROUNDS + 1  # G15.3: every game ends
    return s


def check_final(s: GameState) -> None:
    breakdown = s.score_breakdown()
    parts = (
        "money", "majorities", "auction", "reputation", "exhibition", "curator", "dealer",
        "influence",
    )  # fmt: skip
    public = public_scores(s)  # what the observation shows: the cards left out
    for row in breakdown:
        assert row["total"] == sum(row[k] for k in parts)
        assert public[row["player"]] == row["total"] - row["curator"] - row["dealer"]
        assert min(row[k] for k in parts) >= 0
    best = max(r["total"] for r in breakdown)
    assert any(r["rank"] == 1 for r in breakdown)
    assert all(r["total"] == best for r in breakdown if r["rank"] == 1)
    if s.solo:
        assert 0 <= breakdown[0]["goal_level"] <= 3


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda s: s.bag.append(0),  # a visitor too many
        lambda s: s.bag.append(7),  # a colour that does not exist
        lambda s: s.plaza.append(0),  # a place with a fourth colour
        lambda s: s.queue.__setitem__(0, s.queue[0] - 1),  # an assistant lost
        lambda s: s.market_lower.__setitem__(0, 9),  # an owner that is no seat
        lambda s: s.box_works.append(s.easels[0]),  # a work in two places
    ],
)
def test_the_component_checker_catches_a_corrupted_state(corrupt) -> None:
    """The test's own counting (fast enough for every decision of 2,000 games) still
    fails on a state with one component wrong."""
    s = new_game(3, 5)
    rng = random.Random(1)
    for _ in range(60):
        s.apply(rng.choice(s.legal_actions()))
    check_components(s)
    corrupt(s)
    with pytest.raises(AssertionError):
        check_components(s)


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players, seeds)
def test_random_games_conserve_components_and_end(n: int, seed: int) -> None:
    check_final(play_checked(n, seed))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players, seeds, st.floats(min_value=0.05, max_value=0.95))
def test_clone_and_json_mid_game_continue_identically(n: int, seed: int, at: float) -> None:
    s = new_game(n, seed)
    rng = random.Random(seed)
    for _ in range(int(300 * at)):  # random games last about 100-500 decisions
        if s.is_over:
            break
        s.apply(rng.choice(s.legal_actions()))
    copies = [s.clone(), GameState.from_dict(json.loads(json.dumps(s.to_dict())))]
    state_rng = rng.getstate()
    for other in [s, *copies]:
        r = random.Random()
        r.setstate(state_rng)
        while not other.is_over:
            other.apply(r.choice(other.legal_actions()))
    assert copies[0].to_dict() == s.to_dict() == copies[1].to_dict()
    assert copies[1].score_breakdown() == s.score_breakdown()


@pytest.mark.parametrize("n", [1, 2, 4])
def test_clone_copies_every_slot_and_shares_no_list(n: int) -> None:
    """clone() is written out field by field (for speed): a slot added to GameState and
    left out there, or a list shared with the original, fails here."""
    s = new_game(n, 5)
    rng = random.Random(5)
    for _ in range(40):
        if s.is_over:
            break
        s.apply(rng.choice(s.legal_actions()))
    c = s.clone()
    for name in GameState.__slots__:
        if name == "_legal":
            continue
        mine, theirs = getattr(s, name), getattr(c, name)
        assert theirs == mine, name
        if isinstance(mine, list):
            assert theirs is not mine, name
            inner = [(x, y) for x, y in zip(mine, theirs) if isinstance(x, list)]
            assert all(x is not y for x, y in inner), name
            deeper = [(a, b) for x, y in inner for a, b in zip(x, y) if isinstance(a, list)]
            assert all(a is not b for a, b in deeper), name


@pytest.mark.parametrize("n", [1, 3])
def test_after_is_clone_then_apply_and_leaves_the_state_alone(n: int) -> None:
    """GameState.after(action) (the search agents' step): the clone keeps the parent's
    cached legal actions, so it must end exactly where clone() + apply() ends."""
    s = new_game(n, 11)
    rng = random.Random(11)
    for _ in range(60):
        if s.is_over:
            break
        before = s.to_dict()
        action = rng.choice(s.legal_actions())
        child = s.after(action)
        plain = s.clone()
        plain.apply(action)
        assert s.to_dict() == before
        assert child.to_dict() == plain.to_dict()
        assert child.legal_actions() == plain.legal_actions()
        s = child


@pytest.mark.slow
def test_two_thousand_random_games_at_one_to_four_players() -> None:
    """The acceptance run: 2,000 games, 500 per table size, components checked at every
    decision (the engine's own checker too, every tenth game)."""
    for n in (1, 2, 3, 4):
        for seed in range(500):
            check_final(play_checked(n, 10_000 * n + seed, engine_checks=seed % 10 == 0))
