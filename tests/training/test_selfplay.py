"""The self-play wrapper credits the learner's seat only and never lets the policy act
for another seat (the two bugs of the SB3 connect-four tutorial pattern)."""

from __future__ import annotations

import numpy as np
import pytest

from art_gallery_env.agents.base import Agent
from art_gallery_env.games.art_gallery.env.aec import final_rewards
from art_gallery_env.games.art_gallery.env.observation import decode_observation

pytest.importorskip("gymnasium")
from art_gallery_env.training.selfplay import OpponentPool, SelfPlayEnv  # noqa: E402


class ScriptedAgent(Agent):
    """Plays a seeded random legal action and records which seat it was asked for."""

    name = "scripted"

    def __init__(self, seed: int = 0) -> None:
        self.calls: list[int] = []
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask, view=None) -> int:
        assert view is not None and view.is_my_turn
        self.calls.append(view.player)
        return int(self.rng.choice(np.flatnonzero(action_mask)))


class ScriptedPool(OpponentPool):
    def __init__(self) -> None:
        super().__init__({"random": 1.0})
        self.agents: list[ScriptedAgent] = []

    def sample(self, count: int) -> list[Agent]:
        self.agents = [ScriptedAgent(seed) for seed in range(count)]
        return self.agents


def _play_episode(env: SelfPlayEnv, seed: int | None = None, rng=None):
    obs, info = env.reset(seed=seed)
    learner = info["learner_seat"]
    total, steps = 0.0, 0
    while True:
        assert env.state.current_player == learner, "the learner is asked only on its turn"
        mask = env.action_masks()
        assert mask.any()
        assert decode_observation(obs)["summary"]["hand"] == {
            v: k for v, k in enumerate(env.state.hands[learner]) if k
        }, "the observation is the learner seat's view"
        legal = np.flatnonzero(mask)
        action = int(legal[-1] if rng is None else rng.choice(legal))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        steps += 1
        assert not truncated
        if terminated:
            return learner, total, info, steps
        assert reward == 0.0, "rewards come only at the end"


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_learner_seat_rotates_and_gets_only_its_own_reward(num_players: int) -> None:
    pool = ScriptedPool()
    env = SelfPlayEnv(num_players, pool, reward_mode="score_margin", seed=3)
    seats = []
    for _ in range(num_players):
        learner, total, info, _ = _play_episode(env)
        seats.append(learner)
        breakdown = env.state.score_breakdown()
        assert total == pytest.approx(final_rewards(breakdown, "score_margin")[learner])
        assert info["score"] == breakdown[learner]
        # Opponents were asked only for their own seats, and every other seat was played.
        asked = {seat for agent in pool.agents for seat in agent.calls}
        assert asked == set(range(num_players)) - {learner}
        for agent in pool.agents:
            assert len(set(agent.calls)) == 1
    assert seats == list(range(num_players)), "the learner sits in every seat in turn"


def test_win_reward_is_the_learner_seats_not_the_last_movers() -> None:
    env = SelfPlayEnv(2, ScriptedPool(), reward_mode="win", seed=11)
    outcomes = set()
    rng = np.random.default_rng(0)
    for _ in range(8):
        learner, total, info, _ = _play_episode(env, rng=rng)
        expected = final_rewards(env.state.score_breakdown(), "win")[learner]
        assert total == expected
        assert info["won"] == (expected > 0)
        outcomes.add(expected)
    assert len(outcomes) > 1, "the scripted games should include wins and losses"


def test_pool_falls_back_when_no_snapshot_exists(tmp_path) -> None:
    pool = OpponentPool({"self_play": 1.0, "random": 0.0}, tmp_path, seed=1)
    agents = pool.sample(3)
    assert [type(a).__name__ for a in agents] == ["RandomAgent"] * 3
    with pytest.raises(ValueError, match="'selfplay' is neither self_play nor an agent spec"):
        OpponentPool({"selfplay": 1.0})


def test_a_pool_entry_weighted_zero_is_off_and_needs_no_such_agent() -> None:
    """A game without a heuristic turns the default off with ``heuristic: 0``."""
    pool = OpponentPool({"random": 1.0, "no_such_agent": 0.0}, seed=2)
    assert {type(a).__name__ for a in pool.sample(20)} == {"RandomAgent"}
    with pytest.raises(ValueError, match="'no_such_agent' is neither self_play"):
        OpponentPool({"random": 1.0, "no_such_agent": 0.5})


def test_pool_plays_fixed_agents_named_by_spec_with_their_weights() -> None:
    """pool.agents: a league of fixed players beside snapshots, heuristic and random."""
    pool = OpponentPool({"ismcts:iters=8": 3.0, "random": 1.0}, seed=4)
    names = [type(agent).__name__ for agent in pool.sample(400)]
    assert set(names) == {"ISMCTSAgent", "RandomAgent"}
    assert 250 < names.count("ISMCTSAgent") < 350  # three to one
    first = pool.sample(1)[0]
    assert any(first is agent for agent in pool.sample(50))  # one agent per spec, reused


def test_pool_agents_in_a_config_are_checked_before_training(tmp_path, tiny_config) -> None:
    from art_gallery_env.training.config import ConfigError

    config = tiny_config(tmp_path / "run", 256, pool={"agents": {"ismcts:iters=8": 1.0}})
    assert config.pool.agents == {"ismcts:iters=8": 1.0}
    with pytest.raises(ConfigError, match=r"pool\.agents\[0\]: 'no_such_agent': unknown agent"):
        tiny_config(tmp_path / "run2", 256, pool={"agents": {"no_such_agent": 1.0}})
