"""``art-gallery serve``: play and replay games in the browser."""

from __future__ import annotations

import argparse

from . import options

HELP = "play and replay games in the browser (a local web server)"
DESCRIPTION = (
    "Serve the web app: set up a game against agents or checkpoints, play it by "
    "clicking, replay any game record with the agents' insight. Games are saved "
    "in --data after every decision and survive a restart."
)


def add(sub: argparse._SubParsersAction) -> None:
    serve = options.subcommand(sub, "serve", run, HELP, DESCRIPTION)
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument(
        "--data", default="web-games", metavar="DIR", help="games folder (default web-games)"
    )
    serve.add_argument(
        "--checkpoints",
        metavar="DIR",
        help="offer the checkpoints in DIR as opponents (default: ./checkpoints if present)",
    )
    serve.add_argument(
        "--records", metavar="DIR", help="offer the game records in DIR (eval --save-games)"
    )
    serve.add_argument("--access-log", action="store_true", help="log every request")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from art_gallery_env.web.server import serve

    checkpoints = args.checkpoints
    if checkpoints is None and Path("checkpoints").is_dir():
        checkpoints = "checkpoints"
    return serve(
        host=args.host,
        port=args.port,
        data=args.data,
        checkpoints=checkpoints,
        records=args.records,
        access_log=args.access_log,
    )
