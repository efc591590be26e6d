"""The compiled engine's batched entry points, called from Python (:mod:`.game`): deal,
legal masks, apply, observe, score and random play over a slice of game slots."""

from __future__ import annotations

import numpy as np

from ..rules.actions import NUM_ACTIONS
from ..rules.cards import NUM_PAINTINGS, NUM_ROWS
from ..rules.phases import (
    GAME_OVER,
)
from .jit import entry, kernel
from .kernels_rules import V, apply_action, below, deal, is_legal, legal_row, nth_set
from .kernels_score import S, final_rewards_row, observe_row, scores_row


# -- batched entry points -------------------------------------------------------------------
# Each handles games lo..hi-1 and releases the GIL, so .runner.Runner can split a batch
# over threads; games never share data. They allocate the scratch arrays the kernels use.
@entry
def deal_games(s, t, which, lo, hi):
    """New games in the slots where ``which`` is True."""
    tiles = np.empty(NUM_PAINTINGS, np.int8)
    for b in range(lo, hi):
        if which[b]:
            deal(s, t, b, tiles)
    return 0


@entry
def legal_masks(s, t, active, out, lo, hi):
    for b in range(lo, hi):
        if active[b]:
            legal_row(s, t, b, out[b])
    return 0


@entry
def find_illegal(s, t, actions, active, bad, lo, hi):
    """bad[b] = the action of an active game b is illegal; returns how many are."""
    count = 0
    for b in range(lo, hi):
        bad[b] = active[b] and not is_legal(s, t, b, actions[b])
        count += bad[b]
    return count


@entry
def apply_actions(s, t, actions, active, auto_reset, rewards, dones, final_scores, lo, hi):
    """Apply each active game's (legal) action; a game that ends writes its rewards and
    R7 totals and, with ``auto_reset``, is dealt anew in the same call."""
    chains = np.empty((3, NUM_ROWS), np.int64)
    tiles = np.empty(NUM_PAINTINGS, np.int8)
    for b in range(lo, hi):
        if not active[b]:
            continue
        apply_action(s, t, b, actions[b])
        if s.phase[b] == GAME_OVER:
            dones[b] = True
            scores_row(s, t, b, final_scores[b], chains)
            final_rewards_row(s, t, b, final_scores[b], rewards[b])
            if auto_reset:
                deal(s, t, b, tiles)
    return 0


@entry
def observe_games(s, t, seats, active, out, lo, hi):
    hidden = np.empty(S * V, np.int64)
    chains = np.empty((3, NUM_ROWS), np.int64)
    for b in range(lo, hi):
        if active[b]:
            observe_row(s, t, b, seats[b], out[b], hidden, chains)
    return 0


@entry
def scores(s, t, out, lo, hi):
    chains = np.empty((3, NUM_ROWS), np.int64)
    for b in range(lo, hi):
        scores_row(s, t, b, out[b], chains)
    return 0


@kernel
def random_action(s, t, b, row):
    """A uniformly random legal action of game b from its action stream, -1 if it is
    over; ``row`` is bool scratch of 47 entries."""
    legal_row(s, t, b, row)
    count = 0
    for a in range(NUM_ACTIONS):
        count += row[a]
    if count == 0:
        return -1
    return nth_set(row, NUM_ACTIONS, below(s.action_rng, b, count))


@entry
def random_actions(s, t, out, lo, hi):
    row = np.empty(NUM_ACTIONS, np.bool_)
    for b in range(lo, hi):
        out[b] = random_action(s, t, b, row)
    return 0


@entry
def play_out(s, t, active, rewards, final_scores, lo, hi):
    """Play each active game to its end with random legal actions (a search rollout)
    and write its rewards and R7 totals; returns the decisions played."""
    row = np.empty(NUM_ACTIONS, np.bool_)
    chains = np.empty((3, NUM_ROWS), np.int64)
    decisions = 0
    for b in range(lo, hi):
        if not active[b]:
            continue
        while s.phase[b] != GAME_OVER:
            apply_action(s, t, b, random_action(s, t, b, row))
            decisions += 1
        scores_row(s, t, b, final_scores[b], chains)
        final_rewards_row(s, t, b, final_scores[b], rewards[b])
    return decisions
