"""One owner per output folder: an OS lock held while a command uses it.

Two ``art-gallery train`` commands on one run folder, a ``--resume`` or ``--overwrite``
of a run that is still training, two ``eval --out`` into one folder, two ``serve`` on one
games folder: each pair would interleave or delete the other's files. So the command
that writes a folder holds an exclusive ``flock`` on ``FOLDER/.art-gallery.lock`` while
it runs, and a second one is refused at once, naming the owner's PID.

Why ``fcntl.flock`` and not a PID file or the ``filelock`` package: the kernel drops the
lock when its process dies (``kill -9``, a crash, a power cut), so no stale lock is ever
left to clean up, and it is in the standard library (the core depends only on numpy,
gymnasium and pettingzoo). The lock file itself may stay behind after a crash; it is
empty of meaning without the lock. Where ``fcntl`` is missing (Windows) nothing is
locked. A process forked from the owner (a ``fork`` worker) closes its copy of the lock
at once, so the lock never outlives the owner in a child.
"""

from __future__ import annotations

import os
import time
from contextlib import suppress
from pathlib import Path
from types import TracebackType

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = ".art-gallery.lock"

# The descriptors of the locks this process holds, closed in forked children.
_HELD: set[int] = set()


def _close_in_child() -> None:
    for fd in list(_HELD):
        with suppress(OSError):
            os.close(fd)
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_in_child)


class FolderBusyError(RuntimeError):
    """Another live process holds the folder's lock; the message names its PID."""

    def __init__(self, folder: Path, owner: str, advice: str) -> None:
        self.folder = folder
        self.owner = owner
        super().__init__(f"{folder} is in use by {owner}; {advice}")


class FolderLock:
    """``with FolderLock(folder, "train"):`` -- the exclusive owner of ``folder`` (made if
    missing) until the block ends; raises :class:`FolderBusyError` at once if another
    process owns it. ``made`` is True when acquiring created the folder."""

    def __init__(self, folder: str | os.PathLike[str], command: str, advice: str = "") -> None:
        self.folder = Path(folder)
        self.command = command
        self.advice = advice or "wait for it to finish, or stop it first"
        self.path = self.folder / LOCK_NAME
        self.made = False
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> FolderLock:
        if self._fd is not None:
            return self
        self.made = not self.folder.exists()
        self.folder.mkdir(parents=True, exist_ok=True)
        if fcntl is None:  # pragma: no cover - Windows: no lock
            return self
        try:
            self._fd = self._lock()
        except BaseException:
            if self.made:
                self._remove_folder()
            raise
        _HELD.add(self._fd)
        return self

    def _lock(self) -> int:
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise FolderBusyError(self.folder, self._owner(), self.advice) from None
            except BaseException:
                os.close(fd)
                raise
            if self._same_file(fd):
                break
            os.close(fd)  # the owner removed the file as we opened it: take the new one
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()} {self.command}\n".encode())
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _remove_folder(self) -> None:
        with suppress(OSError):
            self.folder.rmdir()  # only if empty

    def release(self) -> None:
        """Unlock, and remove the lock file (and the folder when acquiring made it and
        nothing else was put in it)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        _HELD.discard(fd)
        try:
            if self._same_file(fd):
                with suppress(OSError):
                    self.path.unlink(missing_ok=True)
        finally:
            os.close(fd)  # unlocks
        if self.made:
            self._remove_folder()

    def __enter__(self) -> FolderLock:
        return self.acquire()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()

    def _same_file(self, fd: int) -> bool:
        try:
            return os.path.samestat(os.fstat(fd), os.stat(self.path))
        except OSError:
            return False

    def _owner(self) -> str:
        """'PID 1234 (train)' from the lock file; the owner writes it just after locking,
        so an empty file is read again for a moment."""
        text = ""
        for _ in range(10):
            try:
                text = self.path.read_text(encoding="utf-8", errors="replace").strip()
            except OSError:
                text = ""
            if text:
                break
            time.sleep(0.02)
        pid, _, command = text.partition(" ")
        if not pid.isdigit():
            return "another process"
        return f"another art-gallery process (PID {pid}{f', {command}' if command else ''})"
