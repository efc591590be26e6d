"""What ISMCTS (:mod:`art_gallery_env.agents.ismcts`) needs to know of Art Gallery: the value
of a game its rollout stopped early.

At the game's end each seat's value is its win share (R7.5). After a truncated rollout it is
a win chance per seat from the score margin, ``sigmoid((own - best rival) / scale)``, where
a seat's score is R7 (rows, souvenirs, hand / 4, start card) plus a share of the open chains
that may still grow. The spec hands :func:`search_evaluator` to the search as
``GameSpec.search_evaluator``.
"""

from __future__ import annotations

import math

from art_gallery_env.games.art_gallery.rules.scoring import (
    souvenir_points,
    start_card_points,
    win_shares,
)
from art_gallery_env.games.art_gallery.rules.state import GameState

from .heuristic import heuristic_policy
from .heuristic_v1 import HeuristicV1Policy

DEFAULT_SCALE = 4.0


class Evaluator:
    """Per-seat values in [0, 1] of a (possibly unfinished) game; calling it is :meth:`rewards`."""

    def __init__(
        self,
        scale: float = DEFAULT_SCALE,
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

    __call__ = rewards


def search_evaluator(scale: float | None = None) -> Evaluator:
    """The evaluator ISMCTS uses for Art Gallery (``scale`` None: :data:`DEFAULT_SCALE`)."""
    return Evaluator(scale=DEFAULT_SCALE if scale is None else scale)
