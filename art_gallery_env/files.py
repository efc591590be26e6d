"""Writing files so that a crash never leaves a half-written one.

Every file the tools write (checkpoints, metadata, records, results, saved games, logs)
goes through these: the bytes go to a temporary file in the same folder, are flushed and
fsynced, and the temporary file is renamed over the target. A reader sees the old file
or the new one, never a mix, whenever the writer is killed. A set of files that must
change together (a checkpoint's weights, resume state and metadata) is written into a
new folder and published by swapping one symlink (:func:`atomic_symlink`).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (temp file, fsync, rename); returns the path."""
    path = Path(path)
    with _temp_beside(path) as handle:
        handle.write(data)
    return path


def atomic_write_text(path: str | os.PathLike[str], text: str) -> Path:
    return atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: str | os.PathLike[str], data: Any, **dump_options: Any) -> Path:
    return atomic_write_text(path, json.dumps(data, **dump_options) + "\n")


def atomic_copy(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> Path:
    """Copy a file so that ``target`` is at every moment the old or the complete new copy."""
    target = Path(target)
    with _temp_beside(target) as out, open(source, "rb") as src:
        shutil.copyfileobj(src, out)
    return target


@contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path beside ``path`` (same suffix) for a library that writes by file
    name (imageio, say); renamed over ``path`` after an fsync when the block ends without an
    error, removed otherwise. Created with mode 0o666 minus the umask, as open() would."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.{uuid.uuid4().hex[:8]}{path.suffix}")
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    try:
        yield tmp
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_symlink(target: str | os.PathLike[str], link: str | os.PathLike[str]) -> Path:
    """Point ``link`` at ``target`` (kept as given, e.g. relative) in one rename: a reader
    follows the old target or the new one, never a missing link. Replaces a file too."""
    link = Path(link)
    tmp = link.with_name(f".{link.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    os.symlink(target, tmp)
    try:
        os.replace(tmp, link)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(link.parent)
    return link


def fsync_tree(folder: str | os.PathLike[str]) -> None:
    """fsync every file and folder under ``folder`` (written by a library that does not),
    so that renaming the folder into place publishes data that is on disk."""
    for root, dirs, files in os.walk(folder):
        for name in files:
            fd = os.open(os.path.join(root, name), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        for name in dirs:
            _fsync_dir(Path(root, name))
    _fsync_dir(Path(folder))


def sha256_file(path: str | os.PathLike[str]) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def is_temp_name(name: str) -> bool:
    """A temporary file of this module (left behind only when the process was killed)."""
    return name.startswith(".") and name.endswith(".tmp")


def writable_dir_problem(folder: str | os.PathLike[str]) -> str | None:
    """None if files can be written in ``folder`` (made if missing), else why not. The
    tools ask before hours of work, not when they have the results."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with _temp_beside(folder / ".write-check") as handle:
            handle.write(b"")
        (folder / ".write-check").unlink()
    except OSError as err:
        return f"cannot write in {folder}: {err.strerror or err}"
    return None


@contextmanager
def _temp_beside(path: Path) -> Iterator[BinaryIO]:
    """A new temporary file in ``path``'s folder, renamed over ``path`` when the block ends
    without an error (after flush and fsync) and removed otherwise. Created with mode 0o666
    minus the umask, as a plain open() would."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        if err.filename is None and err.errno:  # a full disk names no file: name the target
            raise OSError(err.errno, err.strerror, str(path)) from err
        raise
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable (POSIX); a no-op where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
