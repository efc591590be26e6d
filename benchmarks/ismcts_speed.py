"""ISMCTS search speed: iterations per second at 2 and 4 players, random and heuristic rollouts.

Positions are sampled from heuristic self-play (every decision of a few seeded games, so
turn starts, bids and distribution choices all appear in their natural mix); each position
is searched with a fixed iteration budget and the table reports iterations per second and
the time one decision of that budget takes.

    .venv/bin/python benchmarks/ismcts_speed.py [--iters 200] [--positions 40] [--players 2 4]
        [--smoke]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from art_gallery_env.agents.ismcts import ISMCTSAgent, rollout_names
from art_gallery_env.art_gallery.heuristic import HeuristicPolicy
from art_gallery_env.rules.hidden import PlayerView
from art_gallery_env.rules.state import GameState, new_game

SMOKE = {"iters": 4, "positions": 2, "players": [2]}
"""``--smoke`` (tests/test_benchmarks_smoke.py): a few tiny searches per rollout kind."""


def sample_positions(num_players: int, count: int, seed: int) -> list[GameState]:
    """``count`` positions with a real choice, spread over heuristic self-play games."""
    policy = HeuristicPolicy()
    rng = random.Random(seed)
    found: list[GameState] = []
    game = 0
    while len(found) < 8 * count:
        state = new_game(num_players, seed + game)
        game += 1
        while not state.is_over:
            if len(state.legal_actions()) > 1:
                found.append(state.clone())
            state.apply(policy.choose(state, rng))
    rng.shuffle(found)
    return found[:count]


def measure(positions: list[GameState], rollout: str, iters: int) -> tuple[float, float, float]:
    """(iterations per second, mean seconds per decision, max seconds per decision)."""
    agent = ISMCTSAgent(seed=0, iters=iters, rollout=rollout)
    times = []
    for state in positions:
        start = time.perf_counter()
        agent.search(PlayerView(state, state.current_player))
        times.append(time.perf_counter() - start)
    return len(positions) * iters / sum(times), statistics.mean(times), max(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iters", type=int, default=200, help="iterations per decision")
    parser.add_argument("--positions", type=int, default=40, help="positions per table size")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, seconds (CI)")
    args = parser.parse_args(argv)
    if args.smoke:  # tiny defaults; options given on the command line still win
        parser.set_defaults(**SMOKE)
        args = parser.parse_args(argv)

    print(f"ISMCTS speed: {args.iters} iterations per decision, {args.positions} positions, ")
    print(f"python {platform.python_version()} on {platform.machine()}")
    print()
    print("| players | rollout | iterations/s | ms per decision (mean) | ms (max) |")
    print("|---|---|---|---|---|")
    for n in args.players:
        positions = sample_positions(n, args.positions, args.seed)
        for rollout in rollout_names():
            rate, mean, worst = measure(positions, rollout, args.iters)
            print(f"| {n} | {rollout} | {rate:,.0f} | {mean * 1000:.1f} | {worst * 1000:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
