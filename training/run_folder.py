"""A run folder belongs to one run: starting, overwriting and resuming one, and checking
that a checkpoint's metadata describes the files beside it.

* ``art-gallery train`` refuses a folder that holds anything unless it is given
  ``--resume`` (continue that run) or ``--overwrite`` (delete its files first).
* ``--resume`` takes the run folder or one of its checkpoint files, verifies the
  checkpoint (every file's sha256, the steps inside the weights and the SB3 zip), checks
  that the config trains the same thing (players, variant, network, observation layout,
  algorithm) and that steps are left, and says what it continues.
* Nothing is created or changed before these checks pass, so a refused start leaves no
  folder behind; a start that fails before its first checkpoint removes what it wrote,
  except the teacher's cached cloning data (``warm_start/``, minutes to collect again).
  A folder that holds nothing else is not a run: a new start uses it and the cache.
"""

from __future__ import annotations

import json
import shutil
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from art_gallery_env.agents.policy_format import CheckpointError, load_weights
from art_gallery_env.agents.run_checkpoint import read_meta_file
from art_gallery_env.files import atomic_write_text, is_temp_name, sha256_file

from .checkpoints import (
    BEST,
    CHECKPOINTS,
    LATEST,
    RLLIB_LINK,
    CheckpointStore,
    prune_snapshots,
)
from .config import TrainConfig, saved_config_as_now
from .interrupt import GracefulStop, TrainingInterrupted
from .warm_start import FOLDER as WARM_START

# Everything a run writes (and the names older versions wrote): what --overwrite deletes.
RUN_ENTRIES = (
    "config.yaml",
    LATEST,
    BEST,
    *(f"{stem}{suffix}" for stem in (LATEST, BEST) for suffix in (".zip", ".json", ".safetensors")),
    CHECKPOINTS,
    "pool",
    "logs",
    "eval.csv",
    "plots",
    WARM_START,
    RLLIB_LINK,
    f"{RLLIB_LINK}.tmp",
    f"{RLLIB_LINK}.old",
    ".candidate.safetensors",
    "eval_candidate.safetensors",
)
# Config keys that must not change on --resume: they define what the weights mean.
FIXED_ON_RESUME = (
    "algorithm",
    "env.",
    "network.",
    "rllib.league",
    "rllib.league_max_policies",
)
# Keys expected to differ between a run and its resume.
IGNORED_ON_RESUME = ("run_dir", "total_steps")


class RunFolderError(ValueError):
    """A run folder or ``--resume`` that cannot be used; the message says what to do."""


@dataclass
class RunStart:
    """Where a training run starts: its folder and, when resuming, the checkpoint."""

    config: TrainConfig
    run_dir: Path
    steps_done: int = 0
    resume_meta: dict[str, Any] | None = None
    resume_path: Path | None = None
    created: bool = False  # this start made the folder
    notes: list[str] = field(default_factory=list)
    saved: bool = False  # a checkpoint of this start has been written

    @property
    def resuming(self) -> bool:
        return self.resume_meta is not None

    def prepare(self) -> None:
        """Make the folder (only now, after every check), clear what a kill left, write
        config.yaml."""
        self.created = not self.run_dir.exists()
        self.run_dir.mkdir(parents=True, exist_ok=True)
        for folder in (self.run_dir, self.run_dir / "logs", self.run_dir / "pool"):
            for entry in folder.iterdir() if folder.is_dir() else ():
                if is_temp_name(entry.name):
                    entry.unlink(missing_ok=True)
        CheckpointStore(self.run_dir).collect_garbage()
        if self.resuming:
            prune_snapshots(self.run_dir / "pool", None, after_steps=self.steps_done)
        config = yaml.safe_dump(self.config.model_dump(), sort_keys=False)
        atomic_write_text(self.run_dir / "config.yaml", config)

    def abandon(self) -> None:
        """Undo a start that failed before its first checkpoint (a resumed run's files are
        left as they were)."""
        if self.saved or self.resuming or (self.run_dir / LATEST).is_symlink():
            return  # never delete a checkpoint
        if self.created and not (self.run_dir / WARM_START).is_dir():
            shutil.rmtree(self.run_dir, ignore_errors=True)
        else:
            remove_run_entries(self.run_dir, keep=(WARM_START,))


def start_run(
    config: TrainConfig, resume: str | Path | None = None, overwrite: bool = False
) -> RunStart:
    """Check where ``config`` may train (see the module docstring); changes nothing on disk
    except what ``overwrite`` deletes."""
    if resume is not None and overwrite:
        raise RunFolderError("--resume continues a run and --overwrite replaces it: give one")
    if resume is not None:
        return _resume_start(config, Path(resume))
    run_dir = config.resolved_run_dir
    if run_dir.exists() and not run_dir.is_dir():
        raise RunFolderError(f"{run_dir}: run_dir is a file, not a folder")
    entries = sorted(p.name for p in run_dir.iterdir()) if run_dir.is_dir() else []
    if entries == [WARM_START] and not overwrite:
        start = RunStart(config, run_dir)
        start.notes.append(f"{run_dir} holds only {WARM_START}/: a new run, with that cache")
        return start
    if entries and not overwrite:
        raise RunFolderError(
            f"{run_dir} already holds {_describe_run(run_dir, entries)}; a run folder belongs "
            f"to one run. Continue it with --resume {run_dir}, start over in it with "
            f"--overwrite (deletes what a run writes: checkpoints, logs, pool/, warm_start/), or "
            f"give another --run-dir"
        )
    start = RunStart(config, run_dir)
    if entries:
        removed = remove_run_entries(run_dir)
        start.notes.append(
            f"--overwrite: removed {', '.join(removed) or 'nothing'} from {run_dir}"
            + (" (other files left as they were)" if set(entries) - set(removed) else "")
        )
    return start


def remove_run_entries(run_dir: Path, keep: tuple[str, ...] = ()) -> list[str]:
    removed = []
    for name in RUN_ENTRIES:
        if name in keep:
            continue
        path = run_dir / name
        if path.is_symlink() or path.is_file():
            path.unlink()
        elif path.is_dir():
            shutil.rmtree(path)
        else:
            continue
        removed.append(name)
    return removed


def _describe_run(run_dir: Path, entries: list[str]) -> str:
    latest = run_dir / f"{LATEST}.json"
    try:
        meta = json.loads(latest.read_text(encoding="utf-8"))
        return f"a run at step {meta['steps']:,} (name {meta['config']['name']!r})"
    except (OSError, ValueError, KeyError, TypeError):
        shown = ", ".join(entries[:5]) + (", ..." if len(entries) > 5 else "")
        return f"files ({shown})"


def run_training(start: RunStart, body: Callable[[GracefulStop], int]) -> Path:
    """What both trainers do around their own loop: print the start's notes, handle the
    stop signals, run ``body(stop)`` (it returns the steps trained, and on a signal saves
    latest and raises :class:`TrainingInterrupted`), evaluate ``best`` at the end, and
    undo a start that saved nothing when anything fails."""
    from .selection import final_evaluation

    config, run_dir = start.config, start.run_dir
    for note in start.notes:
        print(note, flush=True)
    with GracefulStop(run_dir) as stop:
        try:
            steps = body(stop)
            if config.eval.final_games:
                try:
                    with stop.abortable():
                        final_evaluation(run_dir, config)
                except KeyboardInterrupt:
                    if not stop.requested:
                        raise
                    raise TrainingInterrupted(run_dir, steps, stop.signal_name, True) from None
        except BaseException as err:
            start.abandon()  # a start that saved nothing leaves nothing
            if isinstance(err, KeyboardInterrupt) and stop.requested:  # during start-up
                steps = start.steps_done if start.resuming else None
                raise TrainingInterrupted(run_dir, steps, stop.signal_name) from None
            raise
    return run_dir


# -- resuming -------------------------------------------------------------------------
def resume_metadata_path(resume: Path) -> Path:
    """The metadata JSON a ``--resume`` argument means: a run folder (its latest), a
    checkpoint file (``latest.zip``, ``best.json``, ...) or ``RUN_DIR/rllib_checkpoint``."""
    if not resume.exists():
        raise RunFolderError(
            f"--resume {resume}: no such file or folder (give the run folder, e.g. "
            f"runs/quick, or its latest.zip)"
        )
    if resume.is_dir():
        if resume.name == RLLIB_LINK or (resume / "learner_group").is_dir():
            return resume.parent / f"{LATEST}.json"
        meta = resume / f"{LATEST}.json"
        if not meta.is_file():
            raise RunFolderError(
                f"--resume {resume}: no checkpoint in this folder (no {LATEST}.json). A run "
                f"killed before its first save has nothing to resume: start it again with "
                f"--overwrite"
            )
        return meta
    meta = resume.with_suffix(".json")
    if not meta.is_file():
        raise RunFolderError(f"--resume {resume}: its metadata {meta.name} is missing")
    return meta


def _resume_start(config: TrainConfig, resume: Path) -> RunStart:
    meta_path = resume_metadata_path(resume)
    meta = verify_checkpoint(meta_path)
    run_dir = meta_path.parent
    if config.run_dir is not None and Path(config.run_dir).resolve() != run_dir.resolve():
        raise RunFolderError(
            f"--resume {resume} belongs to the run folder {run_dir}, but the config (or "
            f"--run-dir) names {config.run_dir}; leave out --run-dir to continue in {run_dir}"
        )
    trainer = meta.get("trainer", "maskable_ppo")
    if trainer != config.algorithm:
        raise RunFolderError(
            f"--resume {resume}: the checkpoint was trained with {trainer}, the config "
            f"uses algorithm {config.algorithm}"
        )
    saved = meta.get("config")
    if not isinstance(saved, dict):
        raise RunFolderError(f"{meta_path}: the checkpoint's metadata holds no config")
    fixed, changed = config_differences(saved_config_as_now(saved), config.model_dump())
    if fixed:
        raise RunFolderError(
            f"--resume {resume}: the config does not train what the checkpoint holds:\n"
            + "\n".join(f"  {key}: checkpoint {old!r}, config {new!r}" for key, old, new in fixed)
            + "\nUse the run's own config (RUN_DIR/config.yaml), or start a new run"
        )
    steps = int(meta["steps"])
    if config.total_steps <= steps:
        raise RunFolderError(
            f"--resume {resume}: the checkpoint has {steps:,} steps done and the config's "
            f"total_steps {config.total_steps:,} leaves none; raise total_steps (e.g. "
            f"--total-steps {2 * steps}) to train on"
        )
    start = RunStart(
        config.model_copy(update={"run_dir": str(run_dir)}),
        run_dir,
        steps_done=steps,
        resume_meta=meta,
        resume_path=meta_path,
    )
    start.notes += [f"config change on resume: {k}: {old!r} -> {new!r}" for k, old, new in changed]
    return start


def config_differences(
    saved: dict[str, Any], new: dict[str, Any]
) -> tuple[list[tuple[str, Any, Any]], list[tuple[str, Any, Any]]]:
    """(keys that must not change, other keys that did) between two dumped configs,
    as dotted key paths."""
    old_flat, new_flat = _flatten(saved), _flatten(new)
    fixed, changed = [], []
    for key in sorted(old_flat):  # a key the saved config lacks is an option added since
        old, value = old_flat[key], new_flat.get(key)
        if old == value or key in IGNORED_ON_RESUME:
            continue
        if any(key == f or (f.endswith(".") and key.startswith(f)) for f in FIXED_ON_RESUME):
            fixed.append((key, old, value))
        else:
            changed.append((key, old, value))
    return fixed, changed


def _flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat = {}
    for key, value in data.items():
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


# -- verifying a checkpoint -----------------------------------------------------------
def verify_checkpoint(meta_path: str | Path) -> dict[str, Any]:
    """The metadata of a run checkpoint after checking that it describes the files beside
    it: each file's sha256, the steps stored in the weights and in the SB3 zip, and the
    observation layout. Raises :class:`CheckpointError` naming the first disagreement."""
    meta_path = Path(meta_path)
    meta = read_meta_file(meta_path)
    steps = meta.get("steps")
    folder = meta_path.resolve().parent
    for key, name in (meta.get("files") or {}).items():
        path = folder / name
        if not path.exists():
            raise CheckpointError(f"{meta_path}: its {key} file {path} is missing")
        expected = (meta.get("sha256") or {}).get(name)
        if expected is not None and sha256_file(path) != expected:
            raise CheckpointError(
                f"{meta_path}: {path} is not the file the metadata describes (sha256 differs)"
            )
        found = _steps_inside(key, path)
        if found is not None and found != steps:
            raise CheckpointError(
                f"{meta_path}: says {steps} steps, but its {key} file {path.name} holds "
                f"{found} steps"
            )
    return meta


def _steps_inside(key: str, path: Path) -> int | None:
    """The steps a checkpoint file records itself (None where it records none)."""
    if key == "weights":
        return load_weights(path).meta.get("steps")
    if key == "sb3":
        try:
            with zipfile.ZipFile(path) as archive:
                data = json.loads(archive.read("data"))
        except (OSError, KeyError, ValueError, zipfile.BadZipFile) as err:
            raise CheckpointError(f"{path}: not a readable SB3 checkpoint: {err}") from None
        return data.get("num_timesteps")
    return None
