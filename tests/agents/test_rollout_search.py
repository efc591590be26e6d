"""The rollout search (``ismcts:topk=K``, vector/search.py's CompiledSearch with topk > 0):
it improves on the heuristic's choice in expected value, keeps the heuristic's choice when
nothing beats it by the margin, decides on the observer's information only, and rejects
bad options in one line."""

from __future__ import annotations

import random

import numpy as np
import pytest
from agent_test_helpers import heuristic_positions, mid_round_state, twin_state

from art_gallery_env.agents import ISMCTSAgent, make_agent
from art_gallery_env.games.art_gallery.heuristic import HeuristicPolicy
from art_gallery_env.games.art_gallery.rules.actions import NUM_ACTIONS
from art_gallery_env.games.art_gallery.rules.hidden import PlayerView
from art_gallery_env.games.art_gallery.rules.phases import BID, MOVE, PICK, SHOP
from art_gallery_env.games.art_gallery.rules.state import GameState
from art_gallery_env.games.art_gallery.vector import search as compiled


def _positions(count: int, seed: int, players=(2, 3, 4, 5, 6)) -> list[GameState]:
    """``count`` decisions with at least three legal actions, from heuristic self-play."""
    return heuristic_positions(count, seed, players, min_legal=3, max_stop=60)


def _mask(state: GameState) -> np.ndarray:
    mask = np.zeros(NUM_ACTIONS, np.int8)
    mask[state.legal_actions()] = 1
    return mask


def test_the_search_does_not_lose_expected_value_to_the_heuristic() -> None:
    """On fixed positions the chosen action's value, measured afresh on other worlds (a
    wide sweep of every legal action), is at least the heuristic's own choice's, in sum
    and (within noise) on each position; and the search departs from it somewhere."""
    searcher = compiled.CompiledSearch(rollout="heuristic", rounds=1, topk=4)
    keeper = compiled.CompiledSearch(rollout="heuristic", rounds=1, topk=4, margin=1.0)
    judge = compiled.CompiledSearch(rollout="heuristic", rounds=1, topk=NUM_ACTIONS)
    gains, departed = [], 0
    for n, state in enumerate(_positions(12, seed=40)):
        me = state.current_player
        chosen, _ = searcher.search(state, me, iters=400, seed=n)
        own, _ = keeper.search(state, me, iters=400, seed=n)
        _, values = judge.search(state, me, iters=3000, seed=10_000 + n)
        gains.append(values[chosen][1] - values[own][1])
        departed += chosen != own
    assert departed >= 1, gains
    assert sum(gains) >= 0.0, gains
    assert min(gains) > -0.03, gains


def test_a_wide_margin_keeps_the_heuristics_choice() -> None:
    """margin=1 (values lie in [0, 1]): the search plays what the heuristic plays."""
    policy = HeuristicPolicy()
    keeper = compiled.CompiledSearch(rollout="heuristic", rounds=1, topk=3, margin=1.0)
    for n, state in enumerate(_positions(10, seed=70)):
        me = state.current_player
        chosen, stats = keeper.search(state, me, iters=30, seed=n)
        assert len(stats) == min(3, len(state.legal_actions()))
        heuristic = {policy.choose(state, random.Random(k)) for k in range(20)}
        assert chosen in heuristic, (chosen, heuristic)


def test_resampled_states_give_the_same_decision() -> None:
    """Two states of one information set searched with one seed: the same decision and the
    same statistics (the search reads only what the observer may know)."""
    for n, phases in ((2, (MOVE,)), (3, (BID,)), (4, (MOVE, BID)), (5, (SHOP, PICK))):
        state = mid_round_state(n, seed=13 + n, phases=phases)
        twin = twin_state(state, n)
        me = state.current_player
        searcher = compiled.CompiledSearch(rollout="heuristic", rounds=0, topk=4)
        assert searcher.search(state, me, iters=60, seed=5) == searcher.search(
            twin, me, iters=60, seed=5
        )
        choices = [
            make_agent("ismcts:topk=4,iters=80", seed=1).act(
                np.zeros(1), _mask(world), PlayerView(world, me)
            )
            for world in (state, twin)
        ]
        assert choices[0] == choices[1]


def test_budgets_count_rollouts() -> None:
    state = _positions(1, seed=3, players=(4,))[0]
    view = PlayerView(state, state.current_player)
    agent = make_agent("ismcts:topk=3,iters=90", seed=0)
    agent.search(view)
    assert agent.last_iterations == 90  # 30 sweeps of 3 candidates
    timed = make_agent("ismcts:topk=3,seconds=0.05,rounds=0", seed=0)
    timed.search(view)
    assert timed.last_iterations >= 3 and timed.last_iterations % 3 == 0
    top = agent.explain()["top"]
    assert len(top) == 3 and all(item["visits"] == 30 for item in top)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:topk=-1", "topk must be an int >= 0 (0: the tree search), got -1"),
        ("ismcts:topk=two", "option topk='two' must be an integer"),
        ("ismcts:topk=4,margin=-0.1", "margin must be a number >= 0, got -0.1"),
        ("ismcts:topk=4,rollout=random", "topk=4 plays the heuristic's rollouts"),
        ("ismcts:topk=4,engine=python", "topk needs the game's compiled search"),
    ],
)
def test_bad_options_are_one_line_errors(spec: str, message: str) -> None:
    with pytest.raises(ValueError) as err:
        make_agent(spec)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_topk_needs_a_compiled_search() -> None:
    with pytest.raises(ValueError) as err:
        make_agent("ismcts:topk=4", game="gallerist")
    assert "topk needs the game's compiled search" in str(err.value)
    assert "\n" not in str(err.value)
    assert ISMCTSAgent(iters=5, topk=0).engine == "compiled"
