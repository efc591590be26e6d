"""Expert iteration (``algorithm: expert_iteration``): a run makes its
files, a resumed run equals an uninterrupted one, SIGTERM stops it cleanly, a bad
``exit:`` section is one line, and what it exports plays as an agent with a win-share
value head."""

from __future__ import annotations

import csv
import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

pytest.importorskip("torch", reason="training needs the [train] extra")
pytest.importorskip(
    "art_gallery_env.agents.guided_search", reason="expert iteration searches with it"
)

from training_helpers import EXIT_FAST, EXIT_SMOKE, merge_config  # noqa: E402

from art_gallery_env.training.config import ConfigError, config_from_dict  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def smoke_dict(run_dir: Path, **changes: Any) -> dict[str, Any]:
    data = yaml.safe_load(EXIT_SMOKE.read_text(encoding="utf-8"))
    return merge_config({**data, "run_dir": str(run_dir)}, changes)


def run(run_dir: Path, resume: Path | None = None, **changes: Any) -> Path:
    from art_gallery_env.training.expert_iteration import train

    config = config_from_dict(smoke_dict(run_dir, **changes))
    return train(config, resume=resume, progress_bar=False)


def tensors(path: Path) -> dict[str, np.ndarray]:
    from safetensors.numpy import load_file

    return load_file(str(path))


@pytest.fixture(scope="module")
def fast_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return run(tmp_path_factory.mktemp("exit") / "run", **EXIT_FAST)


def test_a_run_makes_its_files(fast_run: Path) -> None:
    meta = json.loads((fast_run / "latest.json").read_text())
    assert meta["trainer"] == "expert_iteration" and meta["steps"] == 1
    assert set(meta["files"]) == {"weights", "exit"}
    for name in ("gen_000", "gen_001"):
        assert (fast_run / "pool" / f"{name}.safetensors").is_file()
        assert json.loads((fast_run / "pool" / f"{name}.json").read_text())["eval"]
    with np.load(fast_run / "replay" / "gen_001.npz") as replay:
        rows = len(replay["value"])
        assert rows > 0 and replay["obs"].shape[0] == rows
        assert np.allclose(replay["policy"].sum(1), 1.0, atol=1e-5)
        assert not (replay["policy"] * ~replay["mask"]).any()  # visits only where legal
        assert set(np.unique(replay["value"])) <= {0.0, 0.5, 1.0}  # 2 players' win shares
    with (fast_run / "logs" / "progress.csv").open() as handle:
        progress = list(csv.DictReader(handle))
    assert [row["exit/generation"] for row in progress] == ["0", "1"]
    assert float(progress[1]["exit/rows"]) == rows
    with (fast_run / "eval.csv").open() as handle:
        assert [row["steps"] for row in csv.DictReader(handle)] == ["0", "1"]


def test_the_curve_plots(fast_run: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from art_gallery_env.training.plots import plot_run

    written = plot_run(fast_run, tmp_path)
    assert {p.name for p in written} >= {"win_rate.png"}


def test_the_curve_counts_generations(
    fast_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Expert iteration's step is a generation: its log says so and every plot's x axis
    reads "generation", not "training steps"."""
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from art_gallery_env.training.plots import plot_run

    labels: dict[str, str] = {}
    save = Figure.savefig

    def recording(fig: Figure, path: Any, *args: Any, **kwargs: Any) -> None:
        labels[Path(path).name] = fig.axes[0].get_xlabel()
        save(fig, path, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", recording)
    plot_run(fast_run, tmp_path)
    assert labels == dict.fromkeys(
        ("reward.png", "episode_length.png", "win_rate.png"), "generation"
    )


def test_a_log_without_a_step_unit_counts_training_steps() -> None:
    """The PPO trainers write no unit: their x axis stays "training steps"; a log resumed
    across the change (older rows without the column) takes the unit its rows give."""
    from art_gallery_env.training.plots import STEP_UNIT_KEY, step_unit

    assert step_unit([{"time/total_timesteps": "64"}]) == "training steps"
    assert step_unit([{STEP_UNIT_KEY: ""}, {STEP_UNIT_KEY: "generation"}]) == "generation"


def test_the_export_plays_as_an_agent_with_a_win_share_value(fast_run: Path) -> None:
    from art_gallery_env.agents.registry import make_agent

    path = fast_run / "pool" / "gen_001.safetensors"
    agent = make_agent(str(path), 0)
    assert agent.policy.meta["value_kind"] == "win_share"
    with np.load(fast_run / "replay" / "gen_001.npz") as replay:
        obs, mask = replay["obs"].astype(np.float32), replay["mask"]
    values = agent.policy.values(obs)
    assert values.shape == (len(obs),) and ((values >= 0) & (values <= 1)).all()
    # far from the observations it saw, a raw head leaves [0, 1]; the win share does not
    wild = agent.policy.values(obs[:8] * 50.0)
    assert ((wild >= 0) & (wild <= 1)).all()
    action = agent.act(obs[0], mask[0].astype(np.int8))
    assert mask[0][action]
    insight = agent.explain()
    assert insight is not None and 0.0 <= insight["value"] <= 1.0


def test_the_onnx_export_of_a_win_share_checkpoint_gives_its_value(
    fast_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``art-gallery export`` of a generation: the ONNX ``value`` output is the win share
    that numpy and torch give (the logistic included), within 1e-5, also far from the
    observations it saw, where the logistic saturates."""
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    import torch

    from art_gallery_env.agents.policy import load_policy
    from art_gallery_env.agents.policy_onnx import OnnxPolicy
    from art_gallery_env.cli import main
    from art_gallery_env.training.expert_iteration import Learner

    path, out = fast_run / "pool" / "gen_001.safetensors", tmp_path / "gen_001.onnx"
    assert main(["export", str(path), "--onnx", str(out)]) == 0
    assert "value [N] (the win share)" in capsys.readouterr().out
    with np.load(fast_run / "replay" / "gen_001.npz") as replay:
        obs = replay["obs"][:16].astype(np.float32)
    obs = np.concatenate([obs, obs[:4] * 50.0, -obs[:4] * 50.0])
    exported = OnnxPolicy(out)
    assert exported.has_value_head
    onnx_values = exported.values(obs)
    numpy_values = load_policy(path).values(obs)
    learner = Learner(config_from_dict(smoke_dict(tmp_path / "run", **EXIT_FAST)))
    learner.load_weights_file(path)
    with torch.no_grad():  # the torch pointer reads real observations only (one-hots)
        seen = torch.as_tensor(obs[:16])
        torch_values = torch.sigmoid(learner.net(seen)[1]).numpy().reshape(-1)
    assert onnx_values.shape == (len(obs),) and ((onnx_values >= 0) & (onnx_values <= 1)).all()
    assert np.abs(onnx_values - numpy_values).max() <= 1e-5
    assert np.abs(onnx_values[:16] - torch_values).max() <= 1e-5
    assert np.ptp(onnx_values) > 1e-3  # not a constant that matches by chance
    assert exported.value(obs[0]) == pytest.approx(float(onnx_values[0]), abs=1e-7)
    assert np.allclose(exported.logits(obs), load_policy(path).logits(obs), atol=1e-4)


@pytest.mark.slow
def test_a_run_in_the_rollout_mode_learns_the_means_softmax(fast_run: Path, tmp_path: Path) -> None:
    """exit.topk: self-play searches the net's top-K with the game's compiled rollouts,
    and each row's policy target is prior * exp(mean / target_temperature) over those K
    (target_prior, the default), or the plain softmax of the means."""
    pytest.importorskip("numba")
    topk = {"exit": {"topk": 3, "iters": 12, "target_temperature": 0.05}}
    folder = run(tmp_path / "run", **merge_config(EXIT_FAST, topk))
    with np.load(folder / "replay" / "gen_001.npz") as replay:
        policy, mask = replay["policy"], replay["mask"]
    nonzero = (policy > 0).sum(1)
    assert len(policy) and np.allclose(policy.sum(1), 1.0, atol=1e-5)
    assert not (policy * ~mask).any() and nonzero.max() <= 3
    assert (nonzero == np.minimum(3, mask.sum(1))).all()  # every candidate keeps some mass
    assert (policy.max(1) < 0.999).any()  # not the chosen action's one-hot
    from art_gallery_env.training.exit_selfplay import SelfPlayTask, play_selfplay_game

    def game(temperature: float, prior: bool = False) -> dict:
        task = SelfPlayTask(
            index=0,
            weights=str(fast_run / "pool" / "gen_000.safetensors"),
            game="art_gallery",
            num_players=2,
            seed=5,
            variants={},
            iters=8,
            c_puct=0.5,
            search_batch=4,
            dirichlet=0.0,
            temperature_moves=0,
            topk=2,
            target_temperature=temperature,
            target_prior=prior,
            prior_temperature=1.0,
        )
        return play_selfplay_game(task)

    sharp, flat = game(1e-6)["policy"], game(10.0)["policy"]
    top = sharp.max(1, keepdims=True)  # a tiny temperature: all on the best mean(s)
    assert ((sharp == 0) | np.isclose(sharp, top)).all() and (top[:, 0] > 0.99).any()
    two = (flat > 0).sum(1) == 2
    # a large one: near-even (means lie in [0, 1], so at most e ** 0.1 apart)
    assert two.any() and np.allclose(flat[two].max(1), 0.5, atol=0.03)
    # with the prior and a large temperature: the net's own priors over the two candidates
    from art_gallery_env.training.exit_selfplay import load_net

    task_obs = game(1e6, prior=True)
    logits = load_net(str(fast_run / "pool" / "gen_000.safetensors")).logits(
        task_obs["obs"].astype(np.float32)
    )
    chosen = task_obs["policy"] > 0
    expected = np.where(chosen, np.exp(logits - logits.max(1, keepdims=True)), 0.0)
    expected /= expected.sum(1, keepdims=True)
    assert np.allclose(task_obs["policy"], expected, atol=2e-3)


@pytest.mark.slow
def test_resume_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    straight = run(tmp_path / "straight")
    run(tmp_path / "split", exit={"generations": 1})
    split = run(tmp_path / "split", resume=tmp_path / "split")
    for g in ("gen_001", "gen_002"):
        a, b = (
            tensors(straight / "pool" / f"{g}.safetensors"),
            tensors(split / "pool" / f"{g}.safetensors"),
        )
        assert a.keys() == b.keys()
        assert all(np.array_equal(a[k], b[k]) for k in a), g
        with (
            np.load(straight / "replay" / f"{g}.npz") as x,
            np.load(split / "replay" / f"{g}.npz") as y,
        ):
            assert all(np.array_equal(x[k], y[k]) for k in x.files)
    wins = []
    for folder in (straight, split):
        with (folder / "eval.csv").open() as handle:
            wins.append(
                [(r["steps"], r["opponent"], r["win_share"]) for r in csv.DictReader(handle)]
            )
    assert wins[0] == wins[1]
    assert json.loads((split / "latest.json").read_text())["steps"] == 2


@pytest.mark.slow
def test_two_workers_play_the_same_games_as_one(tmp_path: Path) -> None:
    one = run(tmp_path / "one", **EXIT_FAST)
    two_workers = {"exit": {"games_per_generation": 2, "workers": 2}}
    two = run(tmp_path / "two", **merge_config(EXIT_FAST, two_workers))
    with np.load(one / "replay" / "gen_001.npz") as a, np.load(two / "replay" / "gen_001.npz") as b:
        first = b["game"] == 0  # game 0 of both: the same seeds, whoever plays it
        assert all(np.array_equal(a[k], b[k][first]) for k in a.files)
        assert (b["game"] == 1).any()


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "art_gallery_env.cli", *args]


@pytest.mark.slow
def test_sigterm_mid_run_saves_and_a_resume_finishes(tmp_path: Path) -> None:
    config = tmp_path / "exit.yaml"
    data = smoke_dict(tmp_path / "run", exit={"generations": 3})
    config.write_text(yaml.safe_dump(data), encoding="utf-8")
    run_dir = tmp_path / "run"
    process = subprocess.Popen(
        _cli("train", str(config), "--no-progress"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    deadline = time.time() + 300
    while not (run_dir / "pool" / "gen_001.json").is_file():
        assert process.poll() is None and time.time() < deadline, process.communicate()
        time.sleep(0.2)
    process.send_signal(signal.SIGTERM)  # during generation 2's self-play
    out, err = process.communicate(timeout=120)
    assert process.returncode == 128 + signal.SIGTERM, (out, err)
    assert "Traceback" not in err and "Traceback" not in out
    assert "--resume" in out
    steps = json.loads((run_dir / "latest.json").read_text())["steps"]
    assert steps in (1, 2)  # generation 2 dropped, or finished just before the signal
    assert not (run_dir / "pool" / f"gen_{steps + 1:03d}.safetensors").exists()
    done = subprocess.run(
        _cli("train", str(config), "--no-progress", "--resume", str(run_dir)),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads((run_dir / "latest.json").read_text())["steps"] == 3
    assert (run_dir / "pool" / "gen_003.safetensors").is_file()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"exit": {"iters": 0}}, r"exit\.iters: Input should be greater than or equal to 1"),
        ({"exit": {"iterations": 8}}, r"exit\.iterations: unknown key; known keys here: gen"),
        ({"exit": "fast"}, r"exit: Input should be a valid dictionary"),
        ({"exit": {"c_puct": "lots"}}, r"exit\.c_puct: 'lots' is not a number"),
        ({"exit": {"init": "missing.safetensors"}}, r"exit\.init: 'missing\.safetensors'"),
        ({"total_steps": 5}, r"total_steps \(5\) and exit\.generations \(2\) differ"),
        ({"ppo": {"n_steps": 64}}, r"does not use ppo"),
        ({"network": {"type": "mlp"}}, r"trains the entity network"),
        ({"env": {"reward_mode": "score_margin"}}, r"env\.reward_mode: .* learns win shares"),
        ({"exit": {"topk": -1}}, r"exit\.topk: Input should be greater than or equal to 0"),
        ({"exit": {"target_temperature": 0}}, r"exit\.target_temperature: Input should be gre"),
    ],
)
def test_a_malformed_exit_section_is_one_line(changes: dict, message: str, tmp_path: Path) -> None:
    data = smoke_dict(tmp_path / "run")
    data = merge_config(data, {k: v for k, v in changes.items() if isinstance(v, dict)})
    data.update({k: v for k, v in changes.items() if not isinstance(v, dict)})
    if "network" in changes:
        data["network"] = changes["network"]
    with pytest.raises(ConfigError, match=message) as err:
        config_from_dict(data, "exit.yaml")
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("bad", [0, -3, "abc", 2.5, True])
@pytest.mark.parametrize("where", ["exit.generations", "total_steps", "--total-steps", "both"])
def test_a_bad_generation_count_is_one_line_naming_exit_generations(
    bad: Any, where: str, tmp_path: Path
) -> None:
    """``total_steps`` mirrors ``exit.generations``: a bad value is said once, under the
    name the run reads, with the legal range (not once under each name)."""
    data = smoke_dict(tmp_path / "run")
    overrides = None
    if where == "exit.generations":
        data["exit"]["generations"] = bad
    elif where == "total_steps":
        del data["exit"]["generations"]
        data["total_steps"] = bad
    elif where == "--total-steps":
        overrides = {"total_steps": bad}
    else:  # a run folder's saved config.yaml holds both
        data["exit"]["generations"] = data["total_steps"] = bad
    with pytest.raises(ConfigError) as err:
        config_from_dict(data, "exit.yaml", overrides)
    message = str(err.value)
    assert "\n" not in message and message.count("exit.generations") == 1, message
    assert "total_steps:" not in message
    assert "exit.generations: must be a whole number in 1..2**63 - 1" in message
    assert message.endswith(f"got {bad!r}"), message


def test_an_exit_section_needs_expert_iteration(tmp_path: Path) -> None:
    data = smoke_dict(tmp_path / "run")
    data.update(algorithm="maskable_ppo", total_steps=100)
    for key in ("network",):
        data.pop(key)
    with pytest.raises(ConfigError, match="exit: section is only used with algorithm: exp"):
        config_from_dict(data, "x.yaml")


def test_total_steps_on_the_command_line_counts_generations(tmp_path: Path) -> None:
    config = config_from_dict(smoke_dict(tmp_path / "run"), overrides={"total_steps": 7})
    assert config.total_steps == 7 and config.exit is not None and config.exit.generations == 7
    assert config.env.reward_mode == "win"


def test_the_cli_says_a_bad_exit_section_in_one_line(tmp_path: Path) -> None:
    config = tmp_path / "bad.yaml"
    config.write_text(yaml.safe_dump(smoke_dict(tmp_path / "run", exit={"workers": 0})))
    done = subprocess.run(
        _cli("train", str(config)), capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert done.returncode == 2
    errors = [line for line in done.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and "exit.workers" in errors[0], done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "run").exists()


def test_a_run_starts_from_a_checkpoint(fast_run: Path, tmp_path: Path) -> None:
    start = fast_run / "pool" / "gen_001.safetensors"
    changes = merge_config(EXIT_FAST, {"exit": {"init": str(start), "generations": 1}})
    data = smoke_dict(tmp_path / "run", **changes)
    from art_gallery_env.training.expert_iteration import Learner

    learner = Learner(config_from_dict(data))  # what a run's generation 0 loads
    learner.load_weights_file(start)
    own, theirs = learner.net.export_tensors(), tensors(start)
    assert own.keys() == theirs.keys()
    assert all(np.array_equal(own[k], theirs[k]) for k in theirs)


def test_a_checkpoint_of_another_network_is_refused(tmp_path: Path) -> None:
    quick = ROOT / "checkpoints" / "quick.safetensors"  # an entity net of [256, 256]
    data = smoke_dict(tmp_path / "run", exit={"init": str(quick)})
    with pytest.raises(ConfigError, match=r"its network differs from the config's: hidden_s"):
        config_from_dict(data, "exit.yaml")


@pytest.mark.slow
def test_a_warm_started_run_clones_the_heuristic_first(tmp_path: Path) -> None:
    changes = merge_config(EXIT_FAST, {"exit": {"init": "warm_start"}})
    folder = run(tmp_path / "run", warm_start={"bc_games": 2, "epochs": 1}, **changes)
    meta = json.loads((folder / "pool" / "gen_000.json").read_text())
    assert meta["exit"]["init"] == "warm_start"
    assert meta["exit"]["warm_start"]["rows"] > 0
    assert not (folder / "warm_start").exists()  # used by generation 0 only
    assert json.loads((folder / "latest.json").read_text())["steps"] == 1


def test_the_warm_start_cache_goes_in_one_rename(tmp_path: Path) -> None:
    """``warm_start/`` is renamed, then removed; a removal a kill cut short (the renamed
    folder left) is finished by the next call; no cache: nothing to do."""
    from art_gallery_env.training.expert_iteration import drop_warm_start_cache
    from art_gallery_env.training.run_folder import RUN_ENTRIES, WARM_START_REMOVING

    (tmp_path / "warm_start").mkdir()
    (tmp_path / "warm_start" / "bc_data.npz").write_bytes(b"x" * 100)
    (tmp_path / "latest.json").write_text("{}")
    assert drop_warm_start_cache(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest.json"]
    (tmp_path / WARM_START_REMOVING / "deep").mkdir(parents=True)  # a kill mid-removal
    assert not drop_warm_start_cache(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest.json"]
    assert WARM_START_REMOVING in RUN_ENTRIES  # --overwrite deletes a leftover too


@pytest.mark.slow
def test_the_warm_start_cache_lasts_until_generation_0_is_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Resume before, during and after generation 0: a start stopped while it clones keeps
    the cache (a new start reuses it; --resume, with no checkpoint yet, says so); once
    generation 0 is saved the cache is gone and --resume continues without it, also
    finishing a removal a kill cut short."""
    from art_gallery_env.training import expert_iteration
    from art_gallery_env.training.run_folder import WARM_START_REMOVING, RunFolderError

    folder = tmp_path / "run"
    changes = merge_config(EXIT_FAST, {"exit": {"init": "warm_start"}})
    changes["warm_start"] = {"bc_games": 2, "epochs": 1}

    def stopped(*args: Any) -> float:
        raise RuntimeError("stopped while generation 0 is made")

    with monkeypatch.context() as patch:  # during generation 0
        patch.setattr(expert_iteration, "_agreement", stopped)
        with pytest.raises(RuntimeError, match="stopped while"):
            run(folder, **changes)
    assert sorted(p.name for p in folder.iterdir()) == ["warm_start"]
    with pytest.raises(RunFolderError, match=r"start it again without --resume \(it reuses"):
        run(folder, resume=folder, **changes)  # before generation 0: nothing to resume
    capsys.readouterr()
    run(folder, **changes)
    out = capsys.readouterr().out
    assert "warm start: reusing" in out and "removed" in out
    assert not (folder / "warm_start").exists()
    # after generation 0: a kill between the rename and the removal, then --resume
    (folder / WARM_START_REMOVING / "x").mkdir(parents=True)
    resumed = merge_config(changes, {"exit": {"generations": 2}})
    run(folder, resume=folder, **resumed)
    assert not (folder / WARM_START_REMOVING).exists() and not (folder / "warm_start").exists()
    assert json.loads((folder / "latest.json").read_text())["steps"] == 2
