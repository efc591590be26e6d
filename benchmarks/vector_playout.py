"""Could ISMCTS roll out on the compiled engine? Random play-outs to the game's end from
sampled mid-game positions: the Python engine against VectorGame (``set_state`` +
``play_out``), one game per call and B games per call (numbers in docs/vector.md).

Rows (play-outs per second and CPU microseconds per play-out, one thread):
  python        clone the position, random legal actions to the end (ISMCTS's
                ``rollout=random`` with ``rounds=0``)
  vector 1      set_state into a 1-game VectorGame, play_out: one rollout per call, as
                ISMCTS's one-iteration-at-a-time loop would use it
  vector B      set_state into B slots, one play_out for all: a batch of rollouts
                (needs a search that evaluates B leaves at once)
  play_out only the B-game play_out, the start states restored by array copies instead
                of set_state (what set_state's Python conversion costs)

Usage: python benchmarks/vector_playout.py [--players 2 4] [--positions 64] [--seconds 2]
       [--smoke]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from _common import parse_args  # this folder: the --smoke option
from ismcts_speed import sample_positions  # this folder: positions of heuristic play

from art_gallery_env.games.art_gallery.rules.state import GameState
from art_gallery_env.games.art_gallery.vector import VectorGame

SMOKE = {"players": [2], "positions": 4, "seconds": 0.05}
"""``--smoke`` (tests/test_benchmarks_smoke.py): every row once, a few play-outs."""


def rate(work: Callable[[], int], seconds: float) -> tuple[float, float]:
    """(play-outs per wall second, CPU microseconds per play-out) of repeated ``work``."""
    done, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        done += work()
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    return done / wall, used / done * 1e6


def python_playouts(positions: list[GameState]) -> Callable[[], int]:
    rng = random.Random(0)

    def work() -> int:
        for position in positions:
            world = position.clone()
            while not world.is_over:
                world.apply(rng.choice(world.legal_actions()))
        return len(positions)

    return work


def vector_one(positions: list[GameState]) -> Callable[[], int]:
    game = VectorGame(1, positions[0].num_players, seed=0, auto_reset=False, threads=1)

    def work() -> int:
        for position in positions:
            game.set_state(0, position, check=False)
            game.play_out()
        return len(positions)

    return work


def vector_batch(positions: list[GameState], set_states: bool = True) -> Callable[[], int]:
    """B < 1,024 games run in the calling thread (vector.runner), one core as python."""
    game = VectorGame.from_states(positions, seed=0, auto_reset=False, check=False)
    saved = [array.copy() for array in game.state]

    def work() -> int:
        if set_states:
            for i, position in enumerate(positions):
                game.set_state(i, position, check=False)
        else:  # the same games back by copying the arrays (no GameState conversion)
            for array, start in zip(game.state, saved):
                array[...] = start
        game.play_out()
        return len(positions)

    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--positions", type=int, default=64, help="B: games per batch")
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parse_args(parser, SMOKE)
    print(f"{'row':<18} {'play-outs/s':>12} {'CPU us each':>12} {'x python':>9}")
    for players in args.players:
        positions = sample_positions(players, args.positions, seed=players)
        rows = {
            "python": python_playouts(positions),
            "vector 1": vector_one(positions),
            f"vector {len(positions)}": vector_batch(positions),
        }
        for work in rows.values():
            work()  # compile or load the kernels, warm caches
        results = {name: rate(work, args.seconds) for name, work in rows.items()}
        base = results["python"][1]
        for name, (per_second, micros) in results.items():
            print(
                f"{players}p {name:<15} {per_second:>12,.0f} {micros:>12,.1f} {base / micros:>9.1f}"
            )
        only = rate(vector_batch(positions, set_states=False), args.seconds)
        print(f"{players}p {'play_out only':<15} {only[0]:>12,.0f} {only[1]:>12,.1f}")


if __name__ == "__main__":
    main()
