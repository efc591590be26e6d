"""Single-observer information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012),
over the engine protocol (:mod:`art_gallery_env.core.protocol`), for any registered game.

One tree per decision, for the acting seat's information set. Every iteration:

1. **determinize**: sample a full state consistent with what the seat has seen
   (the seat view's ``determinize``);
2. **select**: walk down the tree along actions legal in that world; among a node's
   children whose actions are legal now, pick the highest UCB value
   ``mean + c * sqrt(ln(availability) / visits)``, where *availability* counts the
   iterations in which the child's action was legal (ISMCTS' subset-armed bandit);
3. **expand** one untried legal action;
4. **roll out** with a rollout policy of the game (``GameSpec.rollouts``: its first by
   default, e.g. the game's heuristic) or uniformly at random (``rollout=random``, every
   game) until the end of the round (``rounds=1``, the default) or of the game
   (``rounds=0``), then
5. **evaluate**: with the game's ``GameSpec.search_evaluator`` (e.g. win shares at the end,
   a logistic of an estimated score margin after a truncated rollout), or by default each
   seat's win share at the end and ``sigmoid((own total - best rival's) / scale)`` of
   ``score_breakdown()`` so far after a truncated rollout;
6. **back up** each node's reward for the seat that chose its action.

Children are keyed by (seat, action): whose decision comes next can depend on hidden
information (face-down bids, say). The agent plays the root child with the most
visits. It only ever reads its seat view and its own seeded RNG, so the same seed gives the
same decision in any two states of one information set (with an iteration budget; a time
budget depends on the machine's speed).

Engines: this module is the readable reference (``engine="python"``). A game may offer a
compiled twin of the same search (capability ``compiled_search``: its extension module has
``unsupported(rollout, rollout_params, iters) -> reason | None`` and
``CompiledSearch(rollout=, rollout_params=, rounds=, c=, scale=)`` whose
``search(view, iters=, seconds=, seed=)`` returns ``(action, {action: (visits, mean)})``).
``engine="auto"`` (the default) uses it when the game has one, numba is installed and the
options are ones it plays; ``engine="compiled"`` insists (an error says why not). The two
engines agree in distribution, not move for move: their random streams differ.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from art_gallery_env.core.protocol import EngineState, SeatView
from art_gallery_env.core.registry import GameSpec, get_game
from art_gallery_env.core.scoring import margin_values, win_shares

from .base import Agent, searchable_legal

RANDOM_ROLLOUT = "random"
ENGINES = ("auto", "python", "compiled")
COMPILED_CAPABILITY = "compiled_search"
ROLLOUT_NEEDS = "the game's compiled search (engine=auto or compiled, with numba)"
DEFAULT_SCALE = 4.0  # the default evaluator's spread of a score margin, in points


class _Node:
    __slots__ = ("children", "visits", "avail", "total")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


class RandomRollout:
    """``rollout=random``: a uniformly random legal action (every game)."""

    def choose(self, state: EngineState, rng: random.Random) -> int:
        return rng.choice(state.legal_actions())


class MarginEvaluator:
    """The default evaluator: win shares at the game's end, else per seat
    ``sigmoid((own total - best rival's total) / scale)`` of the score so far (with one
    seat, its own total)."""

    def __init__(self, scale: float | None = None) -> None:
        self.scale = DEFAULT_SCALE if scale is None else scale

    def __call__(self, state: EngineState) -> list[float]:
        breakdown = state.score_breakdown()
        if state.is_over:
            return win_shares(breakdown)
        return margin_values([row["total"] for row in breakdown], self.scale)


def rollout_names(game: str | None = None) -> tuple[str, ...]:
    """The rollouts ISMCTS offers for ``game``: ``random`` and the game's own."""
    return (RANDOM_ROLLOUT, *(r for r in get_game(game).rollouts if r != RANDOM_ROLLOUT))


def default_rollout(game: str | None = None) -> str:
    """The first rollout the game lists (a game whose heuristic is too slow for rollouts
    lists ``random`` first), or ``random`` for a game that lists none."""
    return next(iter(get_game(game).rollouts), RANDOM_ROLLOUT)


def make_rollout(spec: GameSpec, rollout: str, params: Any = None) -> Any:
    """The rollout policy named ``rollout`` of ``spec``'s game (an object with ``choose``);
    ``random`` is the search's own unless the game brings a factory of that name."""
    factory = spec.rollouts.get(rollout)
    if factory is None and rollout == RANDOM_ROLLOUT:
        if params is not None:
            raise ValueError("rollout=random takes no rollout parameters")
        return RandomRollout()
    if factory is None:
        raise ValueError(
            f"rollout must be one of {', '.join(rollout_names(spec.name))}, got {rollout!r}"
        )
    return factory(params)


def make_evaluator(spec: GameSpec, scale: float | None) -> Callable[[EngineState], list[float]]:
    factory = spec.search_evaluator or MarginEvaluator
    return factory(scale)


def _compiled_search(spec: GameSpec, engine: str, options: dict[str, Any]) -> Any:
    """The game's compiled search for these options, or None where ``engine="auto"`` falls
    back to this module (``engine="compiled"``: a one-line error instead)."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if engine == "python":
        if options.get("topk"):
            raise ValueError(f"topk needs {ROLLOUT_NEEDS}, not engine=python")
        return None
    problem, module = None, None
    if not spec.has(COMPILED_CAPABILITY):
        problem = f"{spec.title} has no compiled search (engine=python or auto plays it)"
    else:
        try:
            module = spec.extension(COMPILED_CAPABILITY)
        except ImportError as err:
            problem = f"the compiled search needs numba ({err})"
    if module is not None:
        problem = module.unsupported(
            options["rollout"], options["rollout_params"], options.get("iters")
        )
    if problem is not None:
        if options.get("topk") and module is None:
            raise ValueError(f"topk needs {ROLLOUT_NEEDS}: {problem}")
        if engine == "compiled" or options.get("topk"):
            raise ValueError(problem)
        return None
    del options["iters"]
    if not options.get("topk"):  # the tree search: the capability's base options
        options.pop("topk", None)
        options.pop("margin", None)
    return module.CompiledSearch(**options)


class ISMCTSAgent(Agent):
    """Single-observer ISMCTS with availability-aware UCB (see the module docstring).

    Budget: ``iters`` iterations per decision, or ``seconds`` of search per decision (then
    ``iters`` is an upper bound if also given). ``game``: the registered game it plays
    (None: the default game). ``rollout`` names one of :func:`rollout_names` (None: the
    game's default), built with ``rollout_params`` if given (e.g. a heuristic's
    weights); ``rounds`` is how many round ends a rollout runs to before the evaluation
    (0: play to the game's end); ``c`` is the UCB exploration constant; ``scale`` the
    evaluator's spread of a score margin (None: the game's default). ``engine``: ``auto``,
    ``python`` or ``compiled`` (the module docstring); ``self.engine`` says which one runs.
    ``topk`` > 0 replaces the tree by the rollout algorithm of the game's compiled search:
    only the root's ``topk`` best actions by the game's heuristic are searched, each played
    on by the heuristic for every seat from the same worlds; the heuristic's own choice
    stays unless another beats its mean value by more than ``margin``.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        *,
        iters: int | None = None,
        seconds: float | None = None,
        c: float = 0.2,
        rollout: str | None = None,
        rounds: int = 1,
        scale: float | None = None,
        rollout_params: Any = None,
        game: str | None = None,
        engine: str = "auto",
        topk: int = 0,
        margin: float = 0.0,
    ) -> None:
        if iters is None and seconds is None:
            iters = 400
        _check_budget(iters, seconds)
        if not isinstance(rounds, int) or rounds < 0:
            raise ValueError(f"rounds must be an int >= 0 (0: play to the end), got {rounds!r}")
        if not c >= 0:
            raise ValueError(f"c must be a number >= 0, got {c!r}")
        if scale is not None and not scale > 0:
            raise ValueError(f"scale must be a number > 0, got {scale!r}")
        spec = get_game(game)
        self.game = spec.name
        self.iters = iters
        self.seconds = seconds
        self.c = float(c)
        self.rollout = default_rollout(spec.name) if rollout is None else rollout
        self.rounds = rounds
        self.policy = make_rollout(spec, self.rollout, rollout_params)
        self.evaluator = make_evaluator(spec, scale)
        self._state_type = spec.state_type
        self._key = spec.num_actions  # child key = seat * num_actions + action
        self._compiled = _compiled_search(
            spec,
            engine,
            {
                "rollout": self.rollout,
                "rollout_params": rollout_params,
                "rounds": rounds,
                "c": self.c,
                "scale": scale,
                "iters": iters,
                "topk": topk,
                "margin": margin,
            },
        )
        self.engine = "python" if self._compiled is None else "compiled"
        self.last_iterations = 0
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self._root: list[tuple[int, int, float]] | None = None

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_root"] = None  # the last search's root: only for explain()
        return state

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, view: SeatView | None = None
    ) -> int:
        legal = searchable_legal("ISMCTSAgent", action_mask, view)
        self._root = None
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        action = self.search(view)
        if not action_mask[action]:
            raise AssertionError(f"search chose {action}, which the mask does not allow")
        return action

    # -- search ----------------------------------------------------------------------
    def search(self, view: SeatView) -> int:
        if self._compiled is not None:
            return self._search_compiled(view)
        rng = self._rng
        root = _Node()
        me = view.seat
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        limit = self.iters if self.iters is not None else 1 << 62
        done = 0
        while done < limit:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            world = view.determinize(rng)
            if not done:
                self._check_world(world)
            self._iterate(root, world, rng)
            done += 1
        self.last_iterations = done
        self._root = [
            (action, child.visits, child.total / child.visits if child.visits else 0.0)
            for action, child in self._own_children(root, me)
        ]
        best, best_key = None, (-1, -1.0)
        for action, visits, q in self._root:
            if (visits, q) > best_key:
                best, best_key = action, (visits, q)
        if best is None:  # cannot happen with at least one iteration
            raise RuntimeError("search ended without trying an action")
        return best

    def _search_compiled(self, view: SeatView) -> int:
        """The game's compiled search, seeded from this agent's stream (one draw per
        decision, so a seed replays the same decisions)."""
        seed = self._rng.getrandbits(64)
        # Any world of the information set will do: the compiled search resamples all that
        # is hidden from the seat in every iteration (from sorted contents, so the world
        # it starts from does not matter); this one is drawn from a fixed stream.
        world = view.determinize(random.Random(0))
        self._check_world(world)
        action, stats = self._compiled.search(
            world, view.seat, iters=self.iters, seconds=self.seconds, seed=seed
        )
        self.last_iterations = self._compiled.last_iterations
        self._root = [(a, visits, q) for a, (visits, q) in stats.items()]
        return action

    def _check_world(self, world: EngineState) -> None:
        """A world of another game than the one this agent was built for (its rollouts and
        evaluator would misread it) is an error naming both."""
        expected = self._state_type
        if expected is not object and not isinstance(world, expected):
            raise ValueError(
                f"ISMCTSAgent was built for the game {self.game!r} but was given a "
                f"{type(world).__name__}; build it with make_agent(spec, seed, game=...)"
            )

    def _own_children(self, root: _Node, me: int) -> list[tuple[int, _Node]]:
        """(action, child) of the root's children that are ``me``'s own actions."""
        key = self._key
        return [(k % key, child) for k, child in root.children.items() if k // key == me]

    def explain(self, top: int = 8) -> dict[str, Any] | None:
        """The last search's root: the ``top`` own actions by visits, with each one's mean
        reward (win chance in [0, 1]) for this seat; no visits when the move was forced."""
        if self._root is None:
            return {"kind": "search", "agent": self.name, "iterations": 0, "top": []}
        # the order the agent ranks them in (visits, then mean reward): the chosen one first
        children = sorted(self._root, key=lambda item: (-item[1], -item[2]))
        return {
            "kind": "search",
            "agent": self.name,
            "iterations": self.last_iterations,
            "top": [
                {"action": action, "visits": visits, "q": round(q, 4) if visits else None}
                for action, visits, q in children[:top]
            ],
        }

    def _iterate(self, root: _Node, world: EngineState, rng: random.Random) -> None:
        c = self.c
        log = math.log
        sqrt = math.sqrt
        key = self._key
        end_round = world.round + self.rounds if self.rounds else 1 << 30
        path: list[tuple[_Node, int]] = []
        node = root
        while not world.is_over and world.round < end_round:
            player = world.current_player
            legal = world.legal_actions()
            base = player * key
            children = node.children
            untried = []
            best_child, best_action, best_ucb = None, -1, -1e300
            for a in legal:
                child = children.get(base + a)
                if child is None:
                    untried.append(a)
                    continue
                child.avail += 1
                if not untried:
                    ucb = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
                    if ucb > best_ucb:
                        best_child, best_action, best_ucb = child, a, ucb
            if untried:
                a = untried[0] if len(untried) == 1 else rng.choice(untried)
                child = children[base + a] = _Node()
                child.avail = 1
                world.apply(a)
                path.append((child, player))
                break
            world.apply(best_action)
            path.append((best_child, player))
            node = best_child
        choose = self.policy.choose
        while not world.is_over and world.round < end_round:
            world.apply(choose(world, rng))
        rewards = self.evaluator(world)
        for child, player in path:
            child.visits += 1
            child.total += rewards[player]


def _check_budget(iters: int | None, seconds: float | None) -> None:
    if iters is not None and (isinstance(iters, bool) or not isinstance(iters, int)):
        raise ValueError(f"iters must be a positive int, got {iters!r}")
    if iters is not None and iters < 1:
        raise ValueError(f"iters must be a positive int, got {iters!r}")
    if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0):
        raise ValueError(f"seconds must be a positive number, got {seconds!r}")
