"""Measure the Gallerist agents and game lengths (before ``art-gallery eval`` knows the game).

    python scripts/gallerist_measure.py [--games 400] [--workers 2] [--json out.json]
        [--only duel,solo,lengths,policy,solo_policy]
        [--policy checkpoints/gallerist_2p.safetensors]
        [--plays random,heuristic] [--tables 1,2,3,4]
    python scripts/gallerist_measure.py --smoke     # a few games of each part, seconds

1. ``duel``: the heuristic against the random agent at 2 players, seats rotated (the
   heuristic sits in seat 0 in even games, seat 1 in odd ones): win rate with a 95% Wilson
   interval, mean money of both.
2. ``solo``: the heuristic alone against Lacerda: the share of games whose highest goal
   level is none / Apprentice / Experienced / Master Gallerist, how often each condition
   of the Apprentice level holds, mean money and parts.
3. ``lengths``: rounds and decisions of random play and of heuristic self-play at 1-4
   players, and why each game's end was triggered (G15.1/G17.5 conditions, G15.3 a round
   without location action, G15.3 round limit).
4. ``policy``: the same for a policy checkpoint (``--policy``) at 2 players, against
   itself and against the heuristic (seats rotated): end reasons, rounds, its win rate.

5. ``solo_policy``: a solo checkpoint (``--policy``, e.g. checkpoints/gallerist_solo)
   and the heuristic alone against Lacerda on the same seeds in the same run, as in
   ``solo``: the share of games reaching Apprentice or better of each (95% Wilson
   intervals) and the checkpoint's rate over the heuristic's (the acceptance:
   400 games, >= 2x).

Agents are built with ``make_agent`` (``--heuristic`` takes a spec such as
``heuristic:lookahead=0``); games run through the shared loop
(``art_gallery_env.arena.loop.play_game``), seeds 50,000 + game index, in ``--workers``
processes (results do not depend on the number of workers).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from art_gallery_env.agents.registry import make_agent
from art_gallery_env.arena.evaluate import mean_ci, wilson_interval
from art_gallery_env.arena.loop import play_game
from art_gallery_env.files import atomic_write_json
from art_gallery_env.games.gallerist.env.seat import GalleristSeatObserver
from art_gallery_env.games.gallerist.rules.data import SoloGoal
from art_gallery_env.games.gallerist.rules.scoring import named_goal_conditions
from art_gallery_env.games.gallerist.rules.state import new_game

SEED_BASE = 50_000
LEVELS = ("none", "Apprentice", "Experienced", "Master Gallerist")


def play(specs: list[str], seed: int) -> dict[str, Any]:
    """One game; the numbers the tables need (plain data, so workers can return it)."""
    agents = [make_agent(spec, 1000 * seed + i, game="gallerist") for i, spec in enumerate(specs)]
    state = new_game(len(specs), seed)
    result = play_game(state, agents, GalleristSeatObserver())
    reasons = [e["reason"] for k, e in state.events if k == "end_triggered"]
    return {
        "breakdown": result.breakdown,
        "winners": result.winners,
        "rounds": result.rounds,
        "decisions": len(result.actions),
        "reason": reasons[0] if reasons else "none",
    }


def _play(job: tuple[list[str], int]) -> dict[str, Any]:
    return play(*job)


def run(jobs: list[tuple[list[str], int]], workers: int) -> list[dict[str, Any]]:
    if workers <= 1:
        return [_play(job) for job in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_play, jobs, chunksize=4))


def duel(games: int, heuristic: str, workers: int) -> dict[str, Any]:
    jobs = []
    for g in range(games):
        specs = ["random", "random"]
        specs[g % 2] = heuristic
        jobs.append((specs, SEED_BASE + g))
    results = run(jobs, workers)
    wins = sum(r["winners"] == [g % 2] for g, r in enumerate(results))
    shared = sum(g % 2 in r["winners"] and len(r["winners"]) > 1 for g, r in enumerate(results))
    low, high = wilson_interval(wins, games)
    own = [r["breakdown"][g % 2]["total"] for g, r in enumerate(results)]
    other = [r["breakdown"][1 - g % 2]["total"] for g, r in enumerate(results)]
    return {
        "games": games,
        "wins": wins,
        "shared_wins": shared,
        "win_rate": wins / games,
        "win_rate_95ci": [low, high],
        "heuristic_money": mean_ci(own),
        "random_money": mean_ci(other),
        "mean_rounds": statistics.mean(r["rounds"] for r in results),
    }


def apprentice_conditions(goal: SoloGoal, rows: list[dict[str, Any]]) -> dict[str, float]:
    """Per condition of the first goal level (G17.6), named as "4+ reputation tiles", the
    share of ``rows`` (breakdown rows) that meet it."""
    met: Counter[str] = Counter()
    for row in rows:
        for name, have, asked in named_goal_conditions(goal, row):
            met[f"{asked:g}+ {name}"] += have >= asked
    return {name: count / len(rows) for name, count in met.items()}


def solo(games: int, heuristic: str, workers: int) -> dict[str, Any]:
    results = run([([heuristic], SEED_BASE + g) for g in range(games)], workers)
    rows = [r["breakdown"][0] for r in results]
    first = new_game(1, 0).data.solo_goals[0]
    levels = Counter(row["goal_level"] for row in rows)
    keys = ("total", "exhibition", "reputation", "majorities", "auction", "curator", "dealer")
    keys += ("curator_goals", "dealer_goals", "reputation_tiles", "masterpieces")
    return {
        "games": games,
        "level_share": {LEVELS[k]: levels[k] / games for k in range(4)},
        "at_least": {LEVELS[k]: sum(levels[j] for j in range(k, 4)) / games for k in (1, 2, 3)},
        "apprentice_conditions": apprentice_conditions(first, rows),
        "money": mean_ci([row["total"] for row in rows]),
        "means": {k: statistics.mean(float(row[k]) for row in rows) for k in keys},
        "mean_rounds": statistics.mean(r["rounds"] for r in results),
        "end_reasons": dict(Counter(r["reason"] for r in results)),
    }


def lengths(
    games: int,
    heuristic: str,
    workers: int,
    plays: tuple[str, ...] = ("random", "heuristic"),
    tables: tuple[int, ...] = (1, 2, 3, 4),
) -> dict[str, Any]:
    """Self-play of each of ``plays`` at each table size; each row is printed when done."""
    out: dict[str, Any] = {}
    for label in plays:
        spec = heuristic if label == "heuristic" else label
        for n in tables:
            results = run([([spec] * n, SEED_BASE + g) for g in range(games)], workers)
            out[f"{label} {n}p"] = _ends(results, games)
            _print_ends(f"{label} {n}p", out[f"{label} {n}p"])
    return out


def policy(games: int, heuristic: str, checkpoint: str, workers: int) -> dict[str, Any]:
    """A checkpoint at 2 players: against itself, and against the heuristic (rotated)."""
    out: dict[str, Any] = {"checkpoint": checkpoint}
    try:
        make_agent(checkpoint, 0, game="gallerist")
    except (OSError, ValueError) as err:  # a checkpoint of another layout: said, not raised
        out["error"] = str(err)
        return out
    self_play = run([([checkpoint] * 2, SEED_BASE + g) for g in range(games)], workers)
    out["self-play"] = _ends(self_play, games)
    jobs = []
    for g in range(games):
        specs = [heuristic, heuristic]
        specs[g % 2] = checkpoint
        jobs.append((specs, SEED_BASE + g))
    duel_games = run(jobs, workers)
    out["vs heuristic"] = _ends(duel_games, games)
    out["vs heuristic"]["policy_wins"] = sum(
        r["winners"] == [g % 2] for g, r in enumerate(duel_games)
    )
    return out


def solo_policy(games: int, heuristic: str, checkpoint: str, workers: int) -> dict[str, Any]:
    """A solo checkpoint and the heuristic on the same seeds: each one's ``solo`` table,
    the Apprentice-or-better rates with Wilson intervals and their ratio."""
    out: dict[str, Any] = {"checkpoint": checkpoint, "games": games}
    try:
        make_agent(checkpoint, 0, game="gallerist")
    except (OSError, ValueError) as err:  # a checkpoint of another layout: said, not raised
        out["error"] = str(err)
        return out
    for label, spec in (("policy", checkpoint), ("heuristic", heuristic)):
        table = out[label] = solo(games, spec, workers)
        reached = round(table["at_least"]["Apprentice"] * games)
        table["apprentice_or_better"] = reached
        table["apprentice_or_better_95ci"] = list(wilson_interval(reached, games))
    rate, base = (out[k]["at_least"]["Apprentice"] for k in ("policy", "heuristic"))
    out["ratio"] = rate / base if base else None
    return out


def _print_solo(s: dict[str, Any], label: str = "heuristic") -> None:
    shares = ", ".join(f"{k} {v:.1%}" for k, v in s["level_share"].items())
    print(f"{label} solo, {s['games']} games, highest level: {shares}")
    conditions = ", ".join(f"{k} {v:.0%}" for k, v in s["apprentice_conditions"].items())
    print(f"   Apprentice conditions met: {conditions}")
    print(
        f"   money {s['money'][0]:.1f} (95% CI +-{s['money'][1]:.1f}); rounds "
        f"{s['mean_rounds']:.1f}; ends {s['end_reasons']}"
    )
    print(f"   means: {json.dumps({k: round(v, 2) for k, v in s['means'].items()})}")


def _print_solo_policy(out: dict[str, Any]) -> None:
    if "error" in out:
        print(f"solo policy: not measured: {out['error']}")
        return
    for label in ("policy", "heuristic"):
        row = out[label]
        _print_solo(row, label)
        low, high = row["apprentice_or_better_95ci"]
        print(
            f"solo {label}, {out['games']} games: Apprentice or better "
            f"{row['apprentice_or_better']} = {row['at_least']['Apprentice']:.1%} "
            f"[95% CI {low:.1%}, {high:.1%}]; money {row['money'][0]:.1f}"
        )
    ratio = "n/a (the heuristic reached none)" if out["ratio"] is None else f"{out['ratio']:.2f}x"
    print(f"   policy / heuristic: {ratio} ({out['checkpoint']})")


def _ends(results: list[dict[str, Any]], count: int) -> dict[str, Any]:
    reasons = Counter(r["reason"] for r in results)
    return {
        "games": count,
        "mean_rounds": statistics.mean(r["rounds"] for r in results),
        "max_rounds": max(r["rounds"] for r in results),
        "mean_decisions": statistics.mean(r["decisions"] for r in results),
        "end_reasons": {k: v / count for k, v in sorted(reasons.items())},
    }


def _print_ends(label: str, row: dict[str, Any]) -> None:
    reasons = ", ".join(f"{k} {v:.0%}" for k, v in row["end_reasons"].items())
    print(
        f"{label}: {row['mean_rounds']:.1f} rounds (max {row['max_rounds']}), "
        f"{row['mean_decisions']:.0f} decisions; end triggered by {reasons}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--length-games", type=int, default=100, help="per table size")
    parser.add_argument("--heuristic", default="heuristic", help="agent spec")
    parser.add_argument("--policy", default="checkpoints/gallerist_2p.safetensors")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", default="duel,solo,lengths")
    parser.add_argument("--plays", default="random,heuristic", help="lengths: whose self-play")
    parser.add_argument("--tables", default="1,2,3,4", help="lengths: table sizes")
    parser.add_argument("--json", help="also write the numbers to this file")
    parser.add_argument("--smoke", action="store_true", help="2 games of each part")
    args = parser.parse_args(argv)
    if args.smoke:
        args.games = args.length_games = 2
        args.heuristic = "heuristic:lookahead=0"
        args.only = "duel,solo,lengths,policy,solo_policy"
    parts = set(args.only.split(","))
    start = time.perf_counter()
    out: dict[str, Any] = {"heuristic": args.heuristic}
    if "duel" in parts:
        d = out["duel"] = duel(args.games, args.heuristic, args.workers)
        print(
            f"heuristic vs random, 2 players, {d['games']} games (seats rotated): wins "
            f"{d['wins']} = {d['win_rate']:.1%} [95% CI {d['win_rate_95ci'][0]:.1%}, "
            f"{d['win_rate_95ci'][1]:.1%}], shared {d['shared_wins']}; money "
            f"{d['heuristic_money'][0]:.1f} vs {d['random_money'][0]:.1f}; "
            f"rounds {d['mean_rounds']:.1f}"
        )
    if "solo" in parts:
        out["solo"] = solo(args.games, args.heuristic, args.workers)
        _print_solo(out["solo"])
    if "lengths" in parts:
        plays = tuple(args.plays.split(","))
        tables = tuple(int(n) for n in args.tables.split(","))
        out["lengths"] = lengths(args.length_games, args.heuristic, args.workers, plays, tables)
    if "policy" in parts:
        out["policy"] = policy(args.length_games, args.heuristic, args.policy, args.workers)
        if "error" in out["policy"]:
            print(f"policy: not measured: {out['policy']['error']}")
        for label in ("self-play", "vs heuristic") if "error" not in out["policy"] else ():
            _print_ends(f"policy 2p {label}", out["policy"][label])
        if "error" not in out["policy"]:
            wins = out["policy"]["vs heuristic"]["policy_wins"]
            print(f"   policy wins {wins} of {args.length_games} against the heuristic")
    if "solo_policy" in parts:
        out["solo_policy"] = solo_policy(args.games, args.heuristic, args.policy, args.workers)
        _print_solo_policy(out["solo_policy"])
    print(f"({time.perf_counter() - start:.0f} s)")
    if args.json:
        atomic_write_json(args.json, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
