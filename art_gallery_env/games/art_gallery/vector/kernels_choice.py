"""The compiled heuristic's choices: the gains of each gallery and area, the scores of moves,
bids and Shop choices, the argmax with its tie draw, the batched heuristic entry points and
the self-play env's opponents (``play_seats``)."""

from __future__ import annotations

import numpy as np

from ..rules.actions import BID_BASE, NUM_ACTIONS, PICK_BASE, SHOP_BASE
from ..rules.board import SHOP_AREA
from ..rules.cards import NUM_ROWS
from ..rules.phases import (
    BID,
    GAME_OVER,
    PICK,
    SHOP,
)
from .jit import entry, kernel
from .kernels_batch import random_action
from .kernels_heuristic import (
    D_CARD_COST,
    D_KEEP,
    D_LATER,
    D_START_CARD,
    H_BID_COST,
    H_BID_SCALE,
    H_END_SCALE,
    H_END_WEIGHT,
    H_LATER_SCALE,
    H_MOVE_COST,
    H_THREAT,
    H_VERSION,
    TIE_EPSILON,
    h_best_tile_sets,
    h_chance,
    h_clock,
    h_logistic,
    h_paint_value,
    h_tile_values,
    h_turn_table,
    heuristic_scratch,
    in_collection,
    shop_choice_sum,
)
from .kernels_rules import (
    _GOLDEN,
    BAR,
    NUM_MOVE_ACTIONS,
    V,
    apply_action,
    below,
    holds_tile,
    legal_row,
    nth_set,
)
from .kernels_score import (
    R,
    chain_rows,
    final_rewards_row,
    owned_pips,
    scores_row,
    souvenir_points,
)


@kernel
def h_gallery_gains(s, t, hp, b, me, area, w):
    """TurnTable._gallery_gains into gains: the rise in expected painting value."""
    dv, means, remaining, _, _, _, gains, opp, present, rivals, summ, _, _ = w
    value = h_paint_value(s, t, b, me, area, dv, summ)
    if value <= 0.0:
        for v in range(V):
            gains[v] = 0.0
        return
    n = t.num_players
    for q in range(n):
        opp[q] = 0.0
        present[q] = False
    mine, has_marker = 0, False
    for k in range(s.bid_count[b, area]):
        owner = s.bid_player[b, area, k]
        if owner == me:
            mine += s.bid_value[b, area, k]
            has_marker = True
        else:
            opp[owner] += means[owner]
            present[owner] = True
    tie = 0.5 if holds_tile(s, b, me, s.gallery_painting[b, area]) else -0.25
    count = 0
    for q in range(n):
        if q == me:
            continue
        total = opp[q]
        if remaining[q] > 0:
            total += hp[H_THREAT] * means[q]
        elif not present[q]:
            continue
        rivals[count] = total - tie
        count += 1
    scale = hp[H_BID_SCALE]
    before = h_chance(mine, rivals, count, scale) if has_marker else 0.0
    for v in range(V):
        gains[v] = (h_chance(mine + v, rivals, count, scale) - before) * value


@kernel
def h_area_values(s, t, hp, b, me, area, w):
    """TurnTable.area_values (computed once per area and decision): per card value, the
    value of bidding it at ``area``, card costs and the start-card penalty included, into
    the scratch row w[3][area] (a kernel without reference counting cannot return a view)."""
    dv, means, _, values, area_done, tiles, gains, _, _, _, _, _, _ = w
    if area_done[area]:
        return
    if area == SHOP_AREA:
        h_tile_values(s, t, hp, b, me, dv, tiles)
        h_best_tile_sets(s, t, b, tiles, gains)
    else:
        h_gallery_gains(s, t, hp, b, me, area, w)
    first = s.bid_player[b, area, 0] if s.bid_count[b, area] else me
    base_cost = hp[H_BID_COST] if hp[H_VERSION] == 2.0 else 0.0
    card_cost = dv[D_CARD_COST]
    for v in range(V):
        cost = base_cost * v
        if first != me:
            m = means[first]
            if v > m:
                cost = cost + card_cost * (v - m)
        values[area, v] = gains[v] - cost
    keep = np.int64(dv[D_KEEP])
    if keep >= 0:
        values[area, keep] -= dv[D_START_CARD]
    area_done[area] = True


@kernel
def h_move_scores(s, t, hp, b, me, legal, scores, w):
    """HeuristicV1Policy._move_choice's score of every legal move."""
    dv, values = w[0], w[3]
    areas = t.num_areas
    pos = s.position[b, me]
    keep = np.int64(dv[D_KEEP])
    for a in range(NUM_MOVE_ACTIONS):
        if not legal[a]:
            continue
        v = a >> 1
        area = t.move_dest[pos, a]
        if s.bid_count[b, area] >= BAR:  # R4.6 fallback: pass full areas
            step = 1 if a % 2 == 0 else areas - 1
            while s.bid_count[b, area] >= BAR:
                area = (area + step) % areas
        h_area_values(s, t, hp, b, me, area, w)
        best = -1e9
        for c in range(V):
            kept = s.hands[b, me, c] and not (c == v and s.hands[b, me, c] == 1)
            if kept and values[area, c] > best:
                best = values[area, c]
        score = best - hp[H_MOVE_COST] * v
        if v == keep:
            score -= dv[D_START_CARD]
        scores[a] = score


@kernel
def h_standings_lead(s, t, b, me, summ):
    """HeuristicPolicy.lead: own R7 score so far (clock.standings: the hand counts every
    card the seat owns) minus the best rival's."""
    mine, other = 0, -(1 << 30)
    for p in range(t.num_players):
        chain_rows(s, t, b, p, summ[p, 0], summ[p, 1], summ[p, 2])
        total = 0
        for row in range(R):
            total += summ[p, 0, row]
        total += souvenir_points(s, t, b, p)
        total += owned_pips(s, t, b, p) // 4
        if s.start_player[b] == p:
            total += t.score_points[0]
        if p == me:
            mine = total
        else:
            other = max(other, total)
    return mine - other


@kernel
def h_end_value(hp, lead, later):
    """HeuristicPolicy.end_value: what ending the game now with ``lead`` is worth."""
    rounds = max(1.0, later)
    spread = np.sqrt(hp[H_END_SCALE] ** 2 + hp[H_LATER_SCALE] ** 2 * rounds)
    now = h_logistic(lead / hp[H_END_SCALE])
    after = h_logistic(lead / spread)
    per_point = after * (1.0 - after) / spread
    return hp[H_END_WEIGHT] * (now - after) / max(per_point, 1e-9)


@kernel
def h_others_end_it(s, t, b, me, empty, needed):
    """HeuristicPolicy._others_end_it: a rival's later Shop marker can take a last tile."""
    if empty + 1 < needed:
        return False
    cheapest = V  # heuristic.NO_MARK
    for i in range(4):
        if s.tile_pile_len[b, i] == 1:
            cheapest = min(cheapest, t.shop_cost[1 + i])  # choice 1 + i is pile i alone
    for k in range(s.dist_marker[b] + 1, s.bid_count[b, SHOP_AREA]):
        if s.bid_player[b, SHOP_AREA, k] != me and s.bid_value[b, SHOP_AREA, k] >= cheapest:
            return True
    return False


@kernel
def h_ending_value(s, t, hp, b, me, choice, lead, dv):
    """A Shop choice that ends the game: its tiles' R7.2 points plus the end's value."""
    points = 0
    for k in range(2):
        pile = t.shop_piles[choice, k]
        if pile >= 0:
            tile = s.tile_piles[b, pile, s.tile_pile_len[b, pile] - 1]
            matched = in_collection(s, b, me, tile)
            points += t.score_points[1] if matched else t.score_points[2]
    return points + h_end_value(hp, lead + points, dv[D_LATER])


@kernel
def h_shop_scores(s, t, hp, b, me, legal, scores, w):
    """_shop_choice (v2, or v1's) score of every legal Shop choice; returns the choice
    it takes (the first best, no random tie-break)."""
    dv, tiles, summ, left = w[0], w[5], w[10], w[11]
    v2 = hp[H_VERSION] == 2.0
    if v2:
        h_clock(s, t, hp, b, dv, left)
    else:
        dv[D_LATER] = 0.0
    h_tile_values(s, t, hp, b, me, dv, tiles)
    needed = t.empty_piles_to_end
    empty = 0
    for i in range(4):
        empty += s.tile_pile_len[b, i] == 0
    decides = v2 and empty < needed and not h_others_end_it(s, t, b, me, empty, needed)
    have_lead, lead = False, 0
    best, best_value = -1, -np.inf if v2 else -1.0
    for a in range(SHOP_BASE, PICK_BASE):
        if not legal[a]:
            continue
        choice = a - SHOP_BASE
        ones = 0
        for k in range(2):
            pile = t.shop_piles[choice, k]
            ones += pile >= 0 and s.tile_pile_len[b, pile] == 1
        if decides and needed <= empty + ones:
            if not have_lead:
                lead, have_lead = h_standings_lead(s, t, b, me, summ), True
            value = h_ending_value(s, t, hp, b, me, choice, lead, dv)
        else:
            value = shop_choice_sum(t, choice, tiles)
        scores[a] = value
        if value > best_value:
            best, best_value = a, value
    return best


@kernel
def h_argmax(s, b, legal, scores, top):
    """heuristic_v1._argmax: the legal actions within TIE_EPSILON of the best score, one
    of them drawn from the game's action stream when there are several."""
    best = -np.inf
    for a in range(NUM_ACTIONS):
        if legal[a] and scores[a] > best:
            best = scores[a]
    count, only = 0, -1
    for a in range(NUM_ACTIONS):
        top[a] = legal[a] and scores[a] >= best - TIE_EPSILON
        if top[a]:
            count += 1
            only = a
    if count == 1:
        return only
    return nth_set(top, NUM_ACTIONS, below(s.action_rng, b, count))


@kernel
def h_single(top, scores, action):
    """A decision with one answer: it alone is top (its score 0 if none was set)."""
    for a in range(NUM_ACTIONS):
        top[a] = a == action
    if scores[action] == -np.inf:
        scores[action] = 0.0
    return action


@kernel
def heuristic_action(s, t, hp, b, legal, scores, top, w):
    """HeuristicPolicy.choose (or v1's) for game b's current player: the action, with
    every legal action's score in ``scores`` (-inf for illegal ones) and the tied best
    in ``top``; -1 (and nothing top) for a game that is over."""
    legal_row(s, t, b, legal)
    count, only = 0, -1
    for a in range(NUM_ACTIONS):
        scores[a] = -np.inf
        top[a] = False
        if legal[a]:
            count += 1
            only = a
    if count == 0:
        return -1
    if count == 1:
        return h_single(top, scores, only)
    phase = s.phase[b]
    me = s.current_player[b]
    if phase == PICK:
        for a in range(PICK_BASE, NUM_ACTIONS):
            if legal[a]:
                scores[a] = a - PICK_BASE
        return h_single(top, scores, only)  # the highest card (the last legal pick)
    if phase == SHOP:
        return h_single(top, scores, h_shop_scores(s, t, hp, b, me, legal, scores, w))
    h_turn_table(s, t, hp, b, me, w)
    if phase == BID:
        area = s.position[b, me]
        h_area_values(s, t, hp, b, me, area, w)
        for v in range(V):
            if legal[BID_BASE + v]:
                scores[BID_BASE + v] = w[3][area, v]
    else:
        h_move_scores(s, t, hp, b, me, legal, scores, w)
    return h_argmax(s, b, legal, scores, top)


@entry
def decision_scratch():
    """heuristic_action's scratch: (legal mask, scores, top set, heuristic_scratch())."""
    legal = np.empty(NUM_ACTIONS, np.bool_)
    scores = np.empty(NUM_ACTIONS, np.float64)
    top = np.empty(NUM_ACTIONS, np.bool_)
    return legal, scores, top, heuristic_scratch()


@entry
def heuristic_actions(s, t, hp, active, keep, actions, scores, top, lo, hi):
    """One heuristic action per active game (-1 for the others and finished games); with
    ``keep`` the per-action scores and top sets go to the game's rows of ``scores`` and
    ``top`` (else those are not used)."""
    legal, own_scores, own_top, w = decision_scratch()
    for b in range(lo, hi):
        if not active[b]:
            actions[b] = -1
            continue
        row_scores = scores[b] if keep else own_scores
        row_top = top[b] if keep else own_top
        actions[b] = heuristic_action(s, t, hp, b, legal, row_scores, row_top, w)
    return 0


@entry
def heuristic_play_out(s, t, hp, active, rewards, final_scores, lo, hi):
    """play_out with the heuristic for every seat (ties from each game's action stream)."""
    legal, scores, top, w = decision_scratch()
    chains = np.empty((3, NUM_ROWS), np.int64)
    decisions = 0
    for b in range(lo, hi):
        if not active[b]:
            continue
        while s.phase[b] != GAME_OVER:
            apply_action(s, t, b, heuristic_action(s, t, hp, b, legal, scores, top, w))
            decisions += 1
        scores_row(s, t, b, final_scores[b], chains)
        final_rewards_row(s, t, b, final_scores[b], rewards[b])
    return decisions


# -- a self-play env's opponents (VectorGame.play_seats; training/vector_env.py) ------------
SEAT_RANDOM, SEAT_HEURISTIC, SEAT_CALLER = 0, 1, 2  # how play_seats plays a seat


@entry
def play_seats(
    s, t, hp, seat_kind, seat_params, stop_seat, decisions, need, rewards, dones, scores_out, lo, hi
):
    """Each game plays on until it is over, at ``stop_seat[b]``'s turn, or at a seat of
    kind SEAT_CALLER (then ``need[b]``: the caller chooses and steps it). Random seats
    play random_action, heuristic seats heuristic_action with the parameter row
    ``hp[seat_params[b, seat]]``. Every decision, the caller's too, first draws one
    random_action from the game's stream, as one round of the env's Python loop did
    (random_actions for every game, then the chosen actions); ``decisions[b]`` counts
    them. A game that ends writes its rewards and R7 totals as apply_actions. Returns how
    many games need the caller."""
    row, scores, top, w = decision_scratch()
    chains = np.empty((3, NUM_ROWS), np.int64)
    count = 0
    for b in range(lo, hi):
        need[b] = False
        while s.phase[b] != GAME_OVER and s.current_player[b] != stop_seat[b]:
            seat = s.current_player[b]
            action = random_action(s, t, b, row)  # the round's draw
            decisions[b] += 1
            kind = seat_kind[b, seat]
            if kind == SEAT_CALLER:
                need[b] = True
                count += 1
                break
            if kind == SEAT_HEURISTIC:
                action = heuristic_action(s, t, hp[seat_params[b, seat]], b, row, scores, top, w)
            apply_action(s, t, b, action)
            if s.phase[b] == GAME_OVER:
                dones[b] = True
                scores_row(s, t, b, scores_out[b], chains)
                final_rewards_row(s, t, b, scores_out[b], rewards[b])
    return count


@entry
def skip_draws(s, counts, lo, hi):
    """Advance each game's action stream as ``counts[b]`` random_action draws would (one
    splitmix64 step each; only a game that is over draws nothing)."""
    for b in range(lo, hi):
        s.action_rng[b] += np.uint64(counts[b]) * _GOLDEN
    return 0
