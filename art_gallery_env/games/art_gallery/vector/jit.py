"""The compile decorators of the compiled engine, and the one cache stamp of its kernel files.

numba's on-disk cache (``cache=True``) keys a function's cached machine code on the source
of the file the function is in, while a caller's machine code contains the callees it
inlines. With the kernels in several files (:data:`KERNEL_MODULES`), a heuristic kernel
cached in one file would keep running an edited rule kernel's old code from another. So
every function of those files is cached under one stamp, a hash of all of them: an edit to
any kernel file invalidates every kernel's cache at once, as when they were one file. The
stamp reaches numba through a cache locator (the class numba asks where a function's cache
lives and which source stamp it must match), put first in numba's list; it answers only for
the kernel files. Where numba lacks that hook (or ``NUMBA_CACHE_LOCATOR_CLASSES`` replaces
the list) the kernels compile without a disk cache rather than risk stale code.
"""

from __future__ import annotations

import functools
import hashlib
import os
from typing import Any

from numba import njit
from numba.core.options import DefaultOptions

KERNEL_MODULES = (
    "kernels_rules",
    "kernels_score",
    "kernels_batch",
    "kernels_heuristic",
    "kernels_choice",
    "kernels_search",
)
"""The files that hold compiled functions, in their import order (each imports only the
ones before it)."""
_HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL_FILES = tuple(os.path.join(_HERE, f"{name}.py") for name in KERNEL_MODULES)


def _key(path: str) -> str:
    return os.path.normcase(os.path.realpath(path))


@functools.lru_cache(maxsize=8)
def _hash_files(files: tuple[str, ...], stats: tuple[tuple[float, int], ...]) -> str:
    """sha256 over the files' names and contents (``stats`` only keys the memo, so a file
    edited while the process runs is read again)."""
    digest = hashlib.sha256()
    for path in files:
        digest.update(os.path.basename(path).encode() + b"\0")
        with open(path, "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()


def kernel_files_stamp(files: tuple[str, ...] = KERNEL_FILES) -> str:
    """The source stamp every kernel's cache is checked against: changes with any file."""
    stats = tuple((st.st_mtime, st.st_size) for st in map(os.stat, files))
    return _hash_files(files, stats)


def _stamped(base: type) -> type:
    """``base`` (one of numba's file-backed locators) answering for the kernel files only,
    with :func:`kernel_files_stamp` as their source stamp."""

    class KernelFilesLocator(base):  # type: ignore[misc, valid-type]
        files: tuple[str, ...] = KERNEL_FILES

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if _key(py_file) not in {_key(path) for path in cls.files}:
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self) -> str:
            return kernel_files_stamp(self.files)

    KernelFilesLocator.__name__ = f"KernelFiles{base.__name__.lstrip('_')}"
    return KernelFilesLocator


def _install_locators() -> bool:
    """Put the kernel files' locators first in numba's list (once); False if numba has no
    such list or the environment replaces it."""
    try:
        from numba.core import caching, config
    except ImportError:  # pragma: no cover - numba's layout changed
        return False
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    if not isinstance(classes, list) or getattr(config, "CACHE_LOCATOR_CLASSES", None):
        return False
    if any(getattr(c, "files", None) == KERNEL_FILES for c in classes):
        return True
    names = ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator")
    bases = [getattr(caching, n, None) or getattr(caching, f"_{n}", None) for n in names]
    if not all(bases):
        return False
    classes[:0] = [_stamped(base) for base in bases]
    return True


CACHE = _install_locators()
"""Whether the kernels are cached on disk (under the one stamp)."""

# Compiled functions called only from other compiled functions. Without reference
# counting (numba's `_nrt` option): they take the state as a tuple of ~27 arrays, and
# counting each array in and out of every call made a legality check 20x slower
# (200 ns instead of 10 ns per game). So they allocate nothing (callers pass scratch
# arrays) and only borrow the arrays of their callers, which outlive every call. No
# Python wrapper (compile time for nothing) and numpy's error model (no zero-division
# checks: nothing here divides by a variable that can be zero). Should a numba release
# drop `_nrt`, the same code runs with counting, slower.
_NO_REFCOUNT = {"_nrt": False} if hasattr(DefaultOptions, "_nrt") else {}
kernel = njit(
    cache=CACHE, no_cpython_wrapper=True, error_model="numpy", forceinline=True, **_NO_REFCOUNT
)
tiny_kernel = njit(cache=CACHE, inline="always", **_NO_REFCOUNT)
entry = njit(cache=CACHE, nogil=True)
"""The batched entry points, called from Python (they release the GIL)."""
