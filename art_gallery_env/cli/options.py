"""The options several subcommands share, and their argparse types.

Nothing here names a game: ``--game`` takes any registered game's name and ``--variant``
any of its variants, both checked by the registry with the legal choices in the message.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

# Hidden, deprecated spellings of a generic option: old flag -> (variant, value).
DEPRECATED_VARIANT_FLAGS = {"--zero-is-ten": ("zero_is_ten", True)}


def variant(text: str) -> tuple[str, Any]:
    """``KEY=VALUE``, the value as JSON reads it (true, 3, "x"), else the plain string."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE (e.g. a=true), got {text!r}")
    try:
        return key.strip(), json.loads(value.strip())
    except ValueError:
        return key.strip(), value.strip()


def variants(args: argparse.Namespace) -> dict[str, Any]:
    """The game's variants from ``--variant KEY=VALUE`` (and a deprecated flag, with a
    note); the game checks the names and values."""
    chosen = dict(getattr(args, "variant", None) or [])
    for flag, (key, value) in DEPRECATED_VARIANT_FLAGS.items():
        if getattr(args, flag.lstrip("-").replace("-", "_"), False):
            print(f"note: {flag} is deprecated: use --variant {key}={json.dumps(value)}",
                  file=sys.stderr)  # fmt: skip
            chosen[key] = value
    return chosen


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def int_in(low: int, high: int, what: str = "") -> Any:
    """An argparse type: a whole number in low..high, else one line with the range."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            shown = text if len(text) <= 40 else text[:37] + "..."
            raise argparse.ArgumentTypeError(
                f"expected a whole number in {low}..{high}{what}, got {shown!r}"
            )
        return value

    return parse


# Seeds: games seed NumPy's generators, which take non-negative integers (64 bits here).
seed = int_in(0, 2**63 - 1, " (2**63 - 1)")
games = int_in(1, 10**7)  # every game's result is kept in memory and written as a row
workers = int_in(1, 256, " processes (each imports torch, about 250 MB)")


def viewer(text: str) -> int | None:
    if text.lower() == "all":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected 'all' or a seat number 0..5, got {text!r}"
        ) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 'all' or a seat number 0..5, got {value}")
    return value


def game_name(text: str) -> str:
    """A registered game's name; an unknown one lists the games."""
    from art_gallery_env.core.registry import UnknownGameError, get_game

    try:
        return get_game(text).name
    except UnknownGameError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_game(
    command: argparse.ArgumentParser, *, resumed: bool = False, recorded: bool = False
) -> None:
    """``--game NAME`` (and, where a game is set up, its ``--variant`` options)."""
    from art_gallery_env.core.registry import default_game

    if recorded:
        help_text = "the game the record must be of (default: the record's own game)"
    else:
        help_text = (
            "a registered game's name (default: the first registered; a wrong one lists them)"
        )
        if resumed:
            help_text += "; --resume plays the saved game's"
    command.add_argument(
        "--game",
        type=game_name,
        metavar="NAME",
        default=None if recorded or resumed else default_game().name,
        help=help_text,
    )
    if not recorded:
        add_variants(command)


def add_variants(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--variant",
        type=variant,
        action="append",
        metavar="KEY=VALUE",
        help="a setup variant of the game, read as JSON (repeatable; a wrong name lists the "
        "game's variants)",
    )
    for flag in DEPRECATED_VARIANT_FLAGS:  # hidden: kept for old scripts, with a note
        command.add_argument(flag, action="store_true", help=argparse.SUPPRESS)


def subcommand(
    sub: argparse._SubParsersAction,
    name: str,
    run: Any,
    help_text: str,
    description: str | None = None,
) -> argparse.ArgumentParser:
    """A subcommand's parser, whose parsed options call ``run(args)`` (``args.parser`` is
    the parser, for its one-line errors)."""
    parser = sub.add_parser(name, help=help_text, description=description)
    parser.set_defaults(func=run, parser=parser)
    return parser


def add_players(
    command: argparse.ArgumentParser, default: int | None, shown: int = 2, solo: str = ""
) -> None:
    """``--players N``; ``solo`` says what 1 does where a command plays solo games."""
    command.add_argument(
        "--players",
        type=int,
        default=default,
        metavar="N",
        help=f"seats at the table, in the game's range (default {shown})"
        + (f"; 1: {solo}" if solo else ""),
    )


def add_seed(command: argparse.ArgumentParser, default: int | None, help_text: str) -> None:
    command.add_argument("--seed", type=seed, default=default, help=help_text)


def add_no_progress(command: argparse.ArgumentParser) -> None:
    command.add_argument("--no-progress", action="store_true", help="no progress bar")


def check_agent_specs(
    parser: argparse.ArgumentParser, option: str, specs: list[str], game: str | None
) -> None:
    """Build each agent once so that a bad name or option is reported before any game."""
    from art_gallery_env.agents.registry import agent_spec_problem

    for spec in specs:
        problem = agent_spec_problem(spec, game=game)
        if problem is not None:
            parser.error(f"{option}: bad agent spec {spec!r}: {problem}")
