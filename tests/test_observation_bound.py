"""Every game's observation Box has a finite high (the game's ``observation_high``), every
observation of random and heuristic play lies within it, and neither Gymnasium's
check_env nor PettingZoo's api_test warns about the bound."""

from __future__ import annotations

import math
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test

from art_gallery_env.agents.registry import make_agent
from art_gallery_env.core.registry import GameSpec, get_game

GAMES = ("art_gallery", "gallerist")
BOUND_WORDS = ("infinity", "too high", "too low")


def _extremes(spec: GameSpec, num_players: int, seed: int, agent: str) -> tuple[float, float]:
    """The least and the largest element of every seat's observation after every decision
    of one game of ``agent`` at every seat."""
    from art_gallery_env.core.loop import play_game

    state = spec.setup(num_players, seed, {})
    observer = spec.make_observer(state)
    players = [make_agent(agent, seed + seat, game=spec.name) for seat in range(num_players)]
    for seat, player in enumerate(players):
        player.reset(seed + seat)
    seen = [math.inf, -math.inf]

    def look(decision: Any) -> None:
        for seat in range(num_players):
            vec = observer.observation(decision.state, seat)
            seen[0], seen[1] = min(seen[0], float(vec.min())), max(seen[1], float(vec.max()))

    play_game(state, players, observer, on_decision=look)
    return seen[0], seen[1]


@pytest.mark.parametrize("game", GAMES)
def test_the_box_is_finite_and_every_observation_of_play_lies_within_it(game: str) -> None:
    spec = get_game(game)
    box = spec.make_env(num_players=spec.max_players).observation_space("player_0")["observation"]
    assert np.isfinite(box.high).all() and (box.high == spec.observation_high).all()
    assert (box.low == 0).all()
    seen = 0.0
    for n in range(spec.min_players, spec.max_players + 1):
        for seed, agent in ((n, "random"), (10 + n, "heuristic")):
            low, high = _extremes(spec, n, seed, agent)
            assert low >= 0.0 and high <= spec.observation_high, (n, agent, low, high)
            seen = max(seen, high)
    assert seen > 1.0  # the encoding writes values above 1: a bound of 1 would be wrong


def _bound_warnings(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if any(x in str(w.message) for x in BOUND_WORDS)]


@pytest.mark.parametrize("game", GAMES)
def test_check_env_and_api_test_give_no_bound_warning(game: str) -> None:
    from gymnasium.utils.env_checker import check_env

    spec = get_game(game)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(spec.make_env(num_players=2), num_cycles=50)
        for gym_id in spec.gym_envs:
            env = gymnasium.make(gym_id)
            check_env(env.unwrapped, skip_render_check=True)
            assert env.observation_space.high.max() == spec.observation_high
    assert _bound_warnings(caught) == []


def test_a_bound_that_is_not_finite_is_refused_in_one_line() -> None:
    from dataclasses import replace

    spec = replace(get_game("art_gallery"), observation_high=math.inf)
    with pytest.raises(ValueError, match="observation_high must be finite and > 0, got inf"):
        spec.observation_box()
