"""``heuristic:v1`` is frozen: its decisions on seeded games are those of the heuristic before
version 2 existed.

``data/heuristic_v1_games.json`` was recorded at commit c5faed9, when ``heuristic`` was what
``heuristic:v1`` is now (its options too: ``heuristic:v1,card_cost=0.4`` was
``heuristic:card_cost=0.4``). Every game replays through the game loop with the same game and
agent seeds and must give the same actions. Never regenerate the file from today's code: the point
is that version 1 does not change.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agent_test_helpers import play_seeded

from art_gallery_env.agents import make_agent
from art_gallery_env.games.art_gallery.heuristic import HeuristicAgent, HeuristicV1Params
from art_gallery_env.games.art_gallery.heuristic_v1 import HeuristicV1Policy

GAMES = json.loads((Path(__file__).parent / "data" / "heuristic_v1_games.json").read_text())[
    "games"
]


@pytest.mark.parametrize("game", GAMES, ids=[f"{len(g['specs'])}p-seed{g['seed']}" for g in GAMES])
def test_v1_replays_its_recorded_games(game: dict) -> None:
    agents = [make_agent(spec) for spec in game["specs"]]
    result = play_seeded(agents, game["seed"], game["agent_seeds"])
    assert result.actions == game["actions"]


def test_v1_specs_build_version_1() -> None:
    agent = make_agent("heuristic:v1,card_cost=0.4")
    assert isinstance(agent, HeuristicAgent)
    assert type(agent.policy) is HeuristicV1Policy
    assert agent.policy.params == HeuristicV1Params(card_cost=0.4)


def test_the_default_is_not_v1() -> None:
    """Guards the recorded games' meaning: plain ``heuristic`` plays differently."""
    game = GAMES[0]
    specs = ["heuristic" if spec == "heuristic:v1" else spec for spec in game["specs"]]
    agents = [make_agent(spec) for spec in specs]
    result = play_seeded(agents, game["seed"], game["agent_seeds"])
    assert result.actions != game["actions"]
