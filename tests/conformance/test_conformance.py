"""The conformance suite: what every registered game must do, checked the same way for all.

Parametrised over ``game_names()`` (taken after the test-only games registered) and a few
table sizes per game, as OpenSpiel runs ``random_sim_test`` over every game:

- PettingZoo's ``api_test``, ``seed_test`` and ``render_test`` on ``spec.make_env``;
- no leak: in worlds ``state.determinize(seat, rng)`` a seat's observation and action mask
  are the true state's, while what is hidden from it really differs between worlds;
- determinize consistency: a world is the same game at the same decision, and saves;
- the JSON round trip at every decision, and clones that are independent of the original;
- illegal actions under ``illegal_action="raise"`` and ``"terminate"``;
- the observation decoder: fields whose sizes add up to the observation.

The golden playthroughs are in test_golden_playthroughs.py. A game's own rules are tested in
its own test files; nothing here names a game.
"""

from __future__ import annotations

import json
import random
import warnings

import numpy as np
import pytest
from conformance_helpers import (
    cases,
    illegal_actions,
    random_decisions,
    register_test_games,
    sampled_states,
    variant_sets,
)
from gymnasium.error import DependencyNotInstalled
from pettingzoo.test import api_test, render_test, seed_test

from art_gallery_env.core.aec import wrap
from art_gallery_env.core.errors import IllegalActionError
from art_gallery_env.core.registry import game_names, get_game
from art_gallery_env.core.scoring import final_rewards

register_test_games()  # before the parametrisation: the test-only games get the suite too
CASES = cases()
CASES_SLOW_AT_MAX = cases(slow_at_max=True)
SEEDS = (1, 2)  # two games per case; the variants alternate with the seed
WORLD_SEEDS = (0, 1, 2)


@pytest.fixture(autouse=True)
def _quiet_pettingzoo_warnings():
    """api_test warns that Dict observations are unusual; they are deliberate (masks)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*Observation space for each agent.*")
        warnings.filterwarnings("ignore", message=".*Observation is not a NumPy array.*")
        yield


def make_env(game: str, n: int, **options):
    """The game's raw AEC env in the core's order-enforcing wrapper (as ``env()`` gives it)."""
    return wrap(get_game(game).make_env(num_players=n, **options))


def test_the_registry_lists_every_game_once() -> None:
    names = game_names()
    assert len(names) == len(set(names)) >= 2
    for name in names:
        spec = get_game(name)
        assert spec.name == name and 1 <= spec.min_players <= spec.max_players


# -- PettingZoo's own tests ----------------------------------------------------------------
@pytest.mark.parametrize(("game", "n"), CASES)
def test_pettingzoo_api_test(game: str, n: int) -> None:
    api_test(make_env(game, n), num_cycles=300)


@pytest.mark.parametrize(("game", "n"), CASES)
def test_pettingzoo_seed_test(game: str, n: int) -> None:
    seed_test(lambda: make_env(game, n), num_cycles=300)


@pytest.mark.parametrize(("game", "n"), CASES_SLOW_AT_MAX)
def test_pettingzoo_render_test_for_every_mode(game: str, n: int, capsys) -> None:
    """Every mode in the env's metadata: text modes through PettingZoo's checks, ``svg`` as
    an SVG document, ``rgb_array`` as an HxWx3 uint8 frame."""
    modes = make_env(game, n).metadata["render_modes"]
    assert {"ansi", "human"} <= set(modes)
    try:
        render_test(
            lambda render_mode: make_env(game, n, render_mode=render_mode),
            custom_tests={"svg": lambda res: isinstance(res, str) and res.startswith("<svg")},
        )
    except DependencyNotInstalled as err:  # a drawn mode without its optional extra
        pytest.skip(str(err))
    assert capsys.readouterr().out  # human mode printed the text


@pytest.mark.parametrize(("game", "n"), CASES)
def test_env_spaces_and_masks_match_the_spec_and_the_engine(game: str, n: int) -> None:
    spec = get_game(game)
    e = spec.make_env(num_players=n)
    e.reset(seed=3)
    rng = random.Random(3)
    for _ in range(60):
        if e.state.is_over:
            break
        agent = e.agent_selection
        obs = e.observe(agent)
        assert obs["observation"].shape == (spec.observation_size,)
        assert obs["observation"].dtype == np.float32
        assert (
            obs["action_mask"].shape == (spec.num_actions,) and obs["action_mask"].dtype == np.int8
        )
        assert (
            e.observation_space(agent).contains(obs) and e.action_space(agent).n == spec.num_actions
        )
        assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(e.state.legal_actions())
        for other in e.agents:  # the core env's action_mask is observe's; others get zeros
            mask = e.observe(other)["action_mask"]
            assert np.array_equal(e.action_mask(other), mask)
            assert mask.any() == (other == agent)
        e.step(rng.choice(e.state.legal_actions()))


# -- no leak: a seat sees the same in every world of its information set ----------------------
@pytest.mark.parametrize(("game", "n"), CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_observation_and_mask_are_equal_in_every_determinized_world(
    game: str, n: int, seed: int
) -> None:
    spec = get_game(game)
    states = sampled_states(game, n, seed, 9)
    truth, in_world = spec.make_observer(states[0]), spec.make_observer(states[0])
    resampled = others_changed = 0
    for index, state in enumerate(states):
        seen = [truth.observation(state, q) for q in range(n)]
        if index % 5 == 0:  # an observer's caches never change what it gives
            fresh = spec.make_observer(state)
            assert all(np.array_equal(fresh.observation(state, q), seen[q]) for q in range(n))
        for seat in range(n):
            where = f"{game} p{n} seed {seed}, state {index} ({state.phase_name}), seat {seat}"
            worlds = [state.determinize(seat, random.Random(k)) for k in WORLD_SEEDS]
            mask = truth.action_mask(state, seat)
            for k, world in zip(WORLD_SEEDS, worlds):
                others_changed += check_no_leak(
                    in_world, world, seat, seen, mask, f"{where}, world {k}"
                )
            resampled += worlds[0].to_dict() != worlds[1].to_dict()
    # teeth: the worlds really differ in what is hidden, and that shows in the observation
    # of a seat that may see it (so an observation that leaked it would differ too)
    assert resampled >= len(states) * n // 4, f"only {resampled} of {len(states) * n} resampled"
    if n > 1:
        assert others_changed > 0, "no world changed another seat's observation"


def check_no_leak(observer, world, seat: int, seen: list, mask, where: str) -> bool:
    """``seat``'s observation and mask in ``world`` are the truth's (``seen[seat]``,
    ``mask``); True if another seat's observation differs there (what was resampled)."""
    differs = np.flatnonzero(observer.observation(world, seat) != seen[seat])
    assert differs.size == 0, f"{where}: the observation differs at {differs[:10].tolist()}"
    assert np.array_equal(observer.action_mask(world, seat), mask), f"{where}: the mask differs"
    return any(
        not np.array_equal(observer.observation(world, q), seen[q])
        for q in range(len(seen))
        if q != seat
    )


@pytest.mark.parametrize(("game", "n"), CASES)
def test_determinized_worlds_are_the_same_game_at_the_same_decision(game: str, n: int) -> None:
    spec = get_game(game)
    states = sampled_states(game, n, SEEDS[0], 9)
    played_on = 0
    for index, state in enumerate(states):
        before = state.to_dict()
        for seat in range(n):
            world = state.determinize(seat, random.Random(index))
            check_same_decision(spec, state, world, seat)
            if index in (0, len(states) // 2) and seat == 0 and not state.is_over:
                play_to_the_end(world, random.Random(index))  # search plays on in worlds
                played_on += 1
        assert state.to_dict() == before  # the truth is untouched
    assert played_on > 0


def check_same_decision(spec, state, world, seat: int) -> None:
    """``world`` is ``state``'s game at its decision, as ``seat`` may know it, and saves."""
    assert type(world) is type(state) and world is not state
    assert world.num_players == state.num_players
    assert world.is_over == state.is_over and world.phase_name == state.phase_name
    if not state.is_over:
        assert world.current_player == state.current_player
        if state.current_player == seat:
            assert world.legal_actions() == state.legal_actions()
    saved = json.loads(json.dumps(world.to_dict()))
    assert spec.state_from_dict(saved).to_dict() == world.to_dict()


def play_to_the_end(state, rng: random.Random, limit: int = 50_000) -> None:
    for _ in range(limit):
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"no end within {limit} decisions")


# -- saving and copying ----------------------------------------------------------------------
@pytest.mark.parametrize(("game", "n"), CASES)
def test_json_round_trip_at_every_decision(game: str, n: int) -> None:
    spec = get_game(game)
    variants = variant_sets(spec)[-1]
    decisions = 0
    for state, action in random_decisions(spec, n, 5, variants):
        saved = state.to_dict()
        loaded = spec.state_from_dict(json.loads(json.dumps(saved)))
        assert loaded.to_dict() == saved, f"decision {decisions} ({state.phase_name})"
        assert loaded.is_over == state.is_over and loaded.phase_name == state.phase_name
        assert loaded.legal_actions() == state.legal_actions()
        if action is not None:
            assert loaded.current_player == state.current_player
            loaded.apply(action)  # the loaded game goes on as the original does
            state_after = state.clone()
            state_after.apply(action)
            assert loaded.to_dict() == state_after.to_dict()
        else:
            assert loaded.score_breakdown() == state.score_breakdown()
        decisions += 1
    assert decisions > 2 * n


@pytest.mark.parametrize(("game", "n"), CASES)
def test_a_clone_is_independent_of_its_original(game: str, n: int) -> None:
    spec = get_game(game)
    rng = random.Random(7)
    kept = None  # a clone changed at the previous decision, and its saved form then
    for index, (state, action) in enumerate(random_decisions(spec, n, 7)):
        if kept is not None:  # the original moved on since: the clone did not
            assert kept[0].to_dict() == kept[1], f"decision {index}: the clone changed"
        if action is None:
            break
        before, legal = state.to_dict(), state.legal_actions()
        copy = state.clone()
        assert copy is not state and copy.to_dict() == before
        copy.apply(rng.choice(legal))  # a change to the clone leaves the original alone
        assert state.to_dict() == before, f"decision {index}: applying to a clone changed it"
        assert state.legal_actions() == legal
        kept = (copy, copy.to_dict())


# -- illegal actions ---------------------------------------------------------------------------
def mid_game_env(game: str, n: int, steps: int, **options):
    """An env after ``steps`` random decisions, or at the last one of a shorter game."""
    e = get_game(game).make_env(num_players=n, **options)
    e.reset(seed=11)
    rng = random.Random(11)
    for _ in range(steps):
        action = rng.choice(e.state.legal_actions())
        after = e.state.clone()
        after.apply(action)
        if after.is_over:
            break
        e.step(action)
    return e


@pytest.mark.parametrize(("game", "n"), CASES)
@pytest.mark.parametrize("steps", [0, 1, 7, 40])
def test_an_illegal_action_raises_and_changes_nothing(game: str, n: int, steps: int) -> None:
    spec = get_game(game)
    e = mid_game_env(game, n, steps, illegal_action="raise")
    assert not e.state.is_over
    legal = e.state.legal_actions()
    before = e.state.to_dict()
    selection, rewards = e.agent_selection, dict(e.rewards)
    for action in illegal_actions(spec, e.state)[:3]:
        with pytest.raises(IllegalActionError):
            e.step(action)
        assert e.state.to_dict() == before and e.state.legal_actions() == legal
        assert (e.agent_selection, e.rewards) == (selection, rewards)
        assert not any(e.terminations.values())
        with pytest.raises(IllegalActionError):  # the engine alone does the same
            e.state.apply(action)
        assert e.state.to_dict() == before
    e.step(legal[0])  # the game goes on normally afterwards


@pytest.mark.parametrize(("game", "n"), CASES)
def test_an_action_that_is_no_action_id_is_an_illegal_action(game: str, n: int) -> None:
    """Out of range or not an int: IllegalActionError too (a ValueError), so that the env's
    ``terminate`` policy, which catches IllegalActionError, ends the game for it as well."""
    spec = get_game(game)
    state = spec.setup(n, 4)
    before = state.to_dict()
    for junk in (spec.num_actions, -1, None, 1.5, "0"):
        try:
            state.apply(junk)
        except IllegalActionError:
            pass
        except Exception as err:
            pytest.fail(f"{game}: apply({junk!r}) raised {type(err).__name__}, not an "
                        f"IllegalActionError: {err}")  # fmt: skip
        else:
            pytest.fail(f"{game}: apply({junk!r}) was accepted")
        assert state.to_dict() == before
        e = mid_game_env(game, n, 1, illegal_action="terminate")
        offender = e.agent_selection
        e.step(junk)
        assert all(e.terminations.values()) and e.rewards[offender] == -1.0


@pytest.mark.parametrize(("game", "n"), CASES)
def test_an_illegal_action_under_terminate_ends_the_game(game: str, n: int) -> None:
    spec = get_game(game)
    e = mid_game_env(game, n, 7, illegal_action="terminate")
    illegal = illegal_actions(spec, e.state) or [spec.num_actions]
    offender = e.agent_selection
    e.step(illegal[0])
    expected = {a: (-1.0 if a == offender else 0.0) for a in e.possible_agents}
    assert all(e.terminations.values()) and e.rewards == expected
    final = {}
    for agent in e.agent_iter(max_iter=10 * n):
        _obs, reward, termination, truncation, _info = e.last()
        assert termination or truncation
        final[agent] = reward
        e.step(None)
    assert not e.agents and final == expected


@pytest.mark.parametrize(("game", "n"), CASES)
def test_a_whole_game_through_the_env_ends_with_the_specs_rewards(game: str, n: int) -> None:
    spec = get_game(game)
    e = make_env(game, n)
    e.reset(seed=9)
    rng = random.Random(9)
    final = {}
    for agent in e.agent_iter(max_iter=100_000):
        obs, reward, termination, truncation, _info = e.last()
        if termination or truncation:
            final[agent] = reward
            e.step(None)
            continue
        assert reward == 0.0, "rewards come only at the end"
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]).tolist())))
    state = e.unwrapped.state
    assert not e.agents and state.is_over
    breakdown = state.score_breakdown()
    assert [b["player"] for b in breakdown] == list(range(n))
    assert all({"total", "rank"} <= set(b) for b in breakdown)
    rewards = (spec.final_rewards or final_rewards)(breakdown, e.unwrapped.reward_mode)
    assert [final[a] for a in e.possible_agents] == pytest.approx(rewards)


# -- the observation decoder --------------------------------------------------------------------
@pytest.mark.parametrize(("game", "n"), CASES)
def test_the_decoder_splits_the_observation_into_its_fields(game: str, n: int) -> None:
    spec = get_game(game)
    assert spec.decode_observation is not None, f"{game}: GameSpec.decode_observation is None"
    states = sampled_states(game, n, SEEDS[0], 9)
    observer = spec.make_observer(states[0])
    for state in states[::3]:
        for seat in range(n):
            vector = observer.observation(state, seat)
            fields = spec.decode_observation(vector)
            assert fields and all(isinstance(v, np.ndarray) for v in fields.values())
            assert sum(v.size for v in fields.values()) == spec.observation_size
            joined = np.concatenate([v.ravel() for v in fields.values()])
            assert np.array_equal(joined, vector), "the fields are not the vector, in order"
    for shape in [
        (spec.observation_size - 1,),
        (spec.observation_size + 1,),
        (1, spec.observation_size),
    ]:
        with pytest.raises(ValueError):
            spec.decode_observation(np.zeros(shape, dtype=np.float32))
