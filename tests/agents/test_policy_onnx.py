"""ONNX export: onnxruntime gives the numpy forward's masked logits within 1e-5 on 10,000
real observations, a PolicyAgent plays a .onnx file, and the CLI writes one."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from art_gallery_env.agents import CheckpointError, PolicyAgent, load_policy, make_agent
from art_gallery_env.agents.policy_format import save_policy_weights
from art_gallery_env.arena.samples import observed_decisions
from art_gallery_env.cli import main
from art_gallery_env.games.art_gallery.env.observation import OBSERVATION_SIZE
from art_gallery_env.games.art_gallery.rules.actions import NUM_ACTIONS

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from art_gallery_env.agents.policy_onnx import (  # noqa: E402
    OnnxPolicy,
    export_onnx,
    policy_to_onnx,
)

ROOT = Path(__file__).resolve().parents[2]
TRAINED = ROOT / "checkpoints" / "ppo_2p.safetensors"


@pytest.fixture(scope="module")
def decisions() -> tuple[np.ndarray, np.ndarray]:
    return observed_decisions(10_000, players=(2, 4, 6), agent="heuristic", seed=0)


def _relu_policy(tmp_path: Path):
    rng = np.random.default_rng(1)
    sizes = [OBSERVATION_SIZE, 32, 16, NUM_ACTIONS]
    weights = {}
    for i in range(3):
        weights[f"layers.{i}.weight"] = rng.normal(0, 0.3, (sizes[i + 1], sizes[i]))
        weights[f"layers.{i}.bias"] = rng.normal(0, 0.3, sizes[i + 1])
    path = save_policy_weights(
        weights,
        {"hidden_sizes": [32, 16], "activation": "relu", "name": "relu"},
        tmp_path / "r.safetensors",
    )
    return load_policy(path)


@pytest.mark.slow
@pytest.mark.parametrize("which", ["trained_tanh", "random_relu"])
def test_onnxruntime_matches_numpy_on_10000_observations(which, decisions, tmp_path) -> None:
    observations, masks = decisions
    assert len({m.tobytes() for m in masks}) > 50, "real games give many distinct masks"
    policy = load_policy(TRAINED) if which == "trained_tanh" else _relu_policy(tmp_path)
    path = export_onnx(policy, tmp_path / "p.onnx")
    runtime = OnnxPolicy(path)

    expected = np.where(masks > 0, policy.logits(observations), -np.inf)
    got = runtime.masked_logits(observations, masks)
    assert got.shape == (10_000, NUM_ACTIONS) and got.dtype == np.float32
    assert np.array_equal(np.isneginf(got), masks == 0), "exactly the illegal actions are -inf"
    legal = masks > 0
    assert np.abs(got[legal] - expected[legal]).max() <= 1e-5
    assert np.abs(expected[legal]).max() > 1.0, "the logits are not trivially small"
    one = runtime.masked_logits(observations[7], masks[7])
    assert one.shape == (NUM_ACTIONS,) and np.allclose(one, got[7], atol=1e-6, equal_nan=True)


@pytest.mark.slow
def test_policy_agent_plays_an_onnx_file_like_the_numpy_one(decisions, tmp_path) -> None:
    observations, masks = decisions
    onnx_path = export_onnx(load_policy(TRAINED), tmp_path / "ppo_2p.onnx")
    numpy_agent = PolicyAgent(TRAINED)
    onnx_agent = make_agent(str(onnx_path), seed=0)
    assert isinstance(onnx_agent, PolicyAgent) and isinstance(onnx_agent.policy, OnnxPolicy)
    assert onnx_agent.name == numpy_agent.name, "the header (and its name) travels along"
    picks = [
        (numpy_agent.act(o, m), onnx_agent.act(o, m))
        for o, m in zip(observations[:1000], masks[:1000])  # 1 disagreement at most
    ]
    agree = sum(a == b for a, b in picks) / len(picks)
    assert agree >= 0.999, agree
    assert all(masks[i][b] == 1 for i, (_, b) in enumerate(picks))


def test_the_graph_and_its_metadata(tmp_path) -> None:
    model = policy_to_onnx(load_policy(TRAINED))
    ops = [node.op_type for node in model.graph.node]
    assert ops == ["Gemm", "Tanh", "Gemm", "Tanh", "Gemm", "Cast", "Where"]
    assert [i.name for i in model.graph.input] == ["observation", "action_mask"]
    assert [o.name for o in model.graph.output] == ["masked_logits"]
    props = {p.key: p.value for p in model.metadata_props}
    assert json.loads(props["art_gallery_policy"])["hidden_sizes"] == [256, 256]


def test_a_changed_layout_or_a_bad_file_is_refused(tmp_path) -> None:
    model = policy_to_onnx(load_policy(TRAINED))
    for prop in model.metadata_props:
        meta = json.loads(prop.value)
        meta["layout_fingerprint"] = "0" * 16
        prop.value = json.dumps(meta)
    stale = tmp_path / "stale.onnx"
    stale.write_bytes(model.SerializeToString())
    with pytest.raises(CheckpointError, match="layout"):
        OnnxPolicy(stale)
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    with pytest.raises(CheckpointError, match="not a readable ONNX model"):
        OnnxPolicy(broken)
    with pytest.raises(CheckpointError, match="must end in .onnx"):
        export_onnx(load_policy(TRAINED), tmp_path / "x.bin")


def test_cli_export_writes_a_model(tmp_path, capsys) -> None:
    out = tmp_path / "policy.onnx"
    assert main(["export", str(TRAINED), "--onnx", str(out)]) == 0
    assert "masked_logits" in capsys.readouterr().out
    assert OnnxPolicy(out).meta["name"] == load_policy(TRAINED).meta["name"]
    with pytest.raises(SystemExit):
        main(["export", str(tmp_path / "missing.safetensors"), "--onnx", str(out)])
    assert "no such checkpoint" in capsys.readouterr().err
