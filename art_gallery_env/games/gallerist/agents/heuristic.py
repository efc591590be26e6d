"""A Gallerist player by lookahead on a determinized world of its information set (G18):
try each legal action, finish the own pending sub-decisions greedily, and keep the action
whose result a hand-written evaluation likes best. In a solo game a choice on a turn's
menu is also valued by the best action of the following turn (Lacerda's moves between
them are the engine's).

The evaluation (:func:`evaluate`) estimates the money a seat will end with: its cash, the
end-of-game value of what it holds now (exhibited works at their sales value, with credit
for fame on the way to the next star; reputation tiles, Curator and Art Dealer goals done,
market majorities, the renowned work its auction offers are likely to win, the influence
track) plus rough values of assets that pay later (tickets, visitors in the Lobby and the
Gallery, assistants, contracts, a commission, partly done goals), scaled down as the end
comes near. In a solo game it adds credit for the goal conditions (G17.6): reputation
tiles, masterpieces and card goals on the way to the next level, so the greedy player plans
toward the level, not only the money. The weights are in :class:`HeuristicParams`. It reads
only the own seat's information set: the world comes from
:class:`~art_gallery_env.games.gallerist.rules.hidden.PlayerView`.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, fields, replace

import numpy as np

from art_gallery_env.core.agent import WorldPolicyAgent

from ..rules.data import COLLECTOR, INVESTOR, NUM_COLOURS, VIP, GameData, Goal
from ..rules.effects import assistant_code, renowned_value
from ..rules.game import auction_totals
from ..rules.scoring import (
    goal_complete,
    majority_money,
    reputation_scores,
    score_breakdown,
)
from ..rules.state import EMPTY, F_KICKED, F_POST, F_TURN, SLOT_EMPTY, SLOT_UP, GameState

_MENUS = (F_TURN, F_POST, F_KICKED)


@dataclass(frozen=True)
class HeuristicParams:
    """The evaluation's weights (see the module docstring)."""

    ticket: float = 1.0
    lobby_visitor: float = 1.4
    gallery_visitor: tuple[float, float, float] = (2.5, 2.5, 3.0)  # investor, VIP, collector
    desk_assistant: float = 1.6
    location_assistant: float = 1.0
    face_up_contract: float = 1.5
    sellable_contract: float = 2.0
    unused_bonus: float = 1.5
    commission: float = 3.0  # a commission whose artist still has a signature token left
    kept_commission: float = 0.5  # per fame over the initial: one kept past a token purchase
    blocked_discovery: float = 3.0  # a kept commission that stops discovering (G6.2)
    influence_use: float = 0.3  # on top of its end-of-game money
    partial_goal: float = 0.3  # share of a goal's value per filled part
    fame_progress: float = 0.6  # share of the next star's value earned on the way to it
    auction_win: float = 1.0  # share of the renowned work's value counted while winning
    auction_scale: float = 6.0  # softness of the chance to keep an easel, in money offered
    renowned_floor: float = 11.0  # the least a renowned work is counted at
    pending_tile: float = 3.0
    liquidity: float = 0.5  # extra per money in hand up to ``liquidity_cap`` (it buys actions)
    liquidity_cap: float = 10.0
    sale_plan: float = 0.5  # share of an Art Dealer goal's progress a possible sale counts
    horizon: float = 8.0  # rounds left below which future-only assets lose value
    solo_tile: float = 12.0  # solo: credit per reputation tile toward the goals' count
    solo_masterpiece: float = 20.0  # solo: credit per masterpiece toward the goals' count
    solo_hope: float = 12.0  # solo: per exhibited work, times (fame / 19) ** hope_power
    hope_power: float = 3.0
    solo_card_goal: float = 20.0  # solo: per card, times the share of its closest goal done
    solo_time: float = 1.0  # solo: per box-office ticket left (the game ends when none is)
    solo_reserve: float = 3.0  # solo: cost per money short of ``solo_reserve_money``
    solo_reserve_money: float = 4.0  # (cash plus what influence can pay)
    solo_level: float = 40.0  # solo: credit per goal level reached (G17.6)
    lookahead: int = 1  # solo: 1 = weigh a turn's choices by the best next turn too
    max_subdecisions: int = 8
    noise: float = 1e-6

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls) if f.name not in ("gallery_visitor",)]

    def with_options(self, **options: float) -> HeuristicParams:
        """A copy with the named weights changed (``lookahead`` and ``max_subdecisions``
        are ints)."""
        bad = sorted(set(options) - set(self.names()))
        if bad:
            raise ValueError(
                f"unknown heuristic weight {bad[0]!r}; valid: {', '.join(self.names())}"
            )
        for name in ("lookahead", "max_subdecisions"):  # counts, not weights
            if name in options:
                options = {**options, name: int(options[name])}
        return replace(self, **options)


_STAR_STEPS: dict[str, tuple[tuple[tuple[int, int, float], ...], ...]] = {}
_MEMO_LIMIT = 4_096  # entries per memo below (~1 kB each); a full one is emptied (pure values)
_MARKET: dict[tuple, tuple[dict[int, int], dict[int, tuple[int, list[int]]]]] = {}
_GOALS: dict[tuple, tuple[tuple[int, int, bool, float, float | None], ...]] = {}
_EASELS: dict[tuple, list[int]] = {}
_NO_OFFER: tuple[int, list[int]] = (0, [])
_SOLO_NEEDS: dict[str, tuple[int, int]] = {}


def _market(s: GameState) -> tuple[dict[int, int], dict[int, tuple[int, list[int]]]]:
    """The rules' ``majority_money`` (money per seat) and, per seat with an auction offer
    (``auction_totals``), its total offer and the other seats' totals, highest first;
    read only (shared), memoized by what they read: the component data and the market's
    assistants. The evaluation asks for every candidate, and most leave the market as
    it was."""
    key = (s.data.fingerprint, *s.market_upper, *s.market_lower)
    found = _MARKET.get(key)
    if found is None:
        if len(_MARKET) >= _MEMO_LIMIT:
            _MARKET.clear()
        totals = auction_totals(s)
        offers = {
            p: (t[0], sorted((u[0] for o, u in totals.items() if o != p), reverse=True))
            for p, t in totals.items()
        }
        found = _MARKET[key] = (majority_money(s), offers)
    return found


def _star_steps(data: GameData) -> tuple[tuple[tuple[int, int, float], ...], ...]:
    """Per artist tile and fame: (sales value, the next star's extra value, the share of
    the fame between the two stars already climbed), computed once per component file."""
    table = _STAR_STEPS.get(data.fingerprint)
    if table is None:
        rows = []
        for values in data.artist_values:
            row = []
            for f, v in enumerate(values):
                nxt = next((g for g in range(f + 1, len(values)) if values[g] > v), None)
                if nxt is None:
                    row.append((v, 0, 0.0))
                    continue
                prev = f
                while prev > 0 and values[prev - 1] == v:
                    prev -= 1
                row.append((v, values[nxt] - v, (f - prev + 1) / (nxt - prev + 1)))
            rows.append(tuple(row))
        table = _STAR_STEPS[data.fingerprint] = tuple(rows)
    return table


def smooth_value(s: GameState, artist: int, share: float) -> float:
    """The sales value of ``artist``'s works (G13.1) plus ``share`` of the next star's
    extra value in proportion to the fame already climbed toward it."""
    value, gain, climbed = _star_steps(s.data)[s.artist_tile[artist]][s.fame[artist]]
    return value + share * gain * climbed


def rounds_left(s: GameState) -> float:
    """A rough count of the rounds still to play (for the value of future-only assets)."""
    if s.final_round:
        return 0.0
    if s.end_triggered:
        return 1.0
    total = NUM_COLOURS * s.data.tickets_per_colour[s.num_players - 1]
    office = sum(s.box_office) / max(1, total)
    if s.solo:
        return 26.0 * office
    bag = len(s.bag) / max(1, len(s.bag) + sum(s.plaza) + 20)
    celebrities = max(0.0, 1.0 - sum(s.celebrity) / 2)
    remaining = sorted((office, bag, celebrities))[1]  # two of three end the game (G15.1)
    return 22.0 * remaining


def _auction_value(
    s: GameState, p: int, params: HeuristicParams, offers: dict[int, tuple[int, list[int]]]
) -> float:
    """The renowned work this seat's offers may take (G16.2), counted as it scores (its
    value at the auction and again as exhibited; at least ``renowned_floor``, as the
    form's artists may still rise), times ``auction_win`` and a chance of keeping a place
    among the easels: certain in a solo game (nobody else bids, G17.7), else growing
    smoothly with the lead over the best other offer that would take the last easel
    (``offers``: :func:`_market`'s)."""
    easels = len(s.easels)
    mine, others = offers.get(p, _NO_OFFER)
    if not easels or not mine:
        return 0.0
    ahead = sum(1 for t in others if t > mine)
    values = _easel_values(s)
    value = max(values[min(ahead, easels - 1)], params.renowned_floor)
    if s.solo:
        chance = 1.0
    else:
        rival = others[easels - 1] if len(others) >= easels else 0
        chance = 1.0 / (1.0 + math.exp(-(mine - rival) / params.auction_scale))
    return params.auction_win * chance * 2 * value


def _easel_values(s: GameState) -> list[int]:
    """The renowned works' values (G16.2), highest first (read only: shared), memoized by
    what they read: the easels and the artists' tiles, discovery and fame."""
    key = (s.data.fingerprint, *s.easels, EMPTY, *s.artist_tile, *s.discovered, *s.fame)
    found = _EASELS.get(key)
    if found is None:
        if len(_EASELS) >= _MEMO_LIMIT:
            _EASELS.clear()
        found = _EASELS[key] = sorted((renowned_value(s, w) for w in s.easels), reverse=True)
    return found


def _solo_needs(d: GameData) -> tuple[int, int]:
    """The most reputation tiles and masterpieces any solo goal level asks (G17.6)."""
    needs = _SOLO_NEEDS.get(d.fingerprint)
    if needs is None:
        needs = _SOLO_NEEDS[d.fingerprint] = (
            max(g.reputation_tiles for g in d.solo_goals),
            max(g.masterpieces for g in d.solo_goals),
        )
    return needs


def _solo_goal_credit(
    s: GameState, p: int, card_progress: tuple[float, float], params: HeuristicParams
) -> float:
    """G17.6 shaping: credit for the goal conditions (reputation tiles, masterpieces, a
    Curator and an Art Dealer goal; ``card_progress`` is the share of the closest goal of
    each card already filled)."""
    d = s.data
    tiles = len(s.spaces[p]) - s.spaces[p].count(EMPTY)
    masterpieces = sum(1 for w in s.gallery[p] + s.sold[p] if s.masterpiece[w])
    need_tiles, need_mp = _solo_needs(d)
    credit = params.solo_tile * min(tiles, need_tiles)
    credit += params.solo_masterpiece * min(masterpieces, need_mp)
    credit += params.solo_card_goal * sum(card_progress)
    if not s.end_triggered:  # the rounds still to play (an early end loses them)
        credit += params.solo_time * sum(s.box_office)
        # a player without money or influence may have no action left: a round of passes
        # ends the game (G15.3)
        means = s.money[p] + d.money_below[s.influence[p]]
        credit -= params.solo_reserve * max(0.0, params.solo_reserve_money - means)
    return credit


def _goal_progress(goal: Goal, forms: list[int]) -> float:
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


def evaluate(s: GameState, p: int, params: HeuristicParams) -> float:
    """Estimated final money of seat ``p`` (exact once the game is over), plus in a solo
    game the credit for goal conditions (and ``solo_level`` per level reached at the end)."""
    if s.over:
        row = score_breakdown(s)[p]
        value = float(row["total"])
        if s.solo:
            value += params.solo_level * row["goal_level"]
            done = (min(1, row["curator_goals"]), min(1, row["dealer_goals"]))
            value += _solo_goal_credit(s, p, done, params)
        return value
    future = min(1.0, rounds_left(s) / params.horizon)
    forms = [s.data.works[w].form for w in s.gallery[p]]
    return (
        _held_value(s, p, params, future)
        + _contracts_value(s, p, params, future, forms)
        + _goals_value(s, p, params, future, forms)
    )


def _held_value(s: GameState, p: int, params: HeuristicParams, future: float) -> float:
    """Cash, influence, exhibited works, the board's scoring now, and assets for later."""
    d = s.data
    top = d.celebrity_fame
    v = float(s.money[p]) + params.liquidity * future * min(s.money[p], params.liquidity_cap)
    v += d.influence_money[s.influence[p]] + params.influence_use * future * s.influence[p]
    steps, share = _star_steps(d), params.fame_progress
    for w in s.gallery[p]:
        artist = s.work_artist[w]
        value, gain, climbed = steps[s.artist_tile[artist]][s.fame[artist]]
        v += value + share * gain * climbed  # smooth_value(s, artist, share)
        if s.solo and not s.celebrity[artist]:  # on the way to a masterpiece (G13.2)
            v += params.solo_hope * future * (s.fame[artist] / top) ** params.hope_power
    rep_money, rep_influence = reputation_scores(s, p)
    v += rep_money + 0.5 * rep_influence
    majorities, offers = _market(s)
    v += majorities.get(p, 0)
    v += _auction_value(s, p, params, offers)
    v += future * params.ticket * sum(s.tickets[p])
    v += future * params.lobby_visitor * sum(s.lobby[p])
    g = s.gallery_visitors[p]
    w_inv, w_vip, w_col = params.gallery_visitor
    v += w_inv * g[INVESTOR] + w_vip * g[VIP] + w_col * g[COLLECTOR]
    v += future * params.desk_assistant * s.desks[p]
    code = assistant_code(p)
    v += future * params.location_assistant * s.occupant.count(code)
    if s.commission[p] != EMPTY:
        v += future * _commission_value(s, p, params)
    if s.pending_tile[p] != EMPTY:
        v += params.pending_tile
    return v


def _commission_value(s: GameState, p: int, params: HeuristicParams) -> float:
    """The own commission (G6.1/G6.3). Fresh from a discovery, its artist still has a
    signature token, and ``commission`` counts the cheap work to come. Kept past a purchase
    with the last token (the G6.3 choice "use token") while an artist is still face down,
    it stops every discovery (G6.2) for the discount on one more work of its artist: worth
    ``kept_commission`` per fame over the initial fame, less ``blocked_discovery``. With
    every artist face up it blocks nothing and counts as a fresh one."""
    artist = s.commission[p]
    if s.tokens[artist] > 0 or all(s.discovered):
        return params.commission
    discount = s.fame[artist] - s.data.artists[s.artist_tile[artist]].initial_fame
    return params.kept_commission * max(0, discount) - params.blocked_discovery


def _contracts_value(
    s: GameState, p: int, params: HeuristicParams, future: float, forms: list[int]
) -> float:
    v = 0.0
    for card, state, on in s.contracts[p]:
        if state == SLOT_EMPTY:
            continue
        if not on:
            v += future * params.unused_bonus
        if state == SLOT_UP:
            v += future * params.face_up_contract
            if s.data.contracts[card].form in forms:
                v += future * params.sellable_contract
    return v


def _sales_in_reach(s: GameState, p: int, forms: list[int]) -> list[int]:
    """Forms of exhibited works that face-up contracts could sell (one work each)."""
    left = list(forms)
    out = []
    for card, state, _on in s.contracts[p]:
        form = s.data.contracts[card].form if state == SLOT_UP else None
        if form is not None and form in left:
            left.remove(form)
            out.append(form)
    return out


def _goal_parts(
    s: GameState, p: int, shown: list[int], sold: list[int], reach: list[int]
) -> tuple[tuple[int, int, bool, float, float | None], ...]:
    """Per goal of ``p``'s Curator (k = 0) and Art Dealer (k = 1) cards: (k, value, done,
    the share filled, the share a possible sale would fill or None); memoized by
    :func:`_goals_value` by what they read: the cards, the works (exhibited, renowned,
    sold) and the contracts."""
    d = s.data
    out = []
    for k, (goals, have) in enumerate(
        ((d.curators[s.curator[p]].goals, shown), (d.dealers[s.dealer[p]].goals, sold))
    ):
        for goal in goals:
            if goal_complete(goal, have):
                out.append((k, goal.value, True, 1.0, None))
                continue
            soon = None
            if k == 1 and len(reach) > len(sold):
                soon = _goal_progress(goal, reach)
            out.append((k, goal.value, False, _goal_progress(goal, have), soon))
    return tuple(out)


def _goals_value(
    s: GameState, p: int, params: HeuristicParams, future: float, forms: list[int]
) -> float:
    """Curator and Art Dealer goals done, partly done and (dealer) within a sale's reach;
    in a solo game the G17.6 credit."""
    d = s.data
    c0, c1, c2 = s.contracts[p]  # NUM_CONTRACT_SLOTS of [card, state, assistant on it]
    key = (d.fingerprint, s.curator[p], s.dealer[p], s.renowned[p], *c0, *c1, *c2)
    key += (*s.gallery[p], EMPTY, *s.sold[p])  # works are >= 0: EMPTY separates the lists
    parts = _GOALS.get(key)
    if parts is None:
        if len(_GOALS) >= _MEMO_LIMIT:
            _GOALS.clear()
        shown = forms + ([d.works[s.renowned[p]].form] if s.renowned[p] != EMPTY else [])
        sold = [d.works[w].form for w in s.sold[p]]
        reach = sold + _sales_in_reach(s, p, forms)
        parts = _GOALS[key] = _goal_parts(s, p, shown, sold, reach)
    v = 0.0
    closest = [0.0, 0.0]
    for k, value, done, progress, soon in parts:
        if done:
            v += value
            closest[k] = 1.0
            continue
        if soon is not None:
            progress += params.sale_plan * (soon - progress)
        v += params.partial_goal * future * value * progress
        closest[k] = max(closest[k], progress * future)
    if s.solo:
        v += _solo_goal_credit(s, p, (closest[0], closest[1]), params)
    return v


class HeuristicPolicy:
    """Greedy choice by :func:`evaluate`; with ``lookahead`` (solo games: the only seat,
    Lacerda's moves are the engine's) a choice on a turn's menu also plays the rest of the
    turn greedily and is valued by the best action of the next turn."""

    def __init__(self, params: HeuristicParams | None = None) -> None:
        self.params = params or HeuristicParams()

    def choose(self, world: GameState, rng: random.Random) -> int:
        # search on a copy without the event log (no rule reads it, and every clone would
        # copy it); the caller's world is left as it was
        log, world.events = world.events, []
        try:
            root = world.clone()
        finally:
            world.events = log
        world = root
        me = world.current_player
        legal = world.legal_actions()
        deep = self.params.lookahead > 0 and world.solo and world.frames[-1][0] == F_TURN
        scores = []
        for action in legal:
            child = world.after(action)
            child = self._complete(child, me, rng)
            if deep:
                score = self._next_turn_value(child, me, rng, _turn_key(world))
            else:
                score = evaluate(child, me, self.params)
            scores.append(score + rng.random() * self.params.noise)
        return legal[int(np.argmax(scores))]

    def _scores(self, world: GameState, me: int, rng: random.Random) -> list[float]:
        out = []
        for action in world.legal_actions():
            child = world.after(action)
            child = self._complete(child, me, rng)
            out.append(evaluate(child, me, self.params))
        return out

    def _next_turn_value(
        self, s: GameState, me: int, rng: random.Random, key: tuple[int, int]
    ) -> float:
        """Play the rest of this turn greedily; if ``me`` then starts the next turn, the
        value of its best action, else the evaluation where the seat's turn ended."""
        for _ in range(4 * self.params.max_subdecisions):
            if s.over or s.current_player != me or _turn_key(s) != key:
                break
            legal = s.legal_actions()
            scores = self._scores(s, me, rng)
            s.apply(legal[int(np.argmax(scores))])
        if not s.over and s.current_player == me and s.frames[-1][0] == F_TURN:
            return max(self._scores(s, me, rng))
        return evaluate(s, me, self.params)

    def _complete(self, s: GameState, me: int, rng: random.Random) -> GameState:
        """Finish ``me``'s sub-decisions of this step, each by its best immediate result;
        returns the state reached (the best child itself: applying is deterministic, so
        replaying the chosen action on ``s`` would rebuild the same state)."""
        for _ in range(self.params.max_subdecisions):
            if s.over or s.current_player != me or s.frames[-1][0] in _MENUS:
                return s
            best, best_score = s, -np.inf
            for action in s.legal_actions():
                child = s.after(action)
                score = evaluate(child, me, self.params) + rng.random() * self.params.noise
                if score > best_score:
                    best, best_score = child, score
            s = best
        return s


def _turn_key(s: GameState) -> tuple[int, int]:
    return (s.round, s.turn)


class GalleristHeuristicAgent(WorldPolicyAgent):
    """Plays :class:`HeuristicPolicy` on a determinized world of its seat's information set.

    Without a ``view`` it falls back to a uniformly random legal action from the mask."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, params: HeuristicParams | None = None) -> None:
        self.policy = HeuristicPolicy(params)
        self.reset(seed)
