"""Decisions per second of random legal play in the Gallerist: the engine, the AEC env
reading observation + mask at every decision (with the fast encoder and, for comparison,
the plain reference encoder), clone(), next to PettingZoo's connect_four_v3 measured in the
same run. ``--heuristic`` adds the heuristic agent's decisions (self-play of
``--heuristic-games`` whole games, seeds 0 up; only its thinking is timed) and prints its
ms per decision; ``--heuristic-only`` measures only those (and the reference), e.g. to
time an older checkout of the package with this script:
``PYTHONPATH=<old checkout> python benchmarks/gallerist_throughput.py --heuristic-only``.

Usage: python benchmarks/gallerist_throughput.py [--seconds 2.0] [--repeats 3]
       [--players 1 2 4] [--clock wall|cpu] [--heuristic | --heuristic-only]
       [--heuristic-games 2] [--smoke]

The loops are benchmarks/env_throughput.py's (imported); machines are shared and noisy, so
every measurement is repeated, interleaved with the reference, and the median is reported:
compare the ratios, not the absolute numbers. ``--clock cpu`` times each loop by this
process's CPU time (``time.process_time``) instead of the wall clock: on a machine whose
other processes take the CPUs in turns, a loop then is not charged for the time it waited,
so the ratios move much less from run to run (they still move with cache and core sharing).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from _common import parse_args  # noqa: E402
from env_throughput import (  # noqa: E402
    REFERENCE,
    aec_run,
    clone_run,
    connect_four_env,
    engine_run,
    print_rows,
)

from art_gallery_env.core.view import PlayerView  # noqa: E402
from art_gallery_env.games.gallerist import env as gallerist_env  # noqa: E402
from art_gallery_env.games.gallerist import new_game, raw_env  # noqa: E402
from art_gallery_env.games.gallerist.agents.heuristic import GalleristHeuristicAgent  # noqa: E402
from art_gallery_env.games.gallerist.env.observation_reference import ReferenceEncoder  # noqa: E402
from art_gallery_env.games.gallerist.rules.actions import NUM_ACTIONS  # noqa: E402

CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
SMOKE = {"seconds": 0.05, "repeats": 1, "heuristic": True, "heuristic_games": 1}
"""``--smoke`` (tests/test_benchmarks_smoke.py): every row once, about a game each."""
HEURISTIC = "heuristic {n}p (agent decisions)"


def heuristic_run(n: int, games: int, clock: Callable[[], float]) -> float:
    """Heuristic self-play at ``n`` players: ``games`` whole games, seeds 0 up (agent seeds
    1000 * game + seat); decisions per second of ``act`` alone (the determinization and
    the search; the applies between decisions are not timed). The same decisions every
    run, so two checkouts of the package compare on equal work."""
    decisions, spent = 0, 0.0
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for seed in range(games):
        agents = [GalleristHeuristicAgent(seed=1000 * seed + i) for i in range(n)]
        state = new_game(n, seed)
        while not state.is_over:
            seat = state.current_player
            mask[:] = 0
            mask[state.legal_actions()] = 1
            start = clock()
            action = agents[seat].act(None, mask, PlayerView(state, seat))
            spent += clock() - start
            state.apply(int(action))
            decisions += 1
    return decisions / spent


def reference_raw_env(n: int) -> raw_env:
    """raw_env whose seats are encoded by the plain reference encoder (phase A's); the
    env makes its seat observer at the first reset, so the encoder is swapped after it."""
    e = raw_env(num_players=n)
    e.reset(seed=0)
    e.seats.encoder = ReferenceEncoder()
    return e


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument(
        "--clock", choices=list(CLOCKS), default="wall", help="what a second is (see above)"
    )
    parser.add_argument(
        "--heuristic", action="store_true", help="add the heuristic agent's rows (see above)"
    )
    parser.add_argument(
        "--heuristic-only", action="store_true", help="only the heuristic's rows (see above)"
    )
    parser.add_argument("--heuristic-games", type=int, default=2, help="per heuristic row")
    args = parse_args(parser, SMOKE)

    rows: dict[str, list[float]] = {}
    clock = CLOCKS[args.clock]
    seconds = args.seconds

    def measure(name: str, fn: Callable[[], float]) -> None:
        rows.setdefault(name, []).append(fn())

    for _ in range(args.repeats):
        measure(REFERENCE, lambda: aec_run(connect_four_env, seconds, clock))
        for n in args.players:
            if args.heuristic or args.heuristic_only:
                measure(
                    HEURISTIC.format(n=n), lambda n=n: heuristic_run(n, args.heuristic_games, clock)
                )
            if args.heuristic_only:
                continue
            measure(f"engine {n}p", lambda n=n: engine_run(n, seconds, new_game, clock))
            measure(
                f"raw_env {n}p + obs/mask",
                lambda n=n: aec_run(lambda: raw_env(num_players=n), seconds, clock),
            )
            measure(
                f"raw_env {n}p + obs/mask, reference",
                lambda n=n: aec_run(lambda: reference_raw_env(n), seconds, clock),
            )
            measure(
                f"env() {n}p + obs/mask",
                lambda n=n: aec_run(lambda: gallerist_env(num_players=n), seconds, clock),
            )
            measure(f"clone() {n}p", lambda n=n: clone_run(n, seconds, new_game, clock))

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    what = "CPU seconds" if args.clock == "cpu" else "s"
    print(f"The Gallerist: median of {args.repeats} runs of {seconds:.1f} {what} each")
    print_rows(rows, REFERENCE)
    heuristic = [(n, rows.get(HEURISTIC.format(n=n))) for n in args.players]
    if all(values for _n, values in heuristic):
        ms = ", ".join(f"{n}p {1000 / statistics.median(v):.2f}" for n, v in heuristic)
        print(f"heuristic ms per decision ({args.clock} clock): {ms}")
    print(f"load average (1, 5, 15 min) at the end: {load} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
