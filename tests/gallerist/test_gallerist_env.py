"""The Gallerist's PettingZoo AEC env and solo Gymnasium env: Gymnasium's own checks, the
observation layout and decoder, rewards, rendering, errors. PettingZoo's API and seed
tests, masks and the illegal-action policies are the conformance suite's (tests/conformance/)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from game_states import play_random
from gymnasium.utils.env_checker import check_env

from art_gallery_env.games.art_gallery.env.observation import observation_table_markdown
from art_gallery_env.games.gallerist import (
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    GalleristSoloEnv,
    IllegalActionError,
    decode_observation,
    env,
    raw_env,
)
from art_gallery_env.games.gallerist.env.observation import FIELDS

PLAYER_COUNTS = (1, 2, 3, 4)


def _a_real_choice(obs, reward: float, legal) -> None:
    assert obs["observation"].shape == (OBSERVATION_SIZE,)
    assert legal.size >= 2


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_a_whole_game_through_the_env_with_ansi_render(n: int) -> None:
    e = env(num_players=n, render_mode="ansi")
    e.reset(seed=7)
    final = play_random(e, random.Random(n), 20_000, _a_real_choice)
    assert set(final) == {f"player_{i}" for i in range(n)}
    text = e.render()
    assert "The Gallerist" in text and "total" in text
    breakdown = e.unwrapped.state.score_breakdown()
    assert len(breakdown) == n
    if n == 1:
        assert final["player_0"] == breakdown[0]["goal_level"] and "solo goal" in text
    else:
        winners = [b["player"] for b in breakdown if b["rank"] == 1]
        assert sum(1 for a, r in final.items() if r > 0) == len(winners)


def test_one_observation_shape_for_every_table_size_and_a_decoder() -> None:
    assert sum(f.size for f in FIELDS) == OBSERVATION_SIZE
    for n in PLAYER_COUNTS:
        e = raw_env(num_players=n)
        e.reset(seed=3)
        obs = e.observe(e.agent_selection)
        assert (
            obs["observation"].shape == (OBSERVATION_SIZE,)
            and obs["observation"].dtype == np.float32
        )
        assert obs["action_mask"].shape == (NUM_ACTIONS,)
        fields = decode_observation(obs["observation"])
        assert fields["num_players"].tolist() == [float(i == n - 1) for i in range(4)]
        assert fields["seat_active"].sum() == n
        assert fields["decision"].sum() == 1.0
        assert fields["own_cards"].sum() == 2.0
        assert e.observation_space(e.agent_selection).contains(obs)
    with pytest.raises(ValueError, match="shape"):
        decode_observation(np.zeros(5))
    table = observation_table_markdown(FIELDS)
    assert f"({OBSERVATION_SIZE},)" in table and "`market_upper`" in table


def test_reward_modes_and_their_errors() -> None:
    for mode in ("win", "score_margin", "money"):
        e = raw_env(num_players=2, reward_mode=mode)
        e.reset(seed=5)
        final = play_random(e, random.Random(5), 20_000, _a_real_choice)
        breakdown = e.state.score_breakdown()
        if mode == "money":
            assert final["player_1"] == breakdown[1]["total"] / 100
        if mode == "score_margin":
            assert final["player_0"] == (breakdown[0]["total"] - breakdown[1]["total"]) / 10
    with pytest.raises(ValueError, match="'level'"):
        raw_env(num_players=1, reward_mode="win")
    with pytest.raises(ValueError, match="reward_mode for 3 player"):
        raw_env(num_players=3, reward_mode="level")
    with pytest.raises(ValueError, match="num_players"):
        raw_env(num_players=5)


def test_reset_options_start_player_and_saved_state() -> None:
    e = raw_env(num_players=3)
    e.reset(seed=1, options={"start_player": 2})
    assert e.state.start_player == 2
    saved = e.state.clone()
    e.step(e.state.legal_actions()[0])
    e.reset(options={"state": saved})
    assert e.state.to_dict() == saved.to_dict()
    with pytest.raises(ValueError, match="GameState for 3 players"):
        e.reset(options={"state": "nope"})


@pytest.mark.filterwarnings("ignore:.*maximum value is infinity")  # money has no upper bound
def test_solo_gymnasium_env_checker_and_a_game() -> None:
    check_env(GalleristSoloEnv(illegal_action="terminate"), skip_render_check=True)
    e = GalleristSoloEnv(render_mode="ansi", reward_mode="money")
    obs, info = e.reset(seed=8)
    assert obs.shape == (OBSERVATION_SIZE,) and info["action_mask"].sum() >= 2
    rng = np.random.default_rng(8)
    done, reward = False, 0.0
    while not done:
        obs, reward, done, truncated, info = e.step(
            int(rng.choice(np.flatnonzero(e.action_masks())))
        )
        assert not truncated
    assert reward == info["score"]["total"] / 100
    assert "solo goal reached" in e.render()
    # the same game as the AEC env with one player
    a = GalleristSoloEnv(illegal_action="raise")  # the strict mode (the default terminates)
    a.reset(seed=9)
    b = raw_env(num_players=1)
    b.reset(seed=int(a.state.to_dict()["events"][0][1]["seed"]))
    assert a.state.to_dict() == b.state.to_dict()
    with pytest.raises(IllegalActionError):
        a.step(NUM_ACTIONS - 1)
    with pytest.raises(ValueError, match="reward_mode"):
        GalleristSoloEnv(reward_mode="win")


def test_the_graded_solo_reward_goals_in_both_solo_envs() -> None:
    from art_gallery_env.games.gallerist.env.aec import goals_reward

    e = env(num_players=1, reward_mode="goals")
    e.reset(seed=12)
    final = play_random(e, random.Random(12), 20_000, _a_real_choice)
    row = e.unwrapped.state.score_breakdown()[0]
    assert final["player_0"] == goals_reward(row)
    assert row["goal_level"] <= final["player_0"] < row["goal_level"] + 1
    solo = GalleristSoloEnv(reward_mode="goals")
    solo.reset(seed=13)
    rng = np.random.default_rng(13)
    done, reward, info = False, 0.0, {}
    while not done:
        _obs, reward, done, _trunc, info = solo.step(
            int(rng.choice(np.flatnonzero(solo.action_masks())))
        )
    assert reward == goals_reward(info["score"]) and reward >= info["score"]["goal_level"]
    for make in (
        lambda: env(num_players=1, reward_mode="level_up"),
        lambda: GalleristSoloEnv(reward_mode="level_up"),
    ):
        with pytest.raises(ValueError) as err:
            make()
        text = str(err.value)
        assert "\n" not in text and "['level', 'money', 'goals']" in text, text
