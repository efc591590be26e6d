"""Every game's Gymnasium ids, as a practitioner uses them (issues 26 and 28).

The ids come from the registry (each game's ``spec.py`` declares ``GYM_ENVS``); each one
passes Gymnasium's and SB3's ``check_env`` with its default arguments, and SB3's own
``make_vec_env`` (which passes ``render_mode="rgb_array"``) builds seeded dummy and
subprocess vec envs that SB3's ``evaluate_policy`` plays.
"""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import art_gallery_env
from art_gallery_env.core.registry import declared_gym_envs, game_names, get_game

pytest.importorskip("stable_baselines3")
from stable_baselines3.common.env_checker import check_env as sb3_check_env  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402
from stable_baselines3.common.evaluation import evaluate_policy  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

art_gallery_env.register_envs()
IDS = sorted(declared_gym_envs())
LATEST = art_gallery_env.GYM_ENV_ID


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*Box observation space maximum.*")
        warnings.filterwarnings("ignore", message=".*is out of date.*")
        yield


def test_the_ids_come_from_the_games_specs() -> None:
    """What each spec module declares is what its GameSpec holds and what is registered;
    this layer names no game (the ids are not written in gym_envs.py)."""
    from_specs: dict[str, dict] = {}
    for name in game_names():
        from_specs.update(get_game(name).gym_envs)
    assert set(from_specs) <= set(IDS)
    assert {"art_gallery_env/Gallerist-v0", "art_gallery_env/GalleristSolo-v0"} <= set(IDS)
    assert LATEST in IDS and "art_gallery_env/ArtGallery-v0" in IDS
    for env_id in IDS:
        assert env_id in gymnasium.registry
    source = Path(art_gallery_env.gym_envs.__file__).read_text(encoding="utf-8")
    code = ast.parse(source).body[1:]  # the module's docstring left out: it may cite them
    strings = {n.value for t in code for n in ast.walk(t) if isinstance(n, ast.Constant)}
    assert not any(isinstance(s, str) and "Gallerist" in s for s in strings - {LATEST})


@pytest.mark.parametrize("env_id", IDS)
def test_each_id_passes_gymnasiums_and_sb3s_check_env_with_defaults(env_id: str) -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(env_id)
    check_env(env.unwrapped)
    sb3_check_env(gymnasium.make(env_id))
    raw = env.unwrapped
    assert raw.illegal_action == "terminate"
    n = raw.num_players
    assert raw.reward_mode == get_game(raw.game.name).reward_modes_for(n)[0] or (
        env_id == "art_gallery_env/ArtGallery-v0" and raw.reward_mode == "score_margin"
    )


def test_v1_has_the_aligned_defaults_and_v0_keeps_its_reward() -> None:
    v1 = gymnasium.make(LATEST).unwrapped
    v0 = gymnasium.make("art_gallery_env/ArtGallery-v0").unwrapped
    assert (v1.reward_mode, v1.illegal_action) == ("win", "terminate")
    assert (v0.reward_mode, v0.illegal_action) == ("score_margin", "terminate")


@pytest.mark.parametrize(
    ("env_id", "game"),
    [
        (LATEST, "art_gallery"),
        ("art_gallery_env/ArtGallery-v0", "art_gallery"),
        ("art_gallery_env/Gallerist-v0", "gallerist"),  # its drawn board
        ("art_gallery_env/GalleristSolo-v0", "gallerist"),
    ],
)
def test_make_vec_env_dummy_is_seeded_and_draws_rgb_frames(env_id: str, game: str) -> None:
    first = make_vec_env(env_id, n_envs=2, seed=3, vec_env_cls=DummyVecEnv)
    again = make_vec_env(env_id, n_envs=2, seed=3, vec_env_cls=DummyVecEnv)
    obs_a, obs_b = first.reset(), again.reset()
    assert obs_a.shape == (2, get_game(game).observation_size)
    np.testing.assert_array_equal(obs_a, obs_b)  # one seed, the same games
    assert not np.array_equal(obs_a[0], obs_a[1])  # each env its own seed
    assert first.get_attr("render_mode") == ["rgb_array", "rgb_array"]
    frame = first.env_method("render", indices=0)[0]
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
    first.close()
    again.close()


@pytest.mark.slow
def test_sb3_evaluate_policy_plays_a_maskable_model_on_make_vec_env() -> None:
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.evaluation import evaluate_policy as masked_evaluate

    vec = make_vec_env(LATEST, n_envs=2, seed=1)
    model = MaskablePPO("MlpPolicy", vec, n_steps=8, batch_size=8, seed=0)
    mean, _std = evaluate_policy(model, vec, n_eval_episodes=2)  # unmasked: -1 if illegal
    assert -1.0 <= mean <= 1.0
    mean, _std = masked_evaluate(model, vec, n_eval_episodes=2)
    assert -1.0 <= mean <= 1.0
    vec.close()


SUBPROC_SCRIPT = """
import numpy as np
import art_gallery_env  # registers the ids, in the workers too (they re-import this script)
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

if __name__ == "__main__":
    dummy = make_vec_env(art_gallery_env.GYM_ENV_ID, n_envs=2, seed=7, vec_env_cls=DummyVecEnv)
    procs = make_vec_env(art_gallery_env.GYM_ENV_ID, n_envs=2, seed=7, vec_env_cls=SubprocVecEnv)
    np.testing.assert_array_equal(procs.reset(), dummy.reset())
    assert procs.get_attr("render_mode") == ["rgb_array", "rgb_array"]
    masks = np.stack(procs.env_method("action_masks"))
    procs.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
    procs.close()
    print("ok")
"""


@pytest.mark.slow
def test_make_vec_env_with_subprocesses_is_seeded(tmp_path: Path) -> None:
    """A script as a practitioner writes it (SubprocVecEnv's workers re-import it)."""
    import subprocess
    import sys

    script = tmp_path / "train.py"
    script.write_text(SUBPROC_SCRIPT, encoding="utf-8")
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().endswith("ok")
