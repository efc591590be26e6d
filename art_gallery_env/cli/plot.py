"""``art-gallery plot``: training curves of a run folder, or rating against steps."""

from __future__ import annotations

import argparse

from . import options
from .extras import report_missing_extra

HELP = "write PNG training curves of a run folder, or rating vs steps of an eval"


def add(sub: argparse._SubParsersAction) -> None:
    plot = options.subcommand(sub, "plot", run, HELP)
    plot.add_argument(
        "run_dir",
        metavar="RUN_DIR|RESULTS.json",
        help="a folder made by 'art-gallery train', or the results.json of "
        "'art-gallery eval --agents RUN_DIR ... --out DIR' (rating against training step)",
    )
    plot.add_argument(
        "--out",
        help="where to write: the folder of the PNGs (default RUN_DIR/plots), or the PNG "
        "file for a results.json (default rating_vs_steps.png beside it)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        from art_gallery_env.training.plots import PlotError, plot_ratings, plot_run
    except ImportError as err:
        return report_missing_extra("plot", err)
    try:
        if args.run_dir.endswith(".json"):
            paths = [plot_ratings(args.run_dir, args.out)]
        else:
            paths = plot_run(args.run_dir, args.out)
    except PlotError as err:
        args.parser.error(str(err))
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0
