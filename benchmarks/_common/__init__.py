"""What the benchmark scripts share: their ``--smoke`` option.

A package, not a script beside them: tests/test_benchmarks_smoke.py runs every
``benchmarks/*.py`` in its smoke mode, and this is no benchmark. The scripts run with their
own folder first on ``sys.path``, so they import it as ``_common``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

SMOKE_HELP = "tiny sizes, seconds (CI)"


def parse_args(
    parser: argparse.ArgumentParser,
    smoke: dict[str, Any],
    argv: Sequence[str] | None = None,
    smoke_help: str = SMOKE_HELP,
) -> argparse.Namespace:
    """``parser``'s arguments, with a ``--smoke`` flag added: given it, the defaults become
    ``smoke``'s tiny sizes (tests/test_benchmarks_smoke.py runs every script so); options
    given on the command line still win."""
    parser.add_argument("--smoke", action="store_true", help=smoke_help)
    args = parser.parse_args(argv)
    if args.smoke:
        parser.set_defaults(**smoke)
        args = parser.parse_args(argv)
    return args
