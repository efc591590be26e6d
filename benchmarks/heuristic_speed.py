"""Heuristic decision speed: decisions per second of each heuristic version, per table size.

The heuristic is also the search agent's rollout policy, so its cost per decision bounds how
many ISMCTS iterations fit in a time budget. Positions are every decision with a real choice
of a few seeded self-play games of the latest heuristic (turn starts, bids, Shop choices and
card picks in their natural mix). Each version decides every position on the full state (as
in a rollout); versions run interleaved in several repeats and the best repeat counts, so a
busy machine disturbs the ratio less. Compare the ratio, not the absolute rates, across
machines.

    .venv/bin/python benchmarks/heuristic_speed.py [--games 6] [--repeats 5] [--players 2 4 6]
        [--smoke]
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from art_gallery_env.art_gallery.heuristic import HEURISTIC_VERSIONS, heuristic_policy
from art_gallery_env.rules.state import GameState, new_game

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="self-play games per table size")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, seconds (CI)")
    args = parser.parse_args(argv)
    if args.smoke:  # tiny defaults; options given on the command line still win
        parser.set_defaults(**SMOKE)
        args = parser.parse_args(argv)
    versions = list(HEURISTIC_VERSIONS)
    print(f"Heuristic speed: {args.games} self-play games per table size, best of {args.repeats}")
    print(f"python {platform.python_version()} on {platform.machine()}")
    print()
    header = " | ".join(f"{v} decisions/s" for v in versions)
    print(f"| players | positions | {header} | cost {versions[-1]} / {versions[0]} |")
    print("|---|---|" + "---|" * len(versions) + "---|")
    for n in args.players:
        positions = sample_positions(n, args.games, args.seed)
        best = dict.fromkeys(versions, 0.0)
        for _ in range(args.repeats):
            for version in versions:
                best[version] = max(best[version], decisions_per_second(version, positions))
        rates = " | ".join(f"{best[v]:,.0f}" for v in versions)
        ratio = best[versions[0]] / best[versions[-1]]
        print(f"| {n} | {len(positions)} | {rates} | {ratio:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
