"""A tiny MaskablePPO self-play run saves, reloads, resumes and plays legal games."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")

from training_helpers import tiny_config_dict  # noqa: E402

from art_gallery_env import raw_env  # noqa: E402
from art_gallery_env.agents.policy import CheckpointError, PolicyAgent  # noqa: E402
from art_gallery_env.agents.run_checkpoint import load_sb3_model, read_checkpoint_meta  # noqa: E402
from art_gallery_env.games.art_gallery.rules.hidden import PlayerView  # noqa: E402
from art_gallery_env.training.config import config_from_dict  # noqa: E402
from art_gallery_env.training.sb3_trainer import train  # noqa: E402


def _tiny_config(run_dir: Path, total_steps: int) -> object:
    return config_from_dict(tiny_config_dict(run_dir, total_steps, eval={"final_games": 2}))


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("run")
    train(_tiny_config(folder, 256), progress_bar=False)
    return folder


def _play_one_game(agent: PolicyAgent, num_players: int = 2, seed: int = 0) -> int:
    env = raw_env(num_players=num_players)
    env.reset(seed=seed)
    decisions = 0
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = agent.act(
            obs["observation"],
            obs["action_mask"],
            PlayerView(env.state, env.agent_name_mapping[name]),
        )
        assert obs["action_mask"][action] == 1
        env.step(action)  # raises on an illegal action
        decisions += 1
    return decisions


def test_training_writes_checkpoints_logs_and_snapshots(run_dir: Path) -> None:
    for stem in ("best", "latest"):
        for suffix in (".zip", ".json", ".safetensors"):
            assert (run_dir / f"{stem}{suffix}").is_file(), f"{stem}{suffix} missing"
    meta = read_checkpoint_meta(run_dir / "latest.zip")
    assert meta["steps"] >= 256
    assert meta["config"]["name"] == "tiny"
    assert "random" in meta["eval"]["results"]
    assert meta["versions"]["stable-baselines3"] != "not installed"
    assert list((run_dir / "pool").glob("snap_*.safetensors"))
    assert (run_dir / "eval.csv").read_text().startswith("steps,opponent,win_share")
    assert (run_dir / "logs" / "progress.csv").is_file()
    final = json.loads((run_dir / "best.json").read_text())["final_eval"]
    assert final["random"]["games"] == 2 and 0 <= final["random"]["win_share"] <= 1


@pytest.mark.parametrize("name", ["latest.safetensors", "latest.zip", "best.zip"])
def test_policy_agent_plays_legal_games_from_either_format(run_dir: Path, name: str) -> None:
    agent = PolicyAgent(run_dir / name, seed=0)
    for seed in range(2):
        assert _play_one_game(agent, seed=seed) > 50


def test_zip_and_weights_only_export_choose_the_same_actions(run_dir: Path) -> None:
    from_zip = PolicyAgent(run_dir / "latest.zip")
    from_weights = PolicyAgent(run_dir / "latest.safetensors")
    env = raw_env(num_players=2)
    env.reset(seed=5)
    for _ in range(40):
        obs, *_ = env.last()
        a = from_zip.act(obs["observation"], obs["action_mask"])
        assert a == from_weights.act(obs["observation"], obs["action_mask"])
        env.step(a)


def test_resume_continues_from_the_saved_step_count(run_dir: Path, tmp_path: Path) -> None:
    before = read_checkpoint_meta(run_dir / "latest.zip")["steps"]
    config = _tiny_config(run_dir, before + 128)
    train(config, resume=run_dir / "latest.zip", progress_bar=False)
    after = read_checkpoint_meta(run_dir / "latest.zip")["steps"]
    assert after >= before + 128
    model, _ = load_sb3_model(run_dir / "latest.zip")
    assert model.num_timesteps == after


def test_corrupted_checkpoint_gives_a_clear_error(run_dir: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.zip"
    broken.write_bytes((run_dir / "latest.zip").read_bytes()[:200])
    (tmp_path / "broken.json").write_text((run_dir / "latest.json").read_text())
    with pytest.raises(CheckpointError, match="cannot load the SB3 checkpoint"):
        load_sb3_model(broken)
    with pytest.raises(CheckpointError, match="broken.zip"):
        PolicyAgent(broken)
    assert not zipfile.is_zipfile(broken)


def test_mismatched_layout_fingerprint_is_refused(run_dir: Path, tmp_path: Path) -> None:
    copy = tmp_path / "old.zip"
    copy.write_bytes((run_dir / "latest.zip").read_bytes())
    meta = json.loads((run_dir / "latest.json").read_text())
    meta["layout_fingerprint"] = "0000000000000000"
    (tmp_path / "old.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="layout"):
        load_sb3_model(copy)
    with pytest.raises(CheckpointError, match="layout"):
        PolicyAgent(copy)


def test_missing_metadata_is_refused(run_dir: Path, tmp_path: Path) -> None:
    lonely = tmp_path / "lonely.zip"
    lonely.write_bytes((run_dir / "latest.zip").read_bytes())
    with pytest.raises(CheckpointError, match="metadata lonely.json is missing"):
        load_sb3_model(lonely)


def test_policy_logits_are_finite(run_dir: Path) -> None:
    agent = PolicyAgent(run_dir / "best.safetensors")
    env = raw_env(num_players=2)
    env.reset(seed=1)
    obs, *_ = env.last()
    assert np.isfinite(agent.policy.logits(obs["observation"])).all()
