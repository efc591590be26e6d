"""Speed of the framework bridges against the plain AEC env, measured in one run.

Every row plays uniformly random legal actions (masked) for a fixed wall time and counts
decisions, building each acting seat's observation as an agent would read it; for the
Gymnasium env a step is one *learner* decision (the opponents' moves happen inside
``step``). Rows that need an extra are skipped without it.

    .venv/bin/python benchmarks/bridges_speed.py [--seconds 5] [--resample-states 300] [--smoke]
"""

from __future__ import annotations

import argparse
import os
import time
import warnings
from collections.abc import Callable

import numpy as np
from _common import parse_args  # this folder: the --smoke option

from art_gallery_env.games.art_gallery.env.aec import raw_env

SMOKE = {"seconds": 0.05, "resample_states": 20}
"""``--smoke`` (tests/test_benchmarks_smoke.py): every row, each for a moment."""


def aec(players: int, seconds: float) -> tuple[float, str]:
    env = raw_env(players)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        agent = env.agent_selection
        if env.terminations[agent]:
            env.reset()
            continue
        mask = env.observe(agent)["action_mask"]  # the observation an agent reads, and its mask
        env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    return steps / (time.perf_counter() - start), "decisions/s"


def gym(players: int, opponents: str, seconds: float) -> tuple[float, str]:
    import gymnasium

    import art_gallery_env

    env = gymnasium.make(art_gallery_env.GYM_ENV_ID, num_players=players, opponents=opponents)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    steps, episodes, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, _, done, _, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
        steps += 1
        if done:
            episodes += 1
            obs, info = env.reset()
    rate = steps / (time.perf_counter() - start)
    return rate, f"learner steps/s ({steps / max(episodes, 1):.0f} per game)"


def openspiel(players: int, seconds: float) -> tuple[float, str]:
    import pyspiel

    import art_gallery_env.games.art_gallery.openspiel_game  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_art_gallery", {"players": players})
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    decisions = chance = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if state.is_terminal():
            state, games = game.new_initial_state(), games + 1
        elif state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            chance += 1
        else:
            state.observation_tensor(state.current_player())  # what a learning agent reads
            state.apply_action(int(rng.choice(state.legal_actions())))
            decisions += 1
    rate = decisions / (time.perf_counter() - start)
    return rate, f"decisions/s (+{chance / max(decisions, 1):.2f} chance nodes per decision)"


def openspiel_search_ops(players: int, count: int = 300) -> tuple[float, str]:
    """Mean µs of clone and of resample_from_infostate at mid-game decisions."""
    import pyspiel

    import art_gallery_env.games.art_gallery.openspiel_game  # noqa: F401

    game = pyspiel.load_game("python_art_gallery", {"players": players})
    rng = np.random.default_rng(1)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    states = []
    state = game.new_initial_state()
    while len(states) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            states.append(state.clone())
            state.apply_action(int(rng.choice(state.legal_actions())))
    t0 = time.perf_counter()
    for s in states:
        s.clone()
    t1 = time.perf_counter()
    for s in states:
        s.resample_from_infostate(s.current_player(), sampler)
    t2 = time.perf_counter()
    clone_us, resample_us = 1e6 * (t1 - t0) / count, 1e6 * (t2 - t1) / count
    return resample_us, f"µs per resample_from_infostate (clone alone: {clone_us:.0f} µs)"


def torchrl(players: int, seconds: float) -> tuple[float, str]:
    from art_gallery_env.bridges.torchrl_env import torchrl_env

    env = torchrl_env(players, seed=0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += env.rollout(10_000, break_when_any_done=True).batch_size[0]
    return steps / (time.perf_counter() - start), "decisions/s (rollout, random masked)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--resample-states", type=int, default=300, help="OpenSpiel resample row")
    args = parse_args(parser, SMOKE, argv)
    warnings.filterwarnings("ignore")
    s, states = args.seconds, args.resample_states
    rows: list[tuple[str, Callable[[], tuple[float, str]]]] = [
        ("PettingZoo AEC `raw_env`, 2 players", lambda: aec(2, s)),
        ("PettingZoo AEC `raw_env`, 4 players", lambda: aec(4, s)),
        ("Gymnasium `ArtGallery-v1`, 2 players, random opponent", lambda: gym(2, "random", s)),
        ("Gymnasium `ArtGallery-v1`, 4 players, 3 heuristic", lambda: gym(4, "heuristic", s)),
        ("OpenSpiel `python_art_gallery`, 2 players", lambda: openspiel(2, s)),
        ("OpenSpiel `python_art_gallery`, 4 players", lambda: openspiel(4, s)),
        ("OpenSpiel resample (ISMCTS world), 4 players", lambda: openspiel_search_ops(4, states)),
        ("TorchRL `PettingZooWrapper`, 2 players", lambda: torchrl(2, s)),
    ]
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start")
    print("| bridge | rate | unit |")
    print("|---|---:|---|")
    for name, fn in rows:
        try:
            rate, unit = fn()
        except ImportError as err:
            print(f"| {name} | skipped | {err} |")
            continue
        print(f"| {name} | {rate:,.0f} | {unit} |", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
