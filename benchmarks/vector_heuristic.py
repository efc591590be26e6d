"""The compiled heuristic against the Python one over many decisions (issue 24).

Deals games at every table size (2-6 players) and both variants, played by the Python
heuristic and by random legal actions in turn, and compares at every decision the set of
top-scoring actions of ``VectorGame.heuristic_scores`` with the set ``HeuristicPolicy``
draws from on a determinized world of the acting seat
(art_gallery_env/vector/heuristic_differential.py). Rounds of games repeat until
``--decisions`` decisions have been compared. Prints a table per table size and variant,
the first disagreements if any, and a summary line.

    .venv/bin/python benchmarks/vector_heuristic.py [--decisions 100000] [--seed 0] [--v1]
        [--smoke]
"""

from __future__ import annotations

import argparse
import os
import time

from art_gallery_env.art_gallery.heuristic_v1 import HeuristicV1Params
from art_gallery_env.vector.heuristic_differential import AgreementStats, agreement

SMOKE = {"decisions": 1, "sizes": [2]}
"""``--smoke`` (tests/test_benchmarks_smoke.py): one round of 2-player games."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=100_000)
    parser.add_argument("--sizes", type=int, nargs="+", default=[2, 3, 4, 5, 6])
    parser.add_argument("--games", type=int, default=2, help="games per table, variant, play")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--v1", action="store_true", help="version 1's parameters")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, seconds (CI)")
    args = parser.parse_args(argv)
    if args.smoke:
        parser.set_defaults(**SMOKE)
        args = parser.parse_args(argv)
    params = HeuristicV1Params() if args.v1 else None
    start = time.perf_counter()
    stats = AgreementStats()
    seed = args.seed
    while stats.decisions < args.decisions:
        stats.add(agreement(args.sizes, args.games, seed, params=params))
        seed += 1
    print("| players | zero_is_ten | decisions | same top set | % |")
    print("|---|---|---:|---:|---:|")
    for (n, zero_is_ten), (decisions, agreed) in sorted(stats.by_table.items()):
        share = 100 * agreed / decisions
        print(f"| {n} | {zero_is_ten} | {decisions:,} | {agreed:,} | {share:.2f} |")
    for e in stats.examples[:10]:
        print(
            f"differs: {e.num_players}p zero_is_ten={e.zero_is_ten} {e.phase}: python "
            f"{e.python} compiled {e.compiled} scores {e.scores}"
        )
    load = "/".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"heuristic agreement: {stats.games} games, {stats.decisions} decisions, "
        f"{stats.agreed} same top set ({100 * stats.rate:.3f}%), "
        f"{time.perf_counter() - start:.0f} s, load {load}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
