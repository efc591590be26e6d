"""The compiled heuristic's parameters and evaluations (art_gallery.heuristic, versions 2
and 1): the clock, the tiles' values, the turn table and the paintings' values."""

from __future__ import annotations

import numpy as np

from ..rules.board import SHOP_AREA, TURNS_PER_ROUND
from ..rules.phases import (
    PICK,
    SHOP,
    STAGE_PICK,
)
from .jit import entry, kernel, tiny_kernel
from .kernels_rules import NUM_SHOP_CHOICES, V, holds_tile, row_holds, shop_choice_open
from .kernels_score import A, R, S, chain_rows

# -- the heuristic (art_gallery.heuristic: version 2, and version 1) -----------------------
# Ports of HeuristicPolicy.choose (v2) and HeuristicV1Policy.choose (v1), in the same order
# of floating-point operations, so the two score every action alike (tests/
# test_vector_heuristic.py compares the sets of top-scoring actions). The policy reads only
# what the acting seat may know: public facts, its own hand and bids, and each rival's
# multiset of unlocated cards (hand + face-down bids); it never reads which of a rival's
# cards lies where, nor the order of the painting pile or of the tiles below the tops. So
# on the true state it decides as the Python agent does on any determinized world of that
# seat: no sampling. The weights, and the clock's constants, come in as one float64 vector
# (vector.heuristic.param_vector) so that an edit to the Python parameters cannot leave a
# stale compiled constant. An edit to any kernel file recompiles them all (.jit).
(
    H_VERSION,  # 1 or 2
    H_POTENTIAL,
    H_DENIAL,
    H_BID_SCALE,
    H_THREAT,
    H_CARD_COST,
    H_MOVE_COST,
    H_START_CARD,
    H_TILE_WIN,
    H_WIN_LATER,
    H_TILE_POOL,
    H_TILE_BONUS,
    H_POT_ROUNDS,
    H_START_FINAL,
    H_COST_FINAL,
    H_END_WEIGHT,
    H_END_SCALE,
    H_LATER_SCALE,
    H_BID_COST,
    H_TILE_ON_DISPLAY,  # v1's tile bonuses
    H_TILE_LATER,
    H_TILE_DENIAL,
    H_RATE_PRIOR,  # clock.TILE_RATE_PRIOR for this table size
    H_MARKER_TILES,  # clock.TILES_PER_SHOP_MARKER
    H_END_SOFTNESS,  # clock.END_SOFTNESS
    NUM_HEURISTIC_PARAMS,
) = range(26)
HEURISTIC_PARAM_NAMES = (
    "version",
    "potential",
    "denial",
    "bid_scale",
    "threat",
    "card_cost",
    "move_cost",
    "start_card",
    "tile_win",
    "win_later",
    "tile_pool",
    "tile_bonus",
    "pot_rounds",
    "start_final",
    "cost_final",
    "end_weight",
    "end_scale",
    "later_scale",
    "bid_cost",
    "tile_on_display",
    "tile_later",
    "tile_denial",
    "rate_prior",
    "marker_tiles",
    "end_softness",
)
# Per-decision values (the TurnTable's weights and the clock), in the scratch vector dv.
D_POTENTIAL, D_DENIAL, D_CARD_COST, D_START_CARD, D_KEEP, D_P_END, D_LATER = range(7)
NUM_DECISION_VALUES = 7
TIE_EPSILON = 1e-9  # heuristic_v1._argmax: scores within this of the best are tied


@entry
def heuristic_scratch():
    """The scratch arrays a heuristic decision uses (allocated once per batch call):
    dv, means, remaining, values per area, area done, tiles, gains, opp, present, rivals,
    chain summaries per seat, pile sizes, bid counts."""
    return (
        np.empty(NUM_DECISION_VALUES, np.float64),
        np.empty(S, np.float64),
        np.empty(S, np.int64),
        np.empty((A, V), np.float64),
        np.empty(A, np.bool_),
        np.empty(4, np.float64),
        np.empty(V, np.float64),
        np.empty(S, np.float64),
        np.empty(S, np.bool_),
        np.empty(S, np.float64),
        np.empty((S, 3, R), np.int64),
        np.empty(4, np.int64),
        np.empty((S, V), np.int64),
    )


@tiny_kernel
def h_logistic(x):
    """clock.logistic."""
    return 1.0 / (1.0 + np.exp(-max(-30.0, min(30.0, x))))


@kernel
def h_tiles_to_end(s, b, needed, left):
    """clock.tiles_to_end on the pile sizes; ``left`` is int64 scratch of 4."""
    empty = 0
    for i in range(4):
        left[i] = s.tile_pile_len[b, i]
        empty += left[i] <= 0
    taken = 0.0
    while empty < needed:
        first, second = -1, -1
        for i in range(4):
            if left[i] > 0:
                if first < 0:
                    first = i
                else:
                    second = i
                    break
        if second < 0:  # one pile left (only when all four must empty)
            taken += left[first]
            left[first] = 0
            empty += 1
            continue
        drain = min(left[first], left[second])
        left[first] -= drain
        left[second] -= drain
        taken += 2 * drain
        empty += (left[first] <= 0) + (left[second] <= 0)
    return taken


@kernel
def h_clock(s, t, hp, b, dv, left):
    """clock.read_clock into dv[D_P_END], dv[D_LATER]."""
    phase = s.phase[b]
    distributing = phase == SHOP or phase == PICK
    resolved = distributing and (s.dist_area[b] > SHOP_AREA or s.dist_stage[b] == STAGE_PICK)
    rounds_done = s.round[b] - 1 + (1 if resolved else 0)
    start_tiles, tiles = 0, 0
    for i in range(4):
        start_tiles += t.pile_sizes[i]
        tiles += s.tile_pile_len[b, i]
    rate = (start_tiles - tiles + hp[H_RATE_PRIOR]) / (rounds_done + 1)
    to_end = h_tiles_to_end(s, b, t.empty_piles_to_end, left)
    if resolved:
        this_round = 0.0
        p_tiles = 1.0 if to_end <= 0 else 0.0
    else:
        markers = s.bid_count[b, SHOP_AREA]
        if distributing:
            this_round = hp[H_MARKER_TILES] * (markers - s.dist_marker[b])
        else:
            this_round = max(rate, hp[H_MARKER_TILES] * markers)
        p_tiles = h_logistic((this_round - to_end) / hp[H_END_SOFTNESS])
    galleries = t.num_galleries
    pile = np.int64(s.painting_pile_len[b])
    p_end = 1.0 if pile < galleries else p_tiles
    paint_rounds = (pile - galleries) // galleries + 1 if pile >= galleries else 0
    tile_rounds = max(1.0, (to_end - this_round) / rate)
    dv[D_P_END] = p_end
    dv[D_LATER] = (1.0 - p_end) * min(tile_rounds, paint_rounds)


@kernel
def in_collection(s, b, player, number):
    return row_holds(s.collections, s.collection_len, b, player, number)


@kernel
def on_display(s, t, b, number):
    for area in range(1, t.num_galleries + 1):
        if s.gallery_painting[b, area] == number:
            return True
    return False


@kernel
def in_rival_collection(s, t, b, me, number):
    for q in range(t.num_players):
        if q != me and in_collection(s, b, q, number):
            return True
    return False


@kernel
def h_tile_values(s, t, hp, b, me, dv, tiles):
    """HeuristicPolicy.clocked_tile_values (v2) or HeuristicV1Policy.tile_values (v1)."""
    n = t.num_players
    matched, unmatched = t.score_points[1], t.score_points[2]
    bonus = matched - unmatched
    pool = hp[H_TILE_POOL] / (n - 1)
    pile = s.painting_pile_len[b]
    drawn = min(1.0, dv[D_LATER] * t.num_galleries / pile) if pile else 0.0
    displayed = unmatched + bonus * hp[H_TILE_WIN] * 2.0 / n
    unseen = unmatched + bonus * drawn * hp[H_WIN_LATER] * 2.0 / n
    v2 = hp[H_VERSION] == 2.0
    for i in range(4):
        size = s.tile_pile_len[b, i]
        if size == 0:
            tiles[i] = 0.0
            continue
        tile = s.tile_piles[b, i, size - 1]
        if in_collection(s, b, me, tile):
            value = matched + pool * unmatched if v2 else float(matched)
        elif on_display(s, t, b, tile):
            value = displayed * (1.0 + pool) if v2 else unmatched + hp[H_TILE_ON_DISPLAY]
        elif in_rival_collection(s, t, b, me, tile):
            value = unmatched + pool * matched if v2 else unmatched + hp[H_TILE_DENIAL]
        else:
            value = unseen * (1.0 + pool) if v2 else unmatched + hp[H_TILE_LATER]
        tiles[i] = value + hp[H_TILE_BONUS] if v2 else value


@kernel
def h_best_tile_sets(s, t, b, tiles, gains):
    """heuristic_v1.best_tile_sets: per card value, the best affordable set of top tiles."""
    best = 0.0
    for v in range(V):
        for choice in range(1, NUM_SHOP_CHOICES):
            if t.shop_cost[choice] <= v and shop_choice_open(s, t, b, choice, v):
                value = shop_choice_sum(t, choice, tiles)
                if value > best:
                    best = value
        gains[v] = best


@kernel
def shop_choice_sum(t, choice, tiles):
    """sum(tiles[i] for i in SHOP_CHOICE_PILES[choice]), in that order."""
    value = 0.0
    for k in range(2):
        pile = t.shop_piles[choice, k]
        if pile >= 0:
            value += tiles[pile]
    return value


@kernel
def h_card_counts(s, t, b, counts):
    """Each seat's cards in hand and under its markers (a public multiset, R8)."""
    for q in range(t.num_players):
        for v in range(V):
            counts[q, v] = s.hands[b, q, v]
    for area in range(t.num_areas):
        for k in range(s.bid_count[b, area]):
            counts[s.bid_player[b, area, k], s.bid_value[b, area, k]] += 1


@kernel
def h_rival_means(s, t, b, me, means, counts):
    """heuristic_v1._rival_card_means: fills means, returns the highest rival card."""
    h_card_counts(s, t, b, counts)
    rival_max = 0
    for q in range(t.num_players):
        means[q] = 0.0
        if q == me:
            continue
        total, weighted, top = 0, 0, 0
        for v in range(V):
            total += counts[q, v]
            weighted += v * counts[q, v]
            if counts[q, v]:
                top = v
        if total:
            means[q] = weighted / total
            rival_max = max(rival_max, top)
    return rival_max


@kernel
def h_turn_table(s, t, hp, b, me, w):
    """TurnTable / ClockTurnTable.__init__: the decision's weights into dv, means,
    remaining turns, chain summaries; no area valued yet."""
    dv, means, remaining, _, area_done, _, _, _, _, _, summ, left, counts = w
    n = t.num_players
    rival_max = h_rival_means(s, t, b, me, means, counts)
    done, starter = np.int64(s.turn[b]), np.int64(s.round_starter[b])
    for q in range(n):
        late = 1 if (q - starter + n) % n < done % n else 0
        remaining[q] = TURNS_PER_ROUND - done // n - late
    my_max = 0
    for v in range(V):
        if s.hands[b, me, v]:
            my_max = v
    keep = my_max if my_max >= rival_max and s.hands[b, me, my_max] == 1 else -1
    dv[D_KEEP] = keep
    dv[D_POTENTIAL] = hp[H_POTENTIAL]
    dv[D_DENIAL] = hp[H_DENIAL] if n == 2 else hp[H_DENIAL] / (n - 1)
    dv[D_CARD_COST] = hp[H_CARD_COST]
    dv[D_START_CARD] = hp[H_START_CARD]
    if hp[H_VERSION] == 2.0:
        h_clock(s, t, hp, b, dv, left)
        last = dv[D_P_END]
        if hp[H_POT_ROUNDS] > 0:
            dv[D_POTENTIAL] = hp[H_POTENTIAL] * min(1.0, dv[D_LATER] / hp[H_POT_ROUNDS])
        dv[D_START_CARD] = last * hp[H_START_FINAL] + (1.0 - last) * hp[H_START_CARD]
        dv[D_CARD_COST] = last * hp[H_COST_FINAL] + (1.0 - last) * hp[H_CARD_COST]
    for q in range(n):
        chain_rows(s, t, b, q, summ[q, 0], summ[q, 1], summ[q, 2])
    for area in range(t.num_areas):
        area_done[area] = False


@kernel
def h_painting_gain(t, summ, q, number, potential):
    """heuristic_v1.painting_gain for seat q's chain summary."""
    gain = 0.0
    for r in range(R):
        symbol = t.card_symbol[number, r]
        open_sum = summ[q, 2, r]
        if symbol < 0:
            gain -= potential * open_sum
            continue
        value = t.card_value[number, r]
        extends = open_sum and summ[q, 1, r] == symbol
        new_sum = open_sum + value if extends else np.int64(value)
        if new_sum > summ[q, 0, r]:
            gain += new_sum - summ[q, 0, r]
        gain += potential * (new_sum - open_sum)
    return gain


@kernel
def h_paint_value(s, t, b, me, area, dv, summ):
    """TurnTable._paint_value: own gain (plus the souvenir bonus) and the denial share."""
    number = s.gallery_painting[b, area]
    if number == 0:
        return 0.0
    bonus = t.score_points[1] - t.score_points[2]
    potential = dv[D_POTENTIAL]
    value = h_painting_gain(t, summ, me, number, potential)
    if holds_tile(s, b, me, number):
        value += bonus
    rival = 0.0
    for q in range(t.num_players):
        if q != me:
            g = h_painting_gain(t, summ, q, number, potential)
            if holds_tile(s, b, q, number):
                g += bonus
            if g > rival:
                rival = g
    return max(0.0, value) + dv[D_DENIAL] * rival


@kernel
def h_chance(total, rivals, count, scale):
    c = 1.0
    for i in range(count):
        x = (total - rivals[i]) / scale
        c *= 1.0 / (1.0 + np.exp(-x)) if x > -30.0 else 0.0
    return c
