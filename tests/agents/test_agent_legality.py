"""Every agent only ever plays legal actions (R4-R5 legality as the env's mask encodes it),
at every table size, in whole games through the env."""

from __future__ import annotations

import numpy as np
import pytest
from agent_test_helpers import play_seeded

from art_gallery_env.agents import ISMCTSAgent, RandomAgent, make_agent
from art_gallery_env.games.art_gallery.env.aec import raw_env
from art_gallery_env.games.art_gallery.heuristic import HeuristicAgent


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_heuristic_and_random_play_legally(num_players: int) -> None:
    for game in range(4):
        agents = [
            HeuristicAgent() if (seat + game) % 2 == 0 else RandomAgent()
            for seat in range(num_players)
        ]
        seeds = [game * 10 + seat for seat in range(num_players)]
        result = play_seeded(agents, seed=1000 * num_players + game, agent_seeds=seeds)
        assert result.breakdown and len(result.breakdown) == num_players


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_all_heuristic_tables_play_legally(num_players: int) -> None:
    agents = [HeuristicAgent() for _ in range(num_players)]
    play_seeded(agents, seed=77 + num_players, agent_seeds=list(range(num_players)))


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_heuristic_versions_play_legally_together(num_players: int) -> None:
    """Version 2 (the default), version 1 and a retuned version 2 at one table."""
    specs = ["heuristic", "heuristic:v1", "heuristic:bid_cost=0,tile_bonus=3,end_weight=4"]
    for game in range(3):
        agents = [make_agent(specs[(seat + game) % 3]) for seat in range(num_players)]
        seeds = [game * 10 + seat for seat in range(num_players)]
        result = play_seeded(agents, seed=300 * num_players + game, agent_seeds=seeds)
        assert len(result.breakdown) == num_players


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_ismcts_plays_legally(num_players: int) -> None:
    rollout = "heuristic" if num_players % 2 else "random"
    agents = [ISMCTSAgent(iters=4, rollout=rollout)] + [
        HeuristicAgent() if seat % 2 else RandomAgent() for seat in range(1, num_players)
    ]
    play_seeded(agents, seed=5 + num_players, agent_seeds=list(range(num_players)))


def test_heuristic_without_view_plays_randomly_but_legally() -> None:
    env = raw_env(num_players=3)
    env.reset(seed=3)
    agent = HeuristicAgent(seed=1)
    for _ in range(300):
        name = env.agent_selection
        if env.terminations[name]:
            break
        obs = env.observe(name)
        action = agent.act(obs["observation"], obs["action_mask"], None)
        assert obs["action_mask"][action] == 1
        env.step(action)


def test_ismcts_needs_a_view() -> None:
    env = raw_env(num_players=2)
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    with pytest.raises(ValueError, match="PlayerView"):
        ISMCTSAgent(iters=2).act(obs["observation"], obs["action_mask"], None)


@pytest.mark.parametrize("spec", ["random", "heuristic", "ismcts:iters=3,rollout=random"])
def test_empty_mask_is_an_error(spec: str) -> None:
    with pytest.raises(ValueError, match="no legal action"):
        make_agent(spec, seed=0).act(np.zeros(10, np.float32), np.zeros(47, np.int8), None)
