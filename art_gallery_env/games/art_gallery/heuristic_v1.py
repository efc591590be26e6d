"""Version 1 of the rule-based player (``heuristic:v1``), frozen, and the base of version 2.

Version 2 (:mod:`.heuristic`, the default ``heuristic``) keeps the painting, bid and card
valuation below and adds the clock (R6.3) and the standings (R7). Version 1 stays as it was
so that old measurements can be repeated: its decisions on seeded games are pinned by
``tests/agents/test_heuristic_v1_regression.py``. Subclass hooks (:meth:`HeuristicV1Policy.
turn_table`, the weights a :class:`TurnTable` copies from the parameters, and
:meth:`TurnTable.shop_gains`) let version 2 change those weights without copying this code.

The version 1 strategy (also in ``docs/agents.md``, section "Heuristic strategy"):

* **Paintings** are worth what they add to the own collection (R7.1): for every row, the
  points the chain at the collection's right end would add to that row's best chain, plus a
  share ``potential`` of the growth (or loss, when the painting breaks it) of that open chain,
  which may still grow later. A painting whose souvenir the player holds is worth 2 more
  (R7.2: 3 instead of 1). Taking a painting another player wants is worth a share
  ``denial`` of its value to them.
* **Bids** (R4.4, R5.3, R5.4): for every reachable area and every card, estimate the chance
  to win the gallery: own total against each rival's total there, where a rival's face-down
  card counts as the mean of the cards that rival could still have (that multiset is public,
  R8), plus a threat from rivals who still have turns this round. The turn's value is the
  rise in expected painting value that bid buys, minus the cards' cost.
* **Cards** (R5.2, R5.5, R7.3): a bid card stays put when the player holds the area's first
  marker (it picks first and can take it back); otherwise the card is likely lost to the
  rival who picks first, which costs ``card_cost`` per pip above what that rival leaves.
  Movement cards come back at the round's end, so moving only costs a little flexibility
  (``move_cost`` per pip). The highest card is kept as the last card when it can win the
  start card (R4.7, worth 3 points at the end, R7.4, and the first turn of every round).
* **Shop** (R5.1): a Shop bid is worth the best set of top tiles the card pays for, each tile
  valued 3 if its painting is in the own collection, more than 1 if its painting hangs in a
  gallery now, 1 otherwise, plus a bonus for tiles whose painting a rival holds (denial).
  Since an alone bidder takes its own card back, the Shop is a cheap way to cycle cards.
* **Shop choices** take the most valuable tiles; **card picks** take the highest card.

It reads only what the acting seat may know: public facts, its own hand and bids, and each
rival's *multiset* of unlocated cards (R8). :class:`~.heuristic.HeuristicAgent` gets those
from a determinized world of its
:class:`~art_gallery_env.games.art_gallery.rules.hidden.PlayerView`, so two
states in one information set give the same decision for the same seed.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, fields, replace
from typing import Any, TypeVar

from art_gallery_env.games.art_gallery.rules.actions import (
    BID_BASE,
    NUM_CARD_VALUES,
    SHOP_BASE,
    SHOP_CHOICE_COST,
    SHOP_CHOICE_PILES,
)
from art_gallery_env.games.art_gallery.rules.board import (
    MARKER_BAR_SIZE,
    SHOP_AREA,
    TURNS_PER_ROUND,
    move_destinations,
)
from art_gallery_env.games.art_gallery.rules.cards import NUM_ROWS, CardSet
from art_gallery_env.games.art_gallery.rules.phases import BID, MOVE, PICK, SHOP
from art_gallery_env.games.art_gallery.rules.scoring import (
    MATCHED_SOUVENIR_POINTS,
    UNMATCHED_SOUVENIR_POINTS,
    ChainSummary,
    RowEntries,
    chain_summary,
)
from art_gallery_env.games.art_gallery.rules.state import GameState

_VALUES = range(NUM_CARD_VALUES)
_NO_COSTS = (0.0,) * NUM_CARD_VALUES
# What holding a painting's souvenir adds when the painting joins the collection (R7.2).
SOUVENIR_MATCH_BONUS = MATCHED_SOUVENIR_POINTS - UNMATCHED_SOUVENIR_POINTS


_P = TypeVar("_P", bound="BidParams")


@dataclass(frozen=True)
class BidParams:
    """The weights versions 1 and 2 share: paintings, bids, cards (module docstring)."""

    potential: float = 0.5  # share of an open chain's growth counted as value
    denial: float = 0.6  # share of a rival's painting value counted when taking it from them
    bid_scale: float = 2.0  # softness of the win-chance estimate, in card pips
    threat: float = 0.6  # expected bid of a rival who still has turns, as a share of its mean
    card_cost: float = 0.3  # points per pip of a bid card likely lost to a rival
    move_cost: float = 0.05  # points per pip of a movement card (flexibility lost this round)
    start_card: float = 1.5  # value of keeping the highest card for the start card

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    def with_options(self: _P, **options: float) -> _P:
        return replace(self, **options)


@dataclass(frozen=True)
class HeuristicV1Params(BidParams):
    """Version 1's weights (documented in the module docstring)."""

    tile_on_display: float = 0.8  # bonus of a tile whose painting hangs in a gallery
    tile_later: float = 0.3  # bonus of a tile whose painting has not been seen yet
    tile_denial: float = 0.8  # bonus of a tile whose painting a rival already holds


def painting_gain(summary: ChainSummary, rows: RowEntries, potential: float) -> float:
    """Points (plus a share of open-chain growth) that appending a painting adds (R7.1)."""
    best, open_symbol, open_sum = summary
    gain = 0.0
    for r in range(NUM_ROWS):
        entry = rows[r]
        if entry is None:
            gain -= potential * open_sum[r]
            continue
        symbol, value = entry
        new_sum = open_sum[r] + value if symbol == open_symbol[r] else value
        if new_sum > best[r]:
            gain += new_sum - best[r]
        gain += potential * (new_sum - open_sum[r])
    return gain


class HeuristicV1Policy:
    """Version 1 as a function of a full state and the acting seat (see module docstring).

    It reads only public facts and the acting seat's own cards, so it may be given a
    determinized world. ``choose`` breaks exact ties with ``rng``.
    """

    params: Any  # HeuristicV1Params here; a subclass brings its own parameter class

    def __init__(self, params: HeuristicV1Params | None = None) -> None:
        params = params or HeuristicV1Params()
        if not isinstance(params, HeuristicV1Params):
            raise TypeError(
                f"HeuristicV1Policy needs HeuristicV1Params, got {type(params).__name__}"
            )
        self.params = params
        self._summaries: dict[tuple[int, ...], ChainSummary] = {}

    def turn_table(self, state: GameState) -> TurnTable:
        """The per-decision table of bid values (a subclass hook)."""
        return TurnTable(self, state)

    # -- entry point -----------------------------------------------------------------
    def choose(self, state: GameState, rng: random.Random) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        phase = state.phase
        if phase == PICK:
            return legal[-1]  # the highest card (legal picks are sorted by value)
        if phase == SHOP:
            return self._shop_choice(state, legal)
        if phase == BID:
            table = self.turn_table(state)
            values = table.area_values(state.position[state.current_player])
            return _argmax(legal, [values[a - BID_BASE] for a in legal], rng)
        if phase == MOVE:
            return self._move_choice(state, legal, self.turn_table(state), rng)
        raise ValueError(f"no decision in phase {state.phase_name!r}")

    def _move_choice(
        self, state: GameState, legal: list[int], table: TurnTable, rng: random.Random
    ) -> int:
        me = state.current_player
        hand = state.hands[me]
        bids = state.bids
        num_areas = state.num_areas
        landing = move_destinations(num_areas)[state.position[me]]
        move_cost = self.params.move_cost
        keep = table.keep
        start_card = table.start_card
        in_hand = [b for b in _VALUES if hand[b]]
        scores = []
        for a in legal:
            v = a >> 1
            area = landing[a]
            if len(bids[area]) >= MARKER_BAR_SIZE:  # R4.6 fallback: pass full areas
                step = 1 if a % 2 == 0 else -1
                while len(bids[area]) >= MARKER_BAR_SIZE:
                    area = (area + step) % num_areas
            values = table.area_values(area)
            best = -1e9
            for b in in_hand:
                if b == v and hand[b] == 1:
                    continue
                if values[b] > best:
                    best = values[b]
            score = best - move_cost * v
            if v == keep:
                score -= start_card
            scores.append(score)
        return _argmax(legal, scores, rng)

    # -- shop --------------------------------------------------------------------------
    def tile_values(self, state: GameState, player: int) -> list[float]:
        """Value of each pile's top tile for ``player`` (0 for an empty pile)."""
        p = self.params
        mine = state.collections[player]
        values = []
        for pile in state.tile_piles:
            if not pile:
                values.append(0.0)
                continue
            t = pile[-1]
            if t in mine:
                values.append(float(MATCHED_SOUVENIR_POINTS))
            elif t in state.gallery_painting:
                values.append(UNMATCHED_SOUVENIR_POINTS + p.tile_on_display)
            elif any(t in state.collections[q] for q in range(state.num_players) if q != player):
                values.append(UNMATCHED_SOUVENIR_POINTS + p.tile_denial)
            else:
                values.append(UNMATCHED_SOUVENIR_POINTS + p.tile_later)
        return values

    def _shop_choice(self, state: GameState, legal: list[int]) -> int:
        values = self.tile_values(state, state.current_player)
        best, best_value = legal[0], -1.0
        for a in legal:
            value = sum(values[i] for i in SHOP_CHOICE_PILES[a - SHOP_BASE])
            if value > best_value:
                best, best_value = a, value
        return best

    def shop_values(self, state: GameState, player: int) -> list[float]:
        """Per card value 0..8: the best tiles a Shop bid of that value pays for (R5.1)."""
        return best_tile_sets(state.tile_piles, self.tile_values(state, player))

    def summary(self, collection: list[int], cards: CardSet) -> ChainSummary:
        """:func:`~art_gallery_env.games.art_gallery.rules.scoring.chain_summary` of a collection,
        cached."""
        key = tuple(collection)
        summary = self._summaries.get(key)
        if summary is None:
            if len(self._summaries) > 20000:
                self._summaries.clear()
            summary = self._summaries[key] = chain_summary(collection, cards)
        return summary


_CHOICES_BY_COST = sorted(range(1, len(SHOP_CHOICE_COST)), key=SHOP_CHOICE_COST.__getitem__)


def best_tile_sets(piles: list[list[int]], tiles: list[float]) -> list[float]:
    """Per card value 0..8: the most valuable set of top tiles (``tiles[i]`` for pile i) that a
    Shop card of that value may take (R5.1), 0 if none."""
    out = []
    best = 0.0
    choices = iter(_CHOICES_BY_COST)
    choice = next(choices, None)
    for b in _VALUES:
        while choice is not None and SHOP_CHOICE_COST[choice] <= b:
            chosen = SHOP_CHOICE_PILES[choice]
            if all(piles[j] for j in chosen):
                value = sum(tiles[j] for j in chosen)
                if value > best:
                    best = value
            choice = next(choices, None)
        out.append(best)
    return out


def _rival_card_means(state: GameState, me: int) -> tuple[list[float], int]:
    """Each rival's mean unlocated card (hand + face-down bids: a public multiset, R8) and
    the highest card any rival may hold. MOVE/BID only, so every bid on the board is still
    face down."""
    counts = [hand[:] for hand in state.hands]
    for bids in state.bids:
        for owner, value in bids:
            counts[owner][value] += 1
    means = [0.0] * state.num_players
    rival_max = 0
    for q, row in enumerate(counts):
        if q != me:
            total = sum(row)
            if total:
                means[q] = sum(v * c for v, c in enumerate(row)) / total
                rival_max = max(rival_max, max(v for v in _VALUES if row[v]))
    return means, rival_max


class TurnTable:
    """What one MOVE/BID decision needs, computed once per decision: for every area, the
    value of bidding each card there (:meth:`area_values`).

    The weights it uses (``potential``, ``denial``, ``card_cost``, ``start_card``, and
    ``base_costs``, a cost per card value paid wherever it is bid: none in version 1) are set
    here, so that a subclass may set them from the clock instead."""

    __slots__ = (
        "policy",
        "state",
        "me",
        "means",
        "remaining",
        "keep",
        "potential",
        "denial",
        "card_cost",
        "start_card",
        "base_costs",
        "_areas",
        "_summaries",
    )

    def __init__(self, policy: HeuristicV1Policy, state: GameState) -> None:
        self.policy = policy
        self.state = state
        n = state.num_players
        me = self.me = state.current_player
        self.means, rival_max = _rival_card_means(state, me)
        # Turns each seat still has this round (the current seat's turn is under way).
        done = state.turn
        starter = state.round_starter
        self.remaining = [
            TURNS_PER_ROUND - (done // n) - (1 if ((q - starter) % n) < done % n else 0)
            for q in range(n)
        ]
        # The start card (R4.7): keep the highest card if no rival can beat it.
        hand = state.hands[me]
        my_max = max(v for v in _VALUES if hand[v])
        self.keep = my_max if my_max >= rival_max and hand[my_max] == 1 else -1
        p = policy.params
        self.potential = p.potential
        self.denial = p.denial if n == 2 else p.denial / (n - 1)
        self.card_cost = p.card_cost
        self.start_card = p.start_card
        self.base_costs = _NO_COSTS  # per card value, paid wherever it is bid
        self._areas: dict[int, list[float]] = {}
        self._summaries: list[ChainSummary] | None = None

    def _paint_value(self, area: int) -> float:
        state = self.state
        number = state.gallery_painting[area]
        if not number:
            return 0.0
        n = state.num_players
        if self._summaries is None:
            self._summaries = [
                self.policy.summary(state.collections[q], state.cards) for q in range(n)
            ]
        rows = state.cards.rows_by_number[number]
        me = self.me
        potential = self.potential
        value = painting_gain(self._summaries[me], rows, potential)
        if number in state.tiles_held[me]:
            value += SOUVENIR_MATCH_BONUS
        rival = 0.0
        for q in range(n):
            if q != me:
                g = painting_gain(self._summaries[q], rows, potential)
                if number in state.tiles_held[q]:
                    g += SOUVENIR_MATCH_BONUS
                if g > rival:
                    rival = g
        return max(0.0, value) + self.denial * rival

    def area_values(self, area: int) -> list[float]:
        """Per card value 0..8: the value of bidding it at ``area`` this turn, the start-card
        penalty included."""
        values = self._areas.get(area)
        if values is None:
            values = self._areas[area] = self._area_values(area)
        return values

    def shop_gains(self) -> list[float]:
        """Per card value 0..8: what a Shop bid of that value buys (a subclass hook)."""
        return self.policy.shop_values(self.state, self.me)

    def _area_values(self, area: int) -> list[float]:
        state = self.state
        me = self.me
        bids = state.bids[area]
        first = bids[0][0] if bids else me
        base = self.base_costs
        if first != me:
            m = self.means[first]
            card_cost = self.card_cost
            costs = [c + card_cost * (b - m) if b > m else c for b, c in zip(_VALUES, base)]
        else:
            costs = base
        gains = self.shop_gains() if area == SHOP_AREA else self._gallery_gains(area, bids)
        values = [g - c for g, c in zip(gains, costs)]
        if self.keep >= 0:
            values[self.keep] -= self.start_card
        return values

    def _gallery_gains(self, area: int, bids: list[tuple[int, int]]) -> list[float]:
        value = self._paint_value(area)
        if value <= 0.0:
            return [0.0] * NUM_CARD_VALUES
        p = self.policy.params
        state = self.state
        me = self.me
        n = state.num_players
        mine = 0
        has_marker = False
        opp = [0.0] * n
        present = [False] * n
        for owner, v in bids:
            if owner == me:
                mine += v
                has_marker = True
            else:
                opp[owner] += self.means[owner]
                present[owner] = True
        # Ties (R5.4): the tile holder wins, else the lowest marker (assume the rival's).
        tie = 0.5 if state.gallery_painting[area] in state.tiles_held[me] else -0.25
        rivals = []
        for q in range(n):
            if q == me:
                continue
            total = opp[q]
            if self.remaining[q] > 0:
                total += p.threat * self.means[q]
            elif not present[q]:
                continue  # q can no longer bid here
            rivals.append(total - tie)
        scale = p.bid_scale

        def chance(total: float) -> float:
            c = 1.0
            for r in rivals:
                x = (total - r) / scale
                c *= 1.0 / (1.0 + math.exp(-x)) if x > -30.0 else 0.0
            return c

        before = chance(mine) if has_marker else 0.0
        return [(chance(mine + b) - before) * value for b in _VALUES]


def _argmax(actions: list[int], scores: list[float], rng: random.Random) -> int:
    best = max(scores)
    top = [a for a, s in zip(actions, scores) if s >= best - 1e-9]
    return top[0] if len(top) == 1 else rng.choice(top)


__all__ = [
    "SOUVENIR_MATCH_BONUS",
    "BidParams",
    "HeuristicV1Params",
    "HeuristicV1Policy",
    "TurnTable",
    "best_tile_sets",
    "painting_gain",
]
