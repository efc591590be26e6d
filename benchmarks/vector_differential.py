"""The long differential run: the compiled engine against the Python engine over many
random games (default 10,000), every table size and both variants, every seat's
observation at every decision (result in docs/vector.md).

Usage: nice -n 10 python benchmarks/vector_differential.py [--games 10000] [--batch 100]
       [--smoke]

Each batch of games is played in both engines at once (art_gallery_env.games.art_gallery.vector.
differential.play_differential); the first disagreement stops the run with the game,
the decision and the field. Games are spread evenly over the 10 (players, variant) tables.
"""

from __future__ import annotations

import argparse
import time

from _common import parse_args  # this folder: the --smoke option

from art_gallery_env.games.art_gallery.vector.differential import (
    DifferentialStats,
    play_differential,
)

TABLES = [(n, z) for n in range(2, 7) for z in (False, True)]
SMOKE = {"games": len(TABLES), "batch": 1}
"""``--smoke`` (tests/test_benchmarks_smoke.py): one game per table."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=100, help="games played at once")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--acting-seat-only",
        action="store_true",
        help="compare the acting seat and one other (as the CI test) instead of every seat",
    )
    args = parse_args(parser, SMOKE)

    total = DifferentialStats()
    start = time.perf_counter()
    per_table = args.games // len(TABLES)
    print(f"{'table':<22} {'games':>7} {'decisions':>11} {'observations':>13} {'seconds':>8}")
    for players, zero_is_ten in TABLES:
        table = DifferentialStats()
        table_start = time.perf_counter()
        left, batch = per_table, 0
        while left:
            size = min(args.batch, left)
            seed = args.seed * 1_000_003 + players * 10_007 + zero_is_ten * 1009 + batch
            table.add(
                play_differential(
                    players, zero_is_ten, size, seed, all_seats=not args.acting_seat_only
                )
            )
            left -= size
            batch += 1
        name = f"{players}p zero_is_ten={zero_is_ten}"
        print(
            f"{name:<22} {table.games:>7,} {table.decisions:>11,} {table.observations:>13,} "
            f"{time.perf_counter() - table_start:>8.0f}",
            flush=True,
        )
        total.add(table)
    print(
        f"differential: {total.games} games, {total.decisions} decisions, "
        f"{total.observations} observations compared, 0 mismatches, "
        f"{time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
