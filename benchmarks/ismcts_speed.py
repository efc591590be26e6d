"""ISMCTS search speed: iterations per second of the Python and the compiled engine at 2, 4
and 6 players, random and heuristic rollouts; then the rollout search (``ismcts:topk=K``).

Positions are sampled from heuristic self-play (every decision of a few seeded games, so
turn starts, bids and distribution choices all appear in their natural mix); each position
is searched with a fixed iteration budget by both engines (``ISMCTSAgent(engine=...)``) and
the table reports iterations per second, their ratio, the time one decision of that budget
takes, and the load average (``os.getloadavg``, 1 minute) after each row: the machine may be
shared, so compare the ratios of one run. The compiled engine's first search (loading or
compiling its code) is left out of the timing. A second table times the rollout search
(``--topk K``, 0: none) with rollouts to the round's end and to the game's end: rollouts
(each one iteration) per second and ms per decision of the same budget.

    .venv/bin/python benchmarks/ismcts_speed.py [--iters 200] [--positions 40]
        [--players 2 4 6] [--rollouts random heuristic] [--topk 4] [--smoke]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

from _common import parse_args  # this folder: the --smoke option

from art_gallery_env.agents.ismcts import ISMCTSAgent, rollout_names
from art_gallery_env.games.art_gallery.heuristic import HeuristicPolicy
from art_gallery_env.games.art_gallery.rules.hidden import PlayerView
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game

SMOKE = {"iters": 4, "positions": 2, "players": [2], "rollouts": ["random", "heuristic"]}
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


def measure(
    positions: list[GameState], rollout: str, iters: int, engine: str, **options: int
) -> tuple[float, float, float] | None:
    """(iterations per second, mean seconds per decision, max seconds per decision), or
    None where the engine cannot run (the compiled one without numba)."""
    try:
        agent = ISMCTSAgent(seed=0, iters=iters, rollout=rollout, engine=engine, **options)
    except ValueError:
        return None
    if engine == "compiled":  # load (or compile) its code outside the timing
        agent.search(PlayerView(positions[0], positions[0].current_player))
    times = []
    for state in positions:
        start = time.perf_counter()
        agent.search(PlayerView(state, state.current_player))
        times.append(time.perf_counter() - start)
    return len(positions) * iters / sum(times), statistics.mean(times), max(times)


def row(n: int, rollout: str, python: tuple | None, fast: tuple | None) -> str:
    """One line of the table ('-' where an engine did not run)."""

    def cells(result: tuple | None) -> tuple[str, str]:
        if result is None:
            return "-", "-"
        return f"{result[0]:,.0f}", f"{result[1] * 1000:.1f}"

    (py_rate, py_ms), (c_rate, c_ms) = cells(python), cells(fast)
    ratio = f"{fast[0] / python[0]:.1f}x" if python and fast else "-"
    load = os.getloadavg()[0]
    return f"| {n} | {rollout} | {py_rate} | {c_rate} | {ratio} | {py_ms} | {c_ms} | {load:.2f} |"


def rollout_table(args: argparse.Namespace) -> None:
    """The rollout search's speed (compiled engine only), per table size and horizon."""
    print()
    print("| players | search | rollouts/s | ms/decision | load |")
    print("|---|---|---|---|---|")
    for n in args.players:
        positions = sample_positions(n, args.positions, args.seed)
        for rounds in (1, 0):
            spec = f"topk={args.topk},rounds={rounds}"
            result = measure(
                positions, "heuristic", args.iters, "compiled", topk=args.topk, rounds=rounds
            )
            rate, ms = (
                ("-", "-") if result is None else (f"{result[0]:,.0f}", f"{result[1] * 1000:.1f}")
            )
            load = os.getloadavg()[0]
            print(f"| {n} | {spec} | {rate} | {ms} | {load:.2f} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iters", type=int, default=200, help="iterations per decision")
    parser.add_argument("--positions", type=int, default=40, help="positions per table size")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--rollouts", nargs="+", default=None, help="default: all of them")
    parser.add_argument("--topk", type=int, default=4, help="rollout search's K (0: none)")
    parser.add_argument("--seed", type=int, default=0)
    args = parse_args(parser, SMOKE, argv)
    rollouts = args.rollouts or list(rollout_names())

    print(f"ISMCTS speed: {args.iters} iterations per decision, {args.positions} positions, ")
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores")
    print(f"load average {'/'.join(f'{x:.2f}' for x in os.getloadavg())} at the start")
    print()
    print(
        "| players | rollout | python it/s | compiled it/s | ratio | python ms/decision "
        "| compiled ms/decision | load |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for n in args.players:
        positions = sample_positions(n, args.positions, args.seed)
        for rollout in rollouts:
            python = measure(positions, rollout, args.iters, "python")
            fast = measure(positions, rollout, args.iters, "compiled")
            print(row(n, rollout, python, fast), flush=True)
    if args.topk:
        rollout_table(args)
    print(f"load average {'/'.join(f'{x:.2f}' for x in os.getloadavg())} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
