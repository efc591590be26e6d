"""Memory of a VectorGame with its observation and mask buffers (target: B = 4,096
games at 6 players must fit in under 1 GB). Result in docs/vector.md.

Usage: python benchmarks/vector_memory.py [--envs 4096] [--players 6] [--steps 300] [--smoke]

Reports the bytes of the arrays (game state, one observation per game, one mask per
game, the step outputs) and the process's peak resident memory before and after
creating and playing them (the peak includes Python, numpy, numba and its compiler).
"""

from __future__ import annotations

import argparse
import resource

import numpy as np
from _common import parse_args  # this folder: the --smoke option

from art_gallery_env.games.art_gallery.env.observation import OBSERVATION_SIZE
from art_gallery_env.games.art_gallery.rules.actions import NUM_ACTIONS
from art_gallery_env.games.art_gallery.vector import VectorGame

MB = 1024 * 1024
SMOKE = {"envs": 8, "steps": 5}
"""``--smoke`` (tests/test_benchmarks_smoke.py): a few games, a few steps."""


def peak_rss() -> int:
    """Peak resident set size of this process in bytes (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=4096)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--steps", type=int, default=300)
    args = parse_args(parser, SMOKE)

    VectorGame(2, args.players, seed=0).observe()  # load the kernels first: not game memory
    before = peak_rss()
    game = VectorGame(args.envs, args.players, seed=1)
    obs = np.empty((args.envs, OBSERVATION_SIZE), dtype=np.float32)
    masks = np.empty((args.envs, NUM_ACTIONS), dtype=np.bool_)
    step_bytes = 0
    for _ in range(args.steps):
        game.legal_mask(out=masks)
        game.observe(out=obs)
        rewards, dones = game.step(game.random_actions())
        step_bytes = rewards.nbytes + dones.nbytes
    after = peak_rss()

    arrays = game.nbytes + obs.nbytes + masks.nbytes + step_bytes
    print(f"B={args.envs} games, {args.players} players, {args.steps} steps with observations")
    print(f"game state arrays      {game.nbytes / MB:8.1f} MB")
    print(f"observation buffer     {obs.nbytes / MB:8.1f} MB")
    print(f"mask buffer            {masks.nbytes / MB:8.1f} MB")
    print(f"step outputs           {step_bytes / MB:8.1f} MB")
    print(f"all arrays             {arrays / MB:8.1f} MB")
    print(f"peak RSS before        {before / MB:8.1f} MB (Python, numpy, numba, kernels)")
    print(f"peak RSS after         {after / MB:8.1f} MB (+{(after - before) / MB:.1f} MB)")
    print(f"memory: arrays={arrays / MB:.1f}MB peak_rss={after / MB:.1f}MB")


if __name__ == "__main__":
    main()
