"""Milliseconds per drawn frame at 2-6 players: the SVG itself, the rgb_array frame
(CairoSVG's surface read directly), CairoSVG via PNG, and resvg-py if it is installed
(the rasteriser that was not chosen), measured interleaved in one run.

Usage: python benchmarks/render_speed.py [--states 4] [--repeats 3] [--players 2 3 4 5 6]
       [--smoke]

Machines are shared and noisy: each number is the median over states and repeats;
compare the columns of one run, not numbers across runs.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import time
from collections.abc import Callable

import numpy as np
from _common import parse_args  # this folder: the --smoke option

from art_gallery_env.games.art_gallery.env.raster import svg_to_rgb
from art_gallery_env.games.art_gallery.env.svg import canvas_size, render_svg
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game

SMOKE = {"states": 1, "repeats": 1, "players": [2]}
"""``--smoke`` (tests/test_benchmarks_smoke.py): one frame each way."""


def mid_game_states(players: int, count: int) -> list[GameState]:
    """States spread over one random game (later states have longer collections)."""
    state, rng, trace = new_game(players, 1), random.Random(1), []
    while not state.is_over:
        trace.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    step = max(1, len(trace) // (count + 1))
    return [trace[step * (k + 1)] for k in range(count)]


def via_png(svg: str) -> np.ndarray:
    import cairosvg
    import imageio.v3 as iio

    return iio.imread(io.BytesIO(cairosvg.svg2png(bytestring=svg.encode())), extension=".png")


def via_resvg(svg: str) -> np.ndarray:
    import imageio.v3 as iio
    import resvg_py

    return iio.imread(io.BytesIO(bytes(resvg_py.svg_to_bytes(svg_string=svg))), extension=".png")


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=list(range(2, 7)))
    args = parse_args(parser, SMOKE)
    try:
        import resvg_py  # noqa: F401

        has_resvg = True
    except ImportError:
        has_resvg = False
    print(
        "| players | frame (px) | render_svg ms | rgb_array ms "
        "| cairosvg PNG+decode ms | resvg-py PNG+decode ms |"
    )
    print("|---|---|---|---|---|---|")
    for players in args.players:
        times: dict[str, list[float]] = {"svg": [], "rgb": [], "png": [], "resvg": []}
        for state in mid_game_states(players, args.states):
            svg = render_svg(state, 0)
            for _ in range(args.repeats):
                times["svg"].append(timed(lambda s=state: render_svg(s, 0)))
                times["rgb"].append(timed(lambda v=svg: svg_to_rgb(v)))
                times["png"].append(timed(lambda v=svg: via_png(v)))
                if has_resvg:
                    times["resvg"].append(timed(lambda v=svg: via_resvg(v)))
        width, height = canvas_size(players)
        cells = [
            f"{statistics.median(times[key]):.0f}" if times[key] else "-"
            for key in ("svg", "rgb", "png", "resvg")
        ]
        cells[0] = f"{statistics.median(times['svg']):.1f}"
        print(f"| {players} | {width}x{height} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
