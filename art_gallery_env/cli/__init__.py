"""The ``art-gallery`` command line: one module per subcommand.

Each subcommand's module gives ``add(sub)``, which builds its parser from the shared
options (:mod:`.options`), and ``run(args)``; :data:`COMMANDS` lists them in the order
``--help`` shows. A new subcommand is one such module added there. ``--import MODULE``
(before the subcommand, repeatable) imports a module first, such as a game's spec module
that registers it.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from . import demo, evaluate, exploit, export, play, plot, replay, serve, train
from .extras import missing_extra_message

COMMANDS = (demo, evaluate, play, replay, train, exploit, serve, export, plot)

EPILOG = (
    "examples:\n"
    "  art-gallery eval --players 4 --agents random heuristic ismcts --games 400\n"
    "  art-gallery play --players 3 --opponents heuristic,ismcts\n"
    "  art-gallery replay games/game_0000.json --viewer all\n"
    "  art-gallery eval --game NAME --variant KEY=VALUE --agents heuristic random\n"
    "  art-gallery --import my_game.spec eval --game my_game --agents random\n"
    "  art-gallery serve --records games/\n"
    "Run 'art-gallery COMMAND --help' for a command's options."
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="art-gallery",
        description="Board games as PettingZoo environments: agents, evaluation, play, "
        "training and the web app.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--import",
        dest="imports",
        action="append",
        default=[],
        metavar="MODULE",
        help="import MODULE before the command (repeatable), e.g. a game's spec module that "
        "registers it; the module must be on PYTHONPATH",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add(sub)
    return parser


def imports_of(argv: list[str]) -> list[str]:
    """The ``--import MODULE`` options before the subcommand (they run before the parser
    is built: the parser lists the games, and an imported module may register one)."""
    found, i = [], 0
    while i < len(argv) and argv[i].startswith("-"):
        if argv[i] == "--import" and i + 1 < len(argv):
            found.append(argv[i + 1])
            i += 2
            continue
        if argv[i].startswith("--import="):
            found.append(argv[i].partition("=")[2])
        i += 1
    return found


def import_modules(modules: list[str]) -> str | None:
    """Import each module; the first that fails is one line saying why (None: all did)."""
    for module in modules:
        try:
            importlib.import_module(module)
        except Exception as err:  # noqa: BLE001 - any error of the user's module is theirs
            hint = " (is its folder on PYTHONPATH?)" if isinstance(err, ModuleNotFoundError) else ""
            return f"error: --import {module}: {type(err).__name__}: {err}{hint}"
    return None


def _output_of(args: argparse.Namespace | None) -> str | None:
    """The folder or file a command writes: named by a fault whose error names none."""
    for key in ("output_folder", "run_dir", "resume", "out", "save_games", "data", "save"):
        if getattr(args, key, None):
            return str(getattr(args, key))
    return None


def _saved(args: argparse.Namespace | None) -> str:
    """After a fault in training: what is safe on disk, and how to continue."""
    import json
    from pathlib import Path

    folder = (
        getattr(args, "output_folder", None) if getattr(args, "func", None) is train.run else None
    )
    latest = Path(folder) / "latest.json" if folder else None
    try:
        steps = json.loads(latest.read_text(encoding="utf-8"))["steps"] if latest else None
    except (OSError, ValueError, KeyError, TypeError):
        return ""
    if not isinstance(steps, int):
        return ""
    return (
        f"; the checkpoints in {folder} are whole (latest: step {steps:,}): continue with "
        f"--resume {folder}"
    )


def _command_of(argv: list[str]) -> str | None:
    """The subcommand named on the command line (for a message before it is parsed)."""
    names = {command.__name__.rpartition(".")[2] for command in COMMANDS} | {"eval"}
    return next((word for word in argv if word in names), None)


def main(argv: list[str] | None = None) -> int:
    from art_gallery_env.faults import os_error_message, unicode_error_message
    from art_gallery_env.folder_lock import FolderBusyError
    from art_gallery_env.processes import (
        ctrl_c_raises_stop_signal,
        one_compute_thread_by_default,
        stop_signals_deferred,
    )

    one_compute_thread_by_default()  # before the parser imports numpy
    argv = sys.argv[1:] if argv is None else list(argv)
    args = None
    try:
        with ctrl_c_raises_stop_signal():  # keeps the exit status ours, see StopSignal
            with stop_signals_deferred():  # the parser imports the games: numpy's extensions
                problem = import_modules(imports_of(argv))
                if problem:
                    print(problem, file=sys.stderr)
                    return 2
                args = build_parser().parse_args(argv)
            return args.func(args)
    except ImportError as err:  # a module of an extra that is not installed: one line
        message = missing_extra_message(getattr(args, "command", None) or _command_of(argv), err)
        if message is None:
            raise
        print(message, file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # a Ctrl-C that no command handles itself: no traceback
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `art-gallery replay FILE | head`
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except FolderBusyError as err:  # a second command on a folder another one owns
        print(f"error: {err}", file=sys.stderr)
        return 1
    except OSError as err:  # a full disk, a read-only or forbidden folder: not a bug
        print(f"error: {os_error_message(err, _output_of(args))}{_saved(args)}", file=sys.stderr)
        return 1
    except UnicodeError as err:
        print(f"error: {unicode_error_message(err)}", file=sys.stderr)
        return 1
