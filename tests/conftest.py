"""Test-wide setup: tests import the project the way an installed user does.

``python -m pytest`` puts the repository root on ``sys.path``, where the folders
``agents/``, ``arena/`` and ``training/`` would import as top-level packages (a second
copy of ``art_gallery_env.agents`` and friends). The installed project has no such
names, so the root is taken off the path before any test module is imported.

A shell starts a background job (``pytest ... &``) with SIGINT ignored, and a process
keeps an ignored signal (the tools respect that, as Python does). The Ctrl-C tests need
SIGINT to arrive, in this process and in the commands they start, so the session takes
Python's own handler back.
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if p and Path(p).resolve() != ROOT]

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session", autouse=True)
def _compiled_engine_warmed_once_for_all_workers():
    """Under pytest-xdist, the workers share the compiled engine's first compile
    (tests/numba_warmup.py): each compiles a different kernel group first."""
    import os

    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        from numba_warmup import warm_up

        warm_up(os.environ.get("PYTEST_XDIST_WORKER", "gw0"), workers)
    yield
