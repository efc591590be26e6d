"""Writing training checkpoints so that a kill at any moment leaves every one whole and
its metadata true (format read by :mod:`art_gallery_env.agents.run_checkpoint`).

A checkpoint is several files that must agree: the weights-only ``.safetensors`` that
``PolicyAgent`` plays, the trainer's resume state (an SB3 ``.zip`` or an RLlib algorithm
folder) and the metadata JSON (config, steps, evaluation, sha256 of each file). No rename
replaces several files at once, so each checkpoint is written into a new folder::

    RUN_DIR/checkpoints/step_000012288-3fa2b1c0/
        policy.safetensors  policy.zip | rllib/  policy.json

and published by swapping one symlink, ``RUN_DIR/latest`` (and ``RUN_DIR/best``). The
names users know are fixed symlinks through it: ``latest.zip -> latest/policy.zip``,
``latest.safetensors``, ``latest.json``, the same for ``best``, and for RLlib
``rllib_checkpoint -> latest/rllib``. A reader therefore sees the previous checkpoint or
the new one, complete; folders no pointer names (the previous checkpoint, one a kill
left half-written) are removed after each swap.
"""

from __future__ import annotations

import os
import re
import shutil
import uuid
from dataclasses import dataclass
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Any

from art_gallery_env.agents.policy_format import policy_layout
from art_gallery_env.agents.run_checkpoint import FORMAT, VERSION
from art_gallery_env.core.registry import get_game
from art_gallery_env.files import atomic_symlink, atomic_write_json, fsync_tree, sha256_file

_PACKAGES = (
    "art-gallery-env",
    "numpy",
    "gymnasium",
    "pettingzoo",
    "torch",
    "stable-baselines3",
    "sb3-contrib",
    "ray",
)

LATEST, BEST = "latest", "best"
CHECKPOINTS = "checkpoints"
PENDING_PREFIX = ".pending-"
META = "policy.json"
WEIGHTS = "policy.safetensors"
SB3_ZIP = "policy.zip"
RLLIB_DIR = "rllib"
RLLIB_LINK = "rllib_checkpoint"
# The fixed names beside the pointers: "latest.zip" -> "latest/policy.zip", ...
STEM_LINKS = {".json": META, ".safetensors": WEIGHTS, ".zip": SB3_ZIP}
SNAPSHOT_RE = re.compile(r"^snap_(\d+)\.safetensors$")


def package_versions() -> dict[str, str]:
    versions = {}
    for name in _PACKAGES:
        try:
            versions[name] = importlib_metadata.version(name)
        except importlib_metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def checkpoint_header(game: str | None = None) -> dict[str, Any]:
    """The fields every run checkpoint's metadata starts with (``game``: what it plays;
    None: the default game)."""
    spec = get_game(game)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": spec.name,
        "env_version": spec.env_version,
        "layout_fingerprint": policy_layout(spec.name).fingerprint,
        "versions": package_versions(),
    }


@dataclass
class PendingCheckpoint:
    """A checkpoint being written: a hidden folder that no pointer names yet."""

    path: Path
    steps: int


class CheckpointStore:
    """The checkpoints of one run folder (see the module docstring)."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = Path(run_dir)
        self.folder = self.run_dir / CHECKPOINTS

    def begin(self, steps: int) -> PendingCheckpoint:
        path = self.folder / f"{PENDING_PREFIX}{steps:012d}-{uuid.uuid4().hex[:8]}"
        path.mkdir(parents=True)
        return PendingCheckpoint(path, int(steps))

    def discard(self, pending: PendingCheckpoint) -> None:
        shutil.rmtree(pending.path, ignore_errors=True)

    def commit(
        self, pending: PendingCheckpoint, meta: dict[str, Any], best: bool, latest: bool = True
    ) -> Path:
        """Write the metadata (with each file's sha256), publish the folder as ``latest``
        (unless ``latest`` is false: expert iteration's re-picked best) and ``best``, remove
        what no pointer names; returns the checkpoint folder."""
        files = meta["files"]
        meta = {
            **meta,
            "sha256": {
                name: sha256_file(pending.path / name)
                for name in files.values()
                if (pending.path / name).is_file()
            },
        }
        atomic_write_json(pending.path / META, meta, indent=2, sort_keys=True)
        fsync_tree(pending.path)
        final = self.folder / pending.path.name.replace(PENDING_PREFIX, "step_", 1)
        os.rename(pending.path, final)
        target = f"{CHECKPOINTS}/{final.name}"
        if latest:
            atomic_symlink(target, self.run_dir / LATEST)
        if best:
            atomic_symlink(target, self.run_dir / BEST)
        self.link_fixed_names(files)
        self.collect_garbage()
        return final

    def link_fixed_names(self, files: dict[str, str]) -> None:
        """``latest.zip -> latest/policy.zip`` and friends, made once per run folder (they
        follow the pointers); replaces the regular files of a run from before."""
        names = set(files.values()) | {META}
        for stem in (LATEST, BEST):
            if not (self.run_dir / stem).is_symlink():
                continue
            for suffix, name in STEM_LINKS.items():
                if name in names:
                    self._ensure_link(self.run_dir / f"{stem}{suffix}", f"{stem}/{name}")
        if RLLIB_DIR in names:
            self._ensure_link(self.run_dir / RLLIB_LINK, f"{LATEST}/{RLLIB_DIR}")

    @staticmethod
    def _ensure_link(link: Path, target: str) -> None:
        if link.is_symlink() and os.readlink(link) == target:
            return
        if link.is_dir() and not link.is_symlink():  # an RLlib folder of an older run
            shutil.rmtree(link)
        atomic_symlink(target, link)

    def collect_garbage(self) -> None:
        """Remove checkpoint folders that neither pointer names: the one just replaced,
        and any a kill left behind (half-written, or written but never published)."""
        if not self.folder.is_dir():
            return
        keep = {
            (self.run_dir / stem).resolve()
            for stem in (LATEST, BEST)
            if (self.run_dir / stem).is_symlink()
        }
        for entry in self.folder.iterdir():
            if entry.resolve() not in keep:
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry, ignore_errors=True)
                else:
                    entry.unlink(missing_ok=True)


def snapshot_steps(path: Path) -> int | None:
    match = SNAPSHOT_RE.match(path.name)
    return int(match.group(1)) if match else None


def snapshot_name(steps: int) -> str:
    return f"snap_{steps:010d}.safetensors"


def _snapshots(pool_dir: Path) -> list[tuple[int, Path]]:
    """(steps, path) of the snapshots in ``pool_dir``, oldest first."""
    if not pool_dir.is_dir():
        return []
    return sorted(
        (steps, path) for path in pool_dir.iterdir() if (steps := snapshot_steps(path)) is not None
    )


def newest_snapshot_steps(pool_dir: Path) -> int:
    """The steps of the newest snapshot in ``pool_dir`` (0 when it holds none)."""
    snapshots = _snapshots(pool_dir)
    return snapshots[-1][0] if snapshots else 0


def next_due(done_at: int, every: int) -> int:
    """The first multiple of ``every`` after ``done_at``: periodic work (evaluations,
    snapshots) falls at every, 2 every, ... counted from step 0, so a resumed run keeps an
    uninterrupted run's schedule, and work a stop signal cut short is due at once."""
    return (int(done_at) // every + 1) * every


def prune_snapshots(pool_dir: Path, keep: int | None, after_steps: int | None = None) -> list[Path]:
    """Delete the oldest snapshots beyond ``keep`` (None: keep all) and any made after
    ``after_steps`` (a resumed run's lost future); returns the deleted paths."""
    snapshots = _snapshots(pool_dir)
    doomed = [path for steps, path in snapshots if after_steps is not None and steps > after_steps]
    left = [path for steps, path in snapshots if path not in doomed]
    if keep is not None and len(left) > keep:
        doomed += left[: len(left) - keep]
    for path in doomed:
        path.unlink(missing_ok=True)
    return doomed
