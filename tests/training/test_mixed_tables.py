"""Mixed table sizes: every episode draws its size from env.num_players with
env.player_weights, and evaluation plays each size and selects on a weighted aggregate."""

from __future__ import annotations

from collections import Counter

import pytest

from art_gallery_env.arena.single_agent import SingleAgentEnv
from art_gallery_env.training.config import ConfigError, config_from_dict
from art_gallery_env.training.selection import eval_key, selection_score
from art_gallery_env.training.selfplay import OpponentPool, SelfPlayEnv


def _sizes(env: SingleAgentEnv, episodes: int, seed: int) -> list[int]:
    sizes = []
    for k in range(episodes):
        obs, info = env.reset(seed=seed if k == 0 else None)
        assert obs.shape == env.observation_space.shape
        assert env.state.num_players == env.num_players
        assert len(env.opponents) == env.num_players - 1
        assert 0 <= info["learner_seat"] < env.num_players
        sizes.append(env.num_players)
    return sizes


def test_table_sizes_follow_the_weights_and_the_seed():
    env = SingleAgentEnv([2, 4, 6], "random", player_weights=[1, 0, 3])
    sizes = _sizes(env, 400, seed=7)
    counts = Counter(sizes)
    assert counts[4] == 0  # weight 0: never drawn
    assert 0.65 < counts[6] / 400 < 0.85  # weight 3 of 4 (binomial sd ~0.02)
    assert counts[2] + counts[6] == 400
    again = SingleAgentEnv([2, 4, 6], "random", player_weights=[1, 0, 3])
    assert _sizes(again, 400, seed=7) == sizes  # the same seed draws the same tables
    assert _sizes(again, 400, seed=8) != sizes


def test_selfplay_env_draws_sizes_with_its_pool():
    env = SelfPlayEnv([2, 3], OpponentPool({"heuristic": 1.0}, seed=0), seed=0)
    assert set(_sizes(env, 40, seed=0)) == {2, 3}
    obs, reward, done = None, 0.0, False
    while not done:
        action = int(env.action_masks().nonzero()[0][0])
        obs, reward, done, _, info = env.step(action)
    assert info["learner_seat"] < env.num_players


def test_mixed_sizes_refuse_per_seat_opponents_and_bad_weights():
    with pytest.raises(ValueError, match="one opponent spec for every seat"):
        SingleAgentEnv([2, 4], ["random", "heuristic", "random"])
    with pytest.raises(ValueError, match="player_weights"):
        SingleAgentEnv([2, 4], player_weights=[1.0])
    with pytest.raises(ValueError, match="distinct"):
        SingleAgentEnv([2, 2])


def _config(**env):
    return config_from_dict(
        {"name": "m", "total_steps": 10, "env": env, "eval": {"opponents": ["random"]}}
    )


def test_selection_score_weights_win_share_over_even_share():
    config = _config(num_players=[2, 4, 6], player_weights=[1, 1, 2])
    results = {
        eval_key("random", 2, config): {"win_share": 0.5},  # even share: ratio 1.0
        eval_key("random", 4, config): {"win_share": 0.5},  # ratio 2.0
        eval_key("random", 6, config): {"win_share": 0.0},  # ratio 0.0
    }
    assert set(results) == {"random@2p", "random@4p", "random@6p"}
    assert selection_score(results, config) == pytest.approx((1.0 + 2.0 + 0.0) / 4)
    single = _config(num_players=4)
    assert eval_key("random", 4, single) == "random"
    assert selection_score({"random": {"win_share": 0.3}}, single) == 0.3


def test_eval_table_sizes_must_be_trained_sizes():
    data = {
        "name": "m",
        "total_steps": 10,
        "env": {"num_players": [2, 3, 4]},
        "eval": {"table_sizes": [2, 5]},
    }
    with pytest.raises(ConfigError, match="eval.table_sizes"):
        config_from_dict(data)
    data["eval"]["table_sizes"] = [2, 4]
    assert config_from_dict(data).eval_table_sizes == [2, 4]


def test_rllib_refuses_mixed_tables_and_warm_start():
    base = {"name": "m", "total_steps": 10, "algorithm": "rllib_ppo"}
    with pytest.raises(ConfigError, match="one table size"):
        config_from_dict({**base, "env": {"num_players": [2, 4]}})
    with pytest.raises(ConfigError, match="warm_start"):
        config_from_dict({**base, "warm_start": {"bc_games": 2}})
