"""The structured policy networks (``network: {type: ebag | entity}``): the config key, the
MaskablePPO policy (learns, saves and reloads), the weights-only export that numpy plays
with the torch net's logits, a tiny training run, and the RLlib module."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")

import torch  # noqa: E402
from game_states import random_observations  # noqa: E402
from training_helpers import tiny_config_dict  # noqa: E402

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
    return random_observations(4, count, env_seed=5, action_seed=0)


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


def _reference_entity(net: torch.nn.Module, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The entity net as its exported tensors define it (and as it trained before the
    update was made faster): a padded copy of ``x`` indexed with each group's 2-D index,
    and each action's destination token gathered before its projection."""
    import torch.nn.functional as F

    padded = F.pad(x, (0, 1))
    tokens = {
        g: net.act(net.encoders[g](padded[:, getattr(net, f"index_{g}")]) + net.positions[g])
        for g in net.groups
    }
    h = torch.cat([tokens[g].flatten(1) for g in net.groups] + [x[:, net.rest]], 1)
    for layer in net.trunk:
        h = net.act(layer(h))
    logits = net.pi(h)
    if net.pointer_group is not None:
        a, b = x[:, net.pointer_context_a], x[:, net.pointer_context_b]
        select = net.pointer_select.view(len(a[0]) * len(b[0]), len(net.pointer_actions), -1)
        pairs = (a.unsqueeze(2) * b.unsqueeze(1)).flatten(1)
        dest = torch.einsum("bp,pkt,btd->bkd", pairs, select, tokens[net.pointer_group])
        q = net.act(
            net.pointer_dest(dest) + net.pointer_hidden(h).unsqueeze(1) + net.pointer_action
        )
        logits = logits.index_add(1, net.pointer_actions, net.pointer_out(q).squeeze(-1))
    return logits, net.vf(h)


@pytest.mark.parametrize("pointer", [True, False])
def test_entity_training_path_computes_the_reference_net(pointer: bool) -> None:
    """The fast gathers (index_select, absent fields zeroed, the pointer's projection
    before its gather) give the exported net's logits, values and gradients."""
    from art_gallery_env.training.networks import EntityNet

    network = {**TINY["entity"], "use_pointer": pointer}
    net = new_network_model(network, n_steps=32, batch_size=16).policy.net
    assert isinstance(net, EntityNet) and (net.pointer_group is not None) == pointer
    assert any(len(getattr(net, f"absent_{g}")) for g in net.groups)  # -1 entries covered
    x = torch.as_tensor(_observations()[0])
    x[:, :5], x[:, 0] = 0.0, 1.0  # column 0, which an absent field reads before it is
    # zeroed, set (it starts a one-hot of 5 that the pointer reads)
    grads = []
    for forward in (net, lambda x: _reference_entity(net, x)):
        net.zero_grad()
        logits, values = forward(x)
        (logits.square().mean() + values.square().mean()).backward()
        grads.append({n: p.grad.clone() for n, p in net.named_parameters()})
        outputs = (logits.detach(), values.detach())
        if len(grads) == 1:
            fast = outputs
    torch.testing.assert_close(fast, outputs, rtol=0, atol=1e-6)
    for name, grad in grads[0].items():
        torch.testing.assert_close(grad, grads[1][name], rtol=1e-4, atol=1e-7, msg=name)


def test_entity_gathers_follow_a_loaded_state_dict() -> None:
    """The gather lists are rebuilt from loaded index buffers, not kept from the
    structure the module was built with."""
    model = new_network_model(TINY["entity"], n_steps=32, batch_size=16)
    net = model.policy.net
    state = net.state_dict()
    state["index_seat"] = torch.flip(state["index_seat"], [0])  # another seat order
    net.load_state_dict(state)
    x = torch.as_tensor(_observations()[0])
    x[:, :5], x[:, 0] = 0.0, 1.0
    with torch.no_grad():
        torch.testing.assert_close(net(x), _reference_entity(net, x), rtol=0, atol=1e-6)


def _filled_model(seed: int = 0) -> tuple[object, dict[str, np.ndarray]]:
    """A tiny entity model and a random rollout (observations of a real game)."""
    model = new_network_model(TINY["entity"], seed=seed, n_steps=40, batch_size=16, n_epochs=2)
    obs, masks = _observations(40)
    rng = np.random.default_rng(1)
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
    data = {
        "observations": obs[:, None],
        "actions": actions[:, None, None].astype(np.float32),
        "values": rng.normal(size=(40, 1)).astype(np.float32),
        "log_probs": -rng.random((40, 1)).astype(np.float32),
        "advantages": rng.normal(size=(40, 1)).astype(np.float32),
        "returns": rng.normal(size=(40, 1)).astype(np.float32),
        "action_masks": masks[:, None].astype(np.float32),
    }
    return model, data


def _set_rollout(model: object, buffer_class: type, data: dict[str, np.ndarray]) -> None:
    buffer = buffer_class(40, model.observation_space, model.action_space, device="cpu")
    for key, value in data.items():
        setattr(buffer, key, value.copy())
    buffer.full, buffer.pos, buffer.generator_ready = True, 40, False
    model.rollout_buffer = buffer


def test_torch_rollout_buffer_samples_what_sb3s_samples() -> None:
    from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

    from art_gallery_env.training.sb3_policy import TorchRolloutBuffer

    model, data = _filled_model()
    assert model.rollout_buffer_class is TorchRolloutBuffer
    samples = []
    for cls in (TorchRolloutBuffer, MaskableRolloutBuffer):
        _set_rollout(model, cls, data)
        np.random.seed(4)
        samples.append(list(model.rollout_buffer.get(16)))
    assert len(samples[0]) == 3
    for fast, sb3 in zip(*samples, strict=True):
        for a, b in zip(fast, sb3, strict=True):
            assert a.dtype == b.dtype and torch.equal(a, b)


def test_ppo_update_is_sb3s_update() -> None:
    """One MaskablePPO.train() with this package's fast path (gathers, buffer, the masked
    categorical built once, multi-tensor Adam) against SB3's own path on the same
    rollout: the same parameters up to float error."""
    from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer
    from stable_baselines3.common.logger import Logger

    fast, data = _filled_model()
    slow, _ = _filled_model()
    assert fast.policy.optimizer.defaults["foreach"] is True
    slow.policy.optimizer = torch.optim.Adam(
        slow.policy.parameters(), lr=fast.learning_rate, eps=1e-5, foreach=False
    )

    def sb3_distribution(logits: torch.Tensor, masks: object) -> object:
        distribution = slow.policy.action_dist.proba_distribution(action_logits=logits)
        distribution.apply_masking(masks)
        return distribution

    slow.policy._distribution = sb3_distribution
    net = slow.policy.net
    slow.policy.net.forward = lambda x: _reference_entity(net, x)
    for model, buffer in ((fast, type(fast.rollout_buffer)), (slow, MaskableRolloutBuffer)):
        model.set_logger(Logger(None, []))
        model._current_progress_remaining = 1.0
        _set_rollout(model, buffer, data)
        np.random.seed(2)
        model.train()
    for (name, a), b in zip(fast.policy.named_parameters(), slow.policy.parameters()):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-6, msg=name)
    before, _ = _filled_model()
    moved = max(
        (a - b).abs().max().item()
        for a, b in zip(fast.policy.parameters(), before.policy.parameters())
    )
    assert moved > 1e-5  # the update did move the weights
