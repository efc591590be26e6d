"""Stopping a training run on Ctrl-C or SIGTERM without losing its work.

The first signal asks the run to stop at the next safe point: the SB3 trainer checks
between env steps, the RLlib trainer after the iteration it is in (stopping inside a
gradient update could leave half-updated weights). The trainer then saves ``latest``
(without evaluating it) and raises :class:`TrainingInterrupted`, and the command prints
how to resume. An evaluation in progress is abandoned at once instead (it changes nothing
until its result is saved). A second signal exits at once: the checkpoints on disk are
whole whatever moment it comes (see :mod:`.checkpoints`).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from art_gallery_env.processes import (
    StopSignal,
    StopSignalHandler,
    kill_processes,
    write_stderr,
)


class TrainingInterrupted(Exception):
    """Training stopped on a signal. ``steps`` is what ``latest`` holds (None when nothing
    was saved); ``finished`` is True when training was over and only the final
    evaluation was cut short."""

    def __init__(
        self, run_dir: Path, steps: int | None, signal_name: str, finished: bool = False
    ) -> None:
        self.run_dir = Path(run_dir)
        self.steps = steps
        self.signal_name = signal_name
        self.finished = finished
        saved = "nothing saved" if steps is None else f"latest holds {steps:,} steps"
        super().__init__(f"{signal_name}: training stopped, {saved} ({run_dir})")


class GracefulStop(StopSignalHandler):
    """The run's SIGINT/SIGTERM handlers while it is active (``with GracefulStop() as
    stop``; previous handlers come back at the end). Outside the main thread signals
    cannot be handled, and this does nothing."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.signal_name: str | None = None
        self._abortable = 0

    @property
    def requested(self) -> bool:
        return self.signal_name is not None

    @contextmanager
    def abortable(self) -> Iterator[None]:
        """A block that a stop signal ends at once with :class:`StopSignal`, a
        KeyboardInterrupt (work that can be dropped: an evaluation, start-up)."""
        if self.requested:
            raise StopSignal(self.signal_name)
        self._abortable += 1
        try:
            yield
        finally:
            self._abortable -= 1

    def _handle(self, signum: int, frame: Any) -> None:
        name = signal.Signals(signum).name
        if self.requested:
            saved = (
                f"the checkpoints in {self.run_dir} are whole (latest is the last one saved)"
                if (self.run_dir / "latest").is_symlink()
                else "no checkpoint had been saved yet"
            )
            write_stderr(f"\n{name} again: stopping at once without saving; {saved}\n")
            kill_processes(multiprocessing.active_children())
            os._exit(128 + signum)
        self.signal_name = name
        write_stderr(
            f"\n{name}: stopping at the next safe point and saving {self.run_dir}/latest "
            f"(send it again to stop at once, without saving)\n"
        )
        if self._abortable:
            raise StopSignal(name)
