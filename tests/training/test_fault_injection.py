"""kill -9 a training run at random moments (3 times, as benchmarks/fault_injection.py
does 25 times): every checkpoint stays whole and true to its metadata, the logs stay
readable, and --resume continues from exactly the steps latest holds."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")
pytestmark = [
    pytest.mark.slow,  # three training starts and kills, then a resume: about a minute
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups and SIGKILL"),
]

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "fault_injection.py"


def _benchmark():
    spec = importlib.util.spec_from_file_location("fault_injection", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_kill_9_at_random_moments_never_breaks_a_checkpoint(tmp_path: Path) -> None:
    bench = _benchmark()
    lines: list[str] = []
    # check_run inside run_kills raises on the first broken file, log or resume.
    rows = bench.run_kills(3, seed=3, workdir=tmp_path, hidden=512, log=lines.append)
    assert len(rows) == 3
    assert [r.resume_ok for r in rows if r.resume_ok is not None], "some resume was checked"
    assert all(r.resume_ok is not False for r in rows), lines
    assert rows[-1].latest is not None and rows[-1].latest >= 256, lines
