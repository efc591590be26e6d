"""Does the network make the search stronger? The value-guided search against plain ISMCTS
at the same time per decision.

For each checkpoint (a network with a win-share value head, e.g. the generations of an
expert-iteration run), 2-player seat-rotated games of

- ``search:ckpt=C,seconds=S`` — PUCT over information sets with the network's priors and
  its value head at the leaves, no rollouts (``agents/guided_search.py``), against
- the plain search ``--opponent`` with the same ``seconds=S`` per decision (default: the
  rollout ISMCTS with the heuristic's compiled rollouts, the strongest plain configuration
  measured, ``ismcts:topk=4``).

The table gives the guided search's win share with its 95% Wilson interval and the gap to
the even 50%: a network whose value head carries the strength shows a positive gap that
grows with the network's quality (later generations). The games' seeds start at
``--seed`` (keep them apart from every seed used while training or tuning). The load
average (1 minute) is printed beside the table: time budgets make the two searches'
iterations depend on the machine, and both are measured in the same games.

    .venv/bin/python benchmarks/value_search.py [--checkpoints C ...] [--seconds 0.2]
        [--games 200] [--seed 20261207] [--opponent 'ismcts:topk=4'] [--workers 1] [--smoke]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from _common import parse_args  # this folder: the --smoke option

from art_gallery_env.arena import evaluate

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CHECKPOINTS = [str(ROOT / "checkpoints" / "exit_all.safetensors")]
SMOKE = {"games": 2, "seconds": 0.01}


def match(checkpoint: str, args: argparse.Namespace) -> tuple[float, float, float, int, float]:
    """The guided search's win share, its interval, the games and the wall time."""
    budget = f"seconds={args.seconds:g}"
    guided = f"search:ckpt={checkpoint},{budget}"
    plain = f"{args.opponent},{budget}" if ":" in args.opponent else f"{args.opponent}:{budget}"
    started = time.perf_counter()
    result = evaluate(
        [guided, plain], players=2, games=args.games, seed=args.seed, workers=args.workers
    )
    summary = next(s for s in result.summaries if s.agent == guided)
    wall = time.perf_counter() - started
    return summary.win_share, summary.win_ci_low, summary.win_ci_high, len(result.games), wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoints", nargs="+", default=DEFAULT_CHECKPOINTS)
    parser.add_argument("--seconds", type=float, default=0.2, help="per decision, both sides")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20261207, help="the first game's seed")
    parser.add_argument("--opponent", default="ismcts:topk=4", help="the plain search's spec")
    parser.add_argument("--workers", type=int, default=1)
    args = parse_args(parser, SMOKE, argv, smoke_help="2 games at 0.01 s (CI)")
    print(f"value-guided search vs {args.opponent} at {args.seconds:g} s a decision, 2 players")
    print("| checkpoint | games | search win share | 95% CI | gap to 50% | wall s |")
    print("|---|---|---|---|---|---|")
    for checkpoint in args.checkpoints:
        share, low, high, games, wall = match(checkpoint, args)
        print(
            f"| {Path(checkpoint).name} | {games} | {share:.1%} | [{low:.1%}, {high:.1%}] | "
            f"{100 * (share - 0.5):+.1f} | {wall:.0f} |"
        )
    print(f"load {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
