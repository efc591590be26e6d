"""The stop signals of an ``eval`` command: the first one ends the games, later ones wait
for the files."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from art_gallery_env.processes import StopSignal, StopSignalHandler, write_stderr


class StopSignals(StopSignalHandler):
    """SIGINT and SIGTERM of an ``eval`` command (``with StopSignals() as signals``).

    Inside ``signals.raising()`` (the games) the first signal raises KeyboardInterrupt
    with the signal's name, which stops the match with the games finished so far. Every
    other signal -- the second of two quick Ctrl-Cs, or one while the results are being
    written -- is only noted: the finished games are written whole, and the partial
    results count exactly the game records written. (Before, a second Ctrl-C 50 ms after
    the first wrote nothing, and one 0.3 s after it left results.partial.json counting
    633 games beside 84 records.) ``kill -9`` still stops it at once, and the files
    written are whole (atomic). Outside the main thread this does nothing; a signal
    ignored at the start (a background job's SIGINT) stays ignored."""

    def __init__(self) -> None:
        self.received: list[str] = []
        self._raise = False
        self._noted = False

    @contextmanager
    def raising(self) -> Iterator[None]:
        """A block that the first stop signal ends with KeyboardInterrupt."""
        self._raise = True
        try:
            yield
        finally:
            self._raise = False

    def _handle(self, signum: int, frame: Any) -> None:
        name = signal.Signals(signum).name
        self.received.append(name)
        if self._raise:
            self._raise = False  # from now on a signal waits until the files are written
            raise StopSignal(name)
        if not self._noted:
            self._noted = True
            write_stderr(f"\n{name}: writing the finished games first (a moment)\n")
