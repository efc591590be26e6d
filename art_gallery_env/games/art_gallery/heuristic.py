"""The rule-based player (version 2, the default ``heuristic``); also the search agent's
rollout policy.

Version 2 keeps version 1's valuation of paintings, bids and cards
(:mod:`.heuristic_v1`) and makes it aware of the clock and the standings
(:mod:`.clock`): how close the R6.3 end is and who leads by R7 so far. The strategy (also in
``docs/agents.md``, section "Heuristic strategy"):

* **Tiles are the main resource.** A game is a race for tiles: R6.3(b) ends it when the cheap
  piles are empty, usually after 4-6 rounds. A tile is worth its R7.2 points: 1, or 3 when its
  painting ends in the own collection: certainly if it is there already, with chance
  ``tile_win`` (at 2 players; scaled by 2/N) if it hangs in a gallery now, and with chance
  ``win_later`` × the share of the painting pile still drawn before the end (from the clock)
  if it has not been seen. The tiles of the piles that end the game will all be taken, by
  somebody, so a tile also denies its value to a rival: ``tile_pool`` × 1/(N-1) of what it is
  worth to them (3 to a rival who holds its painting). ``tile_bonus`` per tile covers what
  this leaves out (a tile also breaks R5.4 and R7.5 ties, and a lone Shop bid returns its
  card); it was set by measurement.
* **Denial of the rusher:** a rival racing for tiles to end the game early is met by that
  valuation: every tile it would take is worth its points to us plus the denial share, so the
  heuristic contests the Shop instead of leaving it the cheap piles; and with the painting
  ``denial`` lowered from version 1's 0.6 to 0.45 it spends fewer bids on paintings that a
  rusher would not have taken anyway.
* **Ending the game:** a Shop choice that empties the last pile R6.3(b) needs ends the game at
  this round's end. Its tiles then count their points only, plus what the end does to the win
  chance, which is good when leading and bad when behind: a logistic of the lead after the
  choice (own R7 score so far minus the best rival's) over spread ``end_scale`` if the game
  ends now, growing by ``later_scale`` per sqrt(round) if it goes on; the difference is turned
  into points at the rate a point of lead is worth if it goes on, times ``end_weight``. This
  applies only when leaving the tile would keep the game going: if a rival's later marker in
  this Shop (its card is revealed) can take it, the choice is about the tiles alone.
* **Open chains are worth less as the end nears:** version 1's ``potential`` share of an open
  chain's growth is scaled by the expected rounds left, up to ``pot_rounds``, and is 0 in the
  last round.
* **The last round:** keeping the highest card for the start card is worth ``start_final``
  (3 points, R7.4) instead of ``start_card``, and a bid card likely lost to a rival costs
  ``cost_final`` per pip (R7.3: the hand scores a quarter of its pips), weighted by the
  chance that this round is the last.
* **Bids** cost ``bid_cost`` per pip on top of version 1's card cost: a high card spent where a
  low one does as well is missing for the rest of the round, for the start card and for the
  final hand.

Everything else (winning galleries, card costs and picks, moves) is version 1's. It reads only
what the acting seat may know (R8): public facts, its own hand and bids, each rival's
*multiset* of unlocated cards; :class:`HeuristicAgent` gets those from a determinized world of
its :class:`~art_gallery_env.games.art_gallery.rules.hidden.PlayerView`, so two states in one
information set
give the same decision for the same seed.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from art_gallery_env.core.agent import WorldPolicyAgent
from art_gallery_env.games.art_gallery.rules.actions import (
    NUM_CARD_VALUES,
    PILE_MARKS,
    SHOP_BASE,
    SHOP_CHOICE_PILES,
)
from art_gallery_env.games.art_gallery.rules.board import SHOP_AREA, empty_piles_ending_game
from art_gallery_env.games.art_gallery.rules.scoring import (
    MATCHED_SOUVENIR_POINTS,
    UNMATCHED_SOUVENIR_POINTS,
    souvenir_points,
)
from art_gallery_env.games.art_gallery.rules.state import GameState

from .clock import Clock, logistic, read_clock, standings
from .heuristic_v1 import (
    SOUVENIR_MATCH_BONUS,
    BidParams,
    HeuristicV1Params,
    HeuristicV1Policy,
    TurnTable,
    best_tile_sets,
)

_VALUES = range(NUM_CARD_VALUES)
NO_MARK = NUM_CARD_VALUES  # above every card value: no pile to take


@dataclass(frozen=True)
class HeuristicParams(BidParams):
    """Version 2's weights (documented in the module docstring); the first seven are
    version 1's painting, bid and card weights, ``denial`` retuned."""

    denial: float = 0.45  # share of a rival's painting value counted when taking it from them
    tile_win: float = 0.5  # chance (2 players) to win a painting that hangs in a gallery
    win_later: float = 0.5  # chance (2 players) to win a painting drawn later
    tile_pool: float = 1.0  # share of a tile's value to a rival counted as denial
    tile_bonus: float = 1.25  # points per tile beyond its R7.2 value and denial
    pot_rounds: float = 2.0  # rounds left at which open chains count in full
    start_final: float = 3.0  # start card value in the last round (R7.4)
    cost_final: float = 0.25  # points per pip of a bid card lost in the last round (R7.3)
    end_weight: float = 1.0  # weight of the win chance a Shop choice that ends the game changes
    end_scale: float = 4.0  # spread of the final margin (points) if the game ends now
    later_scale: float = 6.0  # its growth (points per sqrt(round)) if the game goes on
    bid_cost: float = 0.3  # points per pip of a bid card (flexibility lost this round)


class HeuristicPolicy(HeuristicV1Policy):
    """Version 2 as a function of a full state and the acting seat (module docstring)."""

    params: HeuristicParams

    def __init__(self, params: HeuristicParams | None = None) -> None:
        super().__init__()
        params = params or HeuristicParams()
        if not isinstance(params, HeuristicParams):
            raise TypeError(
                f"HeuristicPolicy (version 2) needs HeuristicParams, got {type(params).__name__}"
                f" (heuristic_policy(params) picks the policy of any version)"
            )
        self.params = params
        self._clock: Clock | None = None
        self._clock_state: GameState | None = None
        self.bid_costs = tuple(self.params.bid_cost * b for b in _VALUES)

    def choose(self, state: GameState, rng: random.Random) -> int:
        self._clock = None  # the state may have changed since the last decision
        return super().choose(state, rng)

    def clock(self, state: GameState) -> Clock:
        """:func:`~.clock.read_clock` of ``state``, computed once per decision."""
        if self._clock is None or self._clock_state is not state:
            self._clock = read_clock(state)
            self._clock_state = state
        return self._clock

    def turn_table(self, state: GameState) -> TurnTable:
        return ClockTurnTable(self, state, self.clock(state))

    # -- tiles -------------------------------------------------------------------------
    def tile_values(self, state: GameState, player: int) -> list[float]:
        """Value of each pile's top tile for ``player`` (0 for an empty pile)."""
        return self.clocked_tile_values(state, player, read_clock(state))

    def clocked_tile_values(self, state: GameState, player: int, clock: Clock) -> list[float]:
        p = self.params
        n = state.num_players
        collections = state.collections
        pool = p.tile_pool / (n - 1)
        pile = len(state.painting_pile)
        drawn = min(1.0, clock.later * state.num_galleries / pile) if pile else 0.0
        displayed = UNMATCHED_SOUVENIR_POINTS + SOUVENIR_MATCH_BONUS * p.tile_win * 2.0 / n
        unseen = UNMATCHED_SOUVENIR_POINTS + SOUVENIR_MATCH_BONUS * drawn * p.win_later * 2.0 / n
        mine = collections[player]
        values = []
        for tiles in state.tile_piles:
            if not tiles:
                values.append(0.0)
                continue
            tile = tiles[-1]
            if tile in mine:
                value = MATCHED_SOUVENIR_POINTS + pool * UNMATCHED_SOUVENIR_POINTS
            elif tile in state.gallery_painting:
                value = displayed * (1.0 + pool)
            else:
                for collection in collections:
                    if tile in collection:  # a rival's
                        value = UNMATCHED_SOUVENIR_POINTS + pool * MATCHED_SOUVENIR_POINTS
                        break
                else:
                    value = unseen * (1.0 + pool)
            values.append(value + p.tile_bonus)
        return values

    def shop_values(self, state: GameState, player: int) -> list[float]:
        return best_tile_sets(state.tile_piles, self.tile_values(state, player))

    def _shop_choice(self, state: GameState, legal: list[int]) -> int:
        me = state.current_player
        values = self.clocked_tile_values(state, me, self.clock(state))
        needed = empty_piles_ending_game(state.num_players)
        sizes = [len(tiles) for tiles in state.tile_piles]
        empty = sizes.count(0)
        decides = empty < needed and not self._others_end_it(state, sizes, empty, needed)
        lead = None
        best, best_value = legal[0], -math.inf
        for a in legal:
            chosen = SHOP_CHOICE_PILES[a - SHOP_BASE]
            if decides and needed <= empty + sum(1 for i in chosen if sizes[i] == 1):
                # The game ends at this round's end: the tiles are worth their points now,
                # and the end is worth what it does to the win chance.
                if lead is None:
                    lead = self.lead(state, me)
                value = souvenir_points(
                    [state.tile_piles[i][-1] for i in chosen], state.collections[me]
                )
                value += self.end_value(lead + value, self.clock(state))
            else:
                value = sum(values[i] for i in chosen)
            if value > best_value:
                best, best_value = a, value
        return best

    @staticmethod
    def _others_end_it(state: GameState, sizes: list[int], empty: int, needed: int) -> bool:
        """Whether a rival's later marker in this Shop (their cards are revealed, R5.1) can
        take the last tile of a pile the end needs: then leaving it does not keep the game
        going (a rival who leads takes it), so the choice is about the tiles alone."""
        if empty + 1 < needed:
            return False
        cheapest = min(
            (PILE_MARKS[i] for i, size in enumerate(sizes) if size == 1), default=NO_MARK
        )
        me = state.current_player
        later = state.bids[SHOP_AREA][state.dist_marker + 1 :]
        return any(owner != me and value >= cheapest for owner, value in later)

    def lead(self, state: GameState, me: int) -> int:
        """Own R7 score so far minus the best rival's (:func:`~.clock.standings`)."""
        scores = standings(state, self.summary)
        return scores[me] - max(s for q, s in enumerate(scores) if q != me)

    def end_value(self, lead: float, clock: Clock) -> float:
        """What ending the game at this round's end (R6.3) with ``lead`` is worth, in points.

        The final margin is modelled as the lead plus noise of spread ``end_scale`` if the
        game ends now, growing by ``later_scale`` per sqrt(round) if it goes on; a logistic
        of lead / spread gives the win chance. The difference of the two chances is turned
        into points at the rate one more point of lead is worth when the game goes on, times
        ``end_weight``: between about -spread and +spread."""
        p = self.params
        rounds = max(1.0, clock.later)
        spread = math.sqrt(p.end_scale**2 + p.later_scale**2 * rounds)
        now = logistic(lead / p.end_scale)
        later = logistic(lead / spread)
        per_point = later * (1.0 - later) / spread  # d(win chance) / d(lead)
        return p.end_weight * (now - later) / max(per_point, 1e-9)


class ClockTurnTable(TurnTable):
    """Version 1's per-decision bid table with weights set from the clock."""

    __slots__ = ("clock",)

    def __init__(self, policy: HeuristicPolicy, state: GameState, clock: Clock) -> None:
        super().__init__(policy, state)
        self.clock = clock
        p = policy.params
        last = clock.p_end
        if p.pot_rounds > 0:
            self.potential = p.potential * min(1.0, clock.later / p.pot_rounds)
        self.start_card = last * p.start_final + (1.0 - last) * p.start_card
        self.card_cost = last * p.cost_final + (1.0 - last) * p.card_cost
        self.base_costs = policy.bid_costs

    def shop_gains(self) -> list[float]:
        policy = self.policy
        tiles = policy.clocked_tile_values(self.state, self.me, self.clock)
        return best_tile_sets(self.state.tile_piles, tiles)


# Versions of the heuristic, as ``heuristic:vN`` specs name them; the last is the default.
HEURISTIC_VERSIONS: dict[str, type[BidParams]] = {
    "v1": HeuristicV1Params,
    "v2": HeuristicParams,
}
LATEST_HEURISTIC = "v2"
_POLICIES: dict[type[BidParams], type[HeuristicV1Policy]] = {
    HeuristicV1Params: HeuristicV1Policy,
    HeuristicParams: HeuristicPolicy,
}


def heuristic_policy(params: BidParams | None = None) -> HeuristicV1Policy:
    """The policy of the version ``params`` belong to (None: the latest, defaults)."""
    if params is None:
        return HeuristicPolicy()
    policy_class = _POLICIES.get(type(params))
    if policy_class is None:
        known = ", ".join(cls.__name__ for cls in _POLICIES)
        raise TypeError(f"params must be one of {known}, got {type(params).__name__}")
    return policy_class(params)  # type: ignore[arg-type]


class HeuristicAgent(WorldPolicyAgent):
    """Plays a heuristic policy on a determinized world of its seat's information set:
    version 2 by default, version 1 with ``params=HeuristicV1Params(...)``.

    Without a ``view`` (e.g. a bare observation/mask loop) it falls back to a uniformly random
    legal action from the mask, so it still always plays legally.
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None, params: BidParams | None = None) -> None:
        self.policy = heuristic_policy(params)
        if isinstance(params, HeuristicV1Params):
            self.name = "heuristic:v1"
        self.reset(seed)


__all__ = [
    "HEURISTIC_VERSIONS",
    "LATEST_HEURISTIC",
    "HeuristicAgent",
    "HeuristicParams",
    "HeuristicPolicy",
    "HeuristicV1Params",
    "HeuristicV1Policy",
    "heuristic_policy",
]
