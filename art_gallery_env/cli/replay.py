"""``art-gallery replay``: step through a saved game record."""

from __future__ import annotations

import argparse

from . import options

HELP = "step through a saved game record"
DESCRIPTION = (
    "Replay a game record: every decision, the board at each round end (or every "
    "step with --step), the final breakdown, and whether the replayed scores match "
    "the stored ones (exit status 1 if not, 2 for a bad or incomplete record)."
)


def add(sub: argparse._SubParsersAction) -> None:
    replay = options.subcommand(sub, "replay", run, HELP, DESCRIPTION)
    replay.add_argument(
        "file", metavar="FILE", help="a record (JSON) from eval --save-games or play --record"
    )
    options.add_game(replay, recorded=True)
    replay.add_argument(
        "--step",
        action="store_true",
        help="show the board after every decision and wait for Enter (on a terminal)",
    )
    replay.add_argument(
        "--viewer",
        type=options.viewer,
        default=None,
        metavar="N|all",
        help="show what seat N could see (hidden actions masked), or all (default)",
    )


def run(args: argparse.Namespace) -> int:
    from art_gallery_env.arena.replay import run_replay

    return run_replay(args.file, step=args.step, viewer=args.viewer, game=args.game)
