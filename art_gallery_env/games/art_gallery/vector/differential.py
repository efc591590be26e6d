"""Differential play: the compiled engine against the Python engine, decision by decision.

Both engines start from the same Python deals (``new_game``, imported with
``from_states``), or from given positions such as the stored rule scenarios
(:func:`play_differential_from`), and are fed the same random legal actions. At every
decision the legal masks, current players, ``to_state`` states (all fields but the event
log) and observations must be equal; at the end, the rewards and R7 totals. Used by
tests/test_vector_differential.py, tests/test_vector_scenarios.py and
benchmarks/vector_differential.py.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..env.aec import final_rewards
from ..env.observation import ObservationEncoder
from ..rules.actions import NUM_ACTIONS
from ..rules.cards import CardSet
from ..rules.state import GameState, new_game
from .game import VectorGame

MAX_DECISIONS = 3000  # random games take 240-450 decisions; a runaway loop fails loudly


class EngineMismatch(AssertionError):
    """The engines disagree; the message names the game, the decision and the field."""


@dataclass
class DifferentialStats:
    games: int = 0
    decisions: int = 0
    observations: int = 0
    by_table: dict[tuple[int, bool], int] = field(default_factory=dict)

    def add(self, other: DifferentialStats) -> None:
        self.games += other.games
        self.decisions += other.decisions
        self.observations += other.observations
        for key, count in other.by_table.items():
            self.by_table[key] = self.by_table.get(key, 0) + count


def comparable(state: GameState) -> dict:
    """The serialised state without its event log (the compiled engine keeps none)."""
    data = state.to_dict()
    del data["events"]
    return data


def play_differential(
    num_players: int,
    zero_is_ten: bool,
    num_games: int,
    seed: int,
    *,
    all_seats: bool = False,
    reward_mode: str = "win",
    card_set: CardSet | None = None,
) -> DifferentialStats:
    """Play ``num_games`` random games in both engines at once and compare everything.

    Observations are compared for the acting seat and one other seat (rotating with the
    decision count) at every decision, or for every seat with ``all_seats``; at the end
    of a game always for every seat."""
    rng = random.Random(seed)
    py = [
        new_game(num_players, rng.getrandbits(63), zero_is_ten=zero_is_ten, card_set=card_set)
        for _ in range(num_games)
    ]
    return _play(py, rng, seed, all_seats, reward_mode, None, "")


def play_differential_from(
    states: Sequence[GameState],
    seed: int,
    *,
    all_seats: bool = False,
    reward_mode: str = "win",
    max_decisions: int | None = None,
    label: str = "",
) -> DifferentialStats:
    """Continue copies of ``states`` (one table size, variant and card set) with random
    legal actions in both engines and compare as :func:`play_differential` does.

    For positions that random deals rarely reach (the stored rule scenarios, R4.6).
    Each game gets its own actions from the one ``seed``. With ``max_decisions`` a game
    stops after that many decisions (its last state and mask are still compared);
    ``label`` starts every mismatch message (a scenario's name)."""
    games = [state.clone() for state in states]
    return _play(games, random.Random(seed), seed, all_seats, reward_mode, max_decisions, label)


def _play(
    py: list[GameState],
    rng: random.Random,
    seed: int,
    all_seats: bool,
    reward_mode: str,
    max_decisions: int | None,
    label: str,
) -> DifferentialStats:
    """The decision loop: ``py`` are played in place, the compiled copies alongside."""
    first = py[0]
    num_players, zero_is_ten = first.num_players, first.zero_is_ten
    prefix = f"{label}: " if label else ""
    table = f"{prefix}{num_players}p zero_is_ten={zero_is_ten}"
    vec = VectorGame.from_states(py, seed=seed, auto_reset=False, reward_mode=reward_mode)
    encoders = [ObservationEncoder(state.cards) for state in py]
    stats = DifferentialStats(games=len(py), by_table={(num_players, zero_is_ten): len(py)})
    limit = MAX_DECISIONS + 1 if max_decisions is None else max_decisions
    step = 0
    while True:
        active = np.array([not s.is_over for s in py])
        if not active.any():
            break
        if step >= limit:
            if max_decisions is None:
                raise EngineMismatch(f"games still running after {MAX_DECISIONS} decisions")
            _check_stopped(vec, py, active, f"{table} stopped after decision {step}")
            break
        actions = _compare_decision(vec, py, encoders, active, rng, step, all_seats, table, stats)
        rewards, dones = vec.step(actions, active)
        for i in np.flatnonzero(active):
            state = py[i]
            where = f"{table} game {i} after decision {step}"
            _expect(bool(dones[i]), state.is_over, "done flag", where)
            if state.is_over:
                _check_end(vec, i, state, rewards[i], where)
                stats.observations += num_players
        step += 1
    return stats


def _compare_decision(
    vec: VectorGame,
    py: list[GameState],
    encoders: list[ObservationEncoder],
    active: np.ndarray,
    rng: random.Random,
    step: int,
    all_seats: bool,
    table: str,
    stats: DifferentialStats,
) -> np.ndarray:
    """Compare every active game at one decision and apply a random legal action to each
    Python game; returns those actions for the compiled engine."""
    num_players = vec.num_players
    seats = range(num_players)
    masks = vec.legal_mask()
    current = vec.current_player
    views = {seat: vec.observe(seat) for seat in seats} if all_seats else None
    if views is None:  # the acting seat and another one, rotating
        other_seat = (current + 1 + step % (num_players - 1)) % num_players
        acting, other = vec.observe(), vec.observe(other_seat)
    actions = np.zeros(vec.num_envs, dtype=np.int64)
    for i in np.flatnonzero(active):
        state = py[i]
        where = f"{table} game {i} decision {step}"
        legal = state.legal_actions()
        _expect(np.flatnonzero(masks[i]).tolist(), legal, "legal mask", where)
        _expect(int(current[i]), state.current_player, "current player", where)
        _expect_state(vec.to_state(i), state, where)
        if views is None:
            _expect_obs(acting[i], encoders[i], state, state.current_player, where)
            _expect_obs(other[i], encoders[i], state, int(other_seat[i]), where)
            stats.observations += 2
        else:
            for seat in seats:
                _expect_obs(views[seat][i], encoders[i], state, seat, where)
            stats.observations += num_players
        actions[i] = rng.choice(legal)
        state.apply(int(actions[i]))
        stats.decisions += 1
    return actions


def _check_stopped(vec: VectorGame, py: list[GameState], active: np.ndarray, where: str) -> None:
    """The state and legal mask of games cut short by ``max_decisions``."""
    masks = vec.legal_mask()
    for i in np.flatnonzero(active):
        at = f"{where}, game {i}"
        _expect(np.flatnonzero(masks[i]).tolist(), py[i].legal_actions(), "legal mask", at)
        _expect_state(vec.to_state(i), py[i], at)


def _check_end(vec: VectorGame, i: int, state: GameState, rewards: np.ndarray, where: str) -> None:
    breakdown = state.score_breakdown()
    totals = [row["total"] for row in breakdown]
    _expect(vec.final_scores[i].tolist(), totals, "final R7 totals", where)
    _expect(vec.scores()[i].tolist(), totals, "scores() at game over", where)
    expected = np.array(final_rewards(breakdown, vec.reward_mode), dtype=np.float32)
    _expect(rewards.tolist(), expected.tolist(), "final rewards", where)
    _expect(vec.legal_mask()[i].tolist(), [False] * NUM_ACTIONS, "mask at game over", where)
    _expect_state(vec.to_state(i), state, where)
    encoder = ObservationEncoder(state.cards)
    for seat in range(state.num_players):
        _expect_obs(vec.observe(seat)[i], encoder, state, seat, where)


def _expect(got: object, expected: object, what: str, where: str) -> None:
    if got != expected:
        raise EngineMismatch(f"{where}: {what} differs: compiled {got!r}, Python {expected!r}")


def _expect_state(got: GameState, expected: GameState, where: str) -> None:
    a, b = comparable(got), comparable(expected)
    if a != b:
        keys = [k for k in b if a.get(k) != b[k]]
        details = "; ".join(f"{k}: compiled {a.get(k)!r}, Python {b[k]!r}" for k in keys)
        raise EngineMismatch(f"{where}: to_state differs in {details}")


def _expect_obs(
    got: np.ndarray, encoder: ObservationEncoder, state: GameState, seat: int, where: str
) -> None:
    expected = encoder.encode(state, seat)
    if not np.array_equal(got, expected) or got.dtype != expected.dtype:
        bad = np.flatnonzero(got != expected)[:5].tolist()
        raise EngineMismatch(
            f"{where}: observation for seat {seat} differs at indices {bad}: compiled "
            f"{got[bad].tolist()}, Python {expected[bad].tolist()}"
        )
