"""The ``art-gallery`` command line."""

from __future__ import annotations

import argparse
import random
import sys

from art_gallery_env import new_game
from art_gallery_env.env.render import render_breakdown, render_text
from art_gallery_env.rules.actions import action_to_str


def _demo(args: argparse.Namespace) -> int:
    """Play one seeded game with uniformly random legal moves and print how it ended."""
    state = new_game(args.players, args.seed, zero_is_ten=args.zero_is_ten)
    rng = random.Random(args.seed)
    decisions = 0
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        if args.verbose:
            print(f"round {state.round} player {state.current_player}: {action_to_str(action)}")
        state.apply(action)
        decisions += 1
    print(render_text(state, viewer=None))
    print()
    print(f"{decisions} decisions, {state.round} rounds, seed {args.seed}")
    print(render_breakdown(state.score_breakdown()))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="art-gallery",
        description="Art Gallery: a PettingZoo environment, agents and tools.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = sub.add_parser("demo", help="play one seeded demo game and print the score breakdown")
    demo.add_argument("--players", type=int, choices=range(2, 7), default=4, metavar="{2..6}")
    demo.add_argument("--seed", type=int, default=7)
    demo.add_argument("--zero-is-ten", action="store_true", help="rule variant R5.6")
    demo.add_argument("--verbose", action="store_true", help="print every decision")
    demo.set_defaults(func=_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
