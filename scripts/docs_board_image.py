"""Regenerate docs/images/board-4p.png: a 4-player game between heuristic agents, in
round 4 after 11 turns, drawn from seat 1's view (so other seats' bids are face down).

    python scripts/docs_board_image.py
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from art_gallery_env.agents import make_agent
from art_gallery_env.arena.loop import play
from art_gallery_env.games.art_gallery.env.seat import SeatObserver
from art_gallery_env.games.art_gallery.env.svg import render_svg
from art_gallery_env.games.art_gallery.rules.phases import MOVE
from art_gallery_env.games.art_gallery.rules.state import new_game

ROOT = Path(__file__).resolve().parent.parent

OUT = ROOT / "docs" / "images" / "board-4p.png"
SEED, ROUND, TURN, VIEWER = 3, 4, 11, 1


def main() -> None:
    import cairosvg

    state = new_game(4, SEED)
    agents = [make_agent("heuristic", SEED + seat) for seat in range(4)]
    play(
        state,
        agents,
        SeatObserver(state.cards),
        stop=lambda s: s.round == ROUND and s.phase == MOVE and s.turn == TURN,
    )
    if state.is_over:
        raise SystemExit("the game ended before the chosen position; pick another")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".board-", suffix=".png", dir=OUT.parent)
    with os.fdopen(fd, "wb") as handle:
        handle.write(cairosvg.svg2png(bytestring=render_svg(state, VIEWER).encode()))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, OUT)
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size // 1024} KB, {state!r}")


if __name__ == "__main__":
    main()
