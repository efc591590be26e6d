"""``art-gallery serve``: run the web app with uvicorn, on 127.0.0.1 unless told otherwise.

One process: the games live in its memory (and on disk after every decision), so the app
is never run with several uvicorn workers.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

LOOPBACK_NAMES = ["127.0.0.1", "localhost"]


def allowed_hosts(host: str) -> list[str] | None:
    """Host headers to accept: the loopback names when bound to loopback (a page of
    another site cannot reach the server by DNS rebinding), any otherwise."""
    if host == "localhost":
        return LOOPBACK_NAMES
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        return None
    if not loopback:
        return None
    return LOOPBACK_NAMES if host in LOOPBACK_NAMES else [*LOOPBACK_NAMES, host]


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    data: str | Path = "web-games",
    checkpoints: str | Path | None = None,
    records: str | Path | None = None,
    access_log: bool = False,
    limits: Any = None,
) -> int:
    """Serve until stopped; ``limits``: a :class:`~.limits.Limits` (None: its defaults),
    the server's bounds on games, uploads and request bodies."""
    try:
        import uvicorn  # noqa: F401 - the extra is checked here, used in _serve_locked

        from .app import create_app
    except ImportError as err:
        print(
            f"error: art-gallery serve needs the [web] extra ({err.name} is not installed): "
            "pip install 'art-gallery-env[web]'",
            file=sys.stderr,
        )
        return 2
    from art_gallery_env.folder_lock import FolderLock

    advice = "one server per games folder: stop that one, or give another --data"
    with FolderLock(data, "serve", advice):  # held while serving
        return _serve_locked(host, port, data, checkpoints, records, access_log, create_app, limits)


def _serve_locked(
    host: str,
    port: int,
    data: str | Path,
    checkpoints: str | Path | None,
    records: str | Path | None,
    access_log: bool,
    create_app: Any,
    limits: Any = None,
) -> int:
    import uvicorn

    app = create_app(
        data,
        checkpoints=checkpoints,
        records=records,
        allowed_hosts=allowed_hosts(host),
        limits=limits,
    )
    store = app.state.store
    print(f"Art Gallery on http://{'127.0.0.1' if host == '0.0.0.0' else host}:{port}/")
    held = store.held()
    print(
        f"games folder: {store.folder} ({len(store.games())} games loaded, "
        f"{held['stored'] - len(store.games())} in archive/)"
    )
    shown = ", ".join(f"{k}={v:g}" for k, v in store.limits.as_dict().items())
    print(f"limits: {shown}")
    for problem in store.skipped:
        print(f"  skipped {problem}")
    if allowed_hosts(host) is None:
        print(
            f"warning: bound to {host}: anyone who can reach this machine can play and "
            "read the games",
            file=sys.stderr,
        )
    uvicorn.run(app, host=host, port=port, access_log=access_log, log_level="warning")
    return 0


class BackgroundServer:
    """uvicorn serving an app on a free loopback port in a thread, as a context manager
    (the browser tests, the documentation screenshot, a notebook)::

        with BackgroundServer(create_app("games")) as server:
            print(server.url)
    """

    def __init__(self, app: Any, host: str = "127.0.0.1") -> None:
        import uvicorn  # noqa: F401 - the extra is checked here, used in _serve_locked

        self.app = app
        self.sock = socket.socket()
        self.sock.bind((host, 0))
        self.url = f"http://{host}:{self.sock.getsockname()[1]}"
        config = uvicorn.Config(app, log_level="warning", access_log=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def __enter__(self) -> BackgroundServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                self.sock.close()
                raise RuntimeError("the web server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()
