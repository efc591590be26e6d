"""Fixtures of the web tests: an app on a temporary data folder, a live uvicorn server in
a thread, and Playwright's browser launched from the system Chromium."""

from __future__ import annotations

import os
import shutil
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from art_gallery_env.web.app import create_app  # noqa: E402
from art_gallery_env.web.server import allowed_hosts  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.append(str(ROOT / "tests"))  # the no-leak test reuses tests/test_no_leak.py's worlds
CHECKPOINTS = ROOT / "checkpoints"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Flags for Chromium on a closed network (no background connections to Google's hosts)
# and as root in a container (no sandbox).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "data", checkpoints=CHECKPOINTS))


class LiveServer:
    """uvicorn serving ``create_app(data)`` on a free loopback port, in a thread."""

    def __init__(self, data: Path, records: Path | None = None) -> None:
        import uvicorn

        self.data = data
        self.app = create_app(
            data, checkpoints=CHECKPOINTS, records=records, allowed_hosts=allowed_hosts("127.0.0.1")
        )
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        config = uvicorn.Config(self.app, log_level="warning", access_log=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


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
    if not os.path.exists(CHROMIUM):
        message = "Chromium is not installed (apt-get install -y chromium)"
        if os.environ.get("CI"):
            pytest.fail(message + "; CI must run the browser tests")
        pytest.skip(message)
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}
