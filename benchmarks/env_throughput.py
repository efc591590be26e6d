"""Decisions per second of random legal play: engine, raw_env, env(), clone(), and
PettingZoo's connect_four_v3 as the reference, with ratios measured in one run.

Usage: python benchmarks/env_throughput.py [--seconds 2.0] [--repeats 3] [--smoke]

Machines are shared and noisy, so every measurement is repeated, interleaved with the
reference, and the median is reported; compare the ratios, not the absolute numbers.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from _common import parse_args  # this folder: the --smoke option

from art_gallery_env import env as ag_env
from art_gallery_env import new_game, raw_env

REFERENCE = "connect_four_v3 env() (reference)"
SMOKE = {"seconds": 0.05, "repeats": 1}
"""``--smoke`` (tests/test_benchmarks_smoke.py): every row once, about a game each."""


def engine_run(
    players: int,
    seconds: float,
    make_game: Callable = new_game,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Random legal play on the bare engine (``make_game(players, seed)``, Art Gallery's by
    default; benchmarks/gallerist_throughput.py passes the Gallerist's). ``clock``: wall
    time by default; ``time.process_time`` counts only this process's CPU time."""
    decisions, start, seed = 0, clock(), 0
    while clock() - start < seconds:
        state = make_game(players, seed)
        choose = random.Random(seed).choice
        while not state.is_over:
            state.apply(choose(state.legal_actions()))
            decisions += 1
        seed += 1
    return decisions / (clock() - start)


def aec_run(
    make_env: Callable[[], object],
    seconds: float,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """AEC loop reading observation + mask at every decision (what a learner does)."""
    e = make_env()
    rng = random.Random(0)
    decisions, start, seed = 0, clock(), 0
    while clock() - start < seconds:
        e.reset(seed=seed)
        for _agent in e.agent_iter():
            obs, _reward, term, trunc, _info = e.last()
            if term or trunc:
                action = None
            else:
                action = rng.choice(obs["action_mask"].nonzero()[0].tolist())
                decisions += 1
            e.step(action)
        seed += 1
    return decisions / (clock() - start)


def clone_run(
    players: int,
    seconds: float,
    make_game: Callable = new_game,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    state = make_game(players, 0)
    rng = random.Random(0)
    for _ in range(40 * players):  # a mid-round state with bids on the board
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    clones, start = 0, clock()
    while clock() - start < seconds:
        for _ in range(1000):
            state.clone()
        clones += 1000
    return clones / (clock() - start)


def connect_four_env() -> object:
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3.env()


def print_rows(rows: dict[str, list[float]], reference: str) -> None:
    """The table: each row's median rate and its ratio to the ``reference`` row's."""
    base = statistics.median(rows[reference])
    print(f"{'measurement':<36} {'per second':>12} {'x connect_four':>15}")
    print("-" * 65)
    for name, values in rows.items():
        value = statistics.median(values)
        print(f"{name:<36} {value:>12,.0f} {value / base:>15.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--repeats", type=int, default=3)
    args = parse_args(parser, SMOKE)

    rows: dict[str, list[float]] = {}

    def measure(name: str, fn: Callable[[], float]) -> None:
        rows.setdefault(name, []).append(fn())

    for _ in range(args.repeats):
        measure(REFERENCE, lambda: aec_run(connect_four_env, args.seconds))
        for n in (2, 4, 6):
            measure(f"engine {n}p", lambda n=n: engine_run(n, args.seconds))
            measure(
                f"raw_env {n}p + obs/mask",
                lambda n=n: aec_run(lambda: raw_env(num_players=n), args.seconds),
            )
            measure(
                f"env() {n}p + obs/mask",
                lambda n=n: aec_run(lambda: ag_env(num_players=n), args.seconds),
            )
            measure(f"clone() {n}p", lambda n=n: clone_run(n, args.seconds))

    print(f"median of {args.repeats} runs of {args.seconds:.1f} s each")
    print_rows(rows, REFERENCE)


if __name__ == "__main__":
    main()
