"""OpenSpiel's Python ISMCTS on ``python_art_gallery`` against this project's agents.

Games are played by OpenSpiel's ``evaluate_bots`` (chance nodes sampled from a seeded
``RandomState``): OpenSpiel's ``ISMCTSBot`` with random rollouts to the end of the game
(``RandomRolloutEvaluator``, ``uct_c=2``, returns in [-1, 1]) in one seat, the opponent
agent (through ``AgentBot``) in the others; OpenSpiel's seat rotates with the game index.
Win share counts a shared win 1/k.

    .venv/bin/python benchmarks/openspiel_ismcts.py --opponent heuristic --games 20
        [--players 2] [--simulations 100] [--seed 0] [--smoke]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
import pyspiel
from _common import parse_args  # this folder: the --smoke option
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

import art_gallery_env.games.art_gallery.openspiel_game  # noqa: F401 - registers the game
from art_gallery_env.bridges.openspiel_bots import AgentBot, openspiel_ismcts_bot

SMOKE = {"games": 2, "simulations": 2, "opponent": "random"}
"""``--smoke`` (tests/test_benchmarks_smoke.py): two quick games, both seats."""


def timed(bot: pyspiel.Bot, sink: list[float]) -> pyspiel.Bot:
    """Record the seconds of every ``step`` of ``bot`` (decisions with one legal action
    included: both sides get those)."""
    step = bot.step

    def step_and_time(state):
        start = time.perf_counter()
        action = step(state)
        sink.append(time.perf_counter() - start)
        return action

    bot.step = step_and_time
    return bot


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--opponent", default="heuristic", help="an agent spec")
    parser.add_argument("--seed", type=int, default=0)
    args = parse_args(parser, SMOKE, argv)

    game = pyspiel.load_game("python_art_gallery", {"players": args.players})
    shares, os_times, opp_times = [], [], []
    start = time.perf_counter()
    for g in range(args.games):
        seat = g % args.players
        seed = args.seed + g
        bots = [
            timed(AgentBot(args.opponent, seed=1000 * seed + s), opp_times)
            for s in range(args.players)
        ]
        bots[seat] = timed(
            openspiel_ismcts_bot(game, simulations=args.simulations, seed=seed), os_times
        )
        returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(seed))
        shares.append(max(returns[seat], 0.0))
        print(f"game {g}: OpenSpiel ISMCTS in seat {seat}, returns {returns}", flush=True)
    wall = time.perf_counter() - start
    share = float(np.mean(shares))
    half = 1.96 * float(np.std(shares, ddof=1)) / np.sqrt(len(shares)) if len(shares) > 1 else 0
    last = args.seed + args.games - 1
    os_ms, opp_ms = 1e3 * np.mean(os_times), 1e3 * np.mean(opp_times)
    print()
    print(f"{args.players} players, {args.games} games (seeds {args.seed}..{last}), ", end="")
    print(f"{wall:.0f} s wall, {os.cpu_count()} cores")
    print("| OpenSpiel ISMCTS | opponent | win share (±95%) | ms/decision: OpenSpiel | opponent |")
    print("|---|---|---:|---:|---:|")
    print(f"| {args.simulations} simulations, random rollouts | `{args.opponent}` | ", end="")
    print(f"{share:.2f} ± {half:.2f} | {os_ms:.0f} | {opp_ms:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
