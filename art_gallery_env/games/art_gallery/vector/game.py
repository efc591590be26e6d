"""VectorGame: B games of one table size, stepped together by the compiled kernels.

See docs/vector.md for the API, how rewards and resets are reported, seeding, and the
measured speed. The Python engine (:mod:`art_gallery_env.games.art_gallery.rules`) stays the
reference;
tests/test_vector_differential.py checks that the two agree decision by decision.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..env.observation import OBSERVATION_SIZE
from ..rules.actions import NUM_ACTIONS, action_to_str
from ..rules.board import check_num_players
from ..rules.cards import CardSet, default_card_set
from ..rules.game import IllegalActionError
from ..rules.phases import GAME_OVER, PHASE_NAMES
from ..rules.scoring import ranks
from ..rules.state import GameState
from . import kernels
from .convert import read_state, write_state
from .heuristic import is_compiled_heuristic, param_vector
from .runner import Runner
from .state import VecState, allocate, nbytes
from .tables import Tables, build_tables


def _positive_int(num_envs: object) -> int:
    """``num_envs`` as a plain int (NumPy integers too), at least 1; ValueError else."""
    if not isinstance(num_envs, bool):
        try:
            value = operator.index(num_envs)  # type: ignore[arg-type]
        except TypeError:
            value = 0
        if value >= 1:
            return value
    raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")


class VectorIllegalActionError(IllegalActionError):
    """An illegal action in a batch; ``game`` is its index and ``legal`` the legal actions
    of that game. Nothing in the batch was applied."""

    def __init__(self, message: str, game: int, legal: list[int]) -> None:
        super().__init__(message)
        self.game = game
        self.legal = legal


class VectorGame:
    """``num_envs`` games of ``num_players`` players on structure-of-arrays state.

    ``step`` takes one action per game for its current player. A game that ends in a
    step reports its final rewards and ``done`` in that step's return value, its R7 totals
    in ``final_scores``, and (with ``auto_reset``, the default) is dealt a new game in the
    same call, so after ``step`` every game is waiting for a decision.
    """

    def __init__(
        self,
        num_envs: int,
        num_players: int,
        zero_is_ten: bool = False,
        seed: int | None = None,
        *,
        auto_reset: bool = True,
        reward_mode: str = "win",
        card_set: CardSet | None = None,
        threads: int | None = None,
    ) -> None:
        num_envs = _positive_int(num_envs)
        if not isinstance(num_players, bool) and isinstance(num_players, np.integer):
            num_players = int(num_players)
        check_num_players(num_players)
        if not isinstance(zero_is_ten, bool):
            raise ValueError(f"zero_is_ten must be True or False, got {zero_is_ten!r}")
        self.num_envs = num_envs
        self.num_players = num_players
        self.zero_is_ten = zero_is_ten
        self.auto_reset = bool(auto_reset)
        self.reward_mode = reward_mode
        self.cards = card_set or default_card_set()
        self.tables: Tables = build_tables(num_players, zero_is_ten, self.cards, reward_mode)
        self.state: VecState = allocate(num_envs)
        self._run = Runner(num_envs, threads)
        self.final_scores = np.zeros((num_envs, num_players), dtype=np.int32)
        """R7 totals of the games that ended in the last ``step`` (rows of others are 0)."""
        self._seeded = False
        self.reset(seed)

    # -- seeding and resets ----------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Deal new games in every slot. With ``seed`` the random streams restart from it
        (same seed and same actions: same games); without, they continue (fresh entropy
        the first time)."""
        if seed is not None or not self._seeded:
            self._seed_streams(seed)
        self.final_scores[:] = 0
        self._run(
            kernels.deal_games, self.state, self.tables, np.ones(self.num_envs, dtype=np.bool_)
        )

    def reset_games(self, which: np.ndarray | Sequence[bool]) -> None:
        """Deal new games in the slots where ``which`` is True (for ``auto_reset=False``)."""
        which = np.ascontiguousarray(which, dtype=np.bool_)
        if which.shape != (self.num_envs,):
            raise ValueError(f"which must have shape ({self.num_envs},), got {which.shape}")
        self._run(kernels.deal_games, self.state, self.tables, which)

    def _seed_streams(self, seed: int | None) -> None:
        if isinstance(seed, np.integer):
            seed = int(seed)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise ValueError(f"seed must be a non-negative int or None, got {seed!r}")
        words = np.random.SeedSequence(seed).generate_state(2 * self.num_envs, dtype=np.uint64)
        self.state.deal_rng[:] = words[: self.num_envs]
        self.state.action_rng[:] = words[self.num_envs :]
        self._seeded = True

    # -- reading the games -----------------------------------------------------------
    @property
    def current_player(self) -> np.ndarray:
        """(B,) int64: the seat to act in each game (see GameState.current_player)."""
        return self.state.current_player.astype(np.int64)

    @property
    def phase(self) -> np.ndarray:
        """(B,) int64: rules.state MOVE, BID, SHOP, PICK or GAME_OVER per game."""
        return self.state.phase.astype(np.int64)

    @property
    def done(self) -> np.ndarray:
        """(B,) bool: games that are over (only ever True with ``auto_reset=False``)."""
        return self.state.phase == GAME_OVER

    def legal_mask(
        self, out: np.ndarray | None = None, active: np.ndarray | None = None
    ) -> np.ndarray:
        """(B, 47) bool: the legal actions of each game's current player. With ``active``
        only those rows are written (the others stay as they were in ``out``, or False)."""
        out = self._out(out, NUM_ACTIONS, np.bool_, active)
        self._run(kernels.legal_masks, self.state, self.tables, self._check_active(active), out)
        return out

    def observe(
        self,
        seats: int | np.ndarray | Sequence[int] | None = None,
        out: np.ndarray | None = None,
        active: np.ndarray | None = None,
    ) -> np.ndarray:
        """(B, 2221) float32: ``ObservationEncoder.encode(state, seat)`` for every game.

        ``seats``: one seat per game, or one int for all games; None means each game's
        current player. With ``active`` only those rows are written (as legal_mask)."""
        seats_array = self._check_seats(seats)
        out = self._out(out, OBSERVATION_SIZE, np.float32, active)
        self._run(
            kernels.observe_games,
            self.state,
            self.tables,
            seats_array,
            self._check_active(active),
            out,
        )
        return out

    def _check_seats(self, seats: int | np.ndarray | Sequence[int] | None) -> np.ndarray:
        if seats is None:
            return self.state.current_player.astype(np.int64)
        if (  # the self-play env's per-game seats: only the range to check (a hot path)
            isinstance(seats, np.ndarray)
            and seats.dtype == np.int64
            and seats.shape == (self.num_envs,)
            and seats.flags.c_contiguous
            and seats.min() >= 0
            and seats.max() < self.num_players
        ):
            return seats
        array = np.asarray(seats)
        if array.ndim > 1 or (array.ndim == 1 and array.shape != (self.num_envs,)):
            raise ValueError(
                f"seats must be one int or one per game, shape ({self.num_envs},); "
                f"got shape {array.shape}"
            )
        array = np.broadcast_to(array, (self.num_envs,))
        if array.dtype.kind not in "iu":
            raise ValueError(f"seats must be ints in 0..{self.num_players - 1}")
        array = array.astype(np.int64)
        if array.min() < 0 or array.max() >= self.num_players:
            raise ValueError(
                f"seats must be in 0..{self.num_players - 1}, got {array.min()}..{array.max()}"
            )
        return array

    def _out(
        self, out: np.ndarray | None, width: int, dtype: type, active: np.ndarray | None
    ) -> np.ndarray:
        shape = (self.num_envs, width)
        if out is None:
            return (np.empty if active is None else np.zeros)(shape, dtype=dtype)
        if out.shape != shape or out.dtype != dtype or not out.flags.c_contiguous:
            raise ValueError(
                f"out must be a C-contiguous {shape} {np.dtype(dtype).name} array, "
                f"got {out.shape} {out.dtype}"
            )
        return out

    def scores(self) -> np.ndarray:
        """(B, players) int32: R7 totals of the current states (as score_breakdown's
        ``total``: face-up movement cards count as in hand)."""
        out = np.empty((self.num_envs, self.num_players), dtype=np.int32)
        self._run(kernels.scores, self.state, self.tables, out)
        return out

    def final_ranks(self, i: int) -> list[int]:
        """R7.5 ranks (1 = won; tied seats share a rank) of game ``i``, which ended in the
        last ``step``: its ``final_scores``, then the tiles held. With ``auto_reset`` the
        slot holds a new game by then, so this is for ``auto_reset=False`` (the trainer's
        self-play env, which tells the learner whether it won)."""
        totals = self.final_scores[i]
        tiles = self.state.tiles_held_len[i]
        return ranks([(int(totals[p]), int(tiles[p])) for p in range(self.num_players)])

    def random_actions(self) -> np.ndarray:
        """(B,) int64: a uniformly random legal action per game, from each game's own
        action stream (seeded with the deals); -1 for a game that is over."""
        out = np.empty(self.num_envs, dtype=np.int64)
        self._run(kernels.random_actions, self.state, self.tables, out)
        return out

    def heuristic_actions(self, active: np.ndarray | None = None, params: Any = None) -> np.ndarray:
        """(B,) int64: the heuristic's action for each (active) game's current player, in
        one compiled call; -1 for games left out or over. ``params``: None (version 2's
        defaults), ``HeuristicParams`` or ``HeuristicV1Params``. It reads only what that
        seat may know, so it decides as ``HeuristicAgent`` does on any determinized world
        of the seat; exact ties are broken by the game's action stream (random_actions')."""
        actions, _, _ = self._heuristic(active, params, keep=False)
        return actions

    def heuristic_scores(
        self, active: np.ndarray | None = None, params: Any = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``heuristic_actions`` with what it decided from: ``(actions, scores, top)``;
        scores (B, 47) float64 per legal action (-inf for illegal ones; Shop choices and
        picks take the first best without a draw), top (B, 47) bool the tied best actions
        one was drawn from. For tests and diagnostics; consumes the action streams alike."""
        return self._heuristic(active, params, keep=True)

    def _heuristic(
        self, active: np.ndarray | None, params: Any, keep: bool
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        hp = param_vector(params, self.num_players)
        active = self._check_active(active)
        rows = self.num_envs if keep else 1  # without keep the kernel uses its own rows
        scores = np.full((rows, NUM_ACTIONS), -np.inf, dtype=np.float64)
        top = np.zeros((rows, NUM_ACTIONS), dtype=np.bool_)
        actions = np.empty(self.num_envs, dtype=np.int64)
        self._run(
            kernels.heuristic_actions,
            self.state,
            self.tables,
            hp,
            active,
            keep,
            actions,
            scores,
            top,
        )
        return actions, scores, top

    @staticmethod
    def plays_compiled(agent: Any) -> bool:
        """Whether :meth:`compiled_actions` plays ``agent`` (the game's HeuristicAgent,
        version 1 or 2, as it decides in Python): a self-play env can then move all its
        games at once instead of one by one."""
        return is_compiled_heuristic(agent)

    def compiled_actions(self, agent: Any, active: np.ndarray | None = None) -> np.ndarray:
        """(B,) int64: ``agent``'s action in each (active) game, compiled; ``agent`` must
        be one :meth:`plays_compiled` accepts. Its decisions are the Python agent's but
        for exact ties, drawn from the game's action stream instead of the agent's rng."""
        if not is_compiled_heuristic(agent):
            raise TypeError(f"no compiled twin of {agent!r}: check plays_compiled(agent)")
        return self.heuristic_actions(active, agent.policy.params)

    # how play_seats plays a seat: random_actions, compiled_actions, or the caller
    SEAT_RANDOM, SEAT_COMPILED, SEAT_CALLER = (
        kernels.SEAT_RANDOM,
        kernels.SEAT_HEURISTIC,
        kernels.SEAT_CALLER,
    )

    def compiled_params(self, agent: Any) -> np.ndarray:
        """``agent``'s row of ``play_seats``' ``params`` at this table size (``agent`` must
        be one :meth:`plays_compiled` accepts)."""
        if not is_compiled_heuristic(agent):
            raise TypeError(f"no compiled twin of {agent!r}: check plays_compiled(agent)")
        return param_vector(agent.policy.params, self.num_players)

    def play_seats(
        self,
        stop_seat: np.ndarray,
        seat_kind: np.ndarray,
        seat_params: np.ndarray,
        params: np.ndarray,
        decisions: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Play every game's random and compiled seats in one call: each game moves on
        until it is over, at ``stop_seat``'s turn (B,), or at a seat the caller plays.

        ``seat_kind`` (B, players): SEAT_RANDOM (``random_actions``' choice), SEAT_COMPILED
        (the compiled heuristic with the ``params`` row ``seat_params[b, seat]``; rows from
        :meth:`compiled_params`) or SEAT_CALLER. Every decision first draws one random
        action from the game's stream, as a loop of ``random_actions`` then ``step`` per
        round of decisions does; ``decisions`` (B,) int64 counts them in place (with
        :meth:`skip_draws` the caller can then give every game the same number of rounds).
        Returns ``(rewards, dones, need)``: rewards and dones as ``step``'s (R7 totals in
        ``final_scores``), ``need`` the games waiting at a caller's seat, their draw for
        that decision taken: the caller chooses their actions and steps them."""
        n = self.num_players
        stop_seat = self._check_seats(stop_seat)
        kind = np.ascontiguousarray(seat_kind, dtype=np.int64)
        rows = np.ascontiguousarray(seat_params, dtype=np.int64)
        params = np.ascontiguousarray(params, dtype=np.float64)
        if params.size == 0:  # no compiled seat
            params = np.zeros((0, kernels.NUM_HEURISTIC_PARAMS), dtype=np.float64)
        if kind.shape != (self.num_envs, n) or rows.shape != kind.shape:
            raise ValueError(f"seat_kind and seat_params must have shape ({self.num_envs}, {n})")
        if params.ndim != 2 or params.shape[1] != kernels.NUM_HEURISTIC_PARAMS:
            raise ValueError(f"params must be (k, {kernels.NUM_HEURISTIC_PARAMS}) rows")
        used = rows[kind == self.SEAT_COMPILED]
        if used.size and (used.min() < 0 or used.max() >= len(params)):
            raise ValueError(f"seat_params of compiled seats must be in 0..{len(params) - 1}")
        if decisions.shape != (self.num_envs,) or decisions.dtype != np.int64:
            raise ValueError(f"decisions must be a ({self.num_envs},) int64 array")
        need = np.zeros(self.num_envs, dtype=np.bool_)
        rewards, dones = self._step_outputs()
        self._run(
            kernels.play_seats,
            self.state,
            self.tables,
            params,
            kind,
            rows,
            stop_seat,
            decisions,
            need,
            rewards,
            dones,
            self.final_scores,
        )
        return rewards, dones, need

    def skip_draws(self, counts: np.ndarray) -> None:
        """Advance each game's action stream by ``counts[b]`` draws, as that many calls of
        :meth:`random_actions` would (a game that is over draws nothing: give it 0)."""
        counts = np.ascontiguousarray(counts, dtype=np.int64)
        if counts.shape != (self.num_envs,) or (counts < 0).any():
            raise ValueError(f"counts must be ({self.num_envs},) non-negative ints")
        self._run(kernels.skip_draws, self.state, counts)

    def play_out(
        self, active: np.ndarray | None = None, policy: str = "random", params: Any = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Play every (active) game to its end in one compiled call: a search rollout.
        ``policy`` "random" (uniform legal actions) or "heuristic" (every seat plays
        ``heuristic_actions`` with ``params``). Both draw from the action streams. Returns
        ``(rewards, final_scores)`` as ``step`` reports them; the games stay over (no
        auto-reset) until reset or overwritten."""
        if policy not in ("random", "heuristic"):
            raise ValueError(f"policy must be 'random' or 'heuristic', got {policy!r}")
        active = self._check_active(active)
        rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        scores = np.zeros((self.num_envs, self.num_players), dtype=np.int32)
        if policy == "random":
            self._run(kernels.play_out, self.state, self.tables, active, rewards, scores)
        else:
            hp = param_vector(params, self.num_players)
            self._run(
                kernels.heuristic_play_out, self.state, self.tables, hp, active, rewards, scores
            )
        return rewards, scores

    # -- stepping --------------------------------------------------------------------
    def step(
        self, actions: np.ndarray | Sequence[int], active: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Apply one action per game (for its current player).

        Returns ``(rewards, dones)``: rewards (B, players) float32, nonzero only in rows
        of games that ended in this step (``reward_mode`` "win" or "score_margin", as the
        AEC env), dones (B,) bool. ``active`` (B,) bool limits the step to some games (the
        others' actions are ignored). If any action is illegal, nothing is applied and
        :class:`VectorIllegalActionError` names the first such game and its legal actions.
        """
        actions = self._check_actions(actions)
        active = self._check_active(active)
        bad = np.empty(self.num_envs, dtype=np.bool_)
        if self._run(kernels.find_illegal, self.state, self.tables, actions, active, bad):
            self._raise_illegal(int(np.argmax(bad)), actions, int(bad.sum()))
        rewards, dones = self._step_outputs()
        self._run(
            kernels.apply_actions,
            self.state,
            self.tables,
            actions,
            active,
            self.auto_reset,
            rewards,
            dones,
            self.final_scores,
        )
        return rewards, dones

    def _step_outputs(self) -> tuple[np.ndarray, np.ndarray]:
        """A step's ``(rewards, dones)``, zero, with ``final_scores`` cleared for the games
        the step ends."""
        rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=np.bool_)
        self.final_scores[:] = 0
        return rewards, dones

    def _check_active(self, active: np.ndarray | Sequence[bool] | None) -> np.ndarray:
        if active is None:
            return np.ones(self.num_envs, dtype=np.bool_)
        active = np.ascontiguousarray(active, dtype=np.bool_)
        if active.shape != (self.num_envs,):
            raise ValueError(f"active must have shape ({self.num_envs},), got {active.shape}")
        return active

    def _check_actions(self, actions: np.ndarray | Sequence[int]) -> np.ndarray:
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {array.shape}")
        if array.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be ints in 0..{NUM_ACTIONS - 1}, got dtype {array.dtype}"
            )
        return np.ascontiguousarray(array, dtype=np.int64)

    def _raise_illegal(self, game: int, actions: np.ndarray, how_many: int) -> None:
        action = int(actions[game])
        state = self.state
        phase = int(state.phase[game])
        player = int(state.current_player[game])
        legal = np.flatnonzero(self.legal_mask()[game]).tolist()
        what = (
            f"action {action} ({action_to_str(action)}) is not legal"
            if 0 <= action < NUM_ACTIONS
            else f"action must be an int in 0..{NUM_ACTIONS - 1}, got {action}"
        )
        if phase == GAME_OVER:
            where = "the game is over (reset it, or leave it out with active=)"
        else:
            where = f"player {player} in phase {PHASE_NAMES[phase]!r}"
        choices = ", ".join(f"{a} ({action_to_str(a)})" for a in legal) or "none"
        raise VectorIllegalActionError(
            f"game {game}: {what} for {where}; legal actions: {choices} "
            f"({how_many} of {self.num_envs} actions illegal; nothing was applied)",
            game,
            legal,
        )

    # -- moving games between the engines --------------------------------------------
    def to_state(self, i: int) -> GameState:
        """Game ``i`` as a GameState of the Python engine (its event log holds only a
        ``round_start`` event for the current round)."""
        return read_state(self.state, self.tables, self._index(i), self.cards)

    def set_state(self, i: int, state: GameState, *, check: bool = True) -> None:
        """Put ``state`` into slot ``i`` (``check``: the save format's field checks and the
        rules' invariants first, so that a state edited in memory is refused here)."""
        i = self._index(i)
        self._check_state(state, check)
        write_state(self.state, i, state)

    @classmethod
    def from_states(
        cls,
        states: Sequence[GameState],
        *,
        seed: int | None = None,
        auto_reset: bool = True,
        reward_mode: str = "win",
        check: bool = True,
    ) -> VectorGame:
        """A VectorGame holding copies of ``states`` (same table size, variant and card
        set). ``seed`` seeds the streams used by later deals and ``random_actions``."""
        states = list(states)
        if not states or not all(isinstance(s, GameState) for s in states):
            raise ValueError("from_states needs a non-empty sequence of GameState")
        first = states[0]
        game = cls(
            len(states),
            first.num_players,
            first.zero_is_ten,
            seed,
            auto_reset=auto_reset,
            reward_mode=reward_mode,
            card_set=first.cards,
        )
        for i, state in enumerate(states):
            game.set_state(i, state, check=check)
        return game

    def _check_state(self, state: GameState, check: bool) -> None:
        if not isinstance(state, GameState):
            raise ValueError(f"expected a GameState, got {type(state).__name__}")
        if state.num_players != self.num_players or state.zero_is_ten != self.zero_is_ten:
            raise ValueError(
                f"this VectorGame plays {self.num_players} players with "
                f"zero_is_ten={self.zero_is_ten}; the state has {state.num_players} players "
                f"and zero_is_ten={state.zero_is_ten}"
            )
        if state.cards.fingerprint != self.cards.fingerprint:
            raise ValueError(
                f"the state uses card set {state.cards.name!r}, this VectorGame {self.cards.name!r}"
            )
        if check:  # the save format's field checks (ranges), then the rules' invariants
            try:
                GameState.from_dict(state.to_dict(), state.cards)
            except (AttributeError, IndexError, KeyError, TypeError) as err:
                raise ValueError(f"the state cannot be read: {err!r}") from None

    def _index(self, i: int) -> int:
        i = operator.index(i)
        if not 0 <= i < self.num_envs:
            raise IndexError(f"game index {i} is not in 0..{self.num_envs - 1}")
        return i

    def close(self) -> None:
        """Stop the worker threads (a batch of 1,024+ games has some); the games stay
        readable, and a later call runs in the calling thread."""
        self._run.close()

    @property
    def nbytes(self) -> int:
        """Bytes held by the game state arrays (not the observation buffers)."""
        return nbytes(self.state) + self.final_scores.nbytes

    def __repr__(self) -> str:
        return (
            f"VectorGame(num_envs={self.num_envs}, num_players={self.num_players}, "
            f"zero_is_ten={self.zero_is_ten})"
        )
