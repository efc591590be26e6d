"""The compiled heuristic against the Python one over many decisions.

Deals games at every table size (2-6 players) and both variants, played by the Python
heuristic and by random legal actions in turn, and compares at every decision the set of
top-scoring actions of ``VectorGame.heuristic_scores`` with the set ``HeuristicPolicy``
draws from on a determinized world of the acting seat
(art_gallery_env/games/art_gallery/vector/heuristic_differential.py). Rounds of games repeat until
``--decisions`` decisions have been compared. Prints a table per table size and variant,
the first disagreements if any, and a summary line.

``--match N`` also plays N games (``--match-players``, default 2) of the compiled heuristic
against the Python ``HeuristicAgent`` (half the seats each, alternating by game), the
Python side deciding on determinized worlds of its seat's view: with equal top sets the two
differ only in which tied action they draw, so the compiled side should win half.

    .venv/bin/python benchmarks/vector_heuristic.py [--decisions 100000] [--seed 0] [--v1]
        [--match 1000] [--match-players 2] [--smoke]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import time

import numpy as np
from _common import parse_args  # this folder: the --smoke option

from art_gallery_env.games.art_gallery.heuristic import heuristic_policy
from art_gallery_env.games.art_gallery.heuristic_v1 import HeuristicV1Params
from art_gallery_env.games.art_gallery.rules.hidden import determinize
from art_gallery_env.games.art_gallery.vector import VectorGame
from art_gallery_env.games.art_gallery.vector.heuristic_differential import (
    AgreementStats,
    agreement,
)

SMOKE = {"decisions": 1, "sizes": [2], "match": 4}
"""``--smoke`` (tests/test_benchmarks_smoke.py): one round of 2-player games, a 4-game match."""


def match(games: int, players: int, seed: int, params: object = None) -> tuple[float, int]:
    """The compiled side's share of the wins (R7.5 ranks, shared wins split) over ``games``
    games: in game g the seats q with q % 2 == g % 2 are compiled, the others Python.
    Returns the share and the decisions played."""
    game = VectorGame(games, players, seed=seed, auto_reset=False)
    policy, rng = heuristic_policy(params), random.Random(seed)
    compiled_seat = (np.arange(players)[None, :] % 2) == (np.arange(games)[:, None] % 2)
    slots = np.arange(games)
    decisions, share = 0, 0.0
    while not game.done.all():
        active = ~game.done
        actions = game.heuristic_actions(active, params)
        for i in np.flatnonzero(active & ~compiled_seat[slots, game.current_player]):
            state = game.to_state(int(i))
            actions[i] = policy.choose(determinize(state, state.current_player, rng), rng)
        decisions += int(active.sum())
        game.step(actions, active=active)
        for i in np.flatnonzero(game.done & active):
            winners = [q for q, rank in enumerate(game.final_ranks(int(i))) if rank == 1]
            share += sum(bool(compiled_seat[i, q]) for q in winners) / len(winners)
    return share / games, decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=100_000)
    parser.add_argument("--sizes", type=int, nargs="+", default=[2, 3, 4, 5, 6])
    parser.add_argument("--games", type=int, default=2, help="games per table, variant, play")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--v1", action="store_true", help="version 1's parameters")
    parser.add_argument("--match", type=int, default=0, help="games compiled vs Python")
    parser.add_argument("--match-players", type=int, default=2)
    args = parse_args(parser, SMOKE, argv)
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
    if args.match:
        start = time.perf_counter()
        share, decisions = match(args.match, args.match_players, args.seed, params)
        half = 1.96 * math.sqrt(max(share * (1 - share), 1e-12) / args.match)
        print(
            f"match: {args.match} games at {args.match_players} players, {decisions} decisions, "
            f"compiled side won {100 * share:.1f}% +- {100 * half:.1f}% (95%), "
            f"{time.perf_counter() - start:.0f} s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
