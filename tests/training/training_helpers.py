"""Shared by the training tests: a tiny MaskablePPO config that trains, evaluates and
saves in a few seconds."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

EXIT_SMOKE = Path(__file__).resolve().parents[2] / "configs" / "exit_smoke.yaml"
EXIT_FAST = {  # the smallest expert-iteration run that still trains: one 2-player game,
    "env": {"num_players": 2},  # 4 search iterations a decision
    "exit": {"generations": 1, "games_per_generation": 1, "iters": 4},
    "eval": {"games": 1},
}


def merge_config(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``changes`` merged in, nested sections key by key (a deep copy)."""
    out = copy.deepcopy(base)
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge_config(out[key], value)
        else:
            out[key] = value
    return out


def small_run_dict(name: str, run_dir: Path, total_steps: int, n_envs: int) -> dict[str, Any]:
    """What every tiny test run has: 8-unit networks, 64-step rollouts in-process, seed 3."""
    return {
        "name": name,
        "seed": 3,
        "total_steps": total_steps,
        "n_envs": n_envs,
        "vec_env": "dummy",
        "run_dir": str(run_dir),
        "network": {"hidden_sizes": [8]},
        "ppo": {"n_steps": 64, "batch_size": 32, "n_epochs": 1},
    }


def tiny_config_dict(run_dir: Path, total_steps: int, **changes: Any) -> dict[str, Any]:
    """A 2-player run with 8-unit networks, an evaluation and a snapshot every 128 steps."""
    base = small_run_dict("tiny", run_dir, total_steps, n_envs=2) | {
        "pool": {"snapshot_every_steps": 128, "self_play": 0.5, "random": 0.5, "heuristic": 0.0},
        "eval": {
            "every_steps": 128,
            "games": 2,
            "opponents": ["random"],
            "final_games": 0,
            "final_workers": 1,
        },
    }
    return merge_config(base, changes)


def train_cli_refusal(folder: Path, capsys: Any, config_text: str) -> str:
    """``art-gallery train`` on a 256-step config with run folder ``folder / "run"`` and the
    lines ``config_text``: it exits 2 with no traceback and makes no run folder; returns what
    it printed to stderr."""
    from art_gallery_env.cli import main

    path = folder / "cfg.yaml"
    path.write_text(f"name: x\ntotal_steps: 256\nrun_dir: {folder / 'run'}\n{config_text}")
    with pytest.raises(SystemExit) as exit_info:
        main(["train", str(path)])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and "Traceback" not in err, err
    assert not (folder / "run").exists()
    return err


def tiny_rllib_dict(run_dir: Path, name: str, **rllib: Any) -> dict[str, Any]:
    """Four iterations of 256 env steps on one env runner, saved after each (RLlib)."""
    return {
        "name": name,
        "algorithm": "rllib_ppo",
        "seed": 1,
        "total_steps": 1024,
        "run_dir": str(run_dir),
        "env": {"num_players": 2},
        "network": {"hidden_sizes": [16]},
        "rllib": {
            "num_env_runners": 1,
            "train_batch_size": 256,
            "minibatch_size": 128,
            "num_epochs": 1,
            **rllib,
        },
        "eval": {"every_steps": 256, "games": 2, "opponents": ["random"], "final_games": 0},
    }
