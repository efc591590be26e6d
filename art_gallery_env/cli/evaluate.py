"""``art-gallery eval``: the Python evaluation API on the command line.

This module parses the options and prints: the match or solo evaluation itself is built
by :func:`art_gallery_env.arena.evaluate.evaluation_config` and played by
:func:`~art_gallery_env.arena.evaluate.run_evaluation`, the two halves of ``evaluate``,
so the command and the API give the same table for the same arguments.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from . import options

DESCRIPTION = (
    "Play seeded, seat-rotated games between registry agents in parallel processes and "
    "print per agent: win share with a 95% Wilson interval (shared wins count 1/k), mean "
    "score with a 95% interval, the mean of each of the game's score parts, an OpenSkill "
    "Plackett-Luce rating and the mean decision time. Fewer agents than seats are cycled to "
    "fill the table. A folder of checkpoints (a run folder: its pool/ snapshots and "
    "best/latest) stands for every checkpoint in it, and all agents are rated in one round "
    "robin (tables of --players drawn from them; fixed agents such as heuristic serve as "
    "anchors). --players 1 (for a game with a solo mode) plays each "
    "agent alone on the same seeds and prints its score and the share of games at or above "
    "each goal level. Results are identical for any --workers."
)


def add(sub: argparse._SubParsersAction) -> None:
    from art_gallery_env.arena.evaluate import default_workers

    ev = options.subcommand(
        sub, "eval", run, "seat-rotated matches or solo games: win share, scores, ratings, "
        "goal levels", DESCRIPTION,
    )  # fmt: skip
    options.add_game(ev)
    options.add_players(ev, default=2, solo="each agent plays the game's solo mode alone")
    ev.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="SPEC",
        help="agent specs, e.g. random heuristic ismcts:iters=400, a checkpoint path, or "
        "a folder of checkpoints (at most --players specs unless --round-robin or a folder)",
    )
    ev.add_argument(
        "--round-robin",
        action="store_true",
        help="allow more agents than seats: each block of --players games seats one subset",
    )
    ev.add_argument("--games", type=options.games, default=100, help="games (default 100)")
    options.add_seed(ev, 0, "master seed (default 0)")
    ev.add_argument(
        "--workers",
        type=options.workers,
        default=default_workers(),
        help=f"worker processes (default {default_workers()})",
    )
    ev.add_argument("--out", metavar="DIR", help="write results.json, results.csv, games.csv")
    ev.add_argument("--save-games", metavar="DIR", help="write one game record per game")
    ev.add_argument(
        "--insight",
        action="store_true",
        help="with --save-games: store what each checkpoint or search seat saw at every "
        "decision (top actions and probabilities, value estimate, visit counts)",
    )
    options.add_no_progress(ev)


def evaluation_config(args: argparse.Namespace) -> Any:
    """The API's config for the command line's options (a bad one exits with its line)."""
    from art_gallery_env.arena.evaluate import MatchError, evaluation_config

    try:
        return evaluation_config(
            args.agents, game=args.game, players=args.players, games=args.games,
            seed=args.seed, variants=options.variants(args), workers=args.workers,
            round_robin=args.round_robin, insight=args.insight,
        )  # fmt: skip
    except MatchError as err:
        args.parser.error(str(err))


def run(args: argparse.Namespace) -> int:
    from art_gallery_env.arena.evaluate import MatchInterrupted, StopSignals, run_evaluation
    from art_gallery_env.files import writable_dir_problem

    parser = args.parser
    if args.insight and not args.save_games:
        parser.error("--insight is stored in the game records: give --save-games DIR too")
    config = evaluation_config(args)
    for option, folder in (("--out", args.out), ("--save-games", args.save_games)):
        problem = folder and writable_dir_problem(folder)
        if problem:  # found now, not after every game has been played
            parser.error(f"{option} {folder}: {problem}")
    progress = False if args.no_progress else None
    with _folders_locked(args), StopSignals() as signals:
        try:
            with signals.raising():  # SIGTERM stops the workers and saves, as Ctrl-C does
                result = run_evaluation(config, progress=progress)
        except MatchInterrupted as stop:
            return _report_partial(args, stop)
        _write(args, result)  # a signal now waits for the files
    return 0


def _folders_locked(args: argparse.Namespace) -> Any:
    """One eval at a time writes into an --out (or --save-games) folder."""
    from contextlib import ExitStack
    from pathlib import Path

    from art_gallery_env.folder_lock import FolderLock

    stack = ExitStack()
    seen = set()
    for option, folder in (("--out", args.out), ("--save-games", args.save_games)):
        if folder and Path(folder).resolve() not in seen:
            seen.add(Path(folder).resolve())
            advice = f"wait for that eval to finish, or give another {option}"
            stack.enter_context(FolderLock(folder, "eval", advice))
    return stack


def _write(args: argparse.Namespace, result: Any) -> None:
    """The result's table (``result.table()``, as the API gives it) and its files."""
    sys.stdout.write(result.table())
    if args.save_games:  # first: the results never count a record that is not written
        paths = result.save_games(args.save_games)
        print(f"wrote {len(paths)} game records to {args.save_games}")
    if args.out:
        paths = result.write(args.out)
        print("wrote " + ", ".join(str(p) for p in paths))


def _report_partial(args: argparse.Namespace, stop: Any) -> int:
    """The games finished before Ctrl-C: their table and files, marked partial."""
    import signal

    result = stop.result
    played, planned = len(result.games), result.planned
    print()
    print(f"{stop.signal_name}: interrupted after {played} of {planned} games.")
    if played:
        _write(args, result)
        print(f"These results are partial ({played} of {planned} games).")
    else:
        print("No game had finished; nothing written.")
    return 128 + signal.Signals[stop.signal_name].value
