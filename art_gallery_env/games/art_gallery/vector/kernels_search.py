"""The compiled searches: ISMCTS iterations on a dense tree (agents/ismcts.py's search on
this engine; :mod:`.search` wraps it) and the rollout search over the heuristic."""

from __future__ import annotations

import numpy as np

from ..rules.actions import NUM_ACTIONS
from ..rules.cards import NUM_ROWS
from ..rules.phases import (
    GAME_OVER,
    PICK,
    SHOP,
)
from .jit import entry, kernel
from .kernels_batch import random_action
from .kernels_choice import decision_scratch, heuristic_action
from .kernels_heuristic import heuristic_scratch
from .kernels_rules import BAR, V, apply_action, below, legal_row, next_u64, shuffle_row
from .kernels_score import (
    A,
    P,
    R,
    S,
    chain_rows,
    owned_pips,
    share_wins,
    souvenir_points,
    total_score,
)

# -- ISMCTS (agents/ismcts.py's search on this engine; vector/search.py wraps it) -----------
# One call runs many iterations of single-observer ISMCTS on a dense tree: node 0 is the
# root, child[node, seat * 47 + action] the child of a (seat, action) key (-1: none), and
# visits / avail / total per node, as agents/ismcts.py's _Node. Each iteration copies the
# root slot into a work slot, determinizes it from the observer's information (a port of
# rules.hidden.determinize: everything hidden is sorted before it is shuffled, so the world
# depends only on the information set and the search stream), walks and expands the tree
# as ISMCTSAgent._iterate does (availability-aware UCB, one untried action drawn uniformly),
# rolls out to the round limit with the compiled heuristic or random play, and backs up
# art_gallery.search.Evaluator's values. The search stream ``rng[0]`` (splitmix64) draws
# the worlds and the expansions; the work slot's action stream the rollouts' choices.
ROLLOUT_RANDOM, ROLLOUT_HEURISTIC = 0, 1
NO_ROUND_LIMIT = 1 << 30


@kernel
def copy_slot(s, src, dst):
    """Slot dst becomes a copy of slot src (the random streams of dst are kept)."""
    s.phase[dst] = s.phase[src]
    s.current_player[dst] = s.current_player[src]
    s.round[dst] = s.round[src]
    s.turn[dst] = s.turn[src]
    s.round_starter[dst] = s.round_starter[src]
    s.start_player[dst] = s.start_player[src]
    for p in range(S):
        s.position[dst, p] = s.position[src, p]
        s.tiles_held_len[dst, p] = s.tiles_held_len[src, p]
        s.collection_len[dst, p] = s.collection_len[src, p]
        for v in range(V):
            s.hands[dst, p, v] = s.hands[src, p, v]
            s.moved[dst, p, v] = s.moved[src, p, v]
        for i in range(P):
            s.tiles_held[dst, p, i] = s.tiles_held[src, p, i]
            s.collections[dst, p, i] = s.collections[src, p, i]
    for area in range(A):
        s.bid_count[dst, area] = s.bid_count[src, area]
        s.gallery_painting[dst, area] = s.gallery_painting[src, area]
        for k in range(BAR):
            s.bid_player[dst, area, k] = s.bid_player[src, area, k]
            s.bid_value[dst, area, k] = s.bid_value[src, area, k]
    for i in range(P):
        s.painting_pile[dst, i] = s.painting_pile[src, i]
    s.painting_pile_len[dst] = s.painting_pile_len[src]
    for i in range(s.tile_piles.shape[1]):
        s.tile_pile_len[dst, i] = s.tile_pile_len[src, i]
        for k in range(s.tile_piles.shape[2]):
            s.tile_piles[dst, i, k] = s.tile_piles[src, i, k]
    s.dist_area[dst] = s.dist_area[src]
    s.dist_stage[dst] = s.dist_stage[src]
    s.dist_marker[dst] = s.dist_marker[src]
    for v in range(V):
        s.space_cards[dst, v] = s.space_cards[src, v]


@kernel
def sort_row(row, length):
    """Insertion sort of row[:length] (at most 48 entries)."""
    for i in range(1, length):
        x = row[i]
        j = i - 1
        while j >= 0 and row[j] > x:
            row[j + 1] = row[j]
            j -= 1
        row[j + 1] = x


@kernel
def determinize_tiles(s, b, rng, r, pool):
    """_shuffle_tiles_below_tops: the tiles below every pile's top dealt afresh."""
    m = 0
    for i in range(s.tile_piles.shape[1]):
        for k in range(s.tile_pile_len[b, i] - 1):
            pool[m] = s.tile_piles[b, i, k]
            m += 1
    sort_row(pool, m)
    shuffle_row(pool, m, rng, r)
    m = 0
    for i in range(s.tile_piles.shape[1]):
        for k in range(s.tile_pile_len[b, i] - 1):
            s.tile_piles[b, i, k] = pool[m]
            m += 1


@kernel
def determinize_cards(s, t, b, player, rng, r, pool):
    """_resample_cards: ``player``'s cards nobody else can locate (hidden bids and, before
    the distribution, the hand) dealt afresh over the same places."""
    phase = s.phase[b]
    distributing = phase == SHOP or phase == PICK
    first_hidden = s.dist_area[b] + 1 if distributing else 0
    m = 0
    for area in range(first_hidden, t.num_areas):
        for k in range(s.bid_count[b, area]):
            if s.bid_player[b, area, k] == player:
                pool[m] = s.bid_value[b, area, k]
                m += 1
    slots = m
    if not distributing:
        for v in range(V):
            for _ in range(s.hands[b, player, v]):
                pool[m] = v
                m += 1
    sort_row(pool, m)
    shuffle_row(pool, m, rng, r)
    k_pool = 0
    for area in range(first_hidden, t.num_areas):
        for k in range(s.bid_count[b, area]):
            if s.bid_player[b, area, k] == player:
                s.bid_value[b, area, k] = pool[k_pool]
                k_pool += 1
    if not distributing:
        for v in range(V):
            s.hands[b, player, v] = 0
        for i in range(slots, m):
            s.hands[b, player, pool[i]] += 1


@kernel
def determinize_slot(s, t, b, observer, rng, r, pool):
    """rules.hidden.determinize in place on slot b for ``observer``: the painting pile's
    order, the tiles below the tops, each rival's unlocated cards; ``pool`` is int8
    scratch of 48 entries, ``rng[r]`` the stream."""
    length = s.painting_pile_len[b]
    pile = s.painting_pile[b]
    sort_row(pile, length)
    shuffle_row(pile, length, rng, r)
    determinize_tiles(s, b, rng, r, pool)
    for p in range(t.num_players):
        if p != observer:
            determinize_cards(s, t, b, p, rng, r, pool)


@entry
def determinize_games(s, t, src, dst, observer, rng):
    """Slot dst[i] becomes a determinization of slot src[i] for ``observer`` (tests)."""
    pool = np.empty(P, np.int8)
    for i in range(src.shape[0]):
        copy_slot(s, src[i], dst[i])
        determinize_slot(s, t, dst[i], observer, rng, 0, pool)
    return 0


@kernel
def win_shares_row(s, t, b, out, chains):
    """core.scoring.win_shares at game over: 1/k for each of k seats tied on the best
    (total, tiles) (R7.5), 0 for the others."""
    for p in range(t.num_players):
        out[p] = total_score(s, t, b, p, chains[0], chains[1], chains[2])
    share_wins(s, t, b, out, out, 0.0)


@kernel
def evaluate_row(s, t, b, scale, potential, hand_weight, out, values, chains):
    """art_gallery.search.Evaluator.rewards into out[:n] (``values``: float64 scratch of 6
    for Evaluator.scores), in the same order of floating-point operations."""
    if s.phase[b] == GAME_OVER:
        win_shares_row(s, t, b, out, chains)
        return
    n = t.num_players
    for p in range(n):
        chain_rows(s, t, b, p, chains[0], chains[1], chains[2])
        best, open_sum = 0, 0
        for row in range(R):
            best += chains[0][row]
            open_sum += chains[2][row]
        pips = owned_pips(s, t, b, p)
        start = t.score_points[0] if s.start_player[b] == p else 0
        value = best + potential * open_sum
        value += souvenir_points(s, t, b, p)
        value += hand_weight * pips + start
        values[p] = value
    for p in range(n):
        rival = -np.inf
        for q in range(n):
            if q != p and values[q] > rival:
                rival = values[q]
        x = (values[p] - rival) / scale
        out[p] = 1.0 / (1.0 + np.exp(-x)) if x > -30 else 0.0


@entry
def evaluate_games(s, t, scale, potential, hand_weight, out, lo, hi):
    """evaluate_row for games lo..hi-1 into out[b] (tests)."""
    values = np.empty(S, np.float64)
    chains = np.empty((3, NUM_ROWS), np.int64)
    for b in range(lo, hi):
        evaluate_row(s, t, b, scale, potential, hand_weight, out[b], values, chains)
    return 0


@kernel
def search_descend(s, t, b, end_round, c, tree, rng, legal, untried, path_node, path_seat):
    """ISMCTSAgent._iterate's selection and expansion on slot b; returns the path's length.
    ``tree`` is (child, visits, avail, total, nodes), nodes[0] the nodes in use."""
    child, visits, avail, total, nodes = tree
    node, depth = 0, 0
    while s.phase[b] != GAME_OVER and s.round[b] < end_round:
        player = np.int64(s.current_player[b])
        legal_row(s, t, b, legal)
        base = player * NUM_ACTIONS
        count, best_child, best_action, best_ucb = 0, -1, -1, -1e300
        for a in range(NUM_ACTIONS):
            if not legal[a]:
                continue
            ch = child[node, base + a]
            if ch < 0:
                untried[count] = a
                count += 1
                continue
            avail[ch] += 1
            if count == 0:
                n = visits[ch]
                ucb = total[ch] / n + c * np.sqrt(np.log(avail[ch]) / n)
                if ucb > best_ucb:
                    best_child, best_action, best_ucb = ch, a, ucb
        if count:
            a = untried[0] if count == 1 else untried[below(rng, 0, count)]
            new = nodes[0]
            nodes[0] = new + 1
            child[node, base + a] = new
            avail[new] = 1
            apply_action(s, t, b, a)
            path_node[depth] = new
            path_seat[depth] = player
            return depth + 1
        apply_action(s, t, b, best_action)
        path_node[depth] = best_child
        path_seat[depth] = player
        depth += 1
        node = best_child
    return depth


@kernel
def search_rollout(s, t, hp, b, end_round, kind, legal, scores, top, w):
    """The rollout: the compiled heuristic for every seat, or random legal play, until the
    game ends or reaches round ``end_round``; choices from slot b's action stream."""
    while s.phase[b] != GAME_OVER and s.round[b] < end_round:
        if kind == ROLLOUT_HEURISTIC:
            action = heuristic_action(s, t, hp, b, legal, scores, top, w)
        else:
            action = random_action(s, t, b, legal)
        apply_action(s, t, b, action)


@entry
def ismcts_iterations(s, t, hp, root, work, observer, iters, options, tree, rng):
    """Up to ``iters`` ISMCTS iterations from slot ``root`` for ``observer`` (slot ``work``
    is scratch); ``options`` is float64 (c, rollout kind, rounds, scale, potential,
    hand_weight); ``tree`` as search_descend's, kept across calls. Stops early when the
    node table is full; returns the iterations done."""
    child, visits, avail, total, nodes = tree
    c, kind, rounds = options[0], np.int64(options[1]), np.int64(options[2])
    scale, potential, hand_weight = options[3], options[4], options[5]
    end_round = np.int64(s.round[root]) + rounds if rounds > 0 else NO_ROUND_LIMIT
    cap = child.shape[0]
    legal, scores, top, w = decision_scratch()
    untried = np.empty(NUM_ACTIONS, np.int64)
    path_node = np.empty(cap, np.int64)
    path_seat = np.empty(cap, np.int64)
    rewards = np.empty(S, np.float64)
    values = np.empty(S, np.float64)
    chains = np.empty((3, NUM_ROWS), np.int64)
    pool = np.empty(P, np.int8)
    done = 0
    while done < iters and nodes[0] < cap:
        copy_slot(s, root, work)
        determinize_slot(s, t, work, observer, rng, 0, pool)
        depth = search_descend(
            s, t, work, end_round, c, tree, rng, legal, untried, path_node, path_seat
        )
        search_rollout(s, t, hp, work, end_round, kind, legal, scores, top, w)
        evaluate_row(s, t, work, scale, potential, hand_weight, rewards, values, chains)
        for i in range(depth):
            node = path_node[i]
            visits[node] += 1
            total[node] += rewards[path_seat[i]]
        done += 1
    return done


# -- the rollout search (a root-only policy improvement over the heuristic) ----------------
# Bertsekas' rollout algorithm / Tesauro's Monte Carlo policy improvement, with the
# compiled heuristic as the base policy: every sweep determinizes the root once from the
# observer's information, and each candidate action of the root is applied to a copy of
# that one world and played on by the heuristic for every seat (the same rollout stream
# for each candidate: common random numbers), to the game's end or a round limit, then
# evaluated as ISMCTS's leaves are (evaluate_row). vector/search.py's RolloutSearch picks
# the candidates (the heuristic's best scored actions) and the winner.
@entry
def root_scores(s, t, hp, b, scores):
    """The heuristic's score of every action at slot b (-inf: not legal; a one-answer
    decision scores only that answer) and its own choice, drawn on slot b's stream."""
    w = heuristic_scratch()
    legal = np.empty(NUM_ACTIONS, np.bool_)
    top = np.empty(NUM_ACTIONS, np.bool_)
    return heuristic_action(s, t, hp, b, legal, scores, top, w)


@entry
def rollout_sweeps(s, t, hp, root, det, work, observer, cands, sweeps, options, values, rng):
    """``sweeps`` sweeps from slot ``root`` for ``observer`` over the actions ``cands``:
    values[i, k] is the observer's value after candidate k in sweep i. Slots det and work
    are scratch; ``options`` is float64 (rounds, scale, potential, hand_weight); rng[0]
    draws the worlds and each sweep's rollout stream."""
    rounds = np.int64(options[0])
    scale, potential, hand_weight = options[1], options[2], options[3]
    end_round = np.int64(s.round[root]) + rounds if rounds > 0 else NO_ROUND_LIMIT
    legal, scores, top, w = decision_scratch()
    rewards = np.empty(S, np.float64)
    evals = np.empty(S, np.float64)
    chains = np.empty((3, NUM_ROWS), np.int64)
    pool = np.empty(P, np.int8)
    for i in range(sweeps):
        copy_slot(s, root, det)
        determinize_slot(s, t, det, observer, rng, 0, pool)
        stream = next_u64(rng, 0)
        for k in range(cands.shape[0]):
            copy_slot(s, det, work)
            s.action_rng[work] = stream
            apply_action(s, t, work, cands[k])
            search_rollout(s, t, hp, work, end_round, ROLLOUT_HEURISTIC, legal, scores, top, w)
            evaluate_row(s, t, work, scale, potential, hand_weight, rewards, evals, chains)
            values[i, k] = rewards[observer]
    return sweeps
