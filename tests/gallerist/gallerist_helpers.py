"""Helpers for the Gallerist tests: set up a game, edit a position, act by name.

(A plain module, not a conftest: tests/rules has its own conftest and helpers.)
"""

from __future__ import annotations

import random

from art_gallery_env.games.gallerist.rules.actions import action_to_str, str_to_action
from art_gallery_env.games.gallerist.rules.invariants import check_invariants
from art_gallery_env.games.gallerist.rules.state import GameState, new_game

LOC = {"colony": 0, "sales": 1, "media": 2, "market": 3}


def started(
    n: int = 2, seed: int = 0, starts: tuple[str, ...] | None = None, first: int = 0
) -> GameState:
    """A game past the start-location choices (G2.14), at the first turn of ``first``.

    ``starts[p]`` names player p's start location (default colony, sales, media, market)."""
    s = new_game(n, seed, start_player=first)
    starts = starts or ("colony", "sales", "media", "market")[:n]
    while s.phase_name == "start":
        do(s, f"start {starts[s.current_player]}")
    assert s.phase_name == "turn" and s.current_player == first
    return s


def refresh(s: GameState) -> GameState:
    """After editing fields by hand: drop the cached legal actions and check the rules."""
    s._legal = None
    check_invariants(s)
    return s


def names(s: GameState) -> list[str]:
    return [action_to_str(a) for a in s.legal_actions()]


def do(s: GameState, *actions: str) -> GameState:
    """Apply actions by name, each of which must be legal."""
    for name in actions:
        action = str_to_action(name)
        assert action in s.legal_actions(), f"{name!r} is not legal; legal: {names(s)}"
        s.apply(action)
    return s


def pay_cash(s: GameState) -> GameState:
    """Answer a pending 'pay' decision (G10.2): no more influence for money than cash lacks."""
    while s.phase_name == "pay":
        do(s, "done")
    return s


def give_artist(s: GameState, slot: int, fame: int | None = None) -> None:
    """Make artist ``slot`` discovered (without a commission) at ``fame``."""
    d = s.data
    if not s.discovered[slot]:
        if s.artist_bonus[slot] != -1:
            s.box_bonus_tiles.append(s.artist_bonus[slot])
            s.box_bonus_tiles.sort()
            s.artist_bonus[slot] = -1
        if s.artist_collector[slot]:
            s.artist_collector[slot] = False
            s.plaza[2] += 1
        s.discovered[slot] = True
    s.fame[slot] = d.artists[s.artist_tile[slot]].initial_fame if fame is None else fame


def give_work(s: GameState, p: int, slot: int) -> int:
    """Put the top work of artist ``slot``'s form into ``p``'s gallery (signature token too)."""
    form = slot // 2
    work = s.stacks[form].pop()
    for c in range(3):
        s.plaza[c] += s.work_visitors[form][c]
        s.work_visitors[form][c] = 0
    s.tokens[slot] -= 1
    s.work_artist[work] = slot
    s.gallery[p].append(work)
    if s.stacks[form]:
        for _ in s.data.works[s.stacks[form][-1]].tickets:
            if s.bag:
                s.work_visitors[form][s.bag.pop()] += 1
    return work


def move_visitors(s: GameState, colour: int, count: int, target: list[int]) -> None:
    """Move ``count`` visitors of ``colour`` from the bag (else the Plaza) into ``target``."""
    for _ in range(count):
        if colour in s.bag:
            s.bag.remove(colour)
        else:
            assert s.plaza[colour] > 0, "no such visitor left"
            s.plaza[colour] -= 1
        target[colour] += 1


def give_tickets(s: GameState, p: int, colour: int, count: int) -> None:
    s.box_office[colour] -= count
    s.tickets[p][colour] += count


def play_random(s: GameState, rng: random.Random, max_decisions: int = 100_000) -> GameState:
    for _ in range(max_decisions):
        if s.is_over:
            return s
        s.apply(rng.choice(s.legal_actions()))
    raise AssertionError("the game did not end")


def fix_visitors(s: GameState) -> None:
    """After an edit: return surplus visitors of a colour to the bag's bottom, or take
    missing ones from the bag, so every colour is conserved again."""
    from art_gallery_env.games.gallerist.rules.invariants import visitors_in_play

    have = visitors_in_play(s)
    for c, want in enumerate(s.data.visitors):
        while have[c] > want:
            if c in s.bag:
                s.bag.remove(c)
            else:
                s.plaza[c] -= 1
            have[c] -= 1
        while have[c] < want:
            s.bag.insert(0, c)
            have[c] += 1
