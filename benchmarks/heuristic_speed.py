"""Heuristic decision speed: decisions per second of each heuristic version, per table size.

The heuristic is also the search agent's rollout policy, so its cost per decision bounds how
many ISMCTS iterations fit in a time budget. Positions are every decision with a real choice
of a few seeded self-play games of the latest heuristic (turn starts, bids, Shop choices and
card picks in their natural mix). Each version decides every position on the full state (as
in a rollout); versions run interleaved in several repeats and the best repeat counts, so a
busy machine disturbs the ratio less. Compare the ratio, not the absolute rates, across
machines.

Where numba is installed, a second table puts the compiled heuristic (version 2,
``VectorGame.heuristic_actions``: every position one game slot, one call per repeat, one
thread) beside the Python one on the same positions, interleaved, with the machine's load
average (``os.getloadavg``) before and after.

    .venv/bin/python benchmarks/heuristic_speed.py [--games 6] [--repeats 5] [--players 2 4 6]
        [--smoke]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

from _common import parse_args  # this folder: the --smoke option

from art_gallery_env.games.art_gallery.heuristic import HEURISTIC_VERSIONS, heuristic_policy
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game

SMOKE = {"games": 1, "repeats": 1, "players": [2]}
"""``--smoke`` (tests/test_benchmarks_smoke.py): one game, every version once."""


def sample_positions(num_players: int, games: int, seed: int) -> list[GameState]:
    """Every decision with more than one legal action in ``games`` self-play games."""
    policy = heuristic_policy()
    rng = random.Random(seed)
    found: list[GameState] = []
    for game in range(games):
        state = new_game(num_players, seed + game)
        while not state.is_over:
            if len(state.legal_actions()) > 1:
                found.append(state.clone())
            state.apply(policy.choose(state, rng))
    return found


def decisions_per_second(version: str, positions: list[GameState]) -> float:
    policy = heuristic_policy(HEURISTIC_VERSIONS[version]())
    rng = random.Random(0)
    start = time.perf_counter()
    for state in positions:
        policy.choose(state, rng)
    return len(positions) / (time.perf_counter() - start)


def compiled_per_second(positions: list[GameState], repeats: int) -> tuple[float, float]:
    """Best-of-``repeats`` decisions/s of the Python heuristic v2 and of the compiled one
    (one ``heuristic_actions`` call for all positions, one thread), interleaved."""
    from art_gallery_env.games.art_gallery.vector import VectorGame

    game = VectorGame.from_states(positions, seed=0, auto_reset=False, check=False)
    game.close()  # one thread: a per-core comparison with the one-threaded Python policy
    game.heuristic_actions()  # compile or load the kernels outside the timing
    python = compiled = 0.0
    for _ in range(repeats):
        python = max(python, decisions_per_second(LATEST, positions))
        start = time.perf_counter()
        game.heuristic_actions()
        compiled = max(compiled, len(positions) / (time.perf_counter() - start))
    return python, compiled


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def compiled_table(args: argparse.Namespace, positions: dict[int, list[GameState]]) -> None:
    try:
        import numba  # noqa: F401
    except ImportError:
        print("\n(numba not installed: no compiled heuristic row; pip install -e '.[fast]')")
        return
    print()
    print(f"load average before: {load()} on {os.cpu_count()} cores")
    print(f"| players | positions | python {LATEST} decisions/s | compiled decisions/s | x |")
    print("|---|---:|---:|---:|---:|")
    ratios = {}
    for n in args.players:
        python, compiled = compiled_per_second(positions[n], args.repeats)
        ratios[n] = compiled / python
        print(f"| {n} | {len(positions[n])} | {python:,.0f} | {compiled:,.0f} | {ratios[n]:.1f} |")
    print(f"load average after: {load()}")
    print("compiled heuristic: " + " ".join(f"{n}p={r:.1f}x" for n, r in ratios.items()))


LATEST = list(HEURISTIC_VERSIONS)[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="self-play games per table size")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--seed", type=int, default=0)
    args = parse_args(parser, SMOKE, argv)
    versions = list(HEURISTIC_VERSIONS)
    print(f"Heuristic speed: {args.games} self-play games per table size, best of {args.repeats}")
    print(f"python {platform.python_version()} on {platform.machine()}")
    print()
    header = " | ".join(f"{v} decisions/s" for v in versions)
    print(f"| players | positions | {header} | cost {versions[-1]} / {versions[0]} |")
    print("|---|---|" + "---|" * len(versions) + "---|")
    positions = {}
    for n in args.players:
        positions[n] = sample_positions(n, args.games, args.seed)
        best = dict.fromkeys(versions, 0.0)
        for _ in range(args.repeats):
            for version in versions:
                best[version] = max(best[version], decisions_per_second(version, positions[n]))
        rates = " | ".join(f"{best[v]:,.0f}" for v in versions)
        ratio = best[versions[0]] / best[versions[-1]]
        print(f"| {n} | {len(positions[n])} | {rates} | {ratio:.2f} |")
    compiled_table(args, positions)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
