"""Shared by the training tests: a tiny MaskablePPO config that trains, evaluates and
saves in a few seconds."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any


def merge_config(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``changes`` merged in, nested sections key by key (a deep copy)."""
    out = copy.deepcopy(base)
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge_config(out[key], value)
        else:
            out[key] = value
    return out


def tiny_config_dict(run_dir: Path, total_steps: int, **changes: Any) -> dict[str, Any]:
    """A 2-player run with 8-unit networks, an evaluation and a snapshot every 128 steps."""
    base = {
        "name": "tiny",
        "seed": 3,
        "total_steps": total_steps,
        "n_envs": 2,
        "vec_env": "dummy",
        "run_dir": str(run_dir),
        "network": {"hidden_sizes": [8]},
        "ppo": {"n_steps": 64, "batch_size": 32, "n_epochs": 1},
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
