"""Training is reproducible: the same config and seed give the same weights, with
in-process or subprocess envs (what docs/reliability.md promises about determinism)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")

from art_gallery_env.agents.policy_format import load_weights  # noqa: E402
from art_gallery_env.training.run_folder import verify_checkpoint  # noqa: E402
from art_gallery_env.training.sb3_trainer import train  # noqa: E402


def _weights(run):
    return load_weights(run / "latest.safetensors").layers


def _same(a, b) -> bool:
    return all(np.array_equal(x, y) for pa, pb in zip(a, b, strict=True) for x, y in zip(pa, pb))


@pytest.mark.slow
def test_same_config_and_seed_give_the_same_weights(tmp_path, tiny_config):
    runs = [tmp_path / "a", tmp_path / "b", tmp_path / "c"]
    train(tiny_config(runs[0], 256), progress_bar=False)
    train(tiny_config(runs[1], 256), progress_bar=False)
    train(tiny_config(runs[2], 256, seed=4), progress_bar=False)
    assert _same(_weights(runs[0]), _weights(runs[1]))
    assert not _same(_weights(runs[0]), _weights(runs[2])), "the seed matters"
    sha = [verify_checkpoint(r / "latest.json")["sha256"]["policy.safetensors"] for r in runs]
    assert sha[0] == sha[1] != sha[2]


@pytest.mark.slow
def test_subprocess_envs_give_the_same_weights_as_in_process_ones(tmp_path, tiny_config):
    train(tiny_config(tmp_path / "dummy", 256), progress_bar=False)
    train(tiny_config(tmp_path / "subproc", 256, vec_env="subproc"), progress_bar=False)
    assert _same(_weights(tmp_path / "dummy"), _weights(tmp_path / "subproc"))
