"""Single-observer information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012).

One tree per decision, for the acting seat's information set. Every iteration:

1. **determinize**: sample a full state consistent with what the seat has seen
   (:meth:`PlayerView.determinize`, R8);
2. **select**: walk down the tree along actions legal in that world; among a node's
   children whose actions are legal now, pick the highest UCB value
   ``mean + c * sqrt(ln(availability) / visits)``, where *availability* counts the
   iterations in which the child's action was legal (ISMCTS' subset-armed bandit);
3. **expand** one untried legal action;
4. **roll out** with the random or a heuristic policy (the latest version by default,
   ``rollout=heuristic:v1`` for version 1) until the end of the round
   (``rounds=1``, the default) or of the game (``rounds=0``), then
5. **evaluate**: at the game's end each seat's win share (R7.5); after a truncated rollout
   a win chance per seat from the score margin, ``sigmoid((own - best rival) / scale)``,
   where a seat's score is R7 (rows, souvenirs, hand / 4, start card) plus a share of the
   open chains that may still grow;
6. **back up** each node's reward for the seat that chose its action.

Children are keyed by (seat, action): in a distribution phase, whose decision comes next can
depend on hidden bids. The agent plays the root child with the most visits. It only ever
reads its :class:`PlayerView` and its own seeded RNG, so the same seed gives the same
decision in any two states of one information set (with an iteration budget; a time budget
depends on the machine's speed).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

import numpy as np

from art_gallery_env.rules.hidden import PlayerView
from art_gallery_env.rules.scoring import souvenir_points, start_card_points, win_shares
from art_gallery_env.rules.state import GameState

from .base import Agent, legal_from_mask
from .heuristic import heuristic_policy
from .heuristic_v1 import BidParams, HeuristicV1Params, HeuristicV1Policy

ROLLOUTS = ("random", "heuristic", "heuristic:v1")
_KEY = 64  # child key = seat * _KEY + action


class _Node:
    __slots__ = ("children", "visits", "avail", "total")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


class Evaluator:
    """Per-seat values in [0, 1] of a (possibly unfinished) game."""

    def __init__(
        self,
        scale: float = 4.0,
        potential: float = 0.3,
        hand_weight: float = 0.25,
        policy: HeuristicV1Policy | None = None,
    ):
        self.scale = scale
        self.potential = potential
        self.hand_weight = hand_weight
        self._summary = (policy or heuristic_policy()).summary  # R7.1, cached per collection

    def scores(self, state: GameState) -> list[float]:
        """R7 estimate per seat: rows + souvenirs + hand + start card + open-chain potential.

        Unlike the final score, the hand counts every card the seat owns (hand, face-up and
        face-down cards) at ``hand_weight`` per pip, and open chains count a share."""
        out = []
        for p in range(state.num_players):
            collection = state.collections[p]
            best, _, open_sum = self._summary(collection, state.cards)
            hand = state.hands[p]
            moved = state.moved[p]
            pips = sum(v * (hand[v] + moved[v]) for v in range(len(hand)))
            for owner, v in (bid for bids in state.bids for bid in bids):
                if owner == p:
                    pips += v
            value = sum(best) + self.potential * sum(open_sum)
            value += souvenir_points(state.tiles_held[p], collection)
            value += self.hand_weight * pips + start_card_points(state, p)
            out.append(value)
        return out

    def rewards(self, state: GameState) -> list[float]:
        if state.is_over:
            return win_shares(state.score_breakdown())
        n = state.num_players
        scores = self.scores(state)
        rewards = []
        for p in range(n):
            rival = max(scores[q] for q in range(n) if q != p)
            x = (scores[p] - rival) / self.scale
            rewards.append(1.0 / (1.0 + math.exp(-x)) if x > -30 else 0.0)
        return rewards


class ISMCTSAgent(Agent):
    """Single-observer ISMCTS with availability-aware UCB (see the module docstring).

    Budget: ``iters`` iterations per decision, or ``seconds`` of search per decision (then
    ``iters`` is an upper bound if also given). ``rollout`` is ``"random"``,
    ``"heuristic"`` (the latest version, with ``heuristic`` parameters if given) or
    ``"heuristic:v1"``; ``rounds`` is how many round ends a rollout runs to before the
    evaluation (0: play to the game's end); ``c`` is the UCB exploration constant.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        *,
        iters: int | None = None,
        seconds: float | None = None,
        c: float = 0.2,
        rollout: str = "heuristic",
        rounds: int = 1,
        scale: float = 4.0,
        heuristic: BidParams | None = None,
    ) -> None:
        if iters is None and seconds is None:
            iters = 400
        if iters is not None and (isinstance(iters, bool) or not isinstance(iters, int)):
            raise ValueError(f"iters must be a positive int, got {iters!r}")
        if iters is not None and iters < 1:
            raise ValueError(f"iters must be a positive int, got {iters!r}")
        if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0):
            raise ValueError(f"seconds must be a positive number, got {seconds!r}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        if not isinstance(rounds, int) or rounds < 0:
            raise ValueError(f"rounds must be an int >= 0 (0: play to the end), got {rounds!r}")
        if not c >= 0:
            raise ValueError(f"c must be a number >= 0, got {c!r}")
        if not scale > 0:
            raise ValueError(f"scale must be a number > 0, got {scale!r}")
        self.iters = iters
        self.seconds = seconds
        self.c = float(c)
        self.rollout = rollout
        self.rounds = rounds
        if rollout == "heuristic:v1":
            heuristic = heuristic or HeuristicV1Params()
            if not isinstance(heuristic, HeuristicV1Params):
                raise ValueError(
                    f"rollout=heuristic:v1 needs HeuristicV1Params, got {type(heuristic).__name__}"
                )
        self.policy = heuristic_policy(heuristic)
        self.evaluator = Evaluator(scale=scale, policy=self.policy)
        self.last_iterations = 0
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self._root: tuple[_Node, int] | None = None

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_root"] = None  # the last search's tree: only for explain(), and deep
        return state

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView | None = None
    ) -> int:
        legal = legal_from_mask(action_mask).tolist()
        if view is None:
            raise ValueError(
                "ISMCTSAgent needs a PlayerView of its seat (act(obs, mask, view)); "
                "it cannot search from the observation vector alone"
            )
        self._root = None
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        action = self.search(view)
        if not action_mask[action]:
            raise AssertionError(f"search chose {action}, which the mask does not allow")
        return action

    # -- search ----------------------------------------------------------------------
    def search(self, view: PlayerView) -> int:
        rng = self._rng
        root = _Node()
        me = view.player
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        limit = self.iters if self.iters is not None else 1 << 62
        done = 0
        while done < limit:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            world = view.determinize(rng)
            self._iterate(root, world, rng)
            done += 1
        self.last_iterations = done
        self._root = (root, me)
        best, best_key = None, (-1, -1.0)
        for key, child in root.children.items():
            if key // _KEY != me:
                continue
            rank = (child.visits, child.total / child.visits if child.visits else 0.0)
            if rank > best_key:
                best, best_key = key % _KEY, rank
        if best is None:  # cannot happen with at least one iteration
            raise RuntimeError("search ended without trying an action")
        return best

    def explain(self, top: int = 8) -> dict[str, Any] | None:
        """The last search's root: the ``top`` own actions by visits, with each one's mean
        reward (win chance in [0, 1]) for this seat; no visits when the move was forced."""
        if self._root is None:
            return {"kind": "search", "agent": self.name, "iterations": 0, "top": []}
        root, me = self._root
        children = [
            (key % _KEY, child) for key, child in root.children.items() if key // _KEY == me
        ]
        # the order the agent ranks them in (visits, then mean reward): the chosen one first
        children.sort(key=lambda item: (-item[1].visits, -(item[1].total / max(1, item[1].visits))))
        return {
            "kind": "search",
            "agent": self.name,
            "iterations": self.last_iterations,
            "top": [
                {
                    "action": action,
                    "visits": child.visits,
                    "q": round(child.total / child.visits, 4) if child.visits else None,
                }
                for action, child in children[:top]
            ],
        }

    def _iterate(self, root: _Node, world: GameState, rng: random.Random) -> None:
        c = self.c
        log = math.log
        sqrt = math.sqrt
        end_round = world.round + self.rounds if self.rounds else 1 << 30
        path: list[tuple[_Node, int]] = []
        node = root
        while not world.is_over and world.round < end_round:
            player = world.current_player
            legal = world.legal_actions()
            base = player * _KEY
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
        self._rollout(world, end_round, rng)
        rewards = self.evaluator.rewards(world)
        for child, player in path:
            child.visits += 1
            child.total += rewards[player]

    def _rollout(self, world: GameState, end_round: int, rng: random.Random) -> None:
        if self.rollout == "random":
            choice = rng.choice
            while not world.is_over and world.round < end_round:
                world.apply(choice(world.legal_actions()))
        else:
            choose = self.policy.choose
            while not world.is_over and world.round < end_round:
                world.apply(choose(world, rng))
