"""The one start of every trainer (``art-gallery train``): MaskablePPO, RLlib PPO and
expert iteration each give only their own loop, and this module does what they share
around it, in one order:

1. the config is the trainer's (``algorithm:``), and what it needs of the machine beyond
   the config's own check holds (``check``: numba for the compiled engine);
2. the run folder's lock and the resume checks (:func:`.run_folder.start_run`); nothing
   is written yet;
3. inside the stop signals' handlers (:func:`.run_folder.run_training`): the folder is
   made, what a kill left is cleared and ``config.yaml`` written (:meth:`RunStart.prepare`),
   torch gets ``torch_threads``, all abortable by a stop signal; then the trainer's loop,
   the final evaluation, and the undoing of a start that saved nothing.

:func:`train` picks the trainer of a config's ``algorithm`` (a lazy import: RLlib's is
only imported for RLlib configs).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .config import TrainConfig
from .interrupt import GracefulStop
from .run_folder import LATEST, RunStart, run_training, start_run

TrainerLoop = Callable[[RunStart, GracefulStop, bool], int]
"""A trainer's own part: (the prepared start, the stop handler, whether to show a progress
bar) -> the steps trained. On a stop signal it saves latest and raises
:class:`.interrupt.TrainingInterrupted`."""

TRAINERS = {
    "maskable_ppo": "art_gallery_env.training.sb3_trainer",
    "rllib_ppo": "art_gallery_env.training.rllib_trainer",
    "expert_iteration": "art_gallery_env.training.expert_iteration",
}
"""The module of each ``algorithm:``; each has ``train(config, **options)``."""


def run_trainer(
    config: TrainConfig,
    loop: TrainerLoop,
    *,
    algorithm: str,
    check: Callable[[TrainConfig], None] | None = None,
    resume: str | Path | None = None,
    progress_bar: bool = True,
    overwrite: bool = False,
    from_checkpoint: str | None = None,
    discard_newer: bool = False,
) -> Path:
    """Run ``config`` to ``total_steps`` with the trainer ``loop``; returns the run folder.

    ``resume`` is the run folder or one of its checkpoints; ``from_checkpoint`` (latest or
    best) and ``discard_newer`` choose which; ``overwrite`` lets a new run replace the
    files of an earlier one in the same folder. A stop signal saves latest and raises
    :class:`.interrupt.TrainingInterrupted`."""
    if config.algorithm != algorithm:
        raise ValueError(f"this trainer runs algorithm {algorithm}, not {config.algorithm}")
    if check is not None:
        check(config)
    start = start_run(config, resume, overwrite, from_checkpoint, discard_newer)

    def body(stop: GracefulStop) -> int:
        with stop.abortable():
            prepare(start)
        return loop(start, stop, progress_bar)

    return run_training(start, body)


def prepare(start: RunStart) -> None:
    """The run folder made and cleaned, ``config.yaml`` written, torch's threads set."""
    import torch

    start.prepare()
    torch.set_num_threads(start.config.torch_threads)


def resume_line(
    start: RunStart, unit: str = "steps", total_key: str = "total_steps", at: str | None = None
) -> str:
    """What a resumed run prints first: where it resumes (``at``: from its checkpoint's
    name), what is done and what is left."""
    done, total = start.steps_done, start.config.total_steps
    if at is None:
        name = start.resume_path.name if start.resume_path is not None else LATEST
        at = f"from {name}"
    return (
        f"resuming {start.run_dir} {at}: {done:,} {unit} done, {total - done:,} {unit} left "
        f"({total_key} {total:,})"
    )


def train(config: TrainConfig, **options: Any) -> Path:
    """Run ``config`` with the trainer of its ``algorithm`` (options: :func:`run_trainer`'s
    ``resume``, ``progress_bar``, ``overwrite``, ``from_checkpoint``, ``discard_newer``)."""
    trainer = importlib.import_module(TRAINERS[config.algorithm])
    return trainer.train(config, **options)
