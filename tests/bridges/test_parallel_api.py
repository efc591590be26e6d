"""PettingZoo's Parallel API over both games' AEC envs (turn_based_aec_to_parallel), as
docs/ecosystem.md shows it."""

from __future__ import annotations

import pytest
from pettingzoo.test import parallel_api_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from art_gallery_env import art_gallery_v1, gallerist_v1


@pytest.mark.parametrize("module", [art_gallery_v1, gallerist_v1], ids=lambda m: m.__name__)
def test_the_parallel_api_test_passes(module) -> None:
    parallel_api_test(turn_based_aec_to_parallel(module.env(num_players=2)), num_cycles=60)


@pytest.mark.parametrize("module", [art_gallery_v1, gallerist_v1], ids=lambda m: m.__name__)
def test_a_whole_game_ends_with_win_rewards_and_only_the_mover_has_a_mask(module) -> None:
    env = turn_based_aec_to_parallel(module.env(num_players=3))
    observations, _ = env.reset(seed=2)
    rewards: dict[str, float] = {}
    for _ in range(20_000):
        if not env.agents:
            break
        movers = [a for a, obs in observations.items() if obs["action_mask"].any()]
        assert movers == [env.unwrapped.agent_selection]
        actions = {a: env.action_space(a).sample(observations[a]["action_mask"]) for a in movers}
        actions.update({a: 0 for a in env.agents if a not in movers})
        observations, rewards, *_ = env.step(actions)
    assert not env.agents
    assert sorted(rewards.values())[-1] > 0 > sorted(rewards.values())[0]
