"""RLlib self-play end to end on a local Ray: ``art-gallery train`` with a tiny ``rllib_ppo``
config runs one PPO iteration, exports, evaluates and saves; the saved module then loads
without Ray running, exports to the weights-only format and plays legal games through
``PolicyAgent`` with the same choices as the module. A league run does the same with frozen
copies of the policy."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import yaml

ray = pytest.importorskip(
    "ray", reason="RLlib training needs the [rllib] extra: pip install -e '.[rllib]'"
)
pytest.importorskip("ray.rllib", reason="RLlib training needs the [rllib] extra")
# RLlib re-registers its gymnasium id for multi-agent envs whenever it builds an env.
pytestmark = [
    pytest.mark.slow,  # starts Ray
    pytest.mark.filterwarnings("ignore:.*Overriding environment rllib-multi-agent"),
]

import torch  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModule  # noqa: E402

from art_gallery_env import raw_env  # noqa: E402
from art_gallery_env.agents.policy import PolicyAgent, load_policy  # noqa: E402
from art_gallery_env.cli import main as cli_main  # noqa: E402
from art_gallery_env.training.rllib_env import make_rllib_env  # noqa: E402
from art_gallery_env.training.rllib_module import MaskedPPOTorchRLModule, export_rllib_module  # noqa: E402
from art_gallery_env.training.rllib_trainer import (  # noqa: E402
    MAIN,
    league_policy_mapping,
    module_checkpoint_path,
    train,
)


def _config(run_dir: Path, *, players: int, league: bool, total_steps: int) -> dict:
    return {
        "name": "tiny_league" if league else "tiny",
        "algorithm": "rllib_ppo",
        "seed": 1,
        "total_steps": total_steps,
        "run_dir": str(run_dir),
        "env": {"num_players": players},
        "network": {"hidden_sizes": [16]},
        "rllib": {
            "num_env_runners": 0,
            "train_batch_size": 256,
            "minibatch_size": 128,
            "num_epochs": 1,
            "league": league,
            "league_snapshot_every_iters": 1,
            "league_max_policies": 2,
        },
        "eval": {"games": 2, "opponents": ["random"], "final_games": 2, "final_workers": 1},
    }


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Both runs share one small local Ray, shut down before any test reads the results."""
    root = tmp_path_factory.mktemp("rllib")
    shared, league = root / "shared", root / "league"
    config_path = root / "tiny.yaml"
    config_path.write_text(
        yaml.safe_dump(_config(shared, players=2, league=False, total_steps=256))
    )
    ray.init(num_cpus=1, include_dashboard=False)
    try:
        assert cli_main(["train", str(config_path), "--no-progress"]) == 0
        from art_gallery_env.training.config import config_from_dict

        train(config_from_dict(_config(league, players=3, league=True, total_steps=512)))
    finally:
        ray.shutdown()
    return {"shared": shared, "league": league}


def test_run_folder_holds_exports_checkpoint_and_logs(runs: dict[str, Path]) -> None:
    for run in runs.values():
        for name in ("best.safetensors", "best.json", "latest.safetensors", "latest.json"):
            assert (run / name).is_file(), name
        assert (run / "logs" / "progress.csv").is_file()
        assert (run / "eval.csv").is_file()
        assert module_checkpoint_path(run / "rllib_checkpoint").is_dir()
        meta = json.loads((run / "best.json").read_text())
        assert meta["trainer"] == "rllib_ppo"
        assert meta["steps"] >= 256
        assert meta["versions"]["ray"] == ray.__version__
        assert "final_eval" in meta
        assert load_policy(run / "best.safetensors").meta["trainer"] == "rllib_ppo"
    league_meta = json.loads((runs["league"] / "best.json").read_text())
    assert league_meta["steps"] >= 512 and league_meta["iteration"] >= 2
    frozen = module_checkpoint_path(runs["league"] / "rllib_checkpoint", "frozen_1")
    assert frozen.is_dir()


def _module_argmax(module: MaskedPPOTorchRLModule, obs: np.ndarray, mask: np.ndarray):
    batch = {
        Columns.OBS: {
            "observations": torch.from_numpy(obs)[None],
            "action_mask": torch.from_numpy(mask.astype(np.float32))[None],
        }
    }
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0].numpy()
    return int(np.argmax(logits)), logits


@pytest.mark.parametrize("run", ["shared", "league"])
def test_module_reloads_without_ray_and_plays_legal_games(
    runs: dict[str, Path], run: str, tmp_path: Path
) -> None:
    assert not ray.is_initialized()
    module = RLModule.from_checkpoint(module_checkpoint_path(runs[run] / "rllib_checkpoint"))
    assert isinstance(module, MaskedPPOTorchRLModule)
    assert not ray.is_initialized()
    module.eval()
    path = export_rllib_module(module, tmp_path / "main.safetensors", {"name": "reloaded"})
    agent = PolicyAgent(path, seed=0)
    # The last evaluation wrote best/latest and the checkpoint from the same weights.
    best = load_policy(runs[run] / "best.safetensors")
    for num_players in (2, 4):
        env = raw_env(num_players=num_players, illegal_action="raise")
        env.reset(seed=num_players)
        decisions = 0
        for agent_id in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            action = agent.act(obs["observation"], obs["action_mask"])
            expected, logits = _module_argmax(module, obs["observation"], obs["action_mask"])
            legal = np.flatnonzero(obs["action_mask"])
            assert logits[np.flatnonzero(obs["action_mask"] == 0)].max(initial=-np.inf) < -1e8
            exported = agent.policy.logits(obs["observation"])
            np.testing.assert_allclose(exported[legal], logits[legal], rtol=1e-4, atol=1e-4)
            np.testing.assert_allclose(best.logits(obs["observation"]), exported, atol=1e-6)
            top = np.sort(logits[legal])[::-1]
            if len(top) == 1 or top[0] - top[1] > 1e-4:  # not a float near-tie
                assert action == expected, agent_id
            env.step(action)  # illegal_action="raise": an illegal choice fails here
            decisions += 1
        assert decisions > 100
        assert all(env.terminations.values()) or not env.agents


def test_rllib_env_renames_keys_and_masks_as_float() -> None:
    env = make_rllib_env({"num_players": 3})
    obs, _ = env.reset(seed=0)
    ((agent, first),) = obs.items()
    assert set(first) == {"observations", "action_mask"}
    assert first["action_mask"].dtype == np.float32 and first["action_mask"].sum() >= 1
    assert env.observation_spaces[agent].contains(first)
    legal = int(np.flatnonzero(first["action_mask"])[0])
    obs, rewards, terms, truncs, _ = env.step({agent: legal})
    assert len(obs) == 1 and not terms["__all__"]
    with pytest.raises(ValueError, match="unknown env_config key"):
        make_rllib_env({"players": 3})


def test_rllib_env_is_the_named_games_env_with_its_variants() -> None:
    env = make_rllib_env({"game": None, "num_players": 3, "variants": {"zero_is_ten": True}})
    env.reset(seed=0)
    assert env.env.unwrapped.state.zero_is_ten is True
    with pytest.raises(ValueError, match="has no variant 'zero_is_tn'"):
        make_rllib_env({"variants": {"zero_is_tn": True}})
    with pytest.raises(ValueError, match=r"rllib_ppo needs Ray RLlib .* The Gallerist"):
        make_rllib_env({"game": "gallerist"})


def test_league_mapping_puts_main_in_exactly_one_seat() -> None:
    seen_seats = set()
    for i in range(40):
        episode = SimpleNamespace(id_=f"episode-{i}")
        mapped = [
            league_policy_mapping(f"player_{s}", episode, num_players=4, num_frozen=3)
            for s in range(4)
        ]
        again = [
            league_policy_mapping(f"player_{s}", episode, num_players=4, num_frozen=3)
            for s in range(4)
        ]
        assert mapped == again
        assert mapped.count(MAIN) == 1
        assert set(mapped) - {MAIN} <= {"frozen_0", "frozen_1", "frozen_2"}
        seen_seats.add(mapped.index(MAIN))
    assert seen_seats == {0, 1, 2, 3}


def test_tensorboard_scalars_carry_the_sb3_path_s_names(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    """Both trainers write TensorBoard to RUN_DIR/logs; the RLlib run's scalars that
    MaskablePPO also writes carry its names, at the run's env-step counts."""
    from training_helpers import tiny_config_dict

    from art_gallery_env.training import scalars
    from art_gallery_env.training.config import config_from_dict
    from art_gallery_env.training.sb3_trainer import train as train_sb3

    # 2 iterations: SB3 writes an iteration's losses when the next one starts
    train_sb3(config_from_dict(tiny_config_dict(tmp_path / "sb3", 256)), progress_bar=False)
    sb3 = scalars.read_scalars(tmp_path / "sb3" / "logs")
    shared = scalars.read_scalars(runs["shared"] / "logs")
    league = scalars.read_scalars(runs["league"] / "logs")
    both = {
        scalars.FPS,
        scalars.POLICY_LOSS,
        scalars.VALUE_LOSS,
        scalars.ENTROPY_LOSS,
        scalars.EXPLAINED_VARIANCE,
        scalars.LEARNING_RATE,
        scalars.win_share("random"),
        scalars.mean_score("random"),
    }
    assert both <= set(sb3), sorted(sb3)
    assert both <= set(shared) and both <= set(league), sorted(shared)
    assert set(shared) <= set(sb3) | set(scalars.SHARED)  # no name of its own
    assert [step for step, _ in shared[scalars.POLICY_LOSS]] == [256]  # env steps
    assert [step for step, _ in league[scalars.win_share("random")]] == [512]
    assert scalars.EP_REW_MEAN in league  # main's return: one seat per episode
    (_, lr), *_ = shared[scalars.LEARNING_RATE]
    assert lr == pytest.approx(3e-4)  # the config's ppo.learning_rate
    with (runs["shared"] / "logs" / "progress.csv").open() as handle:
        (row,) = csv.DictReader(handle)
    ((_, entropy_loss),) = shared[scalars.ENTROPY_LOSS]
    assert entropy_loss == pytest.approx(-float(row["train/entropy"]), rel=1e-5)
    ((_, policy_loss),) = shared[scalars.POLICY_LOSS]
    assert policy_loss == pytest.approx(float(row["train/policy_loss"]), rel=1e-5)
