"""The system Chromium for the browser tests and the documentation screenshot.

Playwright drives Debian's ``chromium`` (``apt-get install -y chromium``) through
``executable_path``: its own browser download does not work on machines without access to
its CDN. The flags keep Chromium from reaching out to Google's hosts (refused on a closed
network) and let it run as root in a container.
"""

from __future__ import annotations

import shutil

CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def chromium_executable() -> str | None:
    """The system Chromium's path, or None if it is not installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")
