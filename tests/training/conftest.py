"""Fixtures of the training tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from training_helpers import tiny_config_dict


@pytest.fixture
def tiny_config():
    """``tiny_config(run_dir, total_steps, **changes)`` -> a validated TrainConfig."""
    pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")
    from art_gallery_env.training.config import config_from_dict

    def make(run_dir: Path, total_steps: int, **changes: Any):
        return config_from_dict(tiny_config_dict(run_dir, total_steps, **changes))

    return make
