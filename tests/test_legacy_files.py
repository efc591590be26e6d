"""Checkpoints and records written before the one-package layout still load and play."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

from art_gallery_env.agents import load_policy, make_agent
from art_gallery_env.arena.records import load_record, replay_record
from art_gallery_env.games.art_gallery.env.seat import SeatObserver
from art_gallery_env.games.art_gallery.rules.state import new_game

LEGACY = Path(__file__).parent / "legacy"


def test_old_weights_only_checkpoint_plays() -> None:
    agent = make_agent(str(LEGACY / "best.safetensors"), seed=0)
    state = new_game(2, 3)
    inputs = SeatObserver(state.cards).inputs(state, state.current_player)
    assert inputs.action_mask[agent.act(*inputs)]


def test_old_sb3_zip_gives_the_same_policy_as_its_weights() -> None:
    pytest.importorskip("sb3_contrib", reason="SB3 zips need the [train] extra")
    from_zip = load_policy(LEGACY / "best.zip")
    from_weights = load_policy(LEGACY / "best.safetensors")
    obs = np.random.default_rng(0).random((16, from_zip.meta["obs_size"]), dtype=np.float32)
    np.testing.assert_allclose(from_zip.logits(obs), from_weights.logits(obs), rtol=1e-5)


def test_old_record_replays_to_its_stored_scores() -> None:
    record = load_record(LEGACY / "record_3p.json")
    final = replay_record(record)
    assert [row["total"] for row in final.score_breakdown()] == [
        row["total"] for row in record["breakdown"]
    ]


def test_old_module_names_resolve_only_inside_legacy_module_names() -> None:
    """RLlib algorithm checkpoints pickle classes as ``training.rllib_module...``."""
    from art_gallery_env.training.config import TrainConfig
    from art_gallery_env.training.legacy import legacy_module_names

    old_reference = b"ctraining.config\nTrainConfig\n."
    with legacy_module_names():
        assert pickle.loads(old_reference) is TrainConfig
        assert pickle.loads(b"ctraining.play\nPlaySession\n.").__module__.endswith("terminal")
    with pytest.raises(ModuleNotFoundError):
        pickle.loads(old_reference)
