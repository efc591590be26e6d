"""PolicyAgent: the weights-only checkpoint format, numpy inference equal to torch, and clear
errors for bad files."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from agent_test_helpers import play_seeded

from art_gallery_env.agents import (
    CheckpointError,
    PolicyAgent,
    layout_fingerprint,
    load_policy,
    make_agent,
    run_checkpoint,
)
from art_gallery_env.agents.policy_format import (
    METADATA_KEY,
    export_torch_mlp,
    policy_from_torch_mlp,
    save_policy_weights,
)
from art_gallery_env.games.art_gallery.env.aec import raw_env
from art_gallery_env.games.art_gallery.env.observation import OBSERVATION_SIZE
from art_gallery_env.games.art_gallery.rules.actions import NUM_ACTIONS

torch = pytest.importorskip("torch")


def _tiny_mlp(seed: int = 0, activation=None):
    torch.manual_seed(seed)
    act = activation or torch.nn.Tanh
    return torch.nn.Sequential(
        torch.nn.Linear(OBSERVATION_SIZE, 16),
        act(),
        torch.nn.Linear(16, 8),
        act(),
        torch.nn.Linear(8, NUM_ACTIONS),
    )


def _observations(count: int = 60, num_players: int = 3):
    """Real (observation, mask) pairs from a seeded random game."""
    env = raw_env(num_players=num_players)
    env.reset(seed=12)
    rng = np.random.default_rng(0)
    out = []
    while len(out) < count:
        name = env.agent_selection
        if env.terminations[name]:
            env.reset(seed=len(out))
            continue
        obs = env.observe(name)
        out.append((obs["observation"], obs["action_mask"]))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return out


@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_numpy_inference_matches_torch_masked_argmax(tmp_path: Path, activation: str) -> None:
    module = _tiny_mlp(1, torch.nn.Tanh if activation == "tanh" else torch.nn.ReLU)
    path = export_torch_mlp(module, tmp_path / "tiny.safetensors", extra_meta={"name": "tiny"})
    agent = make_agent(str(path), seed=0)
    assert isinstance(agent, PolicyAgent)
    assert agent.name == "tiny"
    assert agent.policy.meta["activation"] == activation
    assert agent.policy.meta["hidden_sizes"] == [16, 8]
    for obs, mask in _observations():
        with torch.no_grad():
            logits = module(torch.from_numpy(obs)).numpy()
        expected = int(np.argmax(np.where(mask.astype(bool), logits, -np.inf)))
        np.testing.assert_allclose(agent.policy.logits(obs), logits, rtol=1e-4, atol=1e-5)
        assert agent.act(obs, mask) == expected


def test_sampling_is_seeded_and_legal(tmp_path: Path) -> None:
    path = export_torch_mlp(_tiny_mlp(2), tmp_path / "p.safetensors")
    pairs = _observations(40)
    first = make_agent(f"{path}:deterministic=false", seed=3)
    second = PolicyAgent(path, seed=3, deterministic=False)
    a = [first.act(obs, mask) for obs, mask in pairs]
    b = [second.act(obs, mask) for obs, mask in pairs]
    assert a == b
    assert all(mask[x] for x, (_, mask) in zip(a, pairs))


def test_policy_agent_plays_whole_games(tmp_path: Path) -> None:
    path = export_torch_mlp(_tiny_mlp(3), tmp_path / "p.safetensors")
    for n in (2, 5):
        agents = [make_agent(str(path)), *[make_agent("random", seed=i) for i in range(n - 1)]]
        play_seeded(agents, seed=n)


def test_registry_policy_spec(tmp_path: Path) -> None:
    path = export_torch_mlp(_tiny_mlp(4), tmp_path / "p.safetensors")
    agent = make_agent(f"policy:path={path},deterministic=false", seed=1)
    assert isinstance(agent, PolicyAgent) and not agent.deterministic
    with pytest.raises(ValueError, match="true or false"):
        make_agent(f"{path}:deterministic=maybe")
    with pytest.raises(ValueError, match="valid options: path, deterministic"):
        make_agent(f"{path}:temperature=2")


def test_corrupted_file_gives_a_clear_error(tmp_path: Path) -> None:
    path = export_torch_mlp(_tiny_mlp(5), tmp_path / "p.safetensors")
    data = path.read_bytes()
    truncated = tmp_path / "truncated.safetensors"
    truncated.write_bytes(data[: len(data) // 2])
    garbage = tmp_path / "garbage.safetensors"
    garbage.write_bytes(b"\x00\x01not a checkpoint at all" * 10)
    for bad in (truncated, garbage):
        with pytest.raises(CheckpointError, match="not a readable safetensors file"):
            load_policy(bad)
        with pytest.raises(CheckpointError, match=bad.name):
            make_agent(str(bad))


def _write_raw(path: Path, tensors: dict, meta: dict | None) -> Path:
    from safetensors.numpy import save_file

    metadata = None if meta is None else {METADATA_KEY: json.dumps(meta)}
    save_file(tensors, str(path), metadata=metadata)
    return path


def _valid(tmp_path: Path) -> tuple[dict, dict]:
    from safetensors import safe_open
    from safetensors.numpy import load_file

    path = export_torch_mlp(_tiny_mlp(6), tmp_path / "ok.safetensors")
    with safe_open(str(path), framework="numpy") as handle:
        meta = json.loads(handle.metadata()[METADATA_KEY])
    return load_file(str(path)), meta


def test_layout_fingerprint_mismatch_is_rejected(tmp_path: Path) -> None:
    tensors, meta = _valid(tmp_path)
    assert meta["layout_fingerprint"] == layout_fingerprint()
    old = {**meta, "layout_fingerprint": "0" * 16}
    path = _write_raw(tmp_path / "old.safetensors", tensors, old)
    with pytest.raises(CheckpointError, match="observation/action layout"):
        load_policy(path)


def test_fingerprint_is_stable() -> None:
    assert layout_fingerprint() == layout_fingerprint()
    assert len(layout_fingerprint()) == 16 and int(layout_fingerprint(), 16) >= 0


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t, m: (t, None), "not an art-gallery policy checkpoint"),
        (lambda t, m: (t, {**m, "version": 99}), "not supported"),
        (lambda t, m: (t, {**m, "activation": "gelu"}), "activation 'gelu'"),
        (lambda t, m: (t, {**m, "hidden_sizes": [16, 9]}), "has shape"),
        (lambda t, m: ({k: v for k, v in t.items() if k != "layers.2.bias"}, m), "missing"),
        (lambda t, m: ({**t, "extra": np.zeros(2, np.float32)}, m), "unexpected tensor"),
        (
            lambda t, m: ({**t, "layers.0.bias": np.full(16, np.nan, np.float32)}, m),
            "NaN",
        ),
    ],
)
def test_bad_headers_and_tensors(tmp_path: Path, edit, message: str) -> None:
    tensors, meta = _valid(tmp_path)
    tensors, meta = edit(tensors, meta)
    path = _write_raw(tmp_path / "bad.safetensors", tensors, meta)
    with pytest.raises(CheckpointError, match=message):
        load_policy(path)


def test_save_policy_weights_round_trip(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    weights = {
        "layers.0.weight": rng.normal(size=(4, OBSERVATION_SIZE)).astype(np.float32),
        "layers.0.bias": rng.normal(size=4).astype(np.float32),
        "layers.1.weight": rng.normal(size=(NUM_ACTIONS, 4)).astype(np.float32),
        "layers.1.bias": rng.normal(size=NUM_ACTIONS).astype(np.float32),
    }
    path = save_policy_weights(
        weights, {"hidden_sizes": [4], "activation": "relu"}, tmp_path / "w.safetensors"
    )
    obs = rng.random(OBSERVATION_SIZE).astype(np.float32)
    hidden = np.maximum(weights["layers.0.weight"] @ obs + weights["layers.0.bias"], 0)
    expected = weights["layers.1.weight"] @ hidden + weights["layers.1.bias"]
    np.testing.assert_allclose(load_policy(path).logits(obs), expected, rtol=1e-5, atol=1e-5)
    with pytest.raises(CheckpointError, match="has shape"):
        save_policy_weights(weights, {"hidden_sizes": [5], "activation": "relu"}, path)


def test_unsupported_checkpoint_types(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "sb3_contrib", None)  # as without the [train] extra
    zip_path = tmp_path / "model.zip"
    zip_path.write_bytes(b"PK")
    with pytest.raises(CheckpointError, match=r"SB3 \.zip checkpoints need the \[train\] extra"):
        make_agent(str(zip_path))
    with pytest.raises(CheckpointError, match="unknown checkpoint type"):
        load_policy(tmp_path / "model.pt")
    with pytest.raises(CheckpointError, match="no such checkpoint file"):
        make_agent(str(tmp_path / "missing.safetensors"))


def test_zip_loader_and_in_memory_policy(tmp_path: Path, monkeypatch) -> None:
    module = _tiny_mlp(7)
    from_file = load_policy(export_torch_mlp(module, tmp_path / "p.safetensors"))
    in_memory = policy_from_torch_mlp(module, extra_meta={"name": "zipped"})
    calls = []

    def load_zip_policy(path):
        calls.append(Path(path))
        return in_memory

    monkeypatch.setattr(run_checkpoint, "load_zip_policy", load_zip_policy)
    zip_path = tmp_path / "model.zip"
    zip_path.write_bytes(b"PK")
    agent = make_agent(str(zip_path))
    assert calls == [zip_path] and agent.name == "zipped"
    for obs, mask in _observations(20):
        np.testing.assert_allclose(in_memory.logits(obs), from_file.logits(obs), rtol=1e-6)
        assert agent.act(obs, mask) == PolicyAgent(from_file).act(obs, mask)
