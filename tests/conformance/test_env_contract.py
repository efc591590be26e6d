"""The env contract every registered game keeps: misuse of the AEC env
and of the single-agent env reads the same, whatever the game.

Each test runs over every registered game (the test-only games included) through the
core's :class:`~art_gallery_env.core.aec.TurnBasedAEC` as users get it (``wrap``, what each
game's ``env()`` returns). Nothing here names a game.
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from conformance_helpers import cases, random_decisions, register_test_games

from art_gallery_env.core.aec import OrderEnforcingAEC, wrap
from art_gallery_env.core.errors import UnknownAgentError
from art_gallery_env.core.registry import game_names, get_game
from art_gallery_env.core.scoring import final_rewards
from art_gallery_env.core.single_agent import SingleAgentEnv

register_test_games()
CASES = cases()
PACKAGE = "art_gallery_env."


def make_env(game: str, n: int, **options):
    return wrap(get_game(game).make_env(num_players=n, **options))


def play_to_the_end(env, seed: int = 3) -> None:
    """Random legal actions until every agent is terminated (no dead step taken yet)."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    while not all(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))


def finished_state(game: str, n: int):
    """A copy of a seeded random game's final state."""
    for state, action in random_decisions(get_game(game), n, seed=5):
        if action is None:
            return state.clone()
    raise AssertionError("unreachable")


def mid_game_state(game: str, n: int, decisions: int = 5):
    for index, (state, action) in enumerate(random_decisions(get_game(game), n, seed=6)):
        if index == decisions or action is None:
            return state.clone()
    raise AssertionError("unreachable")


def expected_rewards(game: str, state, env) -> list[float]:
    spec = get_game(game)
    rewards = spec.final_rewards or final_rewards
    return rewards(state.score_breakdown(), env.unwrapped.reward_mode)


@pytest.mark.parametrize(("game", "n"), CASES)
def test_every_games_env_function_returns_the_contract_wrapper(game: str, n: int) -> None:
    assert isinstance(make_env(game, n), OrderEnforcingAEC)


@pytest.mark.parametrize(("game", "n"), CASES)
def test_the_envs_name_is_its_specs_env_version(game: str, n: int) -> None:
    """PettingZoo's versioned name and the version records store are one string."""
    assert make_env(game, n).metadata["name"] == get_game(game).env_version


@pytest.mark.parametrize(("game", "n"), CASES)
def test_last_works_after_the_end_and_after_every_dead_step(game: str, n: int) -> None:
    env = make_env(game, n)
    play_to_the_end(env)
    for _ in range(n):  # each terminated agent sees the end, then takes its dead step
        _obs, reward, terminated, truncated, _info = env.last()
        assert terminated and not truncated
        assert reward == env.unwrapped._cumulative_rewards[env.agent_selection]
        env.step(None)
    assert env.agents == []
    obs, reward, terminated, truncated, info = env.last()
    assert terminated and not truncated and reward == 0.0
    assert obs["observation"].shape == (get_game(game).observation_size,)
    assert info  # the final infos (the score breakdown), not an empty dict
    assert env.last(observe=False)[0] is None


@pytest.mark.parametrize(("game", "n"), CASES)
def test_after_termination_step_takes_only_none(game: str, n: int) -> None:
    env = make_env(game, n)
    play_to_the_end(env)
    with pytest.raises(ValueError, match="only action is None"):
        env.step(0)
    assert env.agents  # the refused step removed nobody
    while env.agents:
        env.step(None)
    with pytest.raises(ValueError, match="only action is None"):
        env.step(0)  # once every agent has left too: refused, not dropped silently
    with pytest.raises(ValueError, match="only action is None"):
        env.unwrapped.step(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(None)  # PettingZoo's own behaviour: a warning, nothing else


@pytest.mark.parametrize(("game", "n"), CASES)
def test_an_unknown_agent_is_an_error_naming_the_agents(game: str, n: int) -> None:
    env = make_env(game, n)
    env.reset(seed=1)
    raw = env.unwrapped
    for call in (env.observe, env.action_space, env.observation_space, raw.action_mask):
        with pytest.raises(UnknownAgentError, match="unknown agent 'player_9'.*player_0") as err:
            call("player_9")
        assert isinstance(err.value, KeyError) and isinstance(err.value, ValueError)
        assert str(err.value).startswith("unknown agent")  # plain text, not a KeyError repr
    with pytest.raises(UnknownAgentError, match="unknown agent"):
        env.observe(["player_0"])  # unhashable: the same error, not a TypeError


@pytest.mark.parametrize(("game", "n"), CASES)
def test_seeds_of_any_integer_type_and_no_booleans(game: str, n: int) -> None:
    env = make_env(game, n)
    env.reset(seed=5)
    plain = env.observe(env.agent_selection)["observation"]
    for seed in (np.int64(5), np.uint32(5), np.int8(5)):
        env.reset(seed=seed)
        np.testing.assert_array_equal(env.observe(env.agent_selection)["observation"], plain)
    for seed in (True, False, 1.5, "5", np.float64(5.0)):
        with pytest.raises(ValueError, match="seed must be an int or None"):
            env.reset(seed=seed)
    single = SingleAgentEnv(game, n, opponents=None if n == 1 else _random_agent(game))
    assert single.reset(seed=np.int64(4))[0].shape == (get_game(game).observation_size,)
    with pytest.raises(ValueError, match="seed must be an int or None"):
        single.reset(seed=True)


def _random_agent(game: str):
    """An opponent for the single-agent env: the first legal action."""
    from art_gallery_env.core.agent import Agent, legal_from_mask

    class First(Agent):
        def act(self, observation, action_mask, view=None) -> int:  # noqa: ANN001
            return int(legal_from_mask(action_mask)[0])

    return First()


@pytest.mark.parametrize(("game", "n"), CASES)
def test_a_saved_finished_game_terminates_at_reset_with_its_rewards(game: str, n: int) -> None:
    env = make_env(game, n)
    state = finished_state(game, n)
    env.reset(options={"state": state})
    assert all(env.terminations.values()) and len(env.agents) == n
    assert [env.rewards[a] for a in env.possible_agents] == expected_rewards(game, state, env)
    steps = 0
    for _agent in env.agent_iter():  # the README's loop ends without an error
        _obs, _reward, terminated, truncated, _info = env.last()
        assert terminated or truncated
        env.step(None)
        steps += 1
    assert steps == n and env.agents == []


@pytest.mark.parametrize(("game", "n"), CASES)
def test_reset_options_that_are_no_dict_are_refused(game: str, n: int) -> None:
    env = make_env(game, n)
    for options in ([1], "state", 3):
        with pytest.raises(ValueError, match="options must be a dict or None"):
            env.reset(options=options)


@pytest.mark.parametrize(("game", "n"), CASES)
def test_calls_before_reset_say_to_reset(game: str, n: int) -> None:
    raw = get_game(game).make_env(num_players=n)
    for call, args in ((raw.step, (0,)), (raw.last, ()), (raw.observe, ("player_0",))):
        with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
            call(*args)
    env = make_env(game, n)
    for call, args in ((env.step, (0,)), (env.last, ()), (env.observe, ("player_0",))):
        with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
            call(*args)


@pytest.mark.parametrize(("game", "n"), CASES)
def test_a_state_edited_in_memory_is_checked_at_reset(game: str, n: int) -> None:
    """The same field checks as a saved file's, for a state handed over in memory."""
    spec = get_game(game)
    if spec.check_state is None:
        pytest.skip(f"{game} declares no check_state")
    state = mid_game_state(game, n)
    make_env(game, n).reset(options={"state": state})  # the untouched state is accepted
    state.current_player = 99
    with pytest.raises(ValueError, match=f"options\\['state'\\] is not a state of {spec.title}"):
        make_env(game, n).reset(options={"state": state})
    single = SingleAgentEnv(game, n, opponents=None if n == 1 else _random_agent(game))
    with pytest.raises(ValueError, match="is not a state of"):
        single.reset(options={"state": state})


@pytest.mark.parametrize(("game", "n"), CASES)
def test_the_single_agent_env_draws_where_the_game_has_a_drawing(game: str, n: int) -> None:
    """``rgb_array`` (what SB3's make_vec_env passes) is a frame where the spec has
    ``render_frame``, else refused in one line that names SB3's workaround."""
    spec = get_game(game)
    opponents = None if n == 1 else _random_agent(game)
    if spec.render_frame is None:
        refused = r"render_mode must be one of \['ansi'\].*make_vec_env"
        with pytest.raises(ValueError, match=refused):
            SingleAgentEnv(game, n, opponents=opponents, render_mode="rgb_array")
        return
    env = SingleAgentEnv(game, n, opponents=opponents, render_mode="svg")
    assert env.render() is None  # before any reset: no frame
    env.reset(seed=2)
    assert env.render().lstrip().startswith("<")
    assert "rgb_array" in env.metadata["render_modes"]


def test_every_shipped_game_checks_states_in_memory() -> None:
    """The package's own games declare check_state (a test-only game may leave it out)."""
    shipped = [
        name for name in game_names() if get_game(name).state_type.__module__.startswith(PACKAGE)
    ]
    assert len(shipped) >= 2
    for name in shipped:
        assert get_game(name).check_state is not None, name
