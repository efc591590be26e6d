"""The locust load test (benchmarks/web_load.py --locust, its players in
benchmarks/web_locust.py) runs briefly: a server process, two locust players for a few
seconds, its table printed with no failed request."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

# never import locust here: its import monkey-patches the process with gevent, which breaks
# pytest-xdist's workers; the load test runs it in a process of its own
if importlib.util.find_spec("locust") is None:
    pytest.skip("the load test needs locust (the dev extra)", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| 2 \| ([\d.]+) \| \d+ \| \d+ \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|", re.M)


@pytest.mark.slow  # a server process and a locust process
def test_the_locust_load_test_runs_briefly_without_failures(tmp_path: Path) -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "web_load.py"), "--locust", "2"]
    command += ["--seconds", "6", "--data", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    row = ROW.search(done.stdout)
    assert row is not None, done.stdout
    requests_per_s, _, _, moves, failures = (float(x) for x in row.groups())
    assert requests_per_s > 0 and moves > 0 and failures == 0
    assert (tmp_path / "data-2" / "games").is_dir()  # the run's own server folder
