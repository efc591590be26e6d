"""``art-gallery demo``: one seeded game between random agents, and how it ended."""

from __future__ import annotations

import argparse

from . import options

HELP = "play one seeded demo game and print the score breakdown"


def add(sub: argparse._SubParsersAction) -> None:
    demo = options.subcommand(sub, "demo", run, HELP)
    options.add_game(demo)
    options.add_players(demo, default=2)  # as eval and play
    options.add_seed(demo, 7, "game seed (default 7)")
    demo.add_argument("--verbose", action="store_true", help="print every decision")


def run(args: argparse.Namespace) -> int:
    from art_gallery_env.agents.random_agent import RandomAgent
    from art_gallery_env.arena.loop import Decision, play_game
    from art_gallery_env.core.registry import get_game

    game = get_game(args.game)
    try:
        state = game.setup(args.players, args.seed, options.variants(args))
    except ValueError as err:
        args.parser.error(str(err))
    agents = [RandomAgent(seed=args.seed * 100 + seat) for seat in range(args.players)]

    def show(decision: Decision) -> None:
        name = game.action_to_str(decision.action)
        print(f"decision {decision.index + 1} player {decision.seat}: {name}")

    result = play_game(state, agents, on_decision=show if args.verbose else None)
    print(game.render_text(state, None))
    print()
    print(f"{len(result.actions)} decisions, {state.round} rounds, seed {args.seed}")
    print(game.render_breakdown(result.breakdown))
    return 0
