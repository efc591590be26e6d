"""Shared by the stop-signal tests: the command line started as a terminal starts it (in
its own process group, which a Ctrl-C signals as a whole), never left running after a
test, and the workers it spawns."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CLI = (sys.executable, "-m", "art_gallery_env.cli")


def start_cli(*args: str) -> subprocess.Popen:
    """``art-gallery ARGS`` in its own process group, its output piped as text."""
    return subprocess.Popen(
        [*CLI, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


@contextmanager
def killed_after(proc: subprocess.Popen) -> Iterator[subprocess.Popen]:
    """The block runs; then the process group is killed if the command still runs."""
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def spawn_workers(pid: int) -> list[int]:
    """The process IDs of ``pid``'s multiprocessing spawn workers (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == pid and b"spawn_main" in cmdline:
                found.append(int(entry.name))
    return found
