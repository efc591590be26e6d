"""How closely can the policy network imitate the heuristic? (a bound, in
docs/training.md "What bounds it".)

The ``ppo_all`` recipe starts PPO from a behaviour clone of heuristic version 2; a clone
that plays worse than its teacher starts PPO below the heuristic it must beat. This
script measures, per table size and per decision kind (move, bid, shop, card pick):

  teacher   how often two heuristic copies with different seeds choose the same action on
            the same state (the ceiling: the heuristic samples hidden cards, R8)
  clone     held-out agreement of a freshly cloned [hidden] MLP with the heuristic (the
            same data, split and loss as the warm start), or of --checkpoint
  elsewhere moves whose destination area differs from the teacher's (the rest of the
            move misses spend another card to reach the same area)

Usage: python benchmarks/clone_fidelity.py [--games 200] [--sizes 2 4 6] [--epochs 5]
       [--hidden 256 256] [--teacher-games 40] [--checkpoint FILE] [--smoke]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence

import numpy as np

from art_gallery_env.agents.policy_format import CheckpointError
from art_gallery_env.agents.registry import make_agent
from art_gallery_env.arena.loop import play_game
from art_gallery_env.games.art_gallery.env.observation import FIELDS
from art_gallery_env.games.art_gallery.rules.actions import BID_BASE, PICK_BASE, SHOP_BASE
from art_gallery_env.games.art_gallery.rules.board import move_destinations
from art_gallery_env.games.art_gallery.rules.state import new_game
from art_gallery_env.training import warm_start
from art_gallery_env.training.config import WarmStartConfig

KINDS = ("move", "bid", "shop", "pick")
_POSITION = next(f for f in FIELDS if f.name == "position")
_AREAS = next(f for f in FIELDS if f.name == "area_exists")
SMOKE = {"games": 10, "sizes": [2], "epochs": 1, "hidden": [16], "teacher_games": 1}
"""``--smoke`` (tests/test_benchmarks_smoke.py): a tiny clone of a few games."""


def kind_of(actions: np.ndarray) -> np.ndarray:
    """0 move, 1 bid, 2 shop, 3 card pick (the Discrete(47) ranges)."""
    return np.digitize(actions, [BID_BASE, SHOP_BASE, PICK_BASE])


def destination(observation: np.ndarray, move: int) -> int:
    """The area a move action reaches from the observer's area (R4.3)."""
    here = int(np.argmax(observation[_POSITION.offset : _POSITION.offset + _POSITION.shape[1]]))
    areas = int(observation[_AREAS.offset : _AREAS.offset + _AREAS.size].sum())
    return move_destinations(areas)[here][move]


class _Twins:
    """Plays heuristic copy ``a`` and counts how often copy ``b`` (another seed) agrees."""

    def __init__(self, seed: int, counts: np.ndarray) -> None:
        self.a = make_agent("heuristic", seed=seed)
        self.b = make_agent("heuristic", seed=seed + 1_000_003)
        self.counts = counts  # [kind, (agreed, total)]

    def reset(self, seed: int | None = None) -> None:
        self.a.reset(seed)
        self.b.reset(None if seed is None else seed + 1_000_003)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: object) -> int:
        action = int(self.a.act(observation, action_mask, view))
        kind = int(kind_of(np.asarray([action]))[0])
        self.counts[kind] += (int(self.b.act(observation, action_mask, view) == action), 1)
        return action


def teacher_agreement(players: int, games: int) -> np.ndarray:
    counts = np.zeros((len(KINDS), 2), dtype=np.int64)
    for g in range(games):
        seats = [_Twins(10_000 * g + s, counts) for s in range(players)]
        for s, seat in enumerate(seats):
            seat.reset(100 * g + s)
        play_game(new_game(players, 7_000 + g), seats)
    return counts


def fresh_clone(
    data: dict[str, np.ndarray], ws: WarmStartConfig, hidden: list[int], seed: int
) -> Callable:
    """A MaskablePPO policy cloned exactly as the warm start does; returns its greedy act."""
    import torch

    from art_gallery_env.training.sb3_trainer import new_mlp_model

    model = new_mlp_model(hidden)  # seeds torch itself (seed 0)
    model.policy.set_training_mode(True)
    warm_start.clone(model.policy, data, ws, seed)  # the split below uses the same seed
    model.policy.set_training_mode(False)

    def greedy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            tensor = torch.as_tensor(obs, dtype=torch.float32)
            return model.policy.get_distribution(tensor, mask).mode().numpy()

    return greedy


def checkpoint_act(path: str) -> Callable:
    from art_gallery_env.agents.policy import PolicyAgent

    agent = PolicyAgent(path)
    return lambda obs, mask: np.asarray(
        [agent.act(o.astype(np.float32), m, None) for o, m in zip(obs, mask, strict=True)]
    )


def clone_agreement(held: dict[str, np.ndarray], act: Callable, players: int) -> dict:
    rows = held["players"] == players
    obs, mask, teacher = held["obs"][rows], held["mask"][rows], held["action"][rows]
    batches = range(0, len(teacher), 2048)
    chosen = np.concatenate([act(obs[i : i + 2048], mask[i : i + 2048]) for i in batches])
    kinds = kind_of(teacher)
    out = {
        kind: float(np.mean(chosen[kinds == k] == teacher[kinds == k]))
        for k, kind in enumerate(KINDS)
    }
    out["all"] = float(np.mean(chosen == teacher))
    moves = np.flatnonzero((kinds == 0) & (chosen != teacher))
    elsewhere = sum(
        destination(obs[i], chosen[i]) != destination(obs[i], teacher[i]) for i in moves
    )
    out["elsewhere"] = elsewhere / max(1, int(np.sum(kinds == 0)))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="teacher games per table size")
    parser.add_argument("--sizes", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    parser.add_argument("--teacher-games", type=int, default=40)
    parser.add_argument("--checkpoint", help="measure this policy instead of a fresh clone")
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="teacher games' seed; a warm-started checkpoint cloned seed 0's games, so "
        "measure it on another seed",
    )
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, seconds (CI)")
    args = parser.parse_args(argv)
    if args.smoke:  # tiny defaults; options given on the command line still win
        parser.set_defaults(**SMOKE)
        args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    start = time.time()
    if args.checkpoint:  # a bad file is reported before minutes of teacher games
        try:
            act, who = checkpoint_act(args.checkpoint), args.checkpoint
        except CheckpointError as error:
            parser.error(str(error))
    data = warm_start.collect("heuristic", args.sizes, args.games, seed=args.seed, explore=0.1)
    ws = WarmStartConfig(bc_games=args.games, epochs=args.epochs, batch_size=512, holdout=0.1)
    _, held = warm_start.split(data, ws.holdout, args.seed)
    if not all(np.any(held["players"] == n) for n in args.sizes):
        parser.error(
            f"--games {args.games}: too few to hold out a game of every table size; use more"
        )
    if not args.checkpoint:
        act, who = (
            fresh_clone(data, ws, args.hidden, args.seed),
            f"a clone {args.hidden}, {args.epochs} epochs",
        )
    print(f"{len(data['action']):,} teacher decisions; measured: {who}")
    print("| players | kind | teacher self-agreement | clone agreement | move to another area |")
    print("|---|---|---|---|---|")
    for n in args.sizes:
        twins = teacher_agreement(n, args.teacher_games)
        clone = clone_agreement(held, act, n)
        for k, kind in enumerate(KINDS):
            agreed, total = twins[k]
            extra = f"{clone['elsewhere']:.1%}" if kind == "move" else ""
            print(f"| {n} | {kind} | {agreed / max(total, 1):.1%} | {clone[kind]:.1%} | {extra} |")
        print(f"| {n} | all | {twins[:, 0].sum() / twins[:, 1].sum():.1%} | {clone['all']:.1%} | |")
    print(f"({time.time() - start:.0f} s)")


if __name__ == "__main__":
    main()
