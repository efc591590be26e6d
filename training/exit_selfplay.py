"""Expert iteration's self-play games (:mod:`.expert_iteration`), numpy only.

One task is one game: the network of the generation before (its weights-only file, loaded
once per process) guides :class:`~art_gallery_env.agents.guided_search.GuidedSearch` in
every seat, through the arena's one game loop. Each decision with more than one legal
action records the seat's observation, its mask and the root's visit distribution (the
policy target); once the game is over every row gets its seat's win share (the value
target). A seat plays its first ``temperature_moves`` searched decisions by sampling the
visit distribution (exploration), then the most visited action.

With ``topk`` > 0 the search is the rollout mode (the network's top-K root actions valued
by the game's compiled rollouts, ``iters`` rollouts a decision). Its sweeps give every
candidate the same count, so visits are no target; the policy target is instead
``softmax(mean / target_temperature)`` over the candidates (``value_policy``), 0 elsewhere,
and the sampled moves are drawn from it. Why not the chosen action one-hot (smoothed over
the candidates): it says "this one" as loudly when it won by noise as when it won by a
wide margin; the softmax carries the margin, so near-ties stay near-even (the network is
not pushed by the noise of ``iters // K`` sweeps) and a clear winner gets most of the mass.
With ``target_prior`` (the default) the target is ``prior * exp(mean / T)`` renormalised
over the candidates, ``prior`` the search's root priors without the noise (the net's
softmax at ``prior_temperature``): the KL-regularised improvement of the network's own
policy. Where the rollouts see no difference (a round-end horizon often cannot) the net's
choice stays instead of being spread evenly over the candidates.

A task depends only on its own seeds, never on the process that plays it or on the other
tasks, so a generation's data is the same for any number of workers. No torch here: the
workers import numpy and the game only (about 60 MB each, not 250).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from art_gallery_env.agents.base import Agent
from art_gallery_env.arena.evaluate import derive_seed
from art_gallery_env.core import loop
from art_gallery_env.core.protocol import SeatView
from art_gallery_env.core.registry import get_game
from art_gallery_env.core.scoring import win_shares


@dataclass(frozen=True)
class SelfPlayTask:
    """One self-play game: who plays (the weights file) and every seed it uses."""

    index: int  # the game's number in its generation (its rows' ``game`` id)
    weights: str  # the weights-only checkpoint guiding every seat
    game: str
    num_players: int
    seed: int  # the deal; the seats' searches and samples derive theirs from it
    variants: Mapping[str, Any]
    iters: int
    c_puct: float
    search_batch: int
    dirichlet: float
    temperature_moves: int
    prior_temperature: float = 1.0
    topk: int = 0  # > 0: the rollout mode's K candidates (0: PUCT)
    target_temperature: float = 0.05  # the rollout mode's policy target (the docstring)
    target_prior: bool = True  # the target weighs the search's priors in (the docstring)
    # each seat's opponent by agent spec, None where the learner's search sits (the
    # league, training/league.py); empty: the learner in every seat
    opponents: tuple[str | None, ...] = ()


_NETS: dict[tuple[str, int, int], Any] = {}


def load_net(path: str) -> Any:
    """The numpy policy of a weights file, once per process per file version."""
    from art_gallery_env.agents.policy_format import load_weights

    stat = os.stat(path)
    key = (str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _NETS:
        _NETS.clear()  # one generation's net at a time
        _NETS[key] = load_weights(path)
    return _NETS[key]


class _SearchSeat(Agent):
    """One seat of a self-play game: searches, records the decision, plays."""

    name = "exit-selfplay"

    def __init__(self, search: Any, seat: int, rows: list[tuple], task: SelfPlayTask) -> None:
        self.search, self.seat, self.rows = search, seat, rows
        self.temperature_moves = task.temperature_moves
        self.target_temperature = task.target_temperature if task.topk else None
        self.prior_temperature = task.prior_temperature if task.target_prior else None
        self.rng = np.random.default_rng(derive_seed(task.seed, "temperature", seat))
        self.searched = 0

    def _prior(self, observation: Any, mask: np.ndarray) -> np.ndarray | None:
        """The search's root priors without the Dirichlet noise (the net's masked softmax
        at the prior temperature), or None where the target leaves them out."""
        if self.prior_temperature is None:
            return None
        logits = np.asarray(self.search.net.logits(np.asarray(observation)[None]), np.float64)
        x = np.where(mask, logits.reshape(-1) / self.prior_temperature, -np.inf)
        weights = np.exp(x - x.max())
        return weights / weights.sum()

    def act(self, observation: Any, action_mask: Any, view: SeatView | None = None) -> int:
        mask = np.asarray(action_mask).astype(bool)
        legal = np.flatnonzero(mask)
        if len(legal) == 1:  # a forced move teaches nothing: not searched, not recorded
            return int(legal[0])
        assert view is not None  # the arena's loop always passes the seat's view
        result = self.search.run(view)
        if self.target_temperature is not None:  # the rollout mode: its means' softmax
            prior = self._prior(observation, mask)
            weights = _value_policy()(result, self.target_temperature, prior) * mask
        else:
            weights = np.asarray(result.visits, dtype=np.float64) * mask
        total = weights.sum()
        target = weights / total if total > 0 else mask / mask.sum()
        self.rows.append(
            (np.asarray(observation, np.float16), mask, target.astype(np.float32), self.seat)
        )
        if self.searched < self.temperature_moves:
            action = int(self.rng.choice(len(target), p=target))
        else:
            action = int(result.action)
        self.searched += 1
        return action


def _search_class() -> Any:
    from art_gallery_env.agents.guided_search import GuidedSearch

    return GuidedSearch


def _value_policy() -> Any:
    from art_gallery_env.agents.guided_search import value_policy

    return value_policy


def _opponent(spec: str, seed: int, game: str) -> Agent:
    """A league seat's fixed player (its decisions give no rows)."""
    from art_gallery_env.agents.registry import make_agent

    agent = make_agent(spec, seed=seed, game=game)
    agent.reset(seed)
    return agent


def play_selfplay_game(task: SelfPlayTask) -> dict[str, Any]:
    """Play one self-play game; returns its rows (arrays) and a few counts."""
    spec = get_game(task.game)
    net = load_net(task.weights)
    search_class = _search_class()
    start, cpu = time.perf_counter(), time.process_time()
    state = spec.setup(task.num_players, task.seed, task.variants)
    observer = spec.make_observer(state)
    observer.reset()
    rows: list[tuple] = []
    seats: list[Agent] = []
    opponents = task.opponents or (None,) * task.num_players
    for seat, opponent in enumerate(opponents):
        if opponent is not None:
            seats.append(_opponent(opponent, derive_seed(task.seed, "opponent", seat), spec.name))
            continue
        search = search_class(
            net,
            game=spec.name,
            iters=task.iters,
            c_puct=task.c_puct,
            batch=task.search_batch,
            seed=derive_seed(task.seed, "search", seat),
            value_from_net=True,
            dirichlet=task.dirichlet,
            prior_temperature=task.prior_temperature,
            topk=task.topk,
        )
        seats.append(_SearchSeat(search, seat, rows, task))
    result = loop.play_game(state, seats, observer)
    shares = win_shares(result.breakdown)
    count = len(rows)
    seat = np.asarray([r[3] for r in rows], dtype=np.int64)
    return {
        "obs": np.stack([r[0] for r in rows]) if rows else np.zeros((0, spec.observation_size)),
        "mask": np.stack([r[1] for r in rows]) if rows else np.zeros((0, spec.num_actions), bool),
        "policy": np.stack([r[2] for r in rows])
        if rows
        else np.zeros((0, spec.num_actions), np.float32),
        "value": np.asarray([shares[s] for s in seat], dtype=np.float32),
        "seat": seat,
        "players": np.full(count, task.num_players, dtype=np.int64),
        "game": np.full(count, task.index, dtype=np.int64),
        "index": task.index,
        "decisions": int(sum(result.decisions)),
        "seconds": time.perf_counter() - start,
        "cpu_s": time.process_time() - cpu,  # this process's CPU: the machine's load aside
    }


ARRAYS = ("obs", "mask", "policy", "value", "seat", "players", "game")


def merge_games(games: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    """The rows of a generation's games, in game order, as one set of arrays."""
    games = sorted(games, key=lambda g: g["index"])
    out = {key: np.concatenate([g[key] for g in games]) for key in ARRAYS}
    out["obs"] = out["obs"].astype(np.float16)
    out["mask"] = out["mask"].astype(bool)
    return out


def play_chunk(tasks: list[SelfPlayTask]) -> list[dict[str, Any]]:
    return [play_selfplay_game(task) for task in tasks]
