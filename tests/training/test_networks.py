"""The structured policy networks (``network: {type: ebag | entity}``): the config key, the
MaskablePPO policy (learns, saves and reloads), the weights-only export that numpy plays
with the torch net's logits, a tiny training run, and the RLlib module."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")

import torch  # noqa: E402
from training_helpers import tiny_config_dict  # noqa: E402

from art_gallery_env import raw_env  # noqa: E402
from art_gallery_env.agents.model_policy import export_model_weights, policy_of_model  # noqa: E402
from art_gallery_env.agents.policy import MLPPolicy, PolicyAgent, load_policy  # noqa: E402
from art_gallery_env.agents.policy_entity import EntityPolicy  # noqa: E402
from art_gallery_env.training.config import ConfigError, config_from_dict  # noqa: E402
from art_gallery_env.training.sb3_policy import NetworkPolicy, new_network_model  # noqa: E402

TINY = {
    "ebag": {"type": "ebag", "hidden_sizes": [16, 8], "shared": True},
    "ebag_separate": {"type": "ebag", "hidden_sizes": [8], "shared": False},
    "entity": {"type": "entity", "hidden_sizes": [16], "token_dim": 4, "pointer_dim": 8},
}


def _observations(count: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of a random 4-player game (every decision kind)."""
    env = raw_env(num_players=4)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    obs, masks = [], []
    for _ in env.agent_iter():
        o, _, term, trunc, _ = env.last()
        if term or trunc or len(obs) >= count:
            break
        obs.append(o["observation"])
        masks.append(o["action_mask"])
        env.step(int(rng.choice(np.flatnonzero(o["action_mask"]))))
    return np.stack(obs).astype(np.float32), np.stack(masks)


@pytest.mark.parametrize(
    ("network", "expected"),
    [
        ({"type": "conv"}, r"network\.type: Input should be 'mlp', 'ebag' or 'entity'"),
        ({"token_dim": 8}, r"network: token_dim applies to network type entity, not mlp"),
        ({"type": "ebag", "pointer": False}, r"pointer applies to network type entity, not ebag"),
    ],
)
def test_network_key_is_validated_in_one_line(network: dict, expected: str) -> None:
    with pytest.raises(ConfigError, match=expected) as info:
        config_from_dict({"name": "x", "total_steps": 10, "network": network})
    assert "\n" not in str(info.value)


def test_old_configs_keep_the_mlp() -> None:
    config = config_from_dict({"name": "x", "total_steps": 10, "network": {"hidden_sizes": [8]}})
    assert config.network.type == "mlp"
    entity = config_from_dict({"name": "x", "total_steps": 10, "network": TINY["entity"]})
    assert entity.network.network()["use_pointer"] is True


@pytest.mark.parametrize("kind", sorted(TINY))
def test_policy_learns_saves_and_exports_what_numpy_plays(kind: str, tmp_path: Path) -> None:
    model = new_network_model(TINY[kind], n_steps=32, batch_size=16, n_epochs=1)
    assert isinstance(model.policy, NetworkPolicy)
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(64)
    assert any(not torch.equal(a, p) for a, p in zip(before, model.policy.parameters()))
    obs, masks = _observations()
    x = torch.as_tensor(obs)
    with torch.no_grad():
        logits, values = model.policy.net(x)
    model.save(tmp_path / "m.zip")
    from sb3_contrib import MaskablePPO

    reloaded = MaskablePPO.load(tmp_path / "m.zip", device="cpu")
    with torch.no_grad():
        torch.testing.assert_close(reloaded.policy.net.logits(x), logits)
    path = export_model_weights(model, tmp_path / "p.safetensors", {"name": kind})
    played = load_policy(path)
    assert isinstance(played, EntityPolicy if kind == "entity" else MLPPolicy)
    assert played.meta["network"]["type"] == TINY[kind]["type"]
    np.testing.assert_allclose(played.logits(obs), logits.numpy(), atol=1e-5)
    in_memory = policy_of_model(model)
    assert in_memory.value(obs[3]) == pytest.approx(float(values[3, 0]), abs=1e-5)
    greedy = model.policy.get_distribution(x, masks).mode().numpy()
    agent = PolicyAgent(path)
    assert [agent.act(o, m) for o, m in zip(obs, masks, strict=True)] == greedy.tolist()


def test_a_tiny_run_trains_the_entity_network(tmp_path: Path) -> None:
    from art_gallery_env.training.sb3_trainer import train

    config = config_from_dict(
        tiny_config_dict(tmp_path, 128, network=TINY["entity"], eval={"every_steps": 128})
    )
    train(config, progress_bar=False)
    policy = load_policy(tmp_path / "latest.safetensors")
    assert isinstance(policy, EntityPolicy) and policy.meta["steps"] == 128
    snapshots = sorted((tmp_path / "pool").glob("*.safetensors"))
    assert snapshots and isinstance(load_policy(snapshots[-1]), EntityPolicy)
    zipped = load_policy(tmp_path / "latest.zip")  # the SB3 zip plays the same net
    obs, _ = _observations(8)
    assert isinstance(zipped, EntityPolicy) and zipped.has_value_head
    np.testing.assert_allclose(zipped.logits(obs), policy.logits(obs), atol=1e-6)


@pytest.mark.slow  # imports Ray (no cluster starts)
def test_rllib_module_over_the_entity_network_exports_what_numpy_plays(tmp_path: Path) -> None:
    pytest.importorskip("ray.rllib", reason="RLlib training needs the [rllib] extra")
    from ray.rllib.core.columns import Columns

    from art_gallery_env.training.rllib_env import make_rllib_env
    from art_gallery_env.training.rllib_module import export_rllib_module, module_spec

    env = make_rllib_env({"num_players": 2})
    agent = env.possible_agents[0]
    spec = module_spec([8], "tanh", TINY["entity"])
    spec.observation_space, spec.action_space = (
        env.observation_spaces[agent],
        env.action_spaces[agent],
    )
    module = spec.build()
    obs, _ = env.reset(seed=0)
    first = next(iter(obs.values()))
    batch = {Columns.OBS: {k: torch.as_tensor(v)[None] for k, v in first.items()}}
    out = module._forward_train(batch)
    values = module.compute_values(batch, out[Columns.EMBEDDINGS])
    torch.testing.assert_close(values, module.compute_values(batch))
    policy = load_policy(export_rllib_module(module, tmp_path / "r.safetensors", {"name": "r"}))
    legal = first["action_mask"] > 0
    logits = out[Columns.ACTION_DIST_INPUTS][0].detach().numpy()
    np.testing.assert_allclose(
        policy.logits(first["observations"])[legal], logits[legal], atol=1e-5
    )
    assert logits[~legal].max() < -1e8


def test_vector_env_batches_entity_snapshots_in_torch(tmp_path: Path) -> None:
    pytest.importorskip("numba", reason="the compiled engine needs numba")
    from art_gallery_env.training.vector_env import _BatchedEntity

    model = new_network_model(TINY["entity"], n_steps=32, batch_size=16)
    policy = load_policy(export_model_weights(model, tmp_path / "s.safetensors", {"name": "s"}))
    obs, _ = _observations()
    np.testing.assert_allclose(_BatchedEntity(policy).logits(obs), policy.logits(obs), atol=1e-5)
