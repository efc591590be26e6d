"""TorchRL's PettingZooWrapper runs the AEC env with action masks once the infos are left
out (they are text, which TorchRL cannot make tensors of)."""

from __future__ import annotations

import warnings

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torchrl")
from torchrl.envs.libs.pettingzoo import PettingZooWrapper  # noqa: E402
from torchrl.envs.utils import check_env_specs  # noqa: E402

from art_gallery_env.bridges.torchrl_env import torchrl_env  # noqa: E402
from art_gallery_env.games.art_gallery.env.aec import final_rewards, raw_env  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:PettingZoo in TorchRL is tested")


def test_the_plain_env_is_refused_because_its_infos_are_text() -> None:
    """The limit docs/ecosystem.md describes; if TorchRL starts accepting it, update them."""
    with pytest.raises(TypeError, match="invalid data type 'str'"):
        PettingZooWrapper(env=raw_env(2), use_mask=True, categorical_actions=True)


@pytest.mark.slow
def test_torchrl_plays_a_whole_game_with_the_action_masks() -> None:
    env = torchrl_env(2, seed=5)
    assert set(env.group_map) == {"player_0", "player_1"}
    check_env_specs(env)
    td = env.reset()
    inner = env._env.unwrapped
    acting = inner.agent_selection
    for agent in inner.possible_agents:
        assert bool(td[agent, "mask"].all()) == (agent == acting), "only the mover acts"
        expected = [bool(x) for x in inner.action_mask(agent)] if agent == acting else None
        if expected:
            assert td[agent, "action_mask"][0].tolist() == expected
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rollout = env.rollout(2000, break_when_any_done=True)  # random actions within the masks
    assert inner.state.is_over, "the game ran to its end: every sampled action was legal"
    assert rollout.batch_size[0] > 100
    final = rollout[-1]["next"]
    rewards = [float(final[f"player_{i}", "reward"].sum()) for i in range(2)]
    assert rewards == final_rewards(inner.state.score_breakdown(), "win")


@pytest.mark.parametrize(("game", "n"), [("art_gallery", 2), ("gallerist", 2), ("gallerist", 1)])
def test_the_observation_key_is_flat_for_every_game(game: str, n: int) -> None:
    """``(player, "observation")`` is the vector itself, not a dict holding another
    ``observation``; the mask is ``(player, "action_mask")``."""
    from art_gallery_env.core.registry import get_game

    env = torchrl_env(n, seed=1, game=game)
    keys = set(env.observation_spec.keys(True, True))
    agents = [f"player_{i}" for i in range(n)]
    assert keys == {(a, k) for a in agents for k in ("observation", "action_mask", "mask")}
    td = env.reset()
    size = get_game(game).observation_size
    inner = env._env.unwrapped
    mover = inner.agent_selection
    assert td[mover, "observation"].shape[-1] == size
    assert td[mover, "action_mask"][0].tolist() == [bool(x) for x in inner.action_mask(mover)]


@pytest.mark.slow
def test_torchrl_plays_a_whole_gallerist_game() -> None:
    env = torchrl_env(2, seed=3, game="gallerist")
    check_env_specs(env)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.rollout(5000, break_when_any_done=True)
    assert env._env.unwrapped.state.is_over, "every sampled action was legal"
