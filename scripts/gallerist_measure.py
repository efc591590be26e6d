"""Measure the Gallerist agents (phase A, before ``art-gallery eval`` knows the game).

    python scripts/gallerist_measure.py [--games 400] [--json out.json]

1. The heuristic against the random agent at 2 players, seats rotated (the heuristic sits
   in seat 0 in even games, seat 1 in odd ones): win rate with a 95% Wilson interval.
2. The heuristic alone against Lacerda (solo): the share of games reaching each goal level.
3. Game lengths (rounds, decisions, how often the G15.3 safety limit ended a game) for the
   heuristic and for random play.

Games are played through the shared loop (``art_gallery_env.arena.loop.play_game``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from typing import Any

from art_gallery_env.agents.random_agent import RandomAgent
from art_gallery_env.arena.evaluate import mean_ci, wilson_interval
from art_gallery_env.arena.loop import GameResult, play_game
from art_gallery_env.files import atomic_write_json
from art_gallery_env.gallerist.agents import GalleristHeuristicAgent
from art_gallery_env.gallerist.env.seat import GalleristSeatObserver
from art_gallery_env.gallerist.rules.game import MAX_ROUNDS
from art_gallery_env.gallerist.rules.state import new_game

SEED_BASE = 50_000


def play(agents: list, seed: int) -> tuple[GameResult, bool]:
    for i, agent in enumerate(agents):
        agent.reset(1000 * seed + i)
    state = new_game(len(agents), seed)
    result = play_game(state, agents, GalleristSeatObserver())
    capped = any(k == "end_triggered" and e["round"] >= MAX_ROUNDS for k, e in state.events)
    return result, capped


def heuristic_vs_random(games: int) -> dict[str, Any]:
    wins = shared = 0
    own, other, rounds, capped_games = [], [], [], 0
    for g in range(games):
        seat = g % 2
        agents = [RandomAgent(), RandomAgent()]
        agents[seat] = GalleristHeuristicAgent()
        result, capped = play(agents, SEED_BASE + g)
        top = result.winners
        wins += top == [seat]
        shared += seat in top and len(top) > 1
        own.append(result.breakdown[seat]["total"])
        other.append(result.breakdown[1 - seat]["total"])
        rounds.append(result.rounds)
        capped_games += capped
    low, high = wilson_interval(wins, games)
    return {
        "games": games,
        "wins": wins,
        "shared_wins": shared,
        "win_rate": wins / games,
        "win_rate_95ci": [low, high],
        "heuristic_money": mean_ci(own),
        "random_money": mean_ci(other),
        "mean_rounds": statistics.mean(rounds),
        "safety_limit_games": capped_games,
    }


def solo_levels(games: int) -> dict[str, Any]:
    levels: Counter = Counter()
    rows = []
    rounds, capped_games = [], 0
    for g in range(games):
        result, capped = play([GalleristHeuristicAgent()], SEED_BASE + g)
        row = result.breakdown[0]
        levels[row["goal_level"]] += 1
        rows.append(row)
        rounds.append(result.rounds)
        capped_games += capped
    keys = ("total", "curator_goals", "dealer_goals", "reputation_tiles", "masterpieces")
    return {
        "games": games,
        "level_share": {lvl: levels[lvl] / games for lvl in range(4)},
        "at_least": {lvl: sum(levels[k] for k in range(lvl, 4)) / games for lvl in range(1, 4)},
        "means": {k: statistics.mean(float(r[k]) for r in rows) for k in keys},
        "curator_top_share": sum(r["curator_top"] for r in rows) / games,
        "mean_rounds": statistics.mean(rounds),
        "safety_limit_games": capped_games,
    }


def random_lengths(games: int) -> dict[int, dict[str, float]]:
    out = {}
    for n in (1, 2, 3, 4):
        rounds, decisions, capped_games = [], [], 0
        for g in range(games):
            result, capped = play([RandomAgent() for _ in range(n)], SEED_BASE + g)
            rounds.append(result.rounds)
            decisions.append(len(result.actions))
            capped_games += capped
        out[n] = {
            "mean_rounds": statistics.mean(rounds),
            "mean_decisions": statistics.mean(decisions),
            "safety_limit_share": capped_games / games,
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--json", help="also write the numbers to this file")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    duel = heuristic_vs_random(args.games)
    print(
        f"heuristic vs random, 2 players, {duel['games']} games (seats rotated): "
        f"wins {duel['wins']} = {duel['win_rate']:.1%} "
        f"[95% CI {duel['win_rate_95ci'][0]:.1%}, {duel['win_rate_95ci'][1]:.1%}], "
        f"shared {duel['shared_wins']}; money {duel['heuristic_money'][0]:.1f} vs "
        f"{duel['random_money'][0]:.1f}; rounds {duel['mean_rounds']:.1f}; "
        f"ended by the safety limit: {duel['safety_limit_games']}"
    )
    solo = solo_levels(args.games)
    names = ("none", "Apprentice", "Experienced", "Master Gallerist")
    shares = ", ".join(f"{names[k]} {v:.1%}" for k, v in solo["level_share"].items())
    print(f"heuristic solo, {solo['games']} games: highest level reached: {shares}")
    print(f"   means: {json.dumps({k: round(v, 2) for k, v in solo['means'].items()})}")
    lengths = random_lengths(max(1, args.games // 4))
    for n, row in lengths.items():
        print(
            f"random play, {n} player(s): {row['mean_rounds']:.1f} rounds, "
            f"{row['mean_decisions']:.0f} decisions, "
            f"safety limit in {row['safety_limit_share']:.0%}"
        )
    print(f"({time.perf_counter() - start:.0f} s)")
    if args.json:
        atomic_write_json(args.json, {"duel": duel, "solo": solo, "random": lengths}, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
