"""The Gallerist's agents: legal at every table size through the shared game loop,
reproducible, deciding only on the seat's information set, and stronger than random."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gallerist_helpers import do, give_artist, refresh, started
from game_states import gallerist_twin, legal_mask, random_moves

from art_gallery_env.agents.random_agent import RandomAgent
from art_gallery_env.arena.loop import play_game
from art_gallery_env.games.gallerist.agents import GalleristHeuristicAgent
from art_gallery_env.games.gallerist.agents.heuristic import HeuristicPolicy
from art_gallery_env.games.gallerist.env.seat import GalleristSeatObserver
from art_gallery_env.games.gallerist.rules.actions import (
    ARTIST_BASE,
    NUM_ACTIONS,
    USE_COMMISSION,
    USE_TOKEN,
    action_to_str,
)
from art_gallery_env.games.gallerist.rules.hidden import PlayerView
from art_gallery_env.games.gallerist.rules.state import new_game


def play(agents, seed: int):
    for i, agent in enumerate(agents):
        agent.reset(1000 * seed + i)
    state = new_game(len(agents), seed)
    return play_game(state, agents, GalleristSeatObserver())


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_heuristic_and_random_play_legal_whole_games(n: int) -> None:
    agents = [GalleristHeuristicAgent() if i % 2 == 0 else RandomAgent() for i in range(n)]
    result = play(agents, seed=n)
    assert len(result.breakdown) == n and sum(result.decisions) == len(result.actions) > 20


def test_agents_are_reproducible() -> None:
    first = play([GalleristHeuristicAgent(), RandomAgent()], seed=3)
    again = play([GalleristHeuristicAgent(), RandomAgent()], seed=3)
    assert first.actions == again.actions and first.breakdown == again.breakdown


def test_heuristic_decides_on_the_information_set_only() -> None:
    s = random_moves(new_game(3, 4), 40, 4)
    assert not s.is_over
    seat = s.current_player
    other = gallerist_twin(s, seat)  # another state of the same information set
    mask = legal_mask(s, NUM_ACTIONS)
    a = GalleristHeuristicAgent(seed=7).act(None, mask, PlayerView(s, seat))
    b = GalleristHeuristicAgent(seed=7).act(None, mask, PlayerView(other, seat))
    assert a == b and mask[a]


def test_without_a_view_the_heuristic_still_plays_legally() -> None:
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[[3, 17, 40]] = 1
    agent = GalleristHeuristicAgent(seed=1)
    assert {agent.act(None, mask) for _ in range(30)} <= {3, 17, 40}


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("every_artist_face_up", [False, True])
def test_G6_3_heuristic_keeps_a_commission_only_where_it_blocks_no_discovery(
    seed: int, every_artist_face_up: bool
) -> None:
    """At the initial fame both ways cost the same. "use token" keeps the commission, which
    stops every discovery while it is held (G6.2): the heuristic uses the commission while an
    artist is face down (the old flat credit for a commission took the token, and solo goal
    levels fell from 26 to 10 of 160 seeds), and keeps it when nothing is left to discover."""
    s = started(1, seed, starts=("market",))
    blue = next(a for a in range(8) if a % 2 == 0 and not s.discovered[a])
    for artist in range(8) if every_artist_face_up else [blue]:
        give_artist(s, artist)
    s.tokens[blue] -= 1  # the discovery put one on the commission space (G6.1)
    s.commission[0] = blue
    refresh(s)
    do(s, "colony buy", "assistant none")
    if s.phase_name == "artist":
        do(s, action_to_str(ARTIST_BASE + blue))
    assert s.phase_name == "commission" and s.legal_actions() == [USE_COMMISSION, USE_TOKEN]
    choice = HeuristicPolicy().choose(s.clone(), random.Random(seed))
    assert choice == (USE_TOKEN if every_artist_face_up else USE_COMMISSION)


@pytest.mark.slow
def test_heuristic_beats_random_in_fixed_games() -> None:
    """A regression smoke check (fixed seeds, so it cannot flake); the measured rate over
    400 games is in docs/gallerist.md and the slow test below."""
    wins = 0
    for seed in range(6):
        seat = seed % 2
        agents = [RandomAgent(), RandomAgent()]
        agents[seat] = GalleristHeuristicAgent()
        wins += seat in play(agents, seed).winners
    assert wins >= 5


@pytest.mark.slow
def test_heuristic_wins_at_least_90_percent_of_100_two_player_games() -> None:
    """docs/gallerist.md measures 97.5 % over 400 games; at that rate fewer than 90 wins of
    100 has a chance of 4e-5 (the seeds are fixed, so it cannot flake); 200 games were over
    five minutes of the suite on a busy machine (and 400 before that)."""
    wins = 0
    for seed in range(100):
        seat = seed % 2
        agents = [RandomAgent(), RandomAgent()]
        agents[seat] = GalleristHeuristicAgent()
        result = play(agents, 50_000 + seed)
        wins += seat in result.winners and len(result.winners) == 1
    assert wins >= 90, wins


@pytest.mark.slow
def test_heuristic_reaches_the_solo_goal_levels_in_fixed_games() -> None:
    """A regression check of the solo heuristic on fixed seeds (it cannot flake); the
    shares are in docs/gallerist.md. Under gallerist_v1 it reaches a goal level in 22 of
    seeds 0..159 (4, 7, 6, 5 per 40: 4 of these), and 26 under v0's rules; before the kept
    commission was valued (G6.3 "use token" 1-2 times a game) it was 10 of 160, 1 of these."""
    levels = [
        play([GalleristHeuristicAgent()], 50_000 + seed).breakdown[0]["goal_level"]
        for seed in range(40)
    ]
    assert sum(level >= 1 for level in levels) >= 3, levels
