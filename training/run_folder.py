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

import csv
import json
import math
import shutil
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from art_gallery_env.agents.policy_format import CheckpointError, load_weights
from art_gallery_env.agents.run_checkpoint import VERSION, read_meta_file
from art_gallery_env.files import atomic_symlink, atomic_write_text, is_temp_name, sha256_file
from art_gallery_env.folder_lock import LOCK_NAME, FolderLock

from .checkpoints import (
    BEST,
    CHECKPOINTS,
    LATEST,
    RLLIB_LINK,
    CheckpointStore,
    prune_snapshots,
)
from .config import NETWORK_KEYS, TrainConfig, saved_config_as_now
from .interrupt import GracefulStop, TrainingInterrupted
from .warm_start import FOLDER as WARM_START

# warm_start/ renamed for its removal once nothing needs it (expert iteration, after
# generation 0): a kill during the removal leaves this name, which a resume finishes
WARM_START_REMOVING = f".{WARM_START}.removing"
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
    WARM_START_REMOVING,
    "replay",  # expert iteration's self-play data, one file per generation
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
# The network: keys that shape every type's weights (NETWORK_KEYS adds each type's own).
NETWORK_SHAPE_KEYS = ("type", "hidden_sizes", "activation")


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
    lock: FolderLock | None = None  # held from the first check to the end of the run
    discard_newer: bool = False  # resuming from a checkpoint older than latest, on purpose

    @property
    def resuming(self) -> bool:
        return self.resume_meta is not None

    def release(self) -> None:
        """Give up the run folder (at the end of the run, or of a refused start)."""
        if self.lock is not None:
            self.lock.release()

    def prepare(self) -> None:
        """Make the folder (only now, after every check), clear what a kill left, write
        config.yaml."""
        self.created = self.lock.made if self.lock is not None else not self.run_dir.exists()
        self.run_dir.mkdir(parents=True, exist_ok=True)
        if self.discard_newer and self.resume_path is not None:
            # latest moves back to the chosen checkpoint: the newer one becomes garbage
            target = self.resume_path.resolve().parent.relative_to(self.run_dir.resolve())
            atomic_symlink(str(target), self.run_dir / LATEST)
        for folder in (self.run_dir, self.run_dir / "logs", self.run_dir / "pool"):
            for entry in folder.iterdir() if folder.is_dir() else ():
                if is_temp_name(entry.name):
                    entry.unlink(missing_ok=True)
        CheckpointStore(self.run_dir).collect_garbage()
        if self.resuming:
            prune_snapshots(self.run_dir / "pool", None, after_steps=self.steps_done)
        atomic_write_text(self.run_dir / "config.yaml", run_config_text(self.config))

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
    config: TrainConfig,
    resume: str | Path | None = None,
    overwrite: bool = False,
    from_checkpoint: str | None = None,
    discard_newer: bool = False,
) -> RunStart:
    """Take the run folder's lock and check where ``config`` may train (see the module
    docstring); changes nothing on disk except what ``overwrite`` deletes. The returned
    start holds the lock (:meth:`RunStart.release`, done by :func:`run_training`)."""
    if resume is not None and overwrite:
        raise RunFolderError("--resume continues a run and --overwrite replaces it: give one")
    if (from_checkpoint is not None or discard_newer) and resume is None:
        raise RunFolderError("--from-checkpoint and --discard-newer go with --resume RUN_DIR")
    if resume is not None:
        return _resume_start(config, Path(resume), from_checkpoint, discard_newer)
    run_dir = config.resolved_run_dir
    if run_dir.exists() and not run_dir.is_dir():
        raise RunFolderError(f"{run_dir}: run_dir is a file, not a folder")
    lock = lock_run_folder(run_dir)
    try:
        start = _new_start(config, run_dir, overwrite)
    except BaseException:
        lock.release()
        raise
    start.lock = lock
    return start


def lock_run_folder(run_dir: Path) -> FolderLock:
    """The run folder's lock (the folder is made if missing, and removed again by
    ``release`` if nothing was written into it)."""
    advice = (
        "a run folder belongs to one run at a time: wait for that run to finish (or stop it "
        "with Ctrl-C, which saves latest), or give another --run-dir"
    )
    return FolderLock(run_dir, "train", advice).acquire()


def _new_start(config: TrainConfig, run_dir: Path, overwrite: bool) -> RunStart:
    entries = sorted(p.name for p in run_dir.iterdir() if p.name != LOCK_NAME)
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
    undo a start that saved nothing when anything fails. The run folder's lock is
    released at the end, whatever happens."""
    try:
        return _run_locked(start, body)
    finally:
        start.release()


def _run_locked(start: RunStart, body: Callable[[GracefulStop], int]) -> Path:
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
def resume_run_dir(resume: Path) -> Path:
    """The run folder a ``--resume`` argument belongs to (see :func:`resume_metadata_path`)."""
    if not resume.exists():
        raise RunFolderError(
            f"--resume {resume}: no such file or folder (give the run folder, e.g. "
            f"runs/quick, or its latest.zip)"
        )
    if resume.is_dir() and not (resume.name == RLLIB_LINK or (resume / "learner_group").is_dir()):
        return resume
    return resume.parent


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
            # a start stopped before its first save keeps only the teacher's cached data
            again = (
                f"without --resume (it reuses the cached {WARM_START}/)"
                if (resume / WARM_START).is_dir()
                else "with --overwrite"
            )
            raise RunFolderError(
                f"--resume {resume}: no checkpoint in this folder (no {LATEST}.json). A run "
                f"killed before its first save has nothing to resume: start it again {again}"
            )
        return meta
    meta = resume.with_suffix(".json")
    if not meta.is_file():
        raise RunFolderError(f"--resume {resume}: its metadata {meta.name} is missing")
    return meta


def _resume_start(
    config: TrainConfig, resume: Path, from_checkpoint: str | None, discard_newer: bool
) -> RunStart:
    run_dir = resume_run_dir(resume)
    if config.run_dir is not None and Path(config.run_dir).resolve() != run_dir.resolve():
        raise RunFolderError(
            f"--resume {resume} belongs to the run folder {run_dir}, but the config (or "
            f"--run-dir) names {config.run_dir}; leave out --run-dir to continue in {run_dir}"
        )
    lock = lock_run_folder(run_dir)  # before reading: the owner could be rewriting it
    try:
        meta_path = resume_metadata_path(resume)
        if from_checkpoint is not None:
            meta_path = _named_checkpoint(run_dir, from_checkpoint)
        start = _checked_resume(config, resume, run_dir, meta_path, discard_newer)
    except BaseException:
        lock.release()
        raise
    start.lock = lock
    return start


def _named_checkpoint(run_dir: Path, name: str) -> Path:
    """``--from-checkpoint NAME``: latest, best, or a folder under checkpoints/."""
    for path in (run_dir / f"{name}.json", run_dir / CHECKPOINTS / name / "policy.json"):
        if name and "/" not in name and path.is_file():
            return path
    raise RunFolderError(
        f"--from-checkpoint {name!r}: {run_dir} has no such checkpoint; give {LATEST} or "
        f"{BEST} (or a folder name under {run_dir / CHECKPOINTS})"
    )


def _checked_resume(
    config: TrainConfig, resume: Path, run_dir: Path, meta_path: Path, discard_newer: bool
) -> RunStart:
    """Every check of a resume, on the whole folder, before anything in it changes."""
    meta = check_run_folder(run_dir, meta_path)
    _check_not_older(resume, run_dir, meta_path, meta, discard_newer)
    trainer = meta.get("trainer", "maskable_ppo")
    if trainer != config.algorithm:
        raise RunFolderError(
            f"--resume {resume}: the checkpoint was trained with {trainer}, the config "
            f"uses algorithm {config.algorithm}"
        )
    try:
        saved = saved_config_as_now(meta["config"])
    except (ValueError, TypeError, KeyError, AttributeError) as err:
        raise RunFolderError(f"{meta_path}: the config it holds is damaged ({err})") from None
    new = config.model_dump()
    _check_same_network(resume, saved.get("network"), new["network"])
    fixed, changed = (
        [diff for diff in diffs if not diff[0].startswith("network.")]  # checked above
        for diffs in config_differences(saved, new)
    )
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
        discard_newer=discard_newer,
    )
    start.notes += [f"config change on resume: {k}: {old!r} -> {new!r}" for k, old, new in changed]
    return start


def run_config_text(config: TrainConfig) -> str:
    """The run folder's ``config.yaml``: the keys the config set (what it was given, and the
    CLI's overrides), so that it loads again as a config. The whole dump, defaults included,
    would not: a section or key the algorithm or network type does not read is refused when
    given, although at its default it changes nothing. The checkpoints' meta keeps the whole
    dump, which ``--resume`` compares."""
    return yaml.safe_dump(config.model_dump(exclude_unset=True), sort_keys=False)


def network_shape(network: Any) -> dict[str, Any]:
    """The keys of a dumped ``network:`` that shape its weights (a key of another type,
    which no layer reads, is left out); a config saved before ``network.type`` existed
    trained an MLP."""
    shape = dict(network) if isinstance(network, Mapping) else {}
    shape.setdefault("type", "mlp")
    keys = (*NETWORK_SHAPE_KEYS, *sorted(NETWORK_KEYS.get(shape["type"], ())))
    return {key: shape[key] for key in keys if key in shape}


def _check_same_network(resume: Path, saved: Any, new: Mapping[str, Any]) -> None:
    """A resume loads the checkpoint's own network, whatever the config says: a config
    that describes another one would be ignored without a word, so it is refused here, in
    one line naming both networks and the two ways on. A key the saved config lacks (one
    added since) is not compared."""
    old, now = network_shape(saved), network_shape(new)
    differ = [key for key in old if now.get(key) != old[key]]
    if not differ:
        return
    if old["type"] != now["type"]:
        legacy = isinstance(saved, Mapping) and "type" not in saved
        what = (
            f"the checkpoint holds an {old['type']} network ({_flow(old)}"
            + ("; saved before network.type existed, so an mlp" if legacy else "")
            + f"), the config asks for an {now['type']} network ({_flow(now)})"
        )
    else:
        what = f"the checkpoint's {old['type']} network is not the config's: " + ", ".join(
            f"network.{key}: checkpoint {_flow(old[key])}, config {_flow(now.get(key))}"
            for key in differ
        )
    raise RunFolderError(
        f"--resume {resume}: {what}; a resume trains the checkpoint's own network. Start a "
        f"new run folder for the config's network (another --run-dir, without --resume), or "
        f"set the config's network back to {_flow(old)}"
    )


def _flow(value: Any) -> str:
    """``value`` as one line of YAML, as a config would write it."""
    text = yaml.safe_dump(value, default_flow_style=True, sort_keys=False, width=10**6)
    return text.removesuffix("...\n").strip()  # a scalar's document end


def _check_not_older(
    resume: Path, run_dir: Path, meta_path: Path, meta: dict[str, Any], discard_newer: bool
) -> None:
    """Resuming from a checkpoint older than latest deletes latest's checkpoint, the pool
    snapshots and log rows after it: only when the user says so."""
    latest = run_dir / f"{LATEST}.json"
    if meta_path.resolve().parent == latest.resolve().parent or discard_newer:
        return
    name = meta_path.stem if meta_path.parent == run_dir else meta_path.parent.name
    newer = read_meta_file(latest)["steps"]
    raise RunFolderError(
        f"--resume {resume}: {name} (step {meta['steps']:,}) is older than {LATEST} (step "
        f"{newer:,}); resuming from it deletes {LATEST}'s checkpoint, the pool snapshots and "
        f"the log rows after step {meta['steps']:,}. Resume from {LATEST} with --resume "
        f"{run_dir}, or say so: --resume {run_dir} --from-checkpoint {name} --discard-newer"
    )


def check_run_folder(run_dir: Path, meta_path: Path) -> dict[str, Any]:
    """The metadata of the checkpoint to resume, after checking everything a resume reads
    or rewrites: that checkpoint, ``latest`` and ``best`` (schema, version, files), and
    the CSV logs. Raises :class:`CheckpointError` or :class:`RunFolderError`."""
    meta = verify_checkpoint(meta_path)
    checked = {meta_path.resolve().parent}
    for stem in (LATEST, BEST):
        path = run_dir / f"{stem}.json"
        if not path.exists():
            if stem == LATEST:
                raise RunFolderError(
                    f"{path}: missing, so {run_dir} is damaged; nothing was changed. Restore "
                    f"it, or start a new run (--overwrite or another --run-dir)"
                )
            continue
        if path.resolve().parent not in checked:
            verify_checkpoint(path)
            checked.add(path.resolve().parent)
        if stem == BEST:
            _check_best_eval(path)
    for log, step_key in (
        (run_dir / "logs" / "progress.csv", "time/total_timesteps"),
        (run_dir / "eval.csv", "steps"),
    ):
        check_csv_log(log, step_key)
    return meta


def _check_best_eval(path: Path) -> None:
    """A resumed run competes with best's evaluation: it must hold one."""
    evaluation = read_meta_file(path).get("eval")
    selection = evaluation.get("selection") if isinstance(evaluation, dict) else None
    if not _is_number(selection) or not math.isfinite(selection):
        raise CheckpointError(
            f"{path}: holds no evaluation (eval.selection), which {BEST} always has; the "
            f"file was edited or damaged. Nothing was changed: restore it, or start a new run"
        )


def check_csv_log(path: Path, step_key: str) -> None:
    """A training log that a resume can continue: UTF-8 CSV with its step column."""
    if not path.is_file():
        return
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            reader = csv.reader(handle)
            header = next(reader, [])
            for _ in reader:
                pass
    except (UnicodeDecodeError, csv.Error) as err:
        problem = f"not a CSV log ({err})"
    else:
        if not header or step_key in header:
            return
        problem = f"its header has no {step_key!r} column"
    raise RunFolderError(
        f"{path}: {problem}; a resume continues this log. Nothing was changed: restore the "
        f"file, or move it away to resume with a new log"
    )


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
    check_meta_schema(_read_json(meta_path), meta_path)
    meta = read_meta_file(meta_path)
    steps = meta.get("steps")
    folder = meta_path.resolve().parent
    for key, name in meta["files"].items():
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


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CheckpointError(f"{path}: no such checkpoint metadata file") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise CheckpointError(
            f"{path}: not readable JSON ({err}); the file is damaged. Nothing was changed: "
            f"restore it, or start a new run (--overwrite or another --run-dir)"
        ) from None


RESUME_FILES = {"maskable_ppo": "sb3", "rllib_ppo": "rllib", "expert_iteration": "exit"}


def check_meta_schema(meta: Any, path: Path) -> None:
    """The fields of a run checkpoint's metadata that the tools read, with their types:
    ``version`` (this package's), ``steps`` (whole, >= 0), ``game``, ``trainer``,
    ``files`` (plain names, the weights and the trainer's resume state), ``sha256``,
    ``config`` and ``eval``. Raises :class:`CheckpointError` naming the first problem."""
    problem = _schema_problem(meta) if isinstance(meta, dict) else "not a JSON object"
    if problem:
        raise CheckpointError(
            f"{path}: {problem}; the file was edited or damaged, or another version of "
            f"art-gallery-env wrote it. Nothing was changed"
        )


def _schema_problem(meta: dict[str, Any]) -> str | None:
    version = meta.get("version")
    if type(version) is not int or version != VERSION:
        return f"checkpoint version {version!r}, but this art-gallery-env reads version {VERSION}"
    steps = meta.get("steps")
    if type(steps) is not int or steps < 0:
        return f"steps must be a whole number >= 0, got {steps!r}"
    for key, kind in (("game", str), ("trainer", str), ("sha256", dict), ("config", dict)):
        if key in meta and not isinstance(meta[key], kind):
            return (
                f"{key} must be a {'string' if kind is str else 'JSON object'}, got {meta[key]!r}"
            )
    if "eval" in meta and meta["eval"] is not None and not isinstance(meta["eval"], dict):
        return f"eval must be a JSON object or null, got {meta['eval']!r}"
    trainer = meta.get("trainer", "maskable_ppo")
    if trainer not in RESUME_FILES:
        return f"unknown trainer {trainer!r} (known: {', '.join(RESUME_FILES)})"
    return _files_problem(meta.get("files"), ("weights", RESUME_FILES[trainer]))


def _files_problem(files: Any, required: tuple[str, ...]) -> str | None:
    if not isinstance(files, dict):
        return f"files must be a JSON object naming the checkpoint's files, got {files!r}"
    missing = [key for key in required if key not in files]
    if missing:
        return f"files names no {' or '.join(missing)} file (it needs {', '.join(required)})"
    for key, name in files.items():
        plain = isinstance(name, str) and name not in ("", ".", "..") and "/" not in name
        if not plain or "\\" in name:
            return f"files.{key} must be a file name in the checkpoint's folder, got {name!r}"
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


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
