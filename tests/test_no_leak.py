"""R8: an observation holds what its observer may know and nothing more.

Two states that differ only in what the observer cannot see must give the observer the same
observation. The conformance suite (tests/conformance/) checks this for every game with
worlds from ``state.determinize(observer, rng)``; here the states compared are Art Gallery's
own perturbations (painting pile order, tiles below the pile tops, which of an opponent's
unlocated cards are in hand and which under each face-down bid), and determinize is held to
the rules: its worlds keep every public field and the invariants. The test shows it has
teeth: the perturbed states really do differ in hidden fields, changing a field the
observer *can* see changes the vector, and other observers' vectors differ.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from game_states import bid_swapped_with_hand

from art_gallery_env.games.art_gallery.env.observation import ObservationEncoder
from art_gallery_env.games.art_gallery.rules.invariants import check_invariants
from art_gallery_env.games.art_gallery.rules.phases import BID, MOVE, PICK, SHOP
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game

GAMES = [(n, seed) for n in range(2, 7) for seed in (3, 8)]
RNG_SEEDS = (0, 1, 2)


def distributing(state: GameState) -> bool:
    return state.phase in (SHOP, PICK)


def hidden_slots(state: GameState, player: int) -> list[tuple[int, int]]:
    """(area, marker) of ``player``'s bids that are still face down (R8)."""
    slots = []
    for area, bids in enumerate(state.bids):
        revealed = distributing(state) and area <= state.dist_area
        if revealed:
            continue
        slots += [(area, k) for k, (owner, _) in enumerate(bids) if owner == player]
    return slots


def sample_states(n: int, seed: int) -> list[GameState]:
    """Snapshots of one random game: turn phases and distribution phases."""
    state = new_game(n, seed, zero_is_ten=bool(seed % 2))
    rng = random.Random(seed)
    snaps = []
    while not state.is_over:
        keep = 0.35 if distributing(state) else 0.08
        if rng.random() < keep:
            snaps.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    snaps.append(state.clone())  # game over: everything but the piles is public
    return snaps


def perturb_hidden(state: GameState, observer: int, rng: random.Random) -> GameState:
    """A state in ``observer``'s information set, built without ``determinize``."""
    s = state.clone()
    rng.shuffle(s.painting_pile)
    below = [t for pile in s.tile_piles for t in pile[:-1]]
    rng.shuffle(below)
    for pile in s.tile_piles:
        if len(pile) > 1:
            pile[:-1] = below[: len(pile) - 1]
            del below[: len(pile) - 1]
    bid_event = {}
    for i in range(len(s.events) - 1, -1, -1):
        kind, data = s.events[i]
        if kind == "round_start":
            break
        if kind == "bid":
            bid_event[(data["area"], data["marker"])] = i
    for q in range(s.num_players):
        if q == observer:
            continue
        slots = hidden_slots(s, q)
        pool = [s.bids[a][k][1] for a, k in slots]
        in_hand = 0
        if not distributing(s) and not s.is_over:
            in_hand = sum(s.hands[q])
            pool += [v for v in range(9) for _ in range(s.hands[q][v])]
        rng.shuffle(pool)
        for (a, k), value in zip(slots, pool):
            s.bids[a][k] = (q, value)
            i = bid_event[(a, k)]
            s.events[i] = ("bid", {**s.events[i][1], "value": value})
        if in_hand:
            s.hands[q] = [0] * 9
            for value in pool[len(slots) :]:
                s.hands[q][value] += 1
    s._legal = None
    return s


def hidden_fields(state: GameState, observer: int) -> dict:
    """The fields R8 hides from ``observer`` (used to show that worlds really differ)."""
    others = [q for q in range(state.num_players) if q != observer]
    return {
        "painting_pile": list(state.painting_pile),
        "tile_piles": [list(p) for p in state.tile_piles],
        "bids": [[b for b in bids if b[0] != observer] for bids in state.bids],
        "hands": [list(state.hands[q]) for q in others],
    }


def public_fields(state: GameState, observer: int) -> dict:
    return {
        "phase": state.phase,
        "current_player": state.current_player,
        "position": list(state.position),
        "moved": [list(m) for m in state.moved],
        "collections": [list(c) for c in state.collections],
        "tiles_held": [list(t) for t in state.tiles_held],
        "gallery_painting": list(state.gallery_painting),
        "pile_tops": [(len(p), p[-1] if p else None) for p in state.tile_piles],
        "painting_pile_size": len(state.painting_pile),
        "start_player": state.start_player,
        "markers": [[owner for owner, _ in bids] for bids in state.bids],
        "own_hand": list(state.hands[observer]),
        "own_bids": [[b for b in bids if b[0] == observer] for bids in state.bids],
        "space_cards": list(state.space_cards),
        # an opponent's legal moves depend on its hidden hand; the observer's do not
        "legal": list(state.legal_actions())
        if state.current_player == observer or distributing(state)
        else None,
    }


@pytest.mark.parametrize(("n", "seed"), GAMES)
def test_hidden_information_does_not_change_the_observation(n: int, seed: int) -> None:
    states = sample_states(n, seed)
    phases = {s.phase for s in states}
    assert {MOVE, BID, SHOP, PICK} <= phases, f"sampled phases {phases}"
    truth_encoder = ObservationEncoder(states[0].cards)  # long-lived, as in the env
    world_encoder = ObservationEncoder(states[0].cards)
    differs = compared = 0
    for index, state in enumerate(states):
        for observer in range(n):
            truth = truth_encoder.encode(state, observer)
            world = perturb_hidden(state, observer, random.Random(seed * 1000 + index))
            check_invariants(world)
            assert public_fields(world, observer) == public_fields(state, observer)
            where = np.flatnonzero(world_encoder.encode(world, observer) != truth)
            assert where.size == 0, (
                f"{n} players, seed {seed}, state {index} ({state.phase_name}), observer "
                f"{observer}: observation differs at indices {where[:10].tolist()}"
            )
            compared += 1
            differs += hidden_fields(world, observer) != hidden_fields(state, observer)
    # teeth: most worlds really differ in what is hidden (pile orders at the very least)
    assert differs > 0.8 * compared, f"only {differs} of {compared} worlds differ"


@pytest.mark.parametrize(("n", "seed"), GAMES)
def test_determinized_worlds_keep_the_public_fields_and_the_invariants(n: int, seed: int):
    """R8 for determinize itself: it resamples only what the observer cannot see."""
    for state in sample_states(n, seed):
        for observer in range(n):
            for k in RNG_SEEDS:
                world = state.determinize(observer, random.Random(k))
                check_invariants(world)
                assert public_fields(world, observer) == public_fields(state, observer)


@pytest.mark.parametrize(("n", "seed"), GAMES)
def test_the_comparison_has_teeth(n: int, seed: int) -> None:
    """Changing what an observer may see changes its observation, and so do opponents'
    hidden cards for the opponents themselves."""
    states = sample_states(n, seed)
    encoder = ObservationEncoder(states[0].cards)
    own_changed = other_changed = 0
    for index, state in enumerate(states):
        vectors = [encoder.encode(state, p) for p in range(n)]
        for p in range(n):
            for q in range(p + 1, n):
                assert not np.array_equal(vectors[p], vectors[q]), (
                    f"observers {p} and {q} get the same observation"
                )
        for observer in range(n):
            world = perturb_hidden(state, observer, random.Random(index))
            # the opponents whose hidden cards moved see the change in their own vector
            for q in range(n):
                if q != observer and (
                    world.hands[q] != state.hands[q]
                    or [b for bids in world.bids for b in bids if b[0] == q]
                    != [b for bids in state.bids for b in bids if b[0] == q]
                ):
                    assert not np.array_equal(encoder.encode(world, q), vectors[q])
                    other_changed += 1
            # swapping one of the observer's own face-down bids with a card in its hand
            # (something it knows) changes its vector
            if state.phase in (MOVE, BID):
                for area, k in hidden_slots(state, observer):
                    changed = bid_swapped_with_hand(state, area, k)
                    if changed is None:
                        continue
                    assert not np.array_equal(encoder.encode(changed, observer), vectors[observer])
                    own_changed += 1
                    break
    assert own_changed > 0 and other_changed > 0


@pytest.mark.parametrize(("n", "seed"), GAMES)
def test_determinize_depends_only_on_the_information_set(n: int, seed: int) -> None:
    """Two states in one information set and one rng seed give one world."""
    states = sample_states(n, seed)
    changed = 0
    for index, state in enumerate(states[::2]):
        for observer in range(n):
            twin = perturb_hidden(state, observer, random.Random(index + 17))
            check_invariants(twin)
            changed += hidden_fields(twin, observer) != hidden_fields(state, observer)
            for k in RNG_SEEDS:
                a = state.determinize(observer, random.Random(k))
                b = twin.determinize(observer, random.Random(k))
                assert a.to_dict() == b.to_dict()
            # and a world determinized from a world is the same again
            w = state.determinize(observer, random.Random(5))
            assert (
                w.determinize(observer, random.Random(9)).to_dict()
                == state.determinize(observer, random.Random(9)).to_dict()
            )
    assert changed > 0


@pytest.mark.parametrize("n", range(2, 7))
def test_determinized_worlds_hide_the_seed_and_others_bid_values(n: int) -> None:
    """A world handed to a search agent must not carry the truth in its event log."""
    state = new_game(n, 5)
    rng = random.Random(5)
    while not (state.phase == MOVE and state.turn == 2 * n):
        state.apply(rng.choice(state.legal_actions()))
    for observer in range(n):
        world = state.determinize(observer, random.Random(1))
        assert world.events[0][0] == "setup" and world.events[0][1]["seed"] is None
        for kind, data in world.events:
            if kind == "bid":
                if data["player"] == observer:
                    assert data["value"] is not None
                else:
                    assert data["value"] is None
        # the world still plays to the end
        while not world.is_over:
            world.apply(rng.choice(world.legal_actions()))
