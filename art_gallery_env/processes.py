"""Worker processes that stop with their parent and leave Ctrl-C to it.

A terminal sends Ctrl-C (SIGINT) to every process of the foreground group, and a job
scheduler often sends SIGTERM to all of them: workers that die on it leave their parent
with broken pipes (and print tracebacks), workers that outlive a killed parent hold on to
memory forever. So a worker of the tools ignores both signals, and the parent, which
decides what to save, takes its workers down itself (:func:`kill_processes`). A worker
also exits on its own when its parent disappears (``kill -9``), see :func:`exit_with_parent`.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopSignal(KeyboardInterrupt):
    """The KeyboardInterrupt that the tools' handlers raise for SIGINT or SIGTERM (its
    argument is the signal's name); ``except KeyboardInterrupt`` catches it.

    A subclass on purpose: CPython (3.8 on; seen on 3.11) remembers a plain
    KeyboardInterrupt that leaves code run by ``exec``/``eval`` of a string (dataclasses
    and namedtuples build methods that way while a module imports) and, under ``python
    -m``, kills the process with SIGINT at exit even when the exception was caught,
    replacing the command's own exit status (``train`` stopped and saved, then died by
    SIGINT instead of returning 130). It checks the exact class, so this one is never
    remembered."""

    def __init__(self, signal_: int | str) -> None:
        super().__init__(signal_ if isinstance(signal_, str) else signal.Signals(signal_).name)


class StopSignalHandler:
    """Base of a command's SIGINT/SIGTERM handling (``with Handler() as h``): ``__enter__``
    routes both signals to ``self._handle`` and ``__exit__`` restores the previous
    handlers. A signal the process ignores stays ignored (SIGINT of a background job, as
    Python does), and outside the main thread, where signals cannot be handled, nothing is
    installed."""

    def __enter__(self) -> Any:
        self._previous: dict[int, Any] = {}
        if threading.current_thread() is threading.main_thread():
            for signum in STOP_SIGNALS:
                if signal.getsignal(signum) is signal.SIG_IGN:
                    continue
                self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous.clear()

    def _handle(self, signum: int, frame: Any) -> None:
        raise NotImplementedError


def ignore_stop_signals() -> None:
    """In a worker: leave SIGINT and SIGTERM to the parent (and drop any that arrived
    while :func:`spawning_quietly` kept them blocked)."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


@contextmanager
def spawning_quietly() -> Iterator[None]:
    """Start worker processes inside this block: the stop signals are blocked meanwhile,
    and a new process inherits the blocked mask, so a Ctrl-C that comes while it is still
    importing cannot give it a KeyboardInterrupt traceback before it calls
    :func:`ignore_stop_signals`. Here a signal only waits, and is handled after the block."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    # The first spawn starts multiprocessing's resource tracker, and starting it ends with
    # SIG_UNBLOCK of SIGINT and SIGTERM: every worker started after it in this block began
    # with the signals unblocked, and an early Ctrl-C printed their KeyboardInterrupt
    # tracebacks from the middle of their imports. Started first, it changes no mask.
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def exit_with_parent(poll_s: float = 0.5) -> None:
    """In a worker: exit within ``poll_s`` seconds of the parent's death (it is then
    re-parented, so ``getppid`` changes). A daemon thread; POSIX only."""
    if sys.platform == "win32":
        return
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(poll_s)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


THREAD_COUNT_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


def one_compute_thread_by_default() -> None:
    """This process loads numpy's BLAS with one thread unless the user set a count: the
    command line's searches and policies multiply small batches, where BLAS threads only
    fight over the cores (a batch of 8 observations took 35 ms instead of 1.4 ms on a
    loaded 2-core machine). Call it before numpy is imported; a library user's process is
    left alone (only ``art-gallery`` calls it)."""
    for name in THREAD_COUNT_VARIABLES:
        os.environ.setdefault(name, "1")


@contextmanager
def one_compute_thread_for_children() -> Iterator[None]:
    """Processes started inside this block (with the ``spawn`` start method, which copies
    the environment at each start) load numpy's BLAS with one thread. Each self-play worker
    multiplies small matrices for its snapshot opponents; with the default thread count,
    every worker's BLAS threads fight over the same cores and the workers ran 3-7x slower
    on a 2-core machine. A value the user set is kept. The variables must be set before the
    child imports numpy, hence here and not in the worker, which has imported it already."""
    saved = {name: os.environ.get(name) for name in THREAD_COUNT_VARIABLES}
    for name in THREAD_COUNT_VARIABLES:
        os.environ.setdefault(name, "1")
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class QuietWorker:
    """Wraps a factory run in a worker process (e.g. a SubprocVecEnv env) so that the
    worker ignores the stop signals before it builds anything. Picklable."""

    def __init__(self, factory: Callable[[], Any]) -> None:
        self.factory = factory

    def __call__(self) -> Any:
        ignore_stop_signals()
        return self.factory()


def kill_processes(processes: Iterable[Any]) -> None:
    """SIGKILL each ``multiprocessing.Process`` still running and reap it."""
    processes = [p for p in processes if p.is_alive()]
    for process in processes:
        process.kill()
    for process in processes:
        process.join(timeout=5)


def write_stderr(text: str) -> None:
    """Write from a signal handler: unbuffered, so it cannot collide with a print the
    handler interrupted (a buffered write there raises 'reentrant call')."""
    with suppress(OSError, ValueError):
        os.write(sys.stderr.fileno(), text.encode("utf-8", "replace"))


@contextmanager
def stop_signals_deferred(redeliver: bool = False) -> Iterator[None]:
    """Within the block SIGINT and SIGTERM only wait; after it the first one raises
    :class:`StopSignal`, or with ``redeliver`` is raised again for the handlers in place
    before the block (a run's GracefulStop). For imports: a
    KeyboardInterrupt raised inside a C extension's module init can be swallowed or turn
    into an ImportError (a Ctrl-C one second into ``train`` was ignored, or reported the
    [train] extra missing). For starting workers: a KeyboardInterrupt inside
    SubprocVecEnv's constructor left its workers unclosed (their ConnectionResetError
    tracebacks); blocking the signals in this thread does not stop them, as the kernel
    then hands a process-wide signal to another thread (torch's, numba's).
    Main thread only; a signal ignored at the start stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    previous = {}
    for signum in STOP_SIGNALS:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            previous[signum] = signal.signal(signum, lambda got, frame: received.append(got))
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if received and redeliver:
        signal.raise_signal(received[0])
    elif received:
        raise StopSignal(received[0])


@contextmanager
def ctrl_c_raises_stop_signal() -> Iterator[None]:
    """Within the block SIGINT raises :class:`StopSignal` where Python's default handler
    raises a plain KeyboardInterrupt (see there why). For a command's whole run; handlers
    that commands install inside it take over as usual. Main thread only; a SIGINT that
    is ignored or handled otherwise at the start stays so."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        _raised.append(signum)
        raise StopSignal(signum)

    _raised.clear()
    signal.signal(signal.SIGINT, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _raised.clear()


_raised: list[int] = []  # the signals ctrl_c_raises_stop_signal's handler raised, in its block


def raise_a_swallowed_stop() -> None:
    """Raise :class:`StopSignal` again if a SIGINT already raised one in this process.

    For the code that turns any exception into a message (a bad agent spec): a StopSignal
    raised inside a C callback is printed and dropped there (numba's compiler calls back
    into Python through ctypes), and the callback's caller fails with an error of its own
    ("no compiled object yet"), which a Ctrl-C during an agent's first compile turned into
    "bad agent spec" and exit status 2."""
    if _raised:
        raise StopSignal(_raised[-1])
