"""A run folder belongs to one run, and its checkpoints survive a crash at any point."""

from __future__ import annotations

import contextlib
import csv
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")

import torch  # noqa: E402

from art_gallery_env.agents.policy_format import CheckpointError, load_weights  # noqa: E402
from art_gallery_env.agents.run_checkpoint import actor_network, load_sb3_model  # noqa: E402
from art_gallery_env.training.checkpoints import next_due  # noqa: E402
from art_gallery_env.training.run_folder import RunFolderError, verify_checkpoint  # noqa: E402
from art_gallery_env.training.sb3_trainer import SB3State, train  # noqa: E402
from art_gallery_env.training.selection import CheckpointSelector  # noqa: E402


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def _eval_steps(run: Path) -> dict[str, list[int]]:
    steps: dict[str, list[int]] = {}
    for row in _rows(run / "eval.csv"):
        steps.setdefault(row["opponent"], []).append(int(row["steps"]))
    return steps


def _check_whole(run: Path, stem: str) -> int:
    """``stem``.json, .zip and .safetensors load and describe the same weights and steps
    (checked without the project's own verifier); returns the steps."""
    meta = json.loads((run / f"{stem}.json").read_text())
    model, _ = load_sb3_model(run / f"{stem}.zip")
    assert model.num_timesteps == meta["steps"], f"{stem}.zip and {stem}.json disagree"
    policy = load_weights(run / f"{stem}.safetensors")
    actor = [m for m in actor_network(model).modules() if isinstance(m, torch.nn.Linear)]
    for (weight, bias), layer in zip(policy.layers, actor, strict=True):
        np.testing.assert_array_equal(weight, layer.weight.detach().numpy())
        np.testing.assert_array_equal(bias, layer.bias.detach().numpy())
    return meta["steps"]


# -- item 1: one run per folder --------------------------------------------------------
def test_a_used_run_folder_is_refused_without_resume_or_overwrite(tmp_path, tiny_config):
    run = tmp_path / "run"
    train(tiny_config(run, 128), progress_bar=False)
    before = (run / "latest.json").read_bytes()
    with pytest.raises(RunFolderError, match=r"--resume.*--overwrite"):
        train(tiny_config(run, 128, seed=4), progress_bar=False)
    assert (run / "latest.json").read_bytes() == before


def test_overwrite_starts_a_clean_run(tmp_path, tiny_config):
    run = tmp_path / "run"
    train(tiny_config(run, 384), progress_bar=False)
    assert max(_eval_steps(run)["random"]) >= 384
    changes = {"seed": 4, "network": {"hidden_sizes": [16]}}
    train(tiny_config(run, 128, **changes), progress_bar=False, overwrite=True)
    for stem in ("best", "latest"):
        meta = verify_checkpoint(run / f"{stem}.json")
        assert meta["config"]["seed"] == 4 and meta["config"]["network"]["hidden_sizes"] == [16]
        assert _check_whole(run, stem) == 128
    steps = _eval_steps(run)["random"]
    assert steps == [128], "no rows of the earlier run, no row twice"
    snapshots = sorted(p.name for p in (run / "pool").glob("*.safetensors"))
    assert snapshots == ["snap_0000000128.safetensors"], "no opponents from the earlier run"


# -- item 2: a crash at any point of a save --------------------------------------------
class _Crash(BaseException):
    """Stands for a kill: not an Exception, so no handler takes it for an error."""


@contextlib.contextmanager
def _crash_at(call: int, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Raise _Crash at the ``call``-th file-system change (or fsync) inside the block."""
    count = [0]
    with monkeypatch.context() as patch:
        for name in ("replace", "rename", "symlink", "fsync", "unlink", "link"):
            original = getattr(os, name)

            def wrapper(*args, _original=original, **kwargs):
                count[0] += 1
                if count[0] == call:
                    raise _Crash
                return _original(*args, **kwargs)

            patch.setattr(os, name, wrapper)
        yield count


@pytest.mark.slow
def test_a_crash_at_any_point_of_a_save_leaves_whole_matching_checkpoints(
    tmp_path, tiny_config, monkeypatch
):
    run = tmp_path / "run"
    config = tiny_config(run, 128)
    train(config, progress_bar=False)
    model, _ = load_sb3_model(run / "latest.zip")
    selector = CheckpointSelector(config, run, SB3State(model))
    old = _check_whole(run, "latest")
    crash_points = 0
    for call in range(1, 200):
        model.num_timesteps = old + call
        with torch.no_grad():
            model.policy.action_net.bias += 0.01  # new weights for every attempt
        selector.best_score = -float("inf")  # every save also replaces best
        finished = False
        with _crash_at(call, monkeypatch):
            try:
                selector.evaluate_and_keep(model.num_timesteps)
                finished = True
            except _Crash:
                crash_points += 1
        latest = _check_whole(run, "latest")
        best = _check_whole(run, "best")
        verify_checkpoint(run / "latest.json")
        verify_checkpoint(run / "best.json")
        if finished:
            assert latest == best == old + call
            break
        assert latest in (old, old + call) and best in (old, old + call)
    else:
        pytest.fail("the save never finished")
    assert crash_points >= 5, "a save takes several steps; each was a crash point"


def test_verify_checkpoint_refuses_metadata_that_does_not_match(tmp_path, tiny_config):
    run = tmp_path / "run"
    train(tiny_config(run, 128), progress_bar=False)
    meta = verify_checkpoint(run / "latest.json")
    assert meta["steps"] == 128
    copy = tmp_path / "copy"
    shutil.copytree((run / "latest").resolve(), copy)
    (copy / "policy.json").write_text(json.dumps({**meta, "steps": 999}))
    with pytest.raises(CheckpointError, match="says 999 steps.*holds 128 steps"):
        verify_checkpoint(copy / "policy.json")
    (copy / "policy.json").write_text(json.dumps(meta))
    verify_checkpoint(copy / "policy.json")
    data = bytearray((copy / "policy.zip").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (copy / "policy.zip").write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="sha256 differs"):
        verify_checkpoint(copy / "policy.json")


# -- items 5 and 6: resume continues the run it belongs to -----------------------------
def test_resume_continues_the_logs_and_states_the_steps(tmp_path, tiny_config, capsys):
    run = tmp_path / "run"
    train(tiny_config(run, 256), progress_bar=False)
    first = [int(r["time/total_timesteps"]) for r in _rows(run / "logs" / "progress.csv")]
    assert first and max(first) == 256
    capsys.readouterr()
    train(tiny_config(run, 512), resume=run / "latest.zip", progress_bar=False)
    out = capsys.readouterr().out
    assert "resuming" in out and "256 steps done" in out and "256 steps left" in out
    steps = [int(r["time/total_timesteps"]) for r in _rows(run / "logs" / "progress.csv")]
    assert steps[: len(first)] == first, "the rows before the resume are kept"
    assert steps == sorted(set(steps)) and steps[-1] == 512
    evals = _eval_steps(run)["random"]
    assert evals == sorted(set(evals)) and evals[0] == 128 and evals[-1] == 512
    assert _check_whole(run, "latest") == 512


def test_a_resumed_run_keeps_the_evaluation_and_snapshot_schedule(tmp_path, tiny_config):
    """Evaluations and snapshots fall at multiples of their period counted from step 0, as in
    an uninterrupted run; a resume at step 128 used to move them to 128 + 96, 128 + 192, ...
    and skip the evaluation the config promised at 192."""
    every = {"eval": {"every_steps": 96}, "pool": {"snapshot_every_steps": 96}}
    run = tmp_path / "run"
    train(tiny_config(run, 128, **every), progress_bar=False)
    train(tiny_config(run, 384, **every), resume=run / "latest.zip", progress_bar=False)
    assert _eval_steps(run)["random"] == [96, 128, 192, 288, 384]  # 128: the first run's end
    snapshots = sorted(p.name for p in (run / "pool").glob("snap_*.safetensors"))
    assert snapshots == [f"snap_{s:010d}.safetensors" for s in (96, 192, 288, 384)]


@pytest.mark.parametrize(("done_at", "due"), [(0, 96), (95, 96), (96, 192), (130, 192)])
def test_periodic_work_is_due_at_the_next_multiple_of_its_period(done_at, due):
    # A run stopped at 200 whose evaluation at 192 the stop cut short resumes with its
    # last evaluation at 96: due at 192 <= 200, so it evaluates at its first step.
    assert next_due(done_at, 96) == due


def test_resume_trains_with_the_new_configs_ppo_settings(tmp_path, tiny_config, capsys):
    """A resume may change PPO hyper-parameters (e.g. a smaller learning rate for the
    last stretch); the continued run must use them, not the ones saved in the zip."""
    run = tmp_path / "run"
    train(tiny_config(run, 128), progress_bar=False)
    new = {"learning_rate": 1.25e-4, "clip_range": 0.05, "ent_coef": 0.0, "n_epochs": 2}
    capsys.readouterr()
    train(tiny_config(run, 384, ppo=new), resume=run / "latest.zip", progress_bar=False)
    assert "config change on resume: ppo.learning_rate" in capsys.readouterr().out
    model, _ = load_sb3_model(run / "latest.zip")  # saved after one update of the resume
    assert model.num_timesteps == 384
    assert model.learning_rate == new["learning_rate"]
    assert model.clip_range(1.0) == new["clip_range"]
    assert (model.ent_coef, model.n_epochs) == (new["ent_coef"], new["n_epochs"])
    lrs = {group["lr"] for group in model.policy.optimizer.param_groups}
    assert lrs == {new["learning_rate"]}, "the optimiser stepped with the old learning rate"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"env": {"num_players": 3}}, ["env.num_players", "2", "3"]),
        ({"network": {"hidden_sizes": [16]}}, ["network.hidden_sizes", "[8]", "[16]"]),
        ({"network": {"activation": "relu"}}, ["network.activation", "tanh", "relu"]),
        (
            {"env": {"variants": {"zero_is_ten": True}}},
            ["env.variants.zero_is_ten: checkpoint False, config True"],
        ),
    ],
)
def test_resume_with_another_game_or_network_is_refused(tmp_path, tiny_config, change, words):
    run = tmp_path / "run"
    train(tiny_config(run, 128), progress_bar=False)
    before = (run / "latest.json").read_bytes()
    with pytest.raises(RunFolderError) as info:
        train(tiny_config(run, 256, **change), resume=run / "latest.zip", progress_bar=False)
    for word in words:
        assert word in str(info.value)
    assert (run / "latest.json").read_bytes() == before


def test_a_checkpoint_saved_before_variants_resumes(tmp_path, tiny_config, capsys):
    """Checkpoints before 0.2 saved ``env`` with no ``game`` and each variant as a key of
    its own; --resume reads that config as today's and continues the run."""
    run = tmp_path / "run"
    train(tiny_config(run, 128), progress_bar=False)
    meta_path = (run / "latest.json").resolve()
    meta = json.loads(meta_path.read_text())
    env = meta["config"]["env"]
    del env["game"]
    env.update(env.pop("variants"))  # {"num_players": 2, ..., "zero_is_ten": False}
    meta_path.write_text(json.dumps(meta))
    capsys.readouterr()
    train(tiny_config(run, 256), resume=run / "latest.zip", progress_bar=False)
    out = capsys.readouterr().out
    assert "resuming" in out and "config change on resume: env" not in out
    assert _check_whole(run, "latest") == 256
    assert json.loads((run / "latest.json").read_text())["config"]["env"]["variants"] == {
        "zero_is_ten": False
    }


@pytest.mark.parametrize("total", [64, 128])
def test_resume_with_no_steps_left_is_refused(tmp_path, tiny_config, total):
    run = tmp_path / "run"
    train(tiny_config(run, 128), progress_bar=False)
    with pytest.raises(RunFolderError, match=rf"128 steps done.*total_steps {total}"):
        train(tiny_config(run, total), resume=run / "latest.zip", progress_bar=False)


# -- item 8: a failed resume leaves nothing; pool/ is bounded ----------------------------
@pytest.mark.parametrize("resume", ["missing/latest.zip", "empty", "empty/latest.zip"])
def test_a_failed_resume_leaves_no_run_folder(tmp_path, tiny_config, resume):
    (tmp_path / "empty").mkdir()
    target = tmp_path / "new"
    with pytest.raises((RunFolderError, CheckpointError)):
        train(tiny_config(target, 256), resume=tmp_path / resume, progress_bar=False)
    assert not target.exists()
    assert not any((tmp_path / "empty").iterdir())


def test_pool_keeps_at_most_max_snapshots(tmp_path, tiny_config):
    run = tmp_path / "run"
    pool = {"snapshot_every_steps": 64, "max_snapshots": 2}
    train(tiny_config(run, 384, pool=pool), progress_bar=False)
    names = sorted(p.name for p in (run / "pool").glob("*.safetensors"))
    assert names == ["snap_0000000320.safetensors", "snap_0000000384.safetensors"]


def test_pool_keeps_every_snapshot_when_asked(tmp_path, tiny_config):
    run = tmp_path / "run"
    pool = {"snapshot_every_steps": 64, "max_snapshots": 2, "keep_all_snapshots": True}
    train(tiny_config(run, 384, pool=pool), progress_bar=False)
    assert len(list((run / "pool").glob("*.safetensors"))) == 6
