"""The compiled heuristic against the Python one, decision by decision.

Games are dealt by ``new_game`` and imported with ``from_states``; both engines then play
the same actions (the Python heuristic's, or random legal ones). At every decision the
Python policy (``HeuristicPolicy`` or ``HeuristicV1Policy``) decides on a determinized world
of the acting seat (as ``HeuristicAgent`` does) and the compiled one on the true state; what
is compared is the *set* of top-scoring actions each would draw from (the Python one
recorded from its tie-break's ``rng.choice``), so how ties are broken does not matter. Used
by tests/test_vector_heuristic.py and benchmarks/vector_heuristic.py.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..heuristic import heuristic_policy
from ..rules.hidden import determinize
from ..rules.state import GameState, new_game
from .game import VectorGame

PLAYS = ("heuristic", "random")
MAX_DECISIONS = 3000  # games take 200-600 decisions; a runaway loop stops here


class _TopRecorder(random.Random):
    """A ``random.Random`` that records the list ``_argmax`` draws a tie from."""

    top: list[int] | None = None

    def choice(self, seq: Sequence[Any]) -> Any:
        self.top = list(seq)
        return super().choice(seq)


@dataclass
class Disagreement:
    """One decision where the two top sets differ."""

    num_players: int
    zero_is_ten: bool
    phase: str
    python: list[int]
    compiled: list[int]
    scores: dict[int, float]
    state: GameState


@dataclass
class AgreementStats:
    games: int = 0
    decisions: int = 0
    agreed: int = 0
    by_table: dict[tuple[int, bool], list[int]] = field(default_factory=dict)
    examples: list[Disagreement] = field(default_factory=list)

    def add(self, other: AgreementStats) -> None:
        self.games += other.games
        self.decisions += other.decisions
        self.agreed += other.agreed
        for key, (decisions, agreed) in other.by_table.items():
            row = self.by_table.setdefault(key, [0, 0])
            row[0] += decisions
            row[1] += agreed
        self.examples.extend(other.examples[: max(0, 20 - len(self.examples))])

    @property
    def rate(self) -> float:
        return self.agreed / self.decisions if self.decisions else 1.0


def python_top(policy: Any, state: GameState, rng: random.Random) -> tuple[int, list[int]]:
    """The Python heuristic's action on a determinized world of the acting seat, and the
    tied best actions it drew that action from."""
    world = determinize(state, state.current_player, rng)
    recorder = _TopRecorder(rng.getrandbits(64))
    action = policy.choose(world, recorder)
    return action, sorted(recorder.top) if recorder.top is not None else [action]


def play_agreement(
    num_players: int,
    zero_is_ten: bool,
    num_games: int,
    seed: int,
    *,
    play: str = "heuristic",
    params: Any = None,
    max_examples: int = 20,
) -> AgreementStats:
    """``num_games`` games of one table size played in both engines at once (module
    docstring): ``play`` "heuristic" follows the Python heuristic's choices, "random"
    random legal actions."""
    if play not in PLAYS:
        raise ValueError(f"play must be one of {PLAYS}, got {play!r}")
    rng = random.Random(seed)
    states = [
        new_game(num_players, rng.getrandbits(63), zero_is_ten=zero_is_ten)
        for _ in range(num_games)
    ]
    game = VectorGame.from_states(states, seed=seed, auto_reset=False)
    policy = heuristic_policy(params)
    stats = AgreementStats(games=num_games)
    key = (num_players, zero_is_ten)
    stats.by_table[key] = [0, 0]
    for _ in range(MAX_DECISIONS):
        active = np.array([not s.is_over for s in states])
        if not active.any():
            return stats
        _, scores, top = game.heuristic_scores(active, params)
        actions = np.zeros(num_games, dtype=np.int64)
        for i in np.flatnonzero(active):
            state = states[i]
            action, expected = python_top(policy, state, rng)
            found = np.flatnonzero(top[i]).tolist()
            stats.decisions += 1
            stats.by_table[key][0] += 1
            if found == expected:
                stats.agreed += 1
                stats.by_table[key][1] += 1
            elif len(stats.examples) < max_examples:
                legal = state.legal_actions()
                stats.examples.append(
                    Disagreement(
                        num_players,
                        zero_is_ten,
                        state.phase_name,
                        expected,
                        found,
                        {a: float(scores[i, a]) for a in legal},
                        state.clone(),
                    )
                )
            if play == "random":
                action = rng.choice(state.legal_actions())
            actions[i] = action
            state.apply(action)
        game.step(actions, active=active)
    raise AssertionError(f"games did not end within {MAX_DECISIONS} decisions")


def agreement(
    sizes: Sequence[int] = (2, 3, 4, 5, 6),
    games: int = 2,
    seed: int = 0,
    plays: Sequence[str] = PLAYS,
    params: Any = None,
) -> AgreementStats:
    """play_agreement for every table size, both variants and every kind of play."""
    total = AgreementStats()
    for n in sizes:
        for zero_is_ten in (False, True):
            for k, play in enumerate(plays):
                total.add(
                    play_agreement(
                        n,
                        zero_is_ten,
                        games,
                        seed + 1000 * n + 10 * zero_is_ten + k,
                        play=play,
                        params=params,
                    )
                )
    return total
