"""The compiled engine's kernels sit in several files but share one disk-cache stamp: an edit
to any kernel file must invalidate every kernel's cached machine code (a caller's code holds
the callees it inlines), as when they were one file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("numba")

from art_gallery_env.games.art_gallery.vector import jit, kernels  # noqa: E402

VECTOR = Path(jit.__file__).parent


def test_every_file_with_compiled_functions_is_a_kernel_file() -> None:
    compiled = {
        path.stem
        for path in VECTOR.glob("*.py")
        if re.search(r"^@(kernel|tiny_kernel|entry|njit)\b", path.read_text(), re.M)
    }
    assert compiled == set(jit.KERNEL_MODULES)


def test_the_kernels_are_cached_under_the_one_stamp() -> None:
    assert jit.CACHE
    for fn in (kernels.heuristic_actions, kernels.legal_row, kernels.ismcts_iterations):
        locator = fn._cache._impl.locator
        assert type(locator).__name__.startswith("KernelFiles")
        assert locator.get_source_stamp() == jit.kernel_files_stamp()


def test_an_edit_to_any_file_changes_the_stamp(tmp_path: Path) -> None:
    files = []
    for name in ("kernels_a.py", "kernels_b.py"):
        files.append(tmp_path / name)
        files[-1].write_text("x = 1\n")
    paths = tuple(str(p) for p in files)
    before = jit.kernel_files_stamp(paths)
    assert jit.kernel_files_stamp(paths) == before  # stable while nothing changes
    files[1].write_text("x = 22\n")  # the callee's file, not the caller's
    assert jit.kernel_files_stamp(paths) != before


def test_other_files_keep_numba_s_own_locators(tmp_path: Path) -> None:
    from numba.core import caching

    base = getattr(caching, "InTreeCacheLocator", None) or caching._InTreeCacheLocator
    locator = jit._stamped(base)

    def elsewhere() -> None:
        pass

    assert locator.from_function(elsewhere, __file__) is None
    found = locator.from_function(kernels.kernels_rules.deal.py_func, jit.KERNEL_FILES[0])
    assert found is not None and found.get_source_stamp() == jit.kernel_files_stamp()
