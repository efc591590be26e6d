"""Shared helpers for the agent tests."""

from __future__ import annotations

import random

from art_gallery_env.arena.loop import GameResult, play_game
from art_gallery_env.games.art_gallery.heuristic import HeuristicPolicy
from art_gallery_env.games.art_gallery.rules.hidden import bid_is_hidden
from art_gallery_env.games.art_gallery.rules.phases import BID, MOVE
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game


def mid_round_state(num_players: int, seed: int, phases=(MOVE, BID)) -> GameState:
    """A state where the current player faces a choice in one of ``phases`` and at least one
    rival has a face-down bid (so there is hidden information to get wrong)."""
    rng = random.Random(seed)
    for attempt in range(200):
        state = new_game(num_players, seed * 1000 + attempt)
        for _ in range(rng.randrange(10, 120)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over or state.phase not in phases or len(state.legal_actions()) < 2:
            continue
        if any(_movable(state, q) for q in range(num_players) if q != state.current_player):
            return state
    raise AssertionError("no suitable state found")


def twin_state(state: GameState, seed: int) -> GameState:
    """A state in the same information set of the current player, with rivals' hidden
    cards (hand / face-down bids) placed differently."""
    me = state.current_player
    for k in range(50):
        other = state.determinize(me, random.Random(seed * 100 + k))
        if other.bids != state.bids or other.hands != state.hands:
            return other
    raise AssertionError("could not find a different state in the information set")


def hidden_bid_values(state: GameState, player: int) -> list[int]:
    """The values of ``player``'s face-down bids (what its rivals cannot see)."""
    return [
        value
        for area, bids in enumerate(state.bids)
        if bid_is_hidden(state, area)
        for owner, value in bids
        if owner == player
    ]


def _movable(state: GameState, rival: int) -> bool:
    """Whether ``rival`` has a face-down bid that could hold another of its unlocated cards."""
    bids = hidden_bid_values(state, rival)
    pool = set(bids)
    if state.phase in (MOVE, BID):
        pool.update(v for v in range(9) if state.hands[rival][v])
    return bool(bids) and len(pool) > 1


def play_seeded(
    agents: list,
    seed: int,
    agent_seeds: list[int] | None = None,
    max_decisions: int | None = None,
) -> GameResult:
    """One game through the arena's game loop: a game seed, optional agent seeds."""
    if agent_seeds is not None:
        for agent, agent_seed in zip(agents, agent_seeds, strict=True):
            agent.reset(agent_seed)
    return play_game(new_game(len(agents), seed), agents, max_decisions=max_decisions)


def heuristic_positions(
    count: int, seed: int, players=(2, 3, 4, 5, 6), min_legal: int = 2, max_stop: int = 90
) -> list[GameState]:
    """``count`` decisions from heuristic self-play (table sizes cycled) with at least
    ``min_legal`` legal actions, each after 4 to ``max_stop`` decisions."""
    policy = HeuristicPolicy()
    found = []
    for i in range(count):
        rng = random.Random(seed + i)
        state = new_game(players[i % len(players)], seed + i)
        stop = rng.randrange(4, max_stop)
        for k in range(10_000):
            if k >= stop and len(state.legal_actions()) >= min_legal:
                break
            state.apply(policy.choose(state, rng))
            if state.is_over:
                state = new_game(state.num_players, seed + 1000 + k)
        found.append(state)
    return found
