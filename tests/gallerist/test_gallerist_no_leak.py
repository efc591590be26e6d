"""G18: an observation holds what its observer may know and nothing more.

Two states that differ only in what the observer cannot see must give the observer the same
observation. The conformance suite (tests/conformance/) checks this for every game with
worlds from ``state.determinize(observer, rng)``; here the states compared are perturbed by
this test's own code (the contract deck's order, the bag's order, the works below each
stack's top, which Curator and Art Dealer cards the other players hold). The test shows it
has teeth: the perturbed states really differ in hidden fields, changing something the
observer *can* see changes the vector, and the observer's own cards are in it.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from art_gallery_env.games.gallerist.env.observation import encode
from art_gallery_env.games.gallerist.rules.invariants import check_invariants
from art_gallery_env.games.gallerist.rules.state import GameState, new_game

GAMES = [(n, seed) for n in (1, 2, 3, 4) for seed in (3, 8)]


def snapshots(n: int, seed: int) -> list[GameState]:
    s = new_game(n, seed)
    rng = random.Random(seed)
    snaps = [s.clone()]
    while not s.is_over:
        if rng.random() < 0.06:
            snaps.append(s.clone())
        s.apply(rng.choice(s.legal_actions()))
    snaps.append(s.clone())
    return snaps


def perturb_hidden(s: GameState, observer: int, rng: random.Random) -> GameState:
    """A state in ``observer``'s information set, built without ``determinize``."""
    t = s.clone()
    rng.shuffle(t.deck)
    rng.shuffle(t.bag)
    for stack in t.stacks:
        below = stack[:-1]
        rng.shuffle(below)
        stack[:-1] = below
    for dealt, box in ((t.curator, t.box_curators), (t.dealer, t.box_dealers)):
        others = [q for q in range(t.num_players) if q != observer]
        pool = [dealt[q] for q in others] + box
        rng.shuffle(pool)
        for q in others:
            dealt[q] = pool.pop()
        box[:] = pool
    t._legal = None
    return t


def hidden(s: GameState, observer: int) -> tuple:
    others = [q for q in range(s.num_players) if q != observer]
    return (
        tuple(s.deck),
        tuple(s.bag),
        tuple(tuple(st) for st in s.stacks),
        tuple(s.curator[q] for q in others),
        tuple(s.dealer[q] for q in others),
    )


@pytest.mark.parametrize("n, seed", GAMES)
def test_G18_observations_equal_across_the_observers_information_set(n: int, seed: int):
    differed = 0
    for s in snapshots(n, seed):
        for observer in range(n):
            mine = encode(s, observer)
            for k in range(2):
                other = perturb_hidden(s, observer, random.Random(100 + k))
                check_invariants(other)
                differed += hidden(other, observer) != hidden(s, observer)
                assert np.array_equal(encode(other, observer), mine)
    assert differed > 0  # the perturbations really changed hidden fields


def test_the_no_leak_check_has_teeth():
    s = snapshots(3, 5)[3]
    base = np.array(encode(s, 0))
    public = s.clone()
    public.money[1] += 5  # visible to everyone
    assert not np.array_equal(np.array(encode(public, 0)), base)
    own = s.clone()
    own.curator[0], own.box_curators[0] = own.box_curators[0], own.curator[0]
    assert not np.array_equal(np.array(encode(own, 0)), base)  # its own card is seen
    assert np.array_equal(np.array(encode(own, 1)), np.array(encode(s, 1)))  # others' not
    assert not np.array_equal(encode(s, 1), encode(s, 0))  # seats are relative
