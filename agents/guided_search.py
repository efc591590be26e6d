"""Search guided by a network: PUCT over information sets, for any registered game.

One tree per decision for the acting seat's information set, as in :mod:`.ismcts`
(single observer; children keyed by ``seat * num_actions + action``, since whose turn comes
next can depend on hidden information). Every iteration

1. **determinizes**: a full state consistent with what the seat has seen (its
   ``SeatView.determinize``);
2. **selects** down the tree along actions legal in that world, by PUCT with
   availability counts in place of the parent's visits (ISMCTS' subset-armed bandit)::

       q(a) + c * prior(a) * sqrt(avail(a)) / (1 + visits(a))

   where ``q`` is the child's mean value for the seat to act (an unvisited child gets the
   node's mean so far, "first-play urgency"), and ``prior`` the masked softmax of the network's
   logits at that seat's observation of the world (the game's seat observer,
   ``GameSpec.make_observer``), over the actions legal now. Below the root that observation
   differs between worlds (a rival's hidden cards, the draws). By default a node keeps the
   priors of the first world that reached it; with ``prior_samples`` K > 1 they are the
   **running mean** of the masked softmax over the first K determinizations that reach it
   (each one's observation joins the batch's network call), renormalised over the actions
   legal in the current world (an action legal now but in none of the sampled worlds gets
   the uniform share ``1 / len(legal)`` before renormalising). Why K = 1 stays the
   default: measured (Dec 2 2026, ``exit_all`` generation 3, the self-play settings: 64
   iterations, batch 8, c 0.5, prior temperature 3; 15 mid-round states per table size,
   the same seed for both), K = 8 moved the root's visit distribution by a total
   variation of 0.009 / 0.015 / 0.006 at 2 / 4 / 6 players, less than changing the seed
   does (0.022 / 0.021 / 0.009), chose the same action as often as another seed (100 / 87
   / 93 % against 100 / 87 / 87 %), and cost 30-60 % more time a search (one observation
   and one network row per node and world). The root's priors are exact, so the visits
   at a short search follow them; rivals' priors only reorder what lies below;
3. stops at the first node not yet evaluated for the seat to act (a **leaf**) or at the
   game's end, and **evaluates** it: the network's priors for that seat, and one value in
   [0, 1] per seat, either

   - ``value_from_net``: the value head on each seat's own observation of the leaf (N
     observations; for checkpoints whose meta says ``"value_kind": "win_share"``, what
     expert iteration writes), optionally after a rollout of ``rounds`` round ends; or
   - otherwise a rollout of the game's (``rollout``/``rounds`` as in ISMCTS) and the
     game's search evaluator (``GameSpec.search_evaluator``): a PPO checkpoint's value is
     a return, not a win chance, so only its priors are used.

   A rollout to the game's end (``rounds=0``) with a policy the game's compiled engine
   plays (capability ``vector``: its ``VectorGame.play_out``, policies
   :data:`COMPILED_ROLLOUTS`, default parameters) runs there, all the batch's leaves in
   one call, and its value is each seat's win share; ``compiled=False`` (or a game
   without the engine, or no numba) plays them in Python. Measured at 4 players: 8
   heuristic play-outs to the end took 26 ms compiled against 1,030 ms in Python, about
   what 8 Python play-outs to the next round end (the default ``rounds=1``) cost;
4. **backs up** the value vector along the path.

**The rollout mode** (``topk`` K > 0) replaces the tree by the rollout algorithm of the
game's compiled search (capability ``compiled_search``: its ``CompiledSearch`` and
``rollout_values``): the root's candidates are the network's K most likely actions (its
argmax first; ties by action number; after the Dirichlet noise when ``dirichlet`` > 0),
and each is valued by ``iters`` rollouts in all (``iters // K`` sweeps), every candidate
played on by the game's heuristic for every seat from the same determinized worlds
(common random numbers), to ``rounds`` round ends (0: the game's end) and the game's
evaluator. The best mean is played unless it beats the network's argmax by ``margin`` or
less. ``visits`` then holds each candidate's sweeps (equal for all), ``q`` their means,
``values`` the observer's value only (nan for the other seats); :func:`value_policy`
turns the means into a distribution (expert iteration's policy target). Only the root's
priors come from the network; its value head is not asked.

Batching: ``batch`` iterations descend before the network runs once for all their leaves
(one ``logits`` call and, with net values, one ``values`` call). A descent adds its visit at
once ("virtual loss": a pending visit counts with value 0), so the walks of one batch spread
over different leaves.

The root's priors come from the observer's own observation, which is the same in every
determinization (one sample is exact); ``dirichlet`` > 0 mixes Dirichlet noise into them
(self-play exploration). Only the view and the search's own seeded RNG are read: the same seed and
iteration budget give the same result in any two states of one information set.
"""

from __future__ import annotations

import json
import math
import os
import random
import time
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from art_gallery_env.core.protocol import EngineState, SeatView
from art_gallery_env.core.registry import GameSpec, get_game

from .base import Agent, searchable_legal
from .ismcts import RANDOM_ROLLOUT, _check_budget, default_rollout, make_evaluator, make_rollout

WIN_SHARE = "win_share"  # a checkpoint meta's value_kind whose value head is a win share
DIRICHLET_ALPHA = 0.3  # concentration of the root noise (AlphaZero's for chess)
TOP_ACTIONS = 8  # actions an explain() lists
# rollouts the game's compiled engine plays to the end (VectorGame.play_out's policies)
COMPILED_ROLLOUTS = ("heuristic", RANDOM_ROLLOUT)
COMPILED_SEARCH = "compiled_search"  # the capability of the rollout mode (topk > 0)
# Determinizations whose priors a node below the root averages. 1 (the first world's,
# the module docstring says why): measured, 8 changed the visits less than the seed does
PRIOR_SAMPLES = 1
# The agent's defaults (GuidedSearch keeps c_puct=1.5 and prior_temperature=1): with
# quick.safetensors and iters=100, 40 games each against heuristic v2 at 2 players won
# 55.0 % (c=1.5, ptemp=1), 67.5 % (1.5, 3), 65.0 % (0.7, 2) and 83.8 % (0.5, 3).
AGENT_C = 0.5
AGENT_PTEMP = 3.0


class Net(Protocol):
    """What the search asks of a network (numpy in, numpy out)."""

    def logits(self, observations: np.ndarray) -> np.ndarray: ...  # (B, num_actions)

    def values(self, observations: np.ndarray) -> np.ndarray: ...  # (B,)


@dataclass
class SearchResult:
    """A search's root: the action with the most visits, the visit counts of the observer's
    actions (the policy target of expert iteration) and each seat's mean value."""

    action: int  # most visits (ties: higher mean value, then higher prior)
    visits: np.ndarray  # (num_actions,) float, root visit counts of the observer's actions
    values: np.ndarray  # (num_players,) root mean value per seat, in [0, 1]
    priors: np.ndarray | None = None  # (num_actions,) the root's priors (0 where illegal)
    q: np.ndarray | None = None  # (num_actions,) mean value of each root action for the
    # observer (nan where unvisited)
    iterations: int = 0


class _Node:
    __slots__ = ("children", "visits", "avail", "value", "logits", "priors", "sums", "samples")

    def __init__(self, num_players: int) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0  # completed and pending (virtual loss) visits
        self.avail = 0  # iterations in which this child's action was legal
        self.value = [0.0] * num_players  # sum of completed values, per seat
        self.logits: dict[int, list[float]] = {}  # seat -> its logits at the first leaf
        # seat -> the sum over its sampled worlds of the masked softmax (prior_samples > 1)
        self.sums: dict[int, dict[int, float]] = {}
        self.samples: dict[int, list[int]] = {}  # seat -> [worlds summed, worlds asked]
        self.priors: dict[tuple[int, tuple[int, ...]], list[float]] = {}  # (seat, legal)


@dataclass
class _Leaf:
    """One descent of a batch: the nodes walked (root first), its world and leaf node."""

    path: list[_Node]
    world: EngineState
    node: _Node
    seat: int | None  # the seat to act at the leaf (None: the game is over)
    # more worlds for the priors of nodes walked: (node, seat, legal, observation)
    samples: list[tuple[_Node, int, tuple[int, ...], np.ndarray]] | None = None


class GuidedSearch:
    """PUCT guided by ``net`` (see the module docstring); :meth:`run` searches one decision.

    ``game``: the registered game (name or None for the default game). ``iters``:
    iterations per decision (an upper bound if ``seconds`` is also given); ``seconds``: a
    time budget. ``c_puct``: the exploration constant. ``batch``: leaves per network call.
    ``value_from_net``: leaf values from ``net.values`` (else the game's evaluator after a
    rollout). ``rollout``: a rollout name of :func:`~.ismcts.rollout_names` (None: the game's
    default when values come from rollouts, no rollout when they come from the net);
    ``rounds``: round ends a rollout plays to (0: the game's end). ``dirichlet``: the weight
    of root noise. ``scale``: the evaluator's spread (None: the game's default).
    ``prior_temperature``: priors are ``softmax(logits / prior_temperature)``; above 1 it
    flattens a confident policy's priors, whose top action otherwise takes every visit of a
    short search (a prior of 0.005 needs about 200 iterations before its first visit).
    ``prior_samples``: determinizations whose priors a node below the root averages (1:
    the first world's only). ``compiled``: rollouts to the game's end on its compiled
    engine where it has one (the module docstring). ``topk`` > 0: the rollout mode (the
    module docstring) with the game's compiled search, ``margin`` its tie-break toward the
    network's argmax; ``rollout``/``rollout_params``/``rounds``/``scale`` then configure
    its rollouts, ``iters``/``seconds`` count them, and values never come from the net.
    """

    def __init__(
        self,
        net: Net,
        *,
        game: str | None,
        iters: int | None,
        c_puct: float = 1.5,
        batch: int = 8,
        seed: int | None = None,
        value_from_net: bool = True,
        rollout: str | None = None,
        rounds: int = 1,
        dirichlet: float = 0.0,
        seconds: float | None = None,
        scale: float | None = None,
        rollout_params: Any = None,
        prior_temperature: float = 1.0,
        prior_samples: int = PRIOR_SAMPLES,
        compiled: bool = True,
        topk: int = 0,
        margin: float = 0.0,
    ) -> None:
        if iters is None and seconds is None:
            raise ValueError("a search needs a budget: iters=N or seconds=S")
        _check_budget(iters, seconds)
        _check_options(c_puct, batch, rounds, dirichlet)
        if not (isinstance(prior_temperature, (int, float)) and prior_temperature > 0):
            raise ValueError(f"ptemp must be a number > 0, got {prior_temperature!r}")
        if isinstance(prior_samples, bool) or not isinstance(prior_samples, int):
            raise ValueError(f"prior_samples must be an int >= 1, got {prior_samples!r}")
        if prior_samples < 1:
            raise ValueError(f"prior_samples must be an int >= 1, got {prior_samples!r}")
        self.prior_samples = prior_samples
        spec = get_game(game)
        self.spec: GameSpec = spec
        self.net = net
        self.iters = iters
        self.seconds = seconds
        self.c_puct = float(c_puct)
        self.batch = int(batch)
        self._rollouts = _rollout_searcher(
            spec, rollout, rollout_params, rounds, scale, topk, margin
        )
        self.topk, self.margin = topk, float(margin)
        self.value_from_net = bool(value_from_net) and not topk  # topk: rollout values
        if rollout is None and not self.value_from_net:
            rollout = default_rollout(spec.name)
        self.rollout = rollout
        self.policy = None if rollout is None else make_rollout(spec, rollout, rollout_params)
        self.rounds = rounds
        self.dirichlet = float(dirichlet)
        self.prior_temperature = float(prior_temperature)
        self.evaluator = make_evaluator(spec, scale)
        # rollouts on the compiled engine (its module is looked up where used)
        self.compiled = self._compiled_engine(compiled, rollout_params) is not None
        self._key = spec.num_actions
        self._rng = random.Random(seed)
        self.last_root: _Node | None = None

    def reset(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self.last_root = None

    def _compiled_engine(self, compiled: bool, rollout_params: Any) -> Any:
        """The game's compiled engine module when this search's rollouts can run there
        (to the game's end, a policy it plays, default parameters), else None."""
        if not (compiled and self.rounds == 0 and self.rollout in COMPILED_ROLLOUTS):
            return None
        if rollout_params is not None or not self.spec.has("vector"):
            return None
        try:
            return self.spec.extension("vector")
        except ImportError:  # no numba: the Python rollouts
            return None

    # -- the search --------------------------------------------------------------------
    def run(self, view: SeatView) -> SearchResult:
        """Search the decision of ``view``'s seat (it must be that seat's turn)."""
        legal = list(view.legal_actions())
        if not legal:
            raise ValueError(f"seat {view.seat} has no decision to search (not its turn)")
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        rng, me = self._rng, view.seat
        first = view.determinize(rng)
        self._check_world(first)
        self._observer = self.spec.make_observer(first)
        root = _Node(first.num_players)
        self._root_priors(root, first, me, legal)
        if self._rollouts is not None:
            self._observer = None
            return self._rollout_result(root, first, me, legal, deadline)
        limit = self.iters if self.iters is not None else 1 << 62
        done = 0
        while done < limit and not (done and _past(deadline)):
            leaves = [self._descend(root, first if not done else view.determinize(rng))]
            while len(leaves) < min(self.batch, limit - done) and not _past(deadline):
                leaves.append(self._descend(root, view.determinize(rng)))
            self._evaluate(leaves)
            done += len(leaves)
        self.last_root = root
        self._observer = None
        return self._result(root, me, legal, done)

    def _rollout_result(
        self, root: _Node, world: EngineState, me: int, legal: list[int], deadline: float | None
    ) -> SearchResult:
        """The rollout mode's decision: the network's top-K root actions valued by the
        game's compiled rollout sweeps (the module docstring)."""
        priors = root.priors[(me, tuple(legal))]
        order = sorted(range(len(legal)), key=lambda i: (-priors[i], legal[i]))
        cands = [legal[i] for i in order[: self.topk]]
        prior_row = np.zeros(self._key, np.float64)
        prior_row[legal] = priors
        visits, q = np.zeros(self._key, np.float64), np.full(self._key, np.nan)
        values = np.full(world.num_players, np.nan)
        if len(cands) == 1:  # nothing to compare: the network's choice
            return SearchResult(cands[0], visits, values, prior_row, q, 0)
        seconds = None if deadline is None else max(1e-4, deadline - time.perf_counter())
        means, sweeps = self._rollouts.rollout_values(
            world, cands, me, iters=self.iters, seconds=seconds, seed=self._rng.getrandbits(63)
        )
        best = int(np.argmax(means))
        if means[best] - means[0] <= self.margin:
            best = 0  # the network's argmax
        visits[cands] = sweeps
        q[cands] = means
        values[me] = means[best]
        return SearchResult(cands[best], visits, values, prior_row, q, sweeps * len(cands))

    def _root_priors(self, root: _Node, world: EngineState, me: int, legal: list[int]) -> None:
        """The root's priors: the observer's own observation, the same in every world."""
        obs = self._observer.observation(world, me)
        root.logits[me] = self._logits(obs[None])[0].tolist()
        root.samples[me] = [1, self.prior_samples]  # exact: no more worlds asked
        priors = _softmax(root.logits[me], legal)
        if self.dirichlet > 0:
            noise = np.random.default_rng(self._rng.getrandbits(64)).dirichlet(
                [DIRICHLET_ALPHA] * len(legal)
            )
            eps = self.dirichlet
            priors = [(1 - eps) * p + eps * float(x) for p, x in zip(priors, noise)]
        root.priors[(me, tuple(legal))] = priors

    def _descend(self, root: _Node, world: EngineState) -> _Leaf:
        """Walk from the root by PUCT until a node not evaluated for the seat to act (or
        the game's end); every node walked gets its visit now (the virtual loss)."""
        c, key, sqrt = self.c_puct, self._key, math.sqrt
        node, path = root, [root]
        root.visits += 1
        samples: list[tuple[_Node, int, tuple[int, ...], np.ndarray]] = []
        while not world.is_over:
            player = world.current_player
            if player not in node.logits:
                return _Leaf(path, world, node, player, samples)
            legal = world.legal_actions()
            priors = self._priors(node, player, legal)
            count = node.samples[player]
            if count[1] < self.prior_samples:  # this world's priors join the mean
                count[1] += 1
                obs = self._observer.observation(world, player)
                samples.append((node, player, tuple(legal), obs))
            base, children = player * key, node.children
            fpu = node.value[player] / max(1, node.visits - 1)  # this descent's visit left out
            best, best_action, best_score = None, -1, -1e300
            for a, p in zip(legal, priors):
                child = children.get(base + a)
                if child is None:
                    child = children[base + a] = _Node(len(node.value))
                child.avail += 1
                n = child.visits
                q = child.value[player] / n if n else fpu
                score = q + c * p * sqrt(child.avail) / (1 + n)
                if score > best_score:
                    best, best_action, best_score = child, a, score
            best.visits += 1
            world.apply(best_action)
            path.append(best)
            node = best
        return _Leaf(path, world, node, None, samples)

    def _priors(self, node: _Node, player: int, legal: list[int]) -> list[float]:
        """The node's priors for ``player`` over ``legal``: one world's softmax, or the mean
        of several worlds' (cached until a world joins)."""
        key = (player, tuple(legal))
        priors = node.priors.get(key)
        if priors is None:
            worlds = node.samples[player][0]
            if worlds == 1:  # the first world's logits over the actions legal now
                priors = _softmax(node.logits[player], legal)
            else:
                sums, uniform = node.sums[player], 1.0 / len(legal)
                raw = [sums[a] if a in sums else uniform * worlds for a in legal]
                total = sum(raw)
                priors = [r / total for r in raw] if total > 0 else [uniform] * len(legal)
            node.priors[key] = priors
        return priors

    def _add_sample(self, node: _Node, seat: int, legal: Any, logits: Any) -> None:
        """One world's masked softmax into ``node``'s sums for ``seat``."""
        node.logits.setdefault(seat, logits)
        count = node.samples[seat]
        count[0] += 1
        if self.prior_samples > 1:
            sums = node.sums.setdefault(seat, {})
            for a, p in zip(legal, _softmax(logits, legal)):
                sums[a] = sums.get(a, 0.0) + p
        for key in [k for k in node.priors if k[0] == seat]:
            del node.priors[key]

    def _evaluate(self, leaves: list[_Leaf]) -> None:
        """One network call for the batch's leaves (priors, and values from the net), the
        rollouts where values come from the game's evaluator, then the back-ups."""
        self._evaluate_priors(leaves)
        values = self._compiled_values(leaves) if self.compiled else None
        if values is None:
            values = [self._value(leaf) for leaf in leaves]
        if self.value_from_net:
            self._net_values(leaves, values)
        for leaf, value in zip(leaves, values):
            for node in leaf.path:
                total = node.value
                for seat, v in enumerate(value):
                    total[seat] += v

    def _evaluate_priors(self, leaves: list[_Leaf]) -> None:
        """One logits call for the batch: each open leaf's seat, and the further worlds
        its descent brought to the nodes it walked (their running means)."""
        observe = self._observer.observation
        open_leaves = [leaf for leaf in leaves if leaf.seat is not None]
        extra = [sample for leaf in leaves for sample in leaf.samples or ()]
        if not open_leaves and not extra:
            return
        rows = [observe(leaf.world, leaf.seat) for leaf in open_leaves]
        out = self._logits(np.stack(rows + [sample[3] for sample in extra]))
        for leaf, row in zip(open_leaves, out):
            count = leaf.node.samples.setdefault(leaf.seat, [0, 0])
            if count[1] < self.prior_samples:  # two leaves of a batch may share a node
                count[1] += 1
                self._add_sample(leaf.node, leaf.seat, leaf.world.legal_actions(), row.tolist())
        for (node, seat, legal, _), row in zip(extra, out[len(open_leaves) :]):
            self._add_sample(node, seat, legal, row.tolist())

    def _logits(self, obs: np.ndarray) -> np.ndarray:
        """The network's logits of a batch, over the prior temperature."""
        logits = np.asarray(self.net.logits(obs), np.float64).reshape(len(obs), -1)
        return logits / self.prior_temperature if self.prior_temperature != 1.0 else logits

    def _value(self, leaf: _Leaf) -> list[float] | None:
        """The leaf's value from the game (after a rollout, if any), or None where the
        network gives it (an unfinished game with values from the net)."""
        world = leaf.world
        if self.policy is not None and not world.is_over:
            end = world.round + self.rounds if self.rounds else 1 << 30
            choose, rng = self.policy.choose, self._rng
            while not world.is_over and world.round < end:
                world.apply(choose(world, rng))
        if self.value_from_net and not world.is_over:
            return None
        return [min(1.0, max(0.0, float(v))) for v in self.evaluator(world)]

    def _compiled_values(self, leaves: list[_Leaf]) -> list[list[float] | None]:
        """Every leaf's value after a play-out to the game's end: the unfinished ones in
        one call of the compiled engine (seeded from the search's RNG), each seat's win
        share (the ``win`` rewards' 1/k for the winners, 0 for the others)."""
        values: list[list[float] | None] = [None] * len(leaves)
        open_at = [i for i, leaf in enumerate(leaves) if not leaf.world.is_over]
        if open_at:
            game = self.spec.extension("vector").VectorGame.from_states(
                [leaves[i].world for i in open_at],
                seed=self._rng.getrandbits(63),
                auto_reset=False,
                reward_mode="win",
                check=False,
            )
            rewards, _ = game.play_out(policy=self.rollout)
            for i, row in zip(open_at, np.maximum(rewards, 0.0).tolist()):
                values[i] = row
        for i, leaf in enumerate(leaves):
            if values[i] is None:
                values[i] = [min(1.0, max(0.0, float(v))) for v in self.evaluator(leaf.world)]
        return values

    def _net_values(self, leaves: list[_Leaf], values: list[list[float] | None]) -> None:
        """Fill the values the net gives: every seat's own observation of its leaf, one
        batch for all of them."""
        pending = [i for i, v in enumerate(values) if v is None]
        if not pending:
            return
        observe = self._observer.observation
        n = leaves[pending[0]].world.num_players
        obs = np.stack([observe(leaves[i].world, s) for i in pending for s in range(n)])
        out = self.net.values(obs)
        if out is None:
            raise ValueError("value_from_net needs a network with a value head")
        flat = np.clip(np.asarray(out, np.float64).reshape(-1), 0.0, 1.0).tolist()
        for j, i in enumerate(pending):
            values[i] = flat[j * n : (j + 1) * n]

    def _result(self, root: _Node, me: int, legal: list[int], done: int) -> SearchResult:
        num_actions = self._key
        visits = np.zeros(num_actions, np.float64)
        q = np.full(num_actions, np.nan)
        priors = np.zeros(num_actions, np.float64)
        for a, p in zip(legal, root.priors[(me, tuple(legal))]):
            priors[a] = p
            child = root.children.get(me * num_actions + a)
            if child is not None and child.visits:
                visits[a] = child.visits
                q[a] = child.value[me] / child.visits
        best = max(legal, key=lambda a: (visits[a], -1.0 if np.isnan(q[a]) else q[a], priors[a]))
        values = np.asarray(root.value, np.float64) / max(1, root.visits)
        return SearchResult(int(best), visits, values, priors, q, done)

    def _check_world(self, world: EngineState) -> None:
        expected = self.spec.state_type
        if expected is not object and not isinstance(world, expected):
            raise ValueError(
                f"the search was built for the game {self.spec.name!r} but was given a "
                f"{type(world).__name__}; build it with game=... of that state's game"
            )


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() >= deadline


def _softmax(logits: list[float], legal: list[int]) -> list[float]:
    """The softmax of ``logits`` over the ``legal`` actions, in their order."""
    top = max(logits[a] for a in legal)
    exps = [math.exp(logits[a] - top) for a in legal]
    total = sum(exps)
    return [e / total for e in exps]


def _check_options(c_puct: float, batch: int, rounds: int, dirichlet: float) -> None:
    if not (isinstance(c_puct, (int, float)) and c_puct >= 0):
        raise ValueError(f"c must be a number >= 0, got {c_puct!r}")
    if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
        raise ValueError(f"batch must be a positive int (leaves per network call), got {batch!r}")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        raise ValueError(f"rounds must be an int >= 0 (0: play to the end), got {rounds!r}")
    if not (isinstance(dirichlet, (int, float)) and 0 <= dirichlet <= 1):
        raise ValueError(f"dirichlet must be a weight in [0, 1], got {dirichlet!r}")


def _rollout_searcher(
    spec: GameSpec,
    rollout: str | None,
    rollout_params: Any,
    rounds: int,
    scale: float | None,
    topk: int,
    margin: float,
) -> Any:
    """The game's compiled search for the rollout mode (None where ``topk`` is 0); a game
    without one, or no numba, is a one-line error."""
    if isinstance(topk, bool) or not isinstance(topk, int) or topk < 0:
        raise ValueError(f"topk must be an int >= 0 (0: the PUCT search), got {topk!r}")
    if not topk:
        return None
    if not (isinstance(margin, (int, float)) and margin >= 0):
        raise ValueError(f"margin must be a number >= 0, got {margin!r}")
    if not spec.has(COMPILED_SEARCH):
        raise ValueError(f"topk needs a compiled search, which {spec.title} has not (use topk=0)")
    try:
        module = spec.extension(COMPILED_SEARCH)
    except ImportError as err:
        raise ValueError(
            f"topk needs the game's compiled search, which needs numba ({err})"
        ) from None
    return module.CompiledSearch(
        rollout=default_rollout(spec.name) if rollout is None else rollout,
        rollout_params=rollout_params,
        rounds=rounds,
        scale=scale,
        topk=topk,
        margin=margin,
    )


def value_policy(
    result: SearchResult, temperature: float, prior: np.ndarray | None = None
) -> np.ndarray:
    """A rollout-mode result's means as a distribution over the actions:
    ``softmax(q / temperature)`` over the candidates (the actions with a mean), 0
    elsewhere, or with ``prior`` (num_actions,) ``prior * exp(q / temperature)``
    renormalised (the KL-regularised improvement of the prior: where the means tie, the
    prior stays); temperature 0 (or no means: a single candidate) puts all on ``action``."""
    out = np.zeros(len(result.visits), np.float64)
    q = result.q if result.q is not None else np.full(len(out), np.nan)
    searched = np.flatnonzero(~np.isnan(q))
    if temperature <= 0 or len(searched) == 0:
        out[result.action] = 1.0
        return out
    x = q[searched] / temperature
    weights = np.exp(x - x.max())
    if prior is not None:
        weights = weights * np.maximum(np.asarray(prior, np.float64)[searched], 1e-12)
    out[searched] = weights / weights.sum()
    return out


def value_kind(policy: Any, path: str | os.PathLike[str] | None = None) -> str | None:
    """What a checkpoint's value head estimates: its meta's ``value_kind`` (the file's
    header, else the ``.json`` beside it); None where neither says."""
    kind = getattr(policy, "meta", {}).get("value_kind")
    if kind is None and path is not None:
        try:
            with open(os.path.splitext(os.fspath(path))[0] + ".json", encoding="utf-8") as f:
                sidecar = json.load(f)
        except (OSError, ValueError):
            sidecar = None
        if isinstance(sidecar, dict):
            kind = sidecar.get("value_kind")
    return kind


class GuidedSearchAgent(Agent):
    """Plays a checkpoint with :class:`GuidedSearch` (``search:ckpt=PATH,iters=200``).

    Leaf values come from the checkpoint's value head when its meta says
    ``"value_kind": "win_share"``, else from the game's evaluator after a rollout.
    ``temperature`` 0 plays the most visited action; above 0 it samples an action with
    probability proportional to ``visits ** (1 / temperature)`` (seeded). ``ptemp``: the
    priors' temperature (:class:`GuidedSearch`'s ``prior_temperature``). Defaults: ``c=0.5``,
    ``ptemp=3`` (:data:`AGENT_C`, :data:`AGENT_PTEMP`), ``iters=200`` without a budget.
    ``topk=K`` (and ``margin``): the rollout mode (the module docstring), any checkpoint's
    priors choosing the candidates; there ``temperature`` samples
    ``softmax(mean / temperature)`` over them (:func:`value_policy`), since every
    candidate gets the same sweeps.
    """

    name = "search"

    def __init__(
        self,
        ckpt: str | os.PathLike[str] | Any,
        seed: int | None = None,
        *,
        iters: int | None = None,
        seconds: float | None = None,
        c: float = AGENT_C,
        batch: int = 8,
        rollout: str | None = None,
        rounds: int = 1,
        temperature: float = 0.0,
        ptemp: float = AGENT_PTEMP,
        scale: float | None = None,
        game: str | None = None,
        topk: int = 0,
        margin: float = 0.0,
    ) -> None:
        from .policy import load_policy
        from .policy_format import CheckpointError
        from .policy_header import wrong_game_message

        spec = get_game(game)
        if iters is None and seconds is None:
            iters = 200
        if not (isinstance(temperature, (int, float)) and temperature >= 0):
            raise ValueError(f"temperature must be a number >= 0, got {temperature!r}")
        path = None
        if isinstance(ckpt, (str, os.PathLike)):
            path = os.fspath(ckpt)
            ckpt = load_policy(path)
        if ckpt.game != spec.name:
            raise CheckpointError(wrong_game_message(path or "the policy", ckpt.game, spec.name))
        from_net = value_kind(ckpt, path) == WIN_SHARE
        if from_net and not getattr(ckpt, "has_value_head", False):
            raise CheckpointError(f"{path}: value_kind win_share, but the file has no value head")
        if rollout is not None and rollout != RANDOM_ROLLOUT and rollout not in spec.rollouts:
            from .ismcts import rollout_names

            raise ValueError(
                f"rollout must be one of {', '.join(rollout_names(spec.name))}, got {rollout!r}"
            )
        self.game = spec.name
        self.path = path
        self.temperature = float(temperature)
        self.search = GuidedSearch(
            ckpt,
            game=spec.name,
            iters=iters,
            seconds=seconds,
            c_puct=c,
            batch=batch,
            value_from_net=from_net,
            rollout=rollout,
            rounds=rounds,
            scale=scale,
            prior_temperature=ptemp,
            topk=topk,
            margin=margin,
        )
        self.last: SearchResult | None = None
        self.reset(seed)

    @property
    def iters(self) -> int | None:
        return self.search.iters

    @property
    def seconds(self) -> float | None:
        """The time budget per decision (a server caps it: ``cap_search_seconds``)."""
        return self.search.seconds

    @seconds.setter
    def seconds(self, value: float | None) -> None:
        self.search.seconds = value

    @property
    def value_source(self) -> str:
        return "net" if self.search.value_from_net else "rollout"

    def reset(self, seed: int | None = None) -> None:
        self.search.reset(seed)
        self._rng = np.random.default_rng(seed)
        self.last = None

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["last"] = None
        return state

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, view: SeatView | None = None
    ) -> int:
        legal = searchable_legal("GuidedSearchAgent", action_mask, view)
        self.last = None
        if len(legal) == 1:
            return legal[0]
        result = self.search.run(view)
        self.search.last_root = None  # explain() reads the result; the tree is not kept
        self.last = result
        action = result.action
        if self.temperature > 0 and self.search.topk:
            p = value_policy(result, self.temperature)
            action = int(self._rng.choice(len(p), p=p))
        elif self.temperature > 0:
            weights = result.visits[legal] ** (1.0 / self.temperature)
            if weights.sum() > 0:
                action = legal[int(self._rng.choice(len(legal), p=weights / weights.sum()))]
        if not action_mask[action]:
            raise AssertionError(f"search chose {action}, which the mask does not allow")
        return int(action)

    def explain(self, top: int = TOP_ACTIONS) -> dict[str, Any]:
        """The last search's root: the ``top`` own actions by visits with each one's mean
        value (win chance in [0, 1]) for this seat and its prior, and every seat's root
        value; no visits when the move was forced."""
        result = self.last
        base = {"kind": "search", "agent": self.name, "value_source": self.value_source}
        if result is None:
            return {**base, "iterations": 0, "top": []}
        order = sorted(
            np.flatnonzero((result.priors > 0) | (result.visits > 0)).tolist(),
            key=lambda a: (
                -result.visits[a],
                -np.nan_to_num(result.q[a], nan=-1.0),
                -result.priors[a],
            ),
        )
        return {
            **base,
            "iterations": result.iterations,
            "top": [
                {
                    "action": a,
                    "visits": int(result.visits[a]),
                    "q": None if np.isnan(result.q[a]) else round(float(result.q[a]), 4),
                    "prior": round(float(result.priors[a]), 4),
                }
                for a in order[:top]
            ],
            "values": [None if np.isnan(v) else round(float(v), 4) for v in result.values],
        }
