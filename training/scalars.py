"""The TensorBoard scalars of a run, under one set of names for every trainer.

MaskablePPO's logger (stable-baselines3) writes ``RUN_DIR/logs/events.out.tfevents.*``
with the names below; the other trainers write theirs to the same folder through
:class:`ScalarWriter`, so ``tensorboard --logdir runs`` shows one chart per name for runs
of any trainer. The step of every scalar is the run's step count (env steps for PPO),
so the step count itself is no scalar.

A trainer writes a name only where it measures the same thing: RLlib's learner reports
``policy_loss`` (minus the clipped surrogate, as SB3's ``policy_gradient_loss``),
``vf_loss_unclipped`` (SB3's ``value_loss``), ``entropy`` (SB3 writes minus it as
``entropy_loss``), ``vf_explained_var`` and its optimizer's learning rate; it has no
``approx_kl`` or ``clip_fraction`` without its KL loss, so those are not written.

Expert iteration (its step a generation) writes ``train/learning_rate`` (Adam's) and
``time/fps`` (the learner's searched decisions per second of a generation's wall time)
under these names; its losses, a cross-entropy to the search's targets and a squared error
of a win share, are no PPO loss, so they keep its progress log's own ``exit/`` names
(``expert_iteration.SCALARS``). Every trainer writes its evaluations under the names of
:func:`eval_scalars`.

A resumed start may give :class:`ScalarWriter` a ``purge_step`` (the first step it
writes; expert iteration does): TensorBoard then hides what the run's older event files
hold from that step on, the points of a future that a resume from an older checkpoint
plays again. :func:`shown_scalars` reads a folder so.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

FPS = "time/fps"  # SB3 keeps time/total_timesteps and time/iterations out of TensorBoard
EP_REW_MEAN = "rollout/ep_rew_mean"
EP_LEN_MEAN = "rollout/ep_len_mean"
POLICY_LOSS = "train/policy_gradient_loss"
VALUE_LOSS = "train/value_loss"
ENTROPY_LOSS = "train/entropy_loss"  # minus the policy's mean entropy
EXPLAINED_VARIANCE = "train/explained_variance"
LEARNING_RATE = "train/learning_rate"

SHARED = (
    FPS,
    EP_REW_MEAN,
    EP_LEN_MEAN,
    POLICY_LOSS,
    VALUE_LOSS,
    ENTROPY_LOSS,
    EXPLAINED_VARIANCE,
    LEARNING_RATE,
)
"""The names MaskablePPO writes that another trainer may write too."""


def win_share(opponent: str) -> str:
    """An evaluation's win share against ``opponent`` (an ``eval.csv`` opponent name)."""
    return f"eval/win_share_vs_{opponent}"


def mean_score(opponent: str) -> str:
    return f"eval/mean_score_vs_{opponent}"


def eval_scalars(results: Mapping[str, Mapping[str, Any]]) -> dict[str, float]:
    """The scalars of one evaluation (``CheckpointSelector.evaluate_and_keep``'s results)."""
    out: dict[str, float] = {}
    for opponent, r in results.items():
        out[win_share(opponent)] = r["win_share"]
        out[mean_score(opponent)] = r["mean_score"]
    return out


def _number(value: Any) -> float | None:
    """``value`` as a finite float, or None (missing, not a number, NaN or infinite)."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


class ScalarWriter:
    """A TensorBoard event file in ``logs_dir`` (a run's ``logs/``, where SB3 writes its
    own). Each start of a run writes a new file; TensorBoard reads them all as one run."""

    def __init__(self, logs_dir: str | Path, purge_step: int | None = None) -> None:
        from torch.utils.tensorboard import SummaryWriter

        Path(logs_dir).mkdir(parents=True, exist_ok=True)
        self._writer = SummaryWriter(log_dir=str(logs_dir), purge_step=purge_step)

    def write(self, step: int, values: Mapping[str, Any]) -> None:
        """Every finite number of ``values`` at ``step`` (None and NaN are left out)."""
        for name, value in values.items():
            number = _number(value)
            if number is not None:
                self._writer.add_scalar(name, number, int(step))
        self._writer.flush()

    def close(self) -> None:
        self._writer.close()

    def __enter__(self) -> ScalarWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_scalars(logs_dir: str | Path) -> dict[str, list[tuple[int, float]]]:
    """Every scalar in the event files of ``logs_dir``: name -> (step, value) in the order
    written (the files by name: their names begin with the time they were made)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    out: dict[str, list[tuple[int, float]]] = {}
    for path in sorted(Path(logs_dir).glob("events.out.tfevents.*")):
        events = EventAccumulator(str(path), size_guidance={"scalars": 0})
        events.Reload()
        for name in events.Tags().get("scalars", []):
            out.setdefault(name, []).extend((e.step, e.value) for e in events.Scalars(name))
    return out


def shown_scalars(logs_dir: str | Path) -> dict[str, list[tuple[int, float]]]:
    """The scalars of ``logs_dir`` as TensorBoard shows them: :func:`read_scalars` without
    the points a later file's ``purge_step`` (or a step going back) hides."""
    import logging

    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    quiet = logging.getLogger("tensorboard")  # it warns of every purge, which is the point
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        events = EventAccumulator(str(logs_dir), size_guidance={"scalars": 0})
        events.Reload()
    finally:
        quiet.setLevel(level)
    return {
        name: [(e.step, e.value) for e in events.Scalars(name)]
        for name in events.Tags().get("scalars", [])
    }
