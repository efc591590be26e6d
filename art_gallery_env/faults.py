"""Faults of the machine as one line that says where and what to do.

A full disk, a read-only mount, a folder without write permission or a file that is not
UTF-8 are not bugs of the tools: a traceback (``OSError: [Errno 28] No space left on
device``, naming no file) leaves the user guessing which of the paths was meant and
whether anything was lost. The command line turns them into ``error: PATH: what happened;
what to do`` and exit status 1. Every file the tools write is written atomically
(:mod:`art_gallery_env.files`), so the files written before the fault are whole.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

_ADVICE = {
    errno.ENOSPC: "the disk is full: free some space (or write somewhere else) and run the "
    "command again",
    errno.EDQUOT: "the disk quota is used up: free some space (or write somewhere else) and "
    "run the command again",
    errno.EROFS: "the file system is read-only: give a folder on a writable disk",
    errno.EACCES: "permission denied: make it writable (and readable) for this user, or give "
    "another folder",
    errno.EPERM: "operation not permitted: check the folder's owner and permissions, or give "
    "another folder",
    errno.EISDIR: "a folder is where a file was expected: give a file",
    errno.ENOTDIR: "a file is where a folder was expected: give a folder",
    errno.ENOENT: "no such file or folder: check the path",
    errno.ENAMETOOLONG: "the path is too long: give a shorter one",
    errno.EMFILE: "too many open files: raise the limit (ulimit -n) or use fewer workers",
}


def os_error_message(err: OSError, where: str | os.PathLike[str] | None = None) -> str:
    """``PATH: strerror (ENAME); advice``; ``where`` stands in when the error names no
    file (a write to a full disk names none)."""
    path = err.filename if err.filename is not None else where
    name = errno.errorcode.get(err.errno or 0, "")
    what = err.strerror or str(err)
    advice = _ADVICE.get(err.errno or 0)
    head = f"{os.fsdecode(path)}: " if path is not None else ""
    if path is None and where is None:
        head = "writing or reading a file: "
    text = f"{head}{what}" + (f" ({name})" if name else "")
    return text + (f"; {advice}" if advice else "")


def unicode_error_message(err: UnicodeError, path: str | os.PathLike[str] | None = None) -> str:
    """A file that is not UTF-8 text (a record, a log, a config), named when known."""
    where = f"{Path(path)}: " if path is not None else ""
    reason = getattr(err, "reason", str(err))
    start = getattr(err, "start", None)
    at = f" at byte {start}" if isinstance(start, int) else ""
    return (
        f"{where}not UTF-8 text ({reason}{at}); the file is damaged or of another kind: "
        f"give the file the tool wrote, or restore it"
    )
