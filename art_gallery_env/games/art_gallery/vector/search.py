"""ISMCTS on the compiled engine: :class:`CompiledSearch`, the fast twin of
:class:`art_gallery_env.agents.ismcts.ISMCTSAgent`'s search for Art Gallery.

The same algorithm as agents/ismcts.py (the readable reference): single-observer ISMCTS with
availability-aware UCB, children keyed by (seat, action), rollouts to a round limit with the
compiled heuristic (``heuristic``, ``heuristic:v1``) or uniformly random play, and
art_gallery.search.Evaluator's values. One numba call (``kernels.ismcts_iterations``) runs a
chunk of iterations: determinize, walk, expand, roll out, evaluate and back up, all
compiled. The tree lives in dense arrays that persist across the chunks of one decision.

Budgets: ``iters`` runs exactly that many iterations in one call (the node table holds
``iters + 1`` nodes, the most one search can create). ``seconds`` runs chunks sized from
the measured speed (about a 20th of the budget each, the first a few iterations) and stops
at the first chunk boundary past the deadline, growing the table as it goes; with both,
``iters`` is an upper bound, and without it :data:`MAX_ITERS` is. The search reads only the
observer's information: the root world is written as given, and every iteration resamples
everything hidden from its sorted contents (as rules.hidden.determinize does), so two
states of one information set give the same decision for the same seed.

The agent finds this module through the game's spec (capability ``compiled_search``); it
needs numba, like the rest of this package.
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np

from ..heuristic import HeuristicParams
from ..heuristic_v1 import HeuristicV1Params
from ..rules.actions import NUM_ACTIONS
from ..rules.cards import CardSet
from ..rules.state import GameState, new_game
from . import kernels
from .convert import write_state
from .heuristic import param_vector
from .state import allocate
from .tables import Tables, build_tables

RANDOM_ROLLOUT = "random"
ROLLOUT_VERSIONS = {"heuristic": None, "heuristic:v1": HeuristicV1Params}
"""The rollouts compiled here: name -> the parameter class a None ``rollout_params`` means
(None: version 2's HeuristicParams); ``random`` is the search's own."""
ROLLOUTS = (RANDOM_ROLLOUT, *ROLLOUT_VERSIONS)

# art_gallery.search.Evaluator's defaults (this layer may not import it; a test checks them)
DEFAULT_SCALE = 4.0
EVAL_POTENTIAL = 0.3
EVAL_HAND_WEIGHT = 0.25

MAX_ITERS = 100_000
"""The most iterations (and so tree nodes, + 1) of one decision: agents.registry's
MAX_SEARCH_ITERS (a test checks it). A timed search without ``iters`` stops there too."""

ROOT, WORK, DET = 0, 1, 2  # the slots of the search's VecState (DET: the rollout search's)
MASK64 = (1 << 64) - 1
FIRST_CHUNK = 8  # iterations of a timed search's first call (it measures the speed)
CHUNKS_PER_BUDGET = 20  # a timed search checks the clock about this often
MIN_NODES = 1024  # a timed search's first node table


def unsupported(rollout: str, rollout_params: Any = None, iters: int | None = None) -> str | None:
    """Why the compiled search cannot run these options (None: it can)."""
    if iters is not None and iters > MAX_ITERS:
        return f"engine=compiled searches at most {MAX_ITERS} iterations per decision, got {iters}"
    if rollout not in ROLLOUTS:
        return f"engine=compiled plays rollout {', '.join(ROLLOUTS)}, got {rollout!r}"
    if rollout == RANDOM_ROLLOUT:
        return None if rollout_params is None else "rollout=random takes no rollout parameters"
    if rollout_params is None:
        return None
    if rollout == "heuristic:v1" and type(rollout_params) is not HeuristicV1Params:
        return f"rollout=heuristic:v1 needs HeuristicV1Params, got {type(rollout_params).__name__}"
    if type(rollout_params) not in (HeuristicParams, HeuristicV1Params):
        return (
            "engine=compiled plays rollout parameters of type HeuristicParams or "
            f"HeuristicV1Params, got {type(rollout_params).__name__}"
        )
    return None


class CompiledSearch:
    """One observer's ISMCTS decisions on the compiled engine (see the module docstring).

    ``rollout`` is one of :data:`ROLLOUTS` with optional ``rollout_params`` (the heuristic's
    weights), ``rounds`` how many round ends a rollout runs to (0: the game's end), ``c``
    the UCB constant and ``scale`` the evaluator's spread of a score margin (None: 4).
    """

    def __init__(
        self,
        *,
        rollout: str = "heuristic",
        rollout_params: Any = None,
        rounds: int = 1,
        c: float = 0.2,
        scale: float | None = None,
        topk: int = 0,
        margin: float = 0.0,
    ) -> None:
        problem = unsupported(rollout, rollout_params) or _rollout_problem(rollout, topk, margin)
        if problem:
            raise ValueError(problem)
        if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 0:
            raise ValueError(f"rounds must be an int >= 0 (0: play to the end), got {rounds!r}")
        if not c >= 0:
            raise ValueError(f"c must be a number >= 0, got {c!r}")
        scale = DEFAULT_SCALE if scale is None else scale
        if not scale > 0:
            raise ValueError(f"scale must be a number > 0, got {scale!r}")
        self.rollout = rollout
        self.rounds = rounds
        self.c = float(c)
        self.scale = float(scale)
        kind = kernels.ROLLOUT_RANDOM if rollout == RANDOM_ROLLOUT else kernels.ROLLOUT_HEURISTIC
        self._options = np.array(
            [self.c, kind, rounds, self.scale, EVAL_POTENTIAL, EVAL_HAND_WEIGHT], np.float64
        )
        if rollout_params is None and ROLLOUT_VERSIONS.get(rollout) is not None:
            rollout_params = ROLLOUT_VERSIONS[rollout]()
        self._rollout_params = rollout_params
        self._tables: dict[tuple[int, bool, str, str], tuple[Tables, np.ndarray]] = {}
        self._state = allocate(3)
        self.topk = topk
        self.margin = float(margin)
        self._sweep_options = np.array(
            [rounds, self.scale, EVAL_POTENTIAL, EVAL_HAND_WEIGHT], np.float64
        )
        self.last_iterations = 0
        warm_up()

    def _tables_for(self, world: GameState) -> tuple[Tables, np.ndarray]:
        cards: CardSet = world.cards
        key = (world.num_players, world.zero_is_ten, cards.name, cards.fingerprint)
        if key not in self._tables:
            tables = build_tables(world.num_players, world.zero_is_ten, cards)
            self._tables[key] = (tables, param_vector(self._rollout_params, world.num_players))
        return self._tables[key]

    def search(
        self,
        view: Any,
        observer: int | None = None,
        *,
        iters: int | None = None,
        seconds: float | None = None,
        seed: int = 0,
    ) -> tuple[int, dict[int, tuple[int, float]]]:
        """The action with the most root visits (ties: the higher mean) and, per action of
        the observer tried at the root, (visits, mean value). ``view`` is a SeatView (its
        seat the observer) or a GameState with ``observer`` given."""
        start = time.perf_counter()
        world, observer = _root_world(view, observer)
        if world.is_over or world.current_player != observer:
            raise ValueError(f"seat {observer} has no decision to search in this state")
        if iters is None and seconds is None:
            raise ValueError("give a budget: iters, seconds or both")
        if iters is not None and not 1 <= iters <= MAX_ITERS:
            raise ValueError(f"iters must be in 1..{MAX_ITERS}, got {iters!r}")
        tables, params = self._tables_for(world)
        s = self._state
        write_state(s, ROOT, world)
        rng = np.array([_mix(seed, 1)], np.uint64)
        s.action_rng[WORK] = _mix(seed, 2)
        deadline = None if seconds is None else start + seconds
        if self.topk:
            s.action_rng[ROOT] = _mix(seed, 3)
            return self._rollout_search(tables, params, observer, iters, deadline, rng)
        width = world.num_players * NUM_ACTIONS
        if deadline is None:
            tree = _new_tree(iters + 1, width)
            done = self._run(tables, params, observer, iters, tree, rng)
        else:
            tree, done = self._timed(tables, params, observer, iters, deadline, width, rng)
        self.last_iterations = done
        return _root_choice(tree, observer)

    def _run(self, tables, params, observer, iters, tree, rng) -> int:  # noqa: ANN001
        return int(
            kernels.ismcts_iterations(
                self._state, tables, params, ROOT, WORK, observer, iters, self._options, tree, rng
            )
        )

    def _timed(self, tables, params, observer, iters, deadline, width, rng):  # noqa: ANN001
        """Chunks of iterations until the deadline (or ``iters``), the table grown as needed."""
        limit = iters if iters is not None else MAX_ITERS
        tree = _new_tree(min(limit, MIN_NODES) + 1, width)
        done, chunk = 0, min(limit, FIRST_CHUNK)
        start = time.perf_counter()
        while done < limit:
            chunk = min(chunk, limit - done)
            tree = _fit(tree, int(tree[4][0]) + chunk)
            done += self._run(tables, params, observer, chunk, tree, rng)
            now = time.perf_counter()
            if now >= deadline:
                break
            rate = done / max(now - start, 1e-9)
            budget = deadline - start
            chunk = max(1, int(rate * min(deadline - now, budget / CHUNKS_PER_BUDGET)))
        return tree, done

    # -- the rollout search (topk > 0) ------------------------------------------------
    def _rollout_search(self, tables, params, observer, iters, deadline, rng):  # noqa: ANN001
        """The rollout algorithm over the heuristic (kernels.rollout_sweeps): the root's
        ``topk`` best actions by the heuristic's scores, each played on from the same
        determinized worlds; the best mean wins unless it beats the heuristic's own choice
        by ``margin`` or less. Root stats: (rollouts, mean value) per candidate."""
        s = self._state
        scores = np.empty(NUM_ACTIONS, np.float64)
        own = int(kernels.root_scores(s, tables, params, ROOT, scores))
        cands = _candidates(scores, own, self.topk)
        k = len(cands)
        if k == 1:
            self.last_iterations = 0
            return own, {own: (0, 0.0)}
        limit = MAX_ITERS if iters is None else iters
        max_sweeps = max(1, limit // k)
        values = np.empty((max_sweeps, k), np.float64)
        if deadline is None:
            done = self._sweeps(tables, params, observer, cands, values, 0, max_sweeps, rng)
        else:
            done = self._timed_sweeps(
                tables, params, observer, cands, values, max_sweeps, deadline, rng
            )
        self.last_iterations = done * k
        means = values[:done].mean(axis=0)
        best = int(np.argmax(means))
        if means[best] - means[0] <= self.margin:
            best = 0  # cands[0] is the heuristic's own choice
        stats = {int(a): (done, float(means[i])) for i, a in enumerate(cands)}
        return int(cands[best]), stats

    def rollout_values(
        self,
        view: Any,
        candidates: Any,
        observer: int | None = None,
        *,
        iters: int | None = None,
        seconds: float | None = None,
        seed: int = 0,
    ) -> tuple[np.ndarray, int]:
        """The observer's mean value of each of ``candidates`` (its legal actions, chosen
        by the caller: a network's top-K, say) over sweeps of the rollout algorithm (each
        candidate played on by the heuristic from the same worlds), and the sweeps run:
        ``iters`` rollouts in all (``iters // len(candidates)`` sweeps, at least one) and/or
        ``seconds``. ``view`` as in :meth:`search`."""
        start = time.perf_counter()
        world, observer = _root_world(view, observer)
        if world.is_over or world.current_player != observer:
            raise ValueError(f"seat {observer} has no decision to search in this state")
        problem = _rollout_problem(self.rollout, 1, 0.0) or _budget_problem(iters, seconds)
        cands = np.asarray(candidates, np.int64).reshape(-1)
        legal = set(world.legal_actions())
        if not problem and (not len(cands) or len(set(cands.tolist())) < len(cands)):
            problem = f"candidates must be distinct legal actions, got {cands.tolist()}"
        if not problem and not legal.issuperset(cands.tolist()):
            problem = f"candidates {cands.tolist()} are not all legal (legal: {sorted(legal)})"
        if problem:
            raise ValueError(problem)
        tables, params = self._tables_for(world)
        s = self._state
        write_state(s, ROOT, world)
        rng = np.array([_mix(seed, 1)], np.uint64)
        s.action_rng[WORK] = _mix(seed, 2)
        s.action_rng[ROOT] = _mix(seed, 3)
        deadline = None if seconds is None else start + seconds
        max_sweeps = max(1, (MAX_ITERS if iters is None else iters) // len(cands))
        values = np.empty((max_sweeps, len(cands)), np.float64)
        if deadline is None:
            done = self._sweeps(tables, params, observer, cands, values, 0, max_sweeps, rng)
        else:
            done = self._timed_sweeps(
                tables, params, observer, cands, values, max_sweeps, deadline, rng
            )
        self.last_iterations = done * len(cands)
        return values[:done].mean(axis=0), done

    def _sweeps(self, tables, params, observer, cands, values, start, count, rng) -> int:  # noqa: ANN001
        block = values[start : start + count]
        s, options = self._state, self._sweep_options
        kernels.rollout_sweeps(
            s, tables, params, ROOT, DET, WORK, observer, cands, count, options, block, rng
        )
        return count

    def _timed_sweeps(self, tables, params, observer, cands, values, limit, deadline, rng):  # noqa: ANN001
        """Chunks of sweeps (about CHUNKS_PER_BUDGET clock checks) while another sweep fits
        before the deadline at the speed measured so far; at least one sweep."""
        start = time.perf_counter()
        budget = max(deadline - start, 1e-9)
        done, chunk = 0, 1
        while done < limit:
            chunk = min(chunk, limit - done)
            done += self._sweeps(tables, params, observer, cands, values, done, chunk, rng)
            now = time.perf_counter()
            per_sweep = max(now - start, 1e-9) / done
            if now + per_sweep >= deadline:
                break
            room = min(deadline - now, budget / CHUNKS_PER_BUDGET)
            chunk = max(1, int(room / per_sweep))
        return done


def _rollout_problem(rollout: str, topk: Any, margin: Any) -> str | None:
    """Why the rollout search cannot run these options (None: it can, or topk is 0)."""
    if isinstance(topk, bool) or not isinstance(topk, int) or topk < 0:
        return f"topk must be an int >= 0 (0: the tree search), got {topk!r}"
    if not margin >= 0:
        return f"margin must be a number >= 0, got {margin!r}"
    if topk and rollout != "heuristic":
        return f"topk={topk} plays the heuristic's rollouts (rollout=heuristic), got {rollout!r}"
    return None


def _budget_problem(iters: Any, seconds: Any) -> str | None:
    """Why a rollout_values budget is not one (None: it is)."""
    if iters is None and seconds is None:
        return "give a budget: iters, seconds or both"
    if iters is not None and not 1 <= iters <= MAX_ITERS:
        return f"iters must be in 1..{MAX_ITERS}, got {iters!r}"
    if seconds is not None and not seconds > 0:
        return f"seconds must be a number > 0, got {seconds!r}"
    return None


def _candidates(scores: np.ndarray, own: int, topk: int) -> np.ndarray:
    """The heuristic's own choice, then its next best scored actions (ties by number),
    ``topk`` in all (-inf scores: not legal)."""
    legal = np.flatnonzero(scores > -np.inf)
    order = legal[np.lexsort((legal, -scores[legal]))]
    rest = [int(a) for a in order if a != own]
    return np.array([own, *rest[: topk - 1]], np.int64)


_warm = False


def warm_up() -> None:
    """Load the search's machine code (numba's disk cache, or a compile) once per process,
    when the first searcher is built: the first search would otherwise spend that time
    inside its budget (about 2 s from the cache; a server's limit per decision is less)."""
    global _warm
    if _warm:
        return
    _warm = True
    state = new_game(2, 0)
    CompiledSearch(rollout=RANDOM_ROLLOUT).search(state, state.current_player, iters=1)


def _root_world(view: Any, observer: int | None) -> tuple[GameState, int]:
    if isinstance(view, GameState):
        if observer is None:
            raise ValueError("searching a GameState needs the observer's seat")
        return view, int(observer)
    seat = view.seat
    if observer is not None and observer != seat:
        raise ValueError(f"the view is seat {seat}'s, not seat {observer}'s")
    # Any world of the information set: the kernels resample everything hidden from it.
    world = view.determinize(random.Random(0))
    if not isinstance(world, GameState):
        raise ValueError(
            f"the compiled search plays Art Gallery states, got a {type(world).__name__}"
        )
    return world, seat


def _mix(seed: int, stream: int) -> int:
    """A splitmix64 output of ``seed`` for stream ``stream`` (a 64-bit stream state)."""
    x = (int(seed) + stream * 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def _new_tree(capacity: int, width: int) -> tuple[np.ndarray, ...]:
    """(child, visits, avail, total, nodes) with the root in use."""
    child = np.full((capacity, width), -1, np.int32)
    nodes = np.ones(1, np.int64)
    return (
        child,
        np.zeros(capacity, np.int64),
        np.zeros(capacity, np.int64),
        np.zeros(capacity, np.float64),
        nodes,
    )


def _fit(tree: tuple[np.ndarray, ...], needed: int) -> tuple[np.ndarray, ...]:
    """The tree with room for ``needed`` nodes (doubled, copied), or itself."""
    capacity = tree[0].shape[0]
    if needed <= capacity:
        return tree
    bigger = _new_tree(max(needed, 2 * capacity), tree[0].shape[1])
    for old, new in zip(tree[:4], bigger[:4]):
        new[:capacity] = old
    bigger[4][0] = tree[4][0]
    return bigger


def _root_choice(
    tree: tuple[np.ndarray, ...], observer: int
) -> tuple[int, dict[int, tuple[int, float]]]:
    child, visits, _, total, _ = tree
    nodes = child[0, observer * NUM_ACTIONS : (observer + 1) * NUM_ACTIONS]
    stats: dict[int, tuple[int, float]] = {}
    best, best_key = -1, (-1, -1.0)
    for action in np.flatnonzero(nodes >= 0).tolist():
        node = nodes[action]
        n = int(visits[node])
        q = float(total[node]) / n if n else 0.0
        stats[action] = (n, q)
        if (n, q) > best_key:
            best, best_key = action, (n, q)
    if best < 0:
        raise RuntimeError("search ended without trying an action")
    return best, stats
