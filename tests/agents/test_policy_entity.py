"""The entity network's weights-only file (format version 2): the game's structure it is
built from, numpy inference against torch, bad files refused in one line, ONNX export."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from game_states import random_observations

from art_gallery_env.agents.policy import CheckpointError, MLPPolicy, load_policy
from art_gallery_env.core.registry import get_game
from art_gallery_env.games.art_gallery.rules.board import galleries_for, move_destinations

torch = pytest.importorskip("torch", reason="building the network needs torch")


def _observations(players: int, count: int = 60) -> tuple[np.ndarray, np.ndarray]:
    return random_observations(players, count, env_seed=players, action_seed=players)


def _structure():
    return get_game().extension("network").network_structure()


def test_the_pointer_sends_each_move_to_its_destination_area() -> None:
    pointer = _structure().pointer
    for players in (2, 4, 6):
        obs, _ = _observations(players)
        areas = galleries_for(players) + 1
        for o in obs:
            here = int(np.argmax(o[pointer.context_a]))
            size = int(np.argmax(o[pointer.context_b]))
            assert o[pointer.context_b].sum() == 1 and o[pointer.context_a].sum() == 1
            table = pointer.table[here, size]
            assert list(table[:18]) == list(move_destinations(areas)[here])
            assert set(table[18:]) == {here}  # a bid is made in the observer's own area


def test_every_observation_entry_is_read_by_a_token_or_the_rest() -> None:
    structure = _structure()
    read = set(structure.rest().tolist())
    for group in structure.groups:
        read |= set(group.index[group.index >= 0].tolist())
    assert read == set(range(structure.observation_size))


def _entity(tmp_path: Path) -> tuple[object, Path]:
    from art_gallery_env.agents.policy_format import save_network_weights
    from art_gallery_env.training.sb3_policy import build_network

    torch.manual_seed(0)
    net = build_network({"type": "entity", "hidden_sizes": [32], "token_dim": 8})
    with torch.no_grad():
        for p in net.parameters():
            p.add_(0.1 * torch.randn_like(p))  # the pointer's zero init would hide bugs
    path = save_network_weights(
        net.export_tensors(), {**net.header(), "name": "e"}, tmp_path / "e.safetensors"
    )
    return net, path


def test_numpy_inference_matches_torch(tmp_path: Path) -> None:
    net, path = _entity(tmp_path)
    policy = load_policy(path)
    assert policy.meta["version"] == 2 and policy.meta["network"]["type"] == "entity"
    for players in (2, 6):
        obs, _ = _observations(players)
        with torch.no_grad():
            logits, values = net(torch.as_tensor(obs))
        np.testing.assert_allclose(policy.logits(obs), logits.numpy(), atol=1e-5)
        np.testing.assert_allclose(policy.logits(obs[0]), logits[0].numpy(), atol=1e-5)
        assert policy.value(obs[1]) == pytest.approx(float(values[1, 0]), abs=1e-5)


def test_old_mlp_checkpoints_still_load_as_mlps() -> None:
    root = Path(__file__).resolve().parents[2] / "checkpoints"
    for name in ("ppo_2p", "ppo_4p"):  # quick and ppo_all are entity nets
        policy = load_policy(root / f"{name}.safetensors")
        assert type(policy) is MLPPolicy and policy.meta["version"] == 1


def _rewrite(path: Path, tensors: dict, meta: dict, out: Path) -> Path:
    import json

    import safetensors.numpy

    out.write_bytes(
        safetensors.numpy.save(tensors, metadata={"art_gallery_policy": json.dumps(meta)})
    )
    return out


def test_bad_entity_files_are_refused_in_one_line(tmp_path: Path) -> None:
    import json

    import safetensors.numpy
    from safetensors import safe_open

    _, path = _entity(tmp_path)
    tensors = safetensors.numpy.load_file(str(path))
    with safe_open(str(path), framework="numpy") as handle:
        meta = json.loads(handle.metadata()["art_gallery_policy"])
    broken_index = {**tensors, "index_area": tensors["index_area"] + 5000}
    missing = {k: v for k, v in tensors.items() if k != "pi.bias"}
    nan = {**tensors, "trunk.0.bias": np.full_like(tensors["trunk.0.bias"], np.nan)}
    cases = [
        (broken_index, meta, "index tensor 'index_area' is out of range"),
        (missing, meta, "tensors do not fit"),
        (nan, meta, "NaN or infinite"),
        (tensors, {**meta, "network": {"type": "mlp"}}, "needs network.type 'entity'"),
        (tensors, {**meta, "layout_fingerprint": "0" * 16}, "observation/action layout"),
    ]
    for i, (t, m, message) in enumerate(cases):
        bad = _rewrite(path, t, m, tmp_path / f"bad{i}.safetensors")
        with pytest.raises(CheckpointError, match=message) as info:
            load_policy(bad)
        assert "\n" not in str(info.value)


def test_onnx_export_matches_numpy(tmp_path: Path) -> None:
    pytest.importorskip("onnx", reason="ONNX export needs the [onnx] extra")
    pytest.importorskip("onnxruntime", reason="ONNX play needs the [onnx] extra")
    from art_gallery_env.agents.policy_onnx import OnnxPolicy, export_onnx

    _, path = _entity(tmp_path)
    policy = load_policy(path)
    onnx_path = export_onnx(policy, tmp_path / "e.onnx")
    loaded = OnnxPolicy(onnx_path)
    assert loaded.meta["network"]["type"] == "entity"
    for players in (2, 4, 6):
        obs, masks = _observations(players)
        np.testing.assert_allclose(loaded.logits(obs), policy.logits(obs), atol=1e-4)
        masked = loaded.masked_logits(obs, masks.astype(np.float32))
        assert np.all(np.isneginf(masked[masks == 0]))
        expected = np.where(masks > 0, policy.logits(obs), -np.inf).argmax(1)
        assert (masked.argmax(1) == expected).all()
