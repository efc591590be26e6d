"""Worker processes load numpy's BLAS with one thread (art_gallery_env.processes).

Self-play and evaluation workers each multiply small matrices; with BLAS's default
thread count they fought over the two cores and ran 3-7x slower. The variable must be in
the child's environment before it imports numpy, so the parent sets it around the start."""

from __future__ import annotations

import multiprocessing
import os

import pytest

from art_gallery_env.processes import THREAD_COUNT_VARIABLES, one_compute_thread_for_children


def _unset_thread_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unset the thread-count variables for one test, and have monkeypatch restore their
    absence afterwards: ``delenv`` of an unset variable records nothing, so a value the code
    under test set (``cli.main`` sets them) would leak into every later test."""
    for name in THREAD_COUNT_VARIABLES:
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)


def _report_environment(queue) -> None:
    queue.put({name: os.environ.get(name) for name in THREAD_COUNT_VARIABLES})


def _child_environment() -> dict[str, str | None]:
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=_report_environment, args=(queue,))
    process.start()
    seen = queue.get(timeout=60)
    process.join(timeout=60)
    return seen


def test_children_started_in_the_block_get_one_thread_and_the_parent_is_restored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _unset_thread_variables(monkeypatch)
    with one_compute_thread_for_children():
        seen = _child_environment()
    assert seen == {name: "1" for name in THREAD_COUNT_VARIABLES}
    assert all(name not in os.environ for name in THREAD_COUNT_VARIABLES)


def test_a_value_the_user_set_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")
    with one_compute_thread_for_children():
        seen = _child_environment()
    assert seen["OPENBLAS_NUM_THREADS"] == "2"
    assert os.environ["OPENBLAS_NUM_THREADS"] == "2"


def test_the_command_line_loads_blas_with_one_thread_unless_the_user_set_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from art_gallery_env import cli

    _unset_thread_variables(monkeypatch)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1" and os.environ["OMP_NUM_THREADS"] == "1"
    assert os.environ["MKL_NUM_THREADS"] == "3"


def test_a_variable_the_code_sets_during_a_test_is_gone_after_it() -> None:
    before = {name: os.environ.get(name) for name in THREAD_COUNT_VARIABLES}
    with pytest.MonkeyPatch.context() as monkeypatch:
        _unset_thread_variables(monkeypatch)
        os.environ["OPENBLAS_NUM_THREADS"] = "1"  # as cli.main does
    assert {name: os.environ.get(name) for name in THREAD_COUNT_VARIABLES} == before
