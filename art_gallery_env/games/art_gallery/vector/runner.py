"""Runs a batched kernel on all cores: one contiguous chunk of games per thread.

The kernels release the GIL (``nogil``), so plain threads run them in parallel; small
batches run in the calling thread. numba's own ``prange`` was measured slower here: its
OpenMP workers spin while waiting, and on a shared 2-core machine a step of 10 games took
30 ms instead of 0.07 ms (docs/vector.md).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

MIN_GAMES_PER_THREAD = 512  # below this the hand-off to a thread costs more than it saves


def default_threads() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class Runner:
    """Runs a kernel over games 0..B-1, split over ``threads`` threads when B is large."""

    def __init__(self, num_envs: int, threads: int | None = None) -> None:
        threads = default_threads() if threads is None else threads
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads must be a positive int or None, got {threads!r}")
        self.threads = max(1, min(threads, num_envs // MIN_GAMES_PER_THREAD))
        self.bounds = [
            (num_envs * k // self.threads, num_envs * (k + 1) // self.threads)
            for k in range(self.threads)
        ]
        self._pool = ThreadPoolExecutor(self.threads - 1) if self.threads > 1 else None

    def __call__(self, kernel, *args) -> int:
        """Sum of the kernel's return values over the chunks."""
        if self._pool is None:
            lo, hi = self.bounds[0]
            return kernel(*args, lo, hi)
        futures = [self._pool.submit(kernel, *args, lo, hi) for lo, hi in self.bounds[1:]]
        lo, hi = self.bounds[0]
        total = kernel(*args, lo, hi)  # the calling thread takes the first chunk
        return total + sum(f.result() for f in futures)

    def close(self) -> None:
        """Stop the threads; later calls run every game in the calling thread."""
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None
        self.threads, self.bounds = 1, [(0, self.bounds[-1][1])]
