"""The one trainer entry (``training.entry``): every algorithm's ``train`` starts the same
way, and a trainer refuses another algorithm's config before touching its run folder."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import get_args

import pytest

from art_gallery_env.training.config import TrainConfig
from art_gallery_env.training.entry import TRAINERS, resume_line
from art_gallery_env.training.run_folder import RunStart


def test_every_algorithm_has_a_trainer_module() -> None:
    algorithms = get_args(TrainConfig.model_fields["algorithm"].annotation)
    assert set(TRAINERS) == set(algorithms)
    for algorithm in ("maskable_ppo", "expert_iteration"):  # rllib needs the [rllib] extra
        assert callable(importlib.import_module(TRAINERS[algorithm]).train)


def test_a_trainer_refuses_another_algorithms_config_before_the_run_folder(
    tmp_path: Path, tiny_config
) -> None:
    from art_gallery_env.training.expert_iteration import train

    run = tmp_path / "run"
    with pytest.raises(ValueError, match="runs algorithm expert_iteration, not maskable_ppo"):
        train(tiny_config(run, 128), progress_bar=False)
    assert not run.exists()


def test_an_unknown_option_is_a_type_error_naming_it(tmp_path: Path, tiny_config) -> None:
    from art_gallery_env.training.entry import train

    with pytest.raises(TypeError, match="resum"):
        train(tiny_config(tmp_path / "run", 128), resum=str(tmp_path))
    assert not (tmp_path / "run").exists()


def test_the_resume_line_says_what_is_done_and_left(tmp_path: Path, tiny_config) -> None:
    config = tiny_config(tmp_path / "run", 2_000)
    start = RunStart(config, tmp_path / "run", steps_done=500, resume_path=tmp_path / "x.json")
    assert resume_line(start) == (
        f"resuming {tmp_path / 'run'} from x.json: 500 steps done, 1,500 steps left "
        f"(total_steps 2,000)"
    )
    line = resume_line(start, "generations", "exit.generations", at="at iteration 3")
    assert line.endswith("at iteration 3: 500 generations done, 1,500 generations left "
                         "(exit.generations 2,000)")  # fmt: skip
