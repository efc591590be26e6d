"""The AEC env's edge cases: calls before reset, seeds and options of other types, and
saved states that do not fit the env (a reset that fails: tests/test_core_envs.py, in
every game)."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

from art_gallery_env import raw_env
from art_gallery_env.games.art_gallery.env.aec import final_rewards
from art_gallery_env.games.art_gallery.rules.cards import card_set_from_dict, default_card_set
from art_gallery_env.games.art_gallery.rules.state import new_game


def _finished_game(num_players: int = 2, seed: int = 1):
    state = new_game(num_players, seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state


CALLS_BEFORE_RESET = {
    "step": lambda e: e.step(0),
    "last": lambda e: e.last(),
    "observe": lambda e: e.observe("player_0"),
    "render": lambda e: e.render(),
    "agent_iter": lambda e: next(iter(e.agent_iter())),
}


@pytest.mark.parametrize("call", sorted(CALLS_BEFORE_RESET))
def test_calls_before_reset_say_reset_first(call: str) -> None:
    """Item 12: not an AttributeError on None, but what to do."""
    e = raw_env(render_mode="ansi")
    with pytest.raises(RuntimeError, match=rf"call reset\(\) before {call}\(\)"):
        CALLS_BEFORE_RESET[call](e)


@pytest.mark.parametrize("seed", [np.int64(5), np.int32(5), np.uint8(5)])
def test_numpy_integer_seeds_are_plain_int_seeds(seed) -> None:
    """Item 13: a numpy integer seed gives the same game as the int."""
    e, ref = raw_env(), raw_env()
    e.reset(seed=seed)
    ref.reset(seed=5)
    assert e.state.to_dict() == ref.state.to_dict()
    e.reset()
    ref.reset()
    assert e.state.to_dict() == ref.state.to_dict(), "the env's seed stream is the same too"


@pytest.mark.parametrize("seed", [1.5, "5", True, [5]])
def test_other_seed_types_are_rejected_clearly(seed) -> None:
    with pytest.raises(ValueError, match="seed must be an int or None"):
        raw_env().reset(seed=seed)


@pytest.mark.parametrize("options", ["x", 3, ["state"]])
def test_options_that_are_not_a_dict_are_rejected(options) -> None:
    """Item 14."""
    with pytest.raises(ValueError, match="options must be a dict or None"):
        raw_env().reset(options=options)


@pytest.mark.parametrize("reward_mode", ["win", "score_margin"])
def test_reset_to_a_finished_game_reports_it_over(reward_mode: str) -> None:
    """Item 15: every agent is terminated with its final reward, as after the last step."""
    state = _finished_game()
    e = raw_env(reward_mode=reward_mode)
    e.reset(options={"state": state})
    expected = final_rewards(state.score_breakdown(), reward_mode)
    seen = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        assert terminated and not truncated
        assert not obs["action_mask"].any()
        assert info["phase"] == "game_over"
        seen[agent] = reward
        e.step(None)
    assert seen == {f"player_{i}": r for i, r in enumerate(expected)}
    assert not e.agents


def _other_card_set():
    data = copy.deepcopy(default_card_set().to_dict())
    data["name"] = "renamed"
    first = data["paintings"][0]
    first["title"] = first["title"] + " (copy)"
    return card_set_from_dict(data)


def test_saved_state_of_another_variant_is_rejected() -> None:
    """Item 16: the env's zero_is_ten must be the state's."""
    state = new_game(2, 1, zero_is_ten=True)
    e = raw_env()
    with pytest.raises(ValueError, match="zero_is_ten"):
        e.reset(options={"state": state})
    e = raw_env(zero_is_ten=True)
    e.reset(options={"state": state})
    assert e.zero_is_ten == e.state.zero_is_ten


def test_saved_state_of_another_card_set_is_rejected() -> None:
    """Item 16: the env's card set must be the state's."""
    cards = _other_card_set()
    assert cards.fingerprint != default_card_set().fingerprint
    state = new_game(2, 1, card_set=cards)
    with pytest.raises(ValueError, match="card set"):
        raw_env().reset(options={"state": state})
    e = raw_env(card_set=cards)
    e.reset(options={"state": state})
    assert e.state.cards.fingerprint == e.card_set.fingerprint
