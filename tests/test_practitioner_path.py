"""The path of docs/ecosystem.md ("The full path: train with SB3,
evaluate, play") as a practitioner follows it. SB3's own ``make_vec_env`` builds the envs
from the Gymnasium id, sb3-contrib's MaskablePPO trains (briefly) and ``model.save`` writes
the zip, nothing else; then the installed ``art-gallery`` script evaluates it and plays a
game against it, as typed in a shell."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from art_gallery_env.core.registry import get_game

pytest.importorskip("sb3_contrib")

pytestmark = pytest.mark.slow  # a short training run and three CLI processes (1-2 minutes)

ART_GALLERY = Path(sys.executable).parent / "art-gallery"


def _cli(*argv: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(ART_GALLERY), *argv],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
    )
    assert done.returncode == 0, f"art-gallery {' '.join(argv)}:\n{done.stdout}\n{done.stderr}"
    return done


def test_train_with_sb3_then_evaluate_and_play_the_zip(tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.evaluation import evaluate_policy
    from stable_baselines3.common.env_util import make_vec_env

    import art_gallery_env  # noqa: F401 - registers the ids

    env = make_vec_env("art_gallery_env/ArtGallery-v1", n_envs=2, seed=0)  # learner vs random
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, seed=0)
    model.learn(total_timesteps=128)
    assert model.num_timesteps >= 128
    mean_reward, _ = evaluate_policy(model, env, n_eval_episodes=2)
    assert -1.0 <= mean_reward <= 1.0  # the win reward
    model.save(tmp_path / "model.zip")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.zip"]  # nothing beside it

    _cli(
        "eval", "--players", "2", "--agents", "model.zip", "random", "--games", "4",
        "--workers", "1", "--no-progress", "--out", "out", cwd=tmp_path,
    )  # fmt: skip
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    seat_games = {a["spec"]: a["seat_games"] for a in results["agents"]}
    assert seat_games == {"model.zip": 4, "random": 4}

    played = _cli(
        "play", "--players", "2", "--seed", "1", "--opponents", "model.zip",
        cwd=tmp_path, stdin="1\n" * 600,
    )  # fmt: skip
    assert "Final score:" in played.stdout and "You finish rank" in played.stdout

    if importlib.util.find_spec("onnx") is not None:  # the [onnx] extra
        exported = _cli("export", "model.zip", "--onnx", "model.onnx", cwd=tmp_path)
        size = get_game("art_gallery").observation_size
        assert f"observation [N, {size}]" in exported.stdout
        assert (tmp_path / "model.onnx").is_file()
