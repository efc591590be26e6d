"""A MaskablePPO zip saved when the observation Box's high was infinite resumes under the
env's finite bound: the resume settings carry today's observation space."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")


@pytest.mark.slow  # imports torch and SB3 and builds a model: about 10 s
def test_a_zip_saved_with_an_infinite_bound_resumes(tmp_path: Path) -> None:
    import gymnasium as gym
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from art_gallery_env.agents.random_agent import RandomAgent
    from art_gallery_env.core.single_agent import SingleAgentEnv
    from art_gallery_env.training.sb3_trainer import resume_settings

    vec_env = DummyVecEnv([lambda: SingleAgentEnv(game="art_gallery", opponents=[RandomAgent()])])
    assert np.isfinite(vec_env.observation_space.high).all()
    model = MaskablePPO("MlpPolicy", vec_env, n_steps=8, batch_size=8, device="cpu")
    model.observation_space = gym.spaces.Box(0.0, np.inf, vec_env.observation_space.shape)
    model.save(tmp_path / "old.zip")  # as a run of an earlier release saved it
    with pytest.raises(ValueError, match="Observation spaces do not match"):
        MaskablePPO.load(tmp_path / "old.zip", env=vec_env, device="cpu")
    config = SimpleNamespace(ppo=SimpleNamespace(model_dump=lambda: {"n_steps": 8}))
    settings = resume_settings(config, vec_env)
    resumed = MaskablePPO.load(
        tmp_path / "old.zip", env=vec_env, device="cpu", custom_objects=settings
    )
    assert resumed.observation_space == vec_env.observation_space
