"""``art-gallery play``: one game in the terminal against agents."""

from __future__ import annotations

import argparse

from . import options

HELP = "play against agents in the terminal"
DESCRIPTION = (
    "Play one game in the terminal against registry agents. Give a choice by its "
    "number or name; 'save PATH' at any prompt saves the game, 'quit' leaves."
)


def add(sub: argparse._SubParsersAction) -> None:
    play = options.subcommand(sub, "play", run, HELP, DESCRIPTION)
    options.add_game(play, resumed=True)
    options.add_players(play, default=None)
    play.add_argument("--seat", type=int, default=None, help="your seat 0..players-1 (default 0)")
    play.add_argument(
        "--opponents",
        default=None,
        metavar="SPECS",
        help="comma-separated agent specs, one per other seat, or one for all (default random)",
    )
    options.add_seed(play, None, "game seed (default: random)")
    play.add_argument("--resume", metavar="FILE", help="continue a game saved with 'save PATH'")
    play.add_argument(
        "--save",
        metavar="FILE",
        help="file for 'save' without a path; the game is also saved there on 'quit' and Ctrl-C",
    )
    play.add_argument("--record", metavar="FILE", help="write the game record when it ends")


def run(args: argparse.Namespace) -> int:
    from art_gallery_env.arena.terminal import PlaySetupError, run_play

    if args.resume and (args.players is not None or args.seat is not None):
        print("note: --players and --seat come from the saved game when resuming")
    try:
        return run_play(
            players=args.players,
            seat=args.seat,
            opponents=args.opponents,
            seed=args.seed,
            variants=options.variants(args),
            resume=args.resume,
            save=args.save,
            record=args.record,
            game_name=args.game,
        )
    except PlaySetupError as err:
        args.parser.error(str(err))
    return 2  # not reached: parser.error exits
