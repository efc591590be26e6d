"""Fixtures of the web tests: an app on a temporary data folder, a live uvicorn server in
a thread, and Playwright's browser launched from the system Chromium."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from art_gallery_env.web.app import create_app  # noqa: E402
from art_gallery_env.web.browser import CHROMIUM_ARGS, chromium_executable  # noqa: E402
from art_gallery_env.web.server import BackgroundServer, allowed_hosts  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.append(str(ROOT / "tests"))  # the no-leak test reuses tests/test_no_leak.py's worlds
CHECKPOINTS = ROOT / "checkpoints"


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "data", checkpoints=CHECKPOINTS))


class LiveServer(BackgroundServer):
    """The app on a data folder (and a records folder), served on a free loopback port."""

    def __init__(self, data: Path, records: Path | None = None) -> None:
        self.data = data
        hosts = allowed_hosts("127.0.0.1")
        super().__init__(
            create_app(data, checkpoints=CHECKPOINTS, records=records, allowed_hosts=hosts)
        )


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    records = tmp_path / "records"
    records.mkdir()
    shutil.copy(ROOT / "tests" / "legacy" / "record_3p.json", records / "legacy_3p.json")
    with LiveServer(tmp_path / "data", records) as server:
        yield server


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright launches the system Chromium (Playwright's own browser download
    does not work on these machines). Without it the browser tests skip, except in CI
    (the CI variable set, as .ci/run does), where .ci/run installs it and they must run."""
    chromium = chromium_executable()
    if chromium is None:
        message = "Chromium is not installed (apt-get install -y chromium)"
        if os.environ.get("CI"):
            pytest.fail(message + "; CI must run the browser tests")
        pytest.skip(message)
    return {**browser_type_launch_args, "executable_path": chromium, "args": list(CHROMIUM_ARGS)}
