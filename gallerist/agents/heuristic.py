"""A Gallerist player by one-turn lookahead: try each legal action on a determinized world
(G18), finish the own pending sub-decisions greedily, and keep the action whose result a
hand-written evaluation likes best.

The evaluation (:func:`evaluate`) estimates the money a seat will end with: its cash, the
end-of-game value of what it holds now (exhibited works at their sales value, reputation
tiles, Curator and Art Dealer goals done, market majorities, the influence track) plus
rough values of assets that pay later (tickets, visitors in the Lobby and the Gallery,
assistants, contracts, a commission, partly done goals). The weights are in
:class:`HeuristicParams`. It reads only the own seat's information set: the world comes
from :class:`~art_gallery_env.gallerist.rules.hidden.PlayerView`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from art_gallery_env.agents.base import Agent, legal_from_mask

from ..rules.data import COLLECTOR, INVESTOR, VIP
from ..rules.effects import assistant_code, sales_value
from ..rules.game import auction_totals
from ..rules.hidden import PlayerView
from ..rules.scoring import goal_complete, majority_money, reputation_scores, score_breakdown
from ..rules.state import EMPTY, F_KICKED, F_POST, F_TURN, SLOT_EMPTY, SLOT_UP, GameState

_MENUS = (F_TURN, F_POST, F_KICKED)


@dataclass(frozen=True)
class HeuristicParams:
    ticket: float = 1.0
    lobby_visitor: float = 1.4
    gallery_visitor: tuple[float, float, float] = (2.5, 2.5, 3.0)  # investor, VIP, collector
    desk_assistant: float = 1.6
    location_assistant: float = 1.0
    face_up_contract: float = 1.5
    sellable_contract: float = 2.0
    unused_bonus: float = 1.5
    commission: float = 3.0
    influence_use: float = 0.3  # on top of its end-of-game money
    partial_goal: float = 0.3  # share of a goal's value per filled part
    auction_offer: float = 1.2  # per money offered: the renowned work it may win
    pending_tile: float = 3.0
    max_subdecisions: int = 8
    noise: float = 1e-6


def evaluate(s: GameState, p: int, params: HeuristicParams) -> float:
    """Estimated final money of seat ``p`` (exact once the game is over)."""
    if s.over:
        return float(score_breakdown(s)[p]["total"])
    d = s.data
    v = float(s.money[p])
    v += d.influence_money[s.influence[p]] + params.influence_use * s.influence[p]
    v += sum(sales_value(s, s.work_artist[w]) for w in s.gallery[p])
    rep_money, rep_influence = reputation_scores(s, p)
    v += rep_money + 0.5 * rep_influence
    v += majority_money(s).get(p, 0)
    offers = auction_totals(s).get(p)
    if offers:
        v += params.auction_offer * offers[0]
    v += params.ticket * sum(s.tickets[p])
    v += params.lobby_visitor * sum(s.lobby[p])
    g = s.gallery_visitors[p]
    w_inv, w_vip, w_col = params.gallery_visitor
    v += w_inv * g[INVESTOR] + w_vip * g[VIP] + w_col * g[COLLECTOR]
    v += params.desk_assistant * s.desks[p]
    code = assistant_code(p)
    v += params.location_assistant * sum(1 for o in s.occupant if o == code)
    forms = [d.works[w].form for w in s.gallery[p]]
    for card, state, on in s.contracts[p]:
        if state == SLOT_EMPTY:
            continue
        if not on:
            v += params.unused_bonus
        if state == SLOT_UP:
            v += params.face_up_contract
            if d.contracts[card].form in forms:
                v += params.sellable_contract
    if s.commission[p] != EMPTY:
        v += params.commission
    if s.pending_tile[p] != EMPTY:
        v += params.pending_tile
    shown = forms + ([d.works[s.renowned[p]].form] if s.renowned[p] != EMPTY else [])
    sold = [d.works[w].form for w in s.sold[p]]
    for goals, have in (
        (d.curators[s.curator[p]].goals, shown),
        (d.dealers[s.dealer[p]].goals, sold),
    ):
        for goal in goals:
            if goal_complete(goal, have):
                v += goal.value
            else:
                v += params.partial_goal * goal.value * _progress(goal, have)
    return v


def _progress(goal, forms: list[int]) -> float:
    """The share of a goal's parts the works already fill (greedy, an estimate)."""
    if goal.distinct_forms:
        return min(1.0, len(set(forms)) / goal.distinct_forms)
    free = list(forms)
    filled = 0
    for mask in goal.slots:
        for i, form in enumerate(free):
            if mask >> form & 1:
                del free[i]
                filled += 1
                break
    return filled / len(goal.slots)


class HeuristicPolicy:
    def __init__(self, params: HeuristicParams | None = None) -> None:
        self.params = params or HeuristicParams()

    def choose(self, world: GameState, rng: random.Random) -> int:
        me = world.current_player
        legal = world.legal_actions()
        scores = []
        for action in legal:
            child = world.clone()
            child.apply(action)
            self._complete(child, me, rng)
            scores.append(evaluate(child, me, self.params) + rng.random() * self.params.noise)
        return legal[int(np.argmax(scores))]

    def _complete(self, s: GameState, me: int, rng: random.Random) -> None:
        """Finish ``me``'s sub-decisions of this step, each by its best immediate result."""
        for _ in range(self.params.max_subdecisions):
            if s.over or s.current_player != me or s.frames[-1][0] in _MENUS:
                return
            best, best_score = None, -np.inf
            for action in s.legal_actions():
                child = s.clone()
                child.apply(action)
                score = evaluate(child, me, self.params) + rng.random() * self.params.noise
                if score > best_score:
                    best, best_score = action, score
            s.apply(best)


class GalleristHeuristicAgent(Agent):
    """Plays :class:`HeuristicPolicy` on a determinized world of its seat's information set.

    Without a ``view`` it falls back to a uniformly random legal action from the mask."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, params: HeuristicParams | None = None) -> None:
        self.policy = HeuristicPolicy(params)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView | None = None
    ) -> int:
        legal = legal_from_mask(action_mask)
        if view is None or not view.is_my_turn:
            return int(legal[self._rng.randrange(legal.size)])
        world = view.determinize(self._rng)
        action = self.policy.choose(world, self._rng)
        if not action_mask[action]:  # the view and the mask disagree: trust the mask
            return int(legal[self._rng.randrange(legal.size)])
        return int(action)
