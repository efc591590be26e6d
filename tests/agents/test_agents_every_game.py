"""The game-free agents serve every registered game: the registry lists the generic agents
and each game's own, ISMCTS searches any game through the engine protocol (with the game's
rollouts and evaluator, or the defaults), and policies name their game."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from game_states import gallerist_twin, legal_mask, random_moves

from art_gallery_env.agents import ISMCTSAgent
from art_gallery_env.agents.base import Agent
from art_gallery_env.agents.ismcts import MarginEvaluator, RandomRollout, rollout_names
from art_gallery_env.agents.policy_format import CheckpointError, check_header, policy_layout
from art_gallery_env.agents.registry import (
    agent_names,
    agent_spec_problem,
    agent_versions,
    make_agent,
)
from art_gallery_env.core import game_names, get_game, play_game
from art_gallery_env.core.agent import Agent as CoreAgent
from art_gallery_env.core.registry import register_game, unregister_game
from art_gallery_env.games.art_gallery.rules.state import new_game as art_gallery_game
from art_gallery_env.games.gallerist.agents import GalleristHeuristicAgent
from art_gallery_env.games.gallerist.agents.registry import Evaluator as GalleristEvaluator
from art_gallery_env.games.gallerist.rules.hidden import PlayerView
from art_gallery_env.games.gallerist.rules.state import new_game as gallerist_game

GENERIC = {"ismcts", "policy", "random", "search"}


@pytest.mark.parametrize("game", game_names())
def test_every_game_has_the_generic_agents_and_its_own(game: str) -> None:
    names = agent_names(game)
    assert set(names) >= GENERIC and names == sorted(names)
    assert set(get_game(game).agents) <= set(names)
    assert isinstance(make_agent("ismcts:iters=2", 1, game=game), ISMCTSAgent)
    assert make_agent("ismcts:iters=2", game=game).game == game


def test_one_agent_class_for_every_import_path() -> None:
    assert Agent is CoreAgent
    assert isinstance(make_agent("heuristic", game="gallerist"), Agent)
    assert isinstance(make_agent("heuristic"), Agent)


def test_a_games_own_agents_and_versions_come_from_its_spec() -> None:
    assert isinstance(make_agent("heuristic", 3, game="gallerist"), GalleristHeuristicAgent)
    assert agent_versions("heuristic") == ("v1", "v2")
    assert agent_versions("heuristic", game="gallerist") == ()
    with pytest.raises(ValueError, match="agent 'heuristic' has no versions"):
        make_agent("heuristic:v1", game="gallerist")
    problem = agent_spec_problem("bidder", "gallerist")
    assert problem is not None and "for The Gallerist; known agents: heuristic, ismcts" in problem
    assert agent_spec_problem("heuristic:lookahead=0", "gallerist") is None
    assert "valid options: ticket" in agent_spec_problem("heuristic:depth=1", "gallerist")


def test_ismcts_rollouts_are_the_games() -> None:
    assert rollout_names() == ("random", "heuristic", "heuristic:v1")
    assert rollout_names("gallerist") == ("random", "heuristic")
    gallerist = make_agent("ismcts:iters=2", game="gallerist")
    assert gallerist.rollout == "random" and isinstance(gallerist.policy, RandomRollout)
    assert isinstance(gallerist.evaluator, GalleristEvaluator)
    assert make_agent("ismcts:iters=2,scale=3", game="gallerist").evaluator.scale == 3.0
    with pytest.raises(ValueError, match="must be one of random, heuristic$"):
        make_agent("ismcts:rollout=heuristic:v1", game="gallerist")


def _gallerist_mid_game(n: int, seed: int, steps: int):
    return random_moves(gallerist_game(n, seed), steps, seed)


def _mask(state) -> np.ndarray:
    return legal_mask(state, get_game("gallerist").num_actions)


def test_ismcts_plays_whole_gallerist_games_legally_and_reproducibly() -> None:
    def game(seed: int) -> list[int]:
        state = get_game("gallerist").setup(2, 9)
        agents = [make_agent("ismcts:iters=4", seed, game="gallerist"), make_agent("random", 2)]
        return play_game(state, agents).actions

    first = game(1)
    assert game(1) == first and len(first) > 50
    assert game(5) != first  # the seed matters


def test_ismcts_keys_actions_above_64_by_seat() -> None:
    """The Gallerist has 115 actions: a root child of an action above 63 must come back as
    that action of the searching seat (a key of seat * 64 + action would not)."""
    for steps in range(0, 200, 3):
        state = _gallerist_mid_game(2, 4, steps)
        if state.is_over:
            break
        legal = state.legal_actions()
        if len(legal) > 1 and max(legal) >= 64:
            break
    else:
        pytest.fail("no decision with an action above 63 found")
    agent = make_agent("ismcts:iters=60", 3, game="gallerist")
    action = agent.act(None, _mask(state), PlayerView(state, state.current_player))
    top = [entry["action"] for entry in agent.explain(top=len(legal))["top"]]
    assert action in legal and set(top) <= set(legal)
    assert max(top) >= 64 and sorted(top) == sorted(set(top))


def test_ismcts_decides_on_the_gallerist_information_set_only() -> None:
    s = _gallerist_mid_game(3, 4, 40)
    seat = s.current_player
    other = gallerist_twin(s, seat)  # another state of the same information set
    a = make_agent("ismcts:iters=30", 7, game="gallerist")
    b = make_agent("ismcts:iters=30", 7, game="gallerist")
    assert a.act(None, _mask(s), PlayerView(s, seat)) == b.act(
        None, _mask(other), PlayerView(other, seat)
    )
    assert a.explain() == b.explain()


def test_an_agent_built_for_one_game_refuses_another_games_world() -> None:
    state = _gallerist_mid_game(2, 1, 5)
    with pytest.raises(ValueError, match="built for the game 'art_gallery' but was given"):
        ISMCTSAgent(iters=3).search(PlayerView(state, state.current_player))


def test_the_gallerist_evaluator_is_a_win_chance_per_seat() -> None:
    evaluator = GalleristEvaluator()
    mid = _gallerist_mid_game(3, 2, 80)
    values = evaluator(mid)
    assert len(values) == 3 and all(0.0 <= v <= 1.0 for v in values)
    end = _gallerist_mid_game(2, 2, 10_000)
    assert end.is_over and evaluator(end) in ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5])


def test_a_game_without_rollouts_or_evaluator_gets_the_defaults() -> None:
    """A game that lists neither plays ISMCTS with random rollouts and the margin of its
    score breakdown; its agents are the generic ones only."""
    base = get_game("art_gallery")
    bare = dataclasses.replace(
        base,
        name="bare_test_game",
        agents={},
        agent_versions={},
        rollouts={},
        search_evaluator=None,
        legacy_default=False,
        state_type=object,
    )
    register_game(bare)
    try:
        assert agent_names("bare_test_game") == ["ismcts", "policy", "random", "search"]
        assert "unknown agent 'heuristic'" in agent_spec_problem("heuristic", "bare_test_game")
        agent = make_agent("ismcts:iters=5,scale=2", 1, game="bare_test_game")
        assert isinstance(agent.policy, RandomRollout)
        assert isinstance(agent.evaluator, MarginEvaluator) and agent.evaluator.scale == 2.0
        state = art_gallery_game(2, 3)
        for _ in range(30):
            state.apply(state.legal_actions()[0])
        totals = [row["total"] for row in state.score_breakdown()]
        values = agent.evaluator(state)
        assert values[0] == pytest.approx(1 / (1 + np.exp(-(totals[0] - totals[1]) / 2.0)))
        assert values[0] + values[1] == pytest.approx(1.0)
    finally:
        unregister_game("bare_test_game")


def test_policy_layouts_come_from_the_registry() -> None:
    assert policy_layout().fingerprint == "d702c3cc30e78de9"  # the default game's
    assert policy_layout("art_gallery").fingerprint == "d702c3cc30e78de9"
    gallerist = policy_layout("gallerist")
    assert gallerist.fingerprint == "11cde8490823f1a6" and gallerist.num_actions == 115
    with pytest.raises(CheckpointError, match="policies exist for: art_gallery, .*gallerist"):
        policy_layout("chess")
    header = {"format": "art-gallery-policy", "version": 1, "game": "chess"}
    with pytest.raises(CheckpointError, match="'chess' is not one of art_gallery, .*gallerist"):
        check_header("x.safetensors", header)
    layout = policy_layout()
    unnamed = {  # a header from before games were named: the default game's
        "format": "art-gallery-policy",
        "version": 1,
        "obs_size": layout.obs_size,
        "num_actions": layout.num_actions,
        "layout_fingerprint": layout.fingerprint,
        "hidden_sizes": [4],
        "activation": "tanh",
    }
    assert check_header("old.safetensors", unnamed) == [layout.obs_size, 4, layout.num_actions]
