"""The rules of Art Gallery compiled (R3-R6): random numbers, the deal, legal actions, apply,
the distribution and the end of a round, on :class:`~.state.VecState`.

The rule functions are line-by-line ports of their namesakes in :mod:`..rules.game` and
:mod:`..rules.state`, including the D1 automatic steps and every side effect on ``phase``
and ``current_player`` (so that ``to_state`` equals the Python engine's state at every
decision, which the differential test checks). Read the Python functions for the why;
comments here only mark where the port differs in form. The kernels are spread over the
files of :data:`.jit.KERNEL_MODULES`, cached under one stamp (:mod:`.jit`); tables that
could change independently (observation offsets, card data) are passed in as arrays
(:mod:`.tables`); the constants imported from the rules are the fixed action layout and
board sizes.
"""

from __future__ import annotations

import numpy as np

from ..rules.actions import BID_BASE, NUM_CARD_VALUES, PICK_BASE, SHOP_BASE
from ..rules.board import MARKER_BAR_SIZE, SHOP_AREA, TURNS_PER_ROUND
from ..rules.cards import NUM_PAINTINGS
from ..rules.phases import (
    BID,
    GAME_OVER,
    MOVE,
    PICK,
    SHOP,
    STAGE_PICK,
    STAGE_REVEAL,
    STAGE_SHOP,
)
from .jit import kernel, tiny_kernel

V = NUM_CARD_VALUES
BAR = MARKER_BAR_SIZE
NUM_SHOP_CHOICES = PICK_BASE - SHOP_BASE
NUM_MOVE_ACTIONS = BID_BASE

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


# -- random numbers: splitmix64, one stream per game ------------------------------------
@tiny_kernel
def next_u64(rng, b):
    x = rng[b] + _GOLDEN
    rng[b] = x
    x = (x ^ (x >> _S30)) * _MIX1
    x = (x ^ (x >> _S27)) * _MIX2
    return x ^ (x >> _S31)


@tiny_kernel
def below(rng, b, n):
    """Uniform in 0..n-1 (the modulo bias is below n / 2**64)."""
    return np.int64(next_u64(rng, b) % np.uint64(n))


@tiny_kernel
def nth_set(row, n, k):
    """The index of the ``k``-th (from 0) nonzero entry among ``row[:n]``; -1 if fewer."""
    for a in range(n):
        if row[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@kernel
def shuffle_row(row, length, rng, b):
    """Fisher-Yates over row[:length]."""
    for i in range(length - 1, 0, -1):
        j = below(rng, b, i + 1)
        row[i], row[j] = row[j], row[i]


# -- setup (R3) -------------------------------------------------------------------------
@kernel
def deal(s, t, b, tiles):
    """A new game in slot b from its deal stream (R3.1-R3.4; new_game's order of draws
    is kept, not its random numbers). ``tiles`` is int8 scratch of 48 entries."""
    n, galleries = t.num_players, t.num_galleries
    pile = s.painting_pile[b]
    for i in range(NUM_PAINTINGS):
        pile[i] = i + 1
    shuffle_row(pile, NUM_PAINTINGS, s.deal_rng, b)
    left = NUM_PAINTINGS
    s.gallery_painting[b, SHOP_AREA] = 0
    for area in range(1, galleries + 1):  # [0] + [paintings.pop() for each gallery]
        left -= 1
        s.gallery_painting[b, area] = pile[left]
        pile[left] = 0
    s.painting_pile_len[b] = left
    for i in range(NUM_PAINTINGS):
        tiles[i] = i + 1
    shuffle_row(tiles, NUM_PAINTINGS, s.deal_rng, b)
    start = 0
    for i in range(t.pile_sizes.shape[0]):
        size = t.pile_sizes[i]
        for k in range(size):
            s.tile_piles[b, i, k] = tiles[start + k]
        s.tile_pile_len[b, i] = size
        start += size
    first = below(s.deal_rng, b, n)
    s.start_player[b] = first
    s.round_starter[b] = first
    s.current_player[b] = first
    for p in range(n):
        s.position[b, p] = SHOP_AREA
        s.tiles_held_len[b, p] = 0
        s.collection_len[b, p] = 0
        for i in range(NUM_PAINTINGS):
            s.tiles_held[b, p, i] = 0
            s.collections[b, p, i] = 0
        for v in range(V):
            s.hands[b, p, v] = 1
            s.moved[b, p, v] = 0
    for area in range(t.num_areas):
        clear_bar(s, b, area)
    s.phase[b] = MOVE
    s.round[b] = 1
    s.turn[b] = 0
    s.dist_area[b] = SHOP_AREA
    s.dist_stage[b] = STAGE_REVEAL
    s.dist_marker[b] = 0
    for v in range(V):
        s.space_cards[b, v] = 0


@kernel
def clear_bar(s, b, area):
    s.bid_count[b, area] = 0
    for k in range(BAR):
        s.bid_player[b, area, k] = 0
        s.bid_value[b, area, k] = 0


# -- legal actions ----------------------------------------------------------------------
@kernel
def any_open_move(s, t, b, player):
    """Whether some card in hand reaches an area with a free marker space (else R4.6)."""
    pos = s.position[b, player]
    for v in range(V):
        if s.hands[b, player, v]:
            if s.bid_count[b, t.move_dest[pos, 2 * v]] < BAR:
                return True
            if v and s.bid_count[b, t.move_dest[pos, 2 * v + 1]] < BAR:
                return True
    return False


@kernel
def shop_card_value(s, b):
    return s.bid_value[b, SHOP_AREA, s.dist_marker[b]]


@kernel
def shop_choice_open(s, t, b, choice, value):
    """R5.1: choice 1..10 is affordable with ``value`` and its piles are not empty."""
    if t.shop_cost[choice] > value:
        return False
    for k in range(2):
        pile = t.shop_piles[choice, k]
        if pile >= 0 and s.tile_pile_len[b, pile] == 0:
            return False
    return True


@kernel
def legal_row(s, t, b, out):
    """The legal-action mask of game b into out[0:47] (all False once the game is over)."""
    out[:] = False
    phase = s.phase[b]
    player = s.current_player[b]
    if phase == MOVE:
        pos = s.position[b, player]
        fallback = not any_open_move(s, t, b, player)
        for v in range(V):
            if s.hands[b, player, v]:
                if fallback or s.bid_count[b, t.move_dest[pos, 2 * v]] < BAR:
                    out[2 * v] = True
                if v and (fallback or s.bid_count[b, t.move_dest[pos, 2 * v + 1]] < BAR):
                    out[2 * v + 1] = True
    elif phase == BID:
        for v in range(V):
            out[BID_BASE + v] = s.hands[b, player, v] > 0
    elif phase == SHOP:
        value = shop_card_value(s, b)
        out[SHOP_BASE] = True
        for i in range(1, NUM_SHOP_CHOICES):
            out[SHOP_BASE + i] = shop_choice_open(s, t, b, i, value)
    elif phase == PICK:
        for v in range(V):
            out[PICK_BASE + v] = s.space_cards[b, v] > 0


@kernel
def is_legal(s, t, b, action):
    """legal_row(...)[action] without building the row."""
    if action < 0 or action >= PICK_BASE + V:
        return False
    phase = s.phase[b]
    player = s.current_player[b]
    if phase == MOVE:
        return is_legal_move(s, t, b, player, action)
    if phase == BID:
        return BID_BASE <= action < SHOP_BASE and s.hands[b, player, action - BID_BASE] > 0
    if phase == SHOP:
        if action == SHOP_BASE:
            return True
        if SHOP_BASE < action < PICK_BASE:
            return shop_choice_open(s, t, b, action - SHOP_BASE, shop_card_value(s, b))
        return False
    if phase == PICK:
        return action >= PICK_BASE and s.space_cards[b, action - PICK_BASE] > 0
    return False


@kernel
def is_legal_move(s, t, b, player, action):
    """R4.3-R4.6 for one action in the move phase (split from is_legal to keep it short)."""
    if action >= NUM_MOVE_ACTIONS:
        return False
    v, direction = action // 2, action % 2
    if s.hands[b, player, v] == 0 or (v == 0 and direction == 1):
        return False
    if s.bid_count[b, t.move_dest[s.position[b, player], action]] < BAR:
        return True
    return not any_open_move(s, t, b, player)


# -- apply ------------------------------------------------------------------------------
@kernel
def apply_action(s, t, b, action):
    """game.apply_action for a legal action (the caller checks legality first)."""
    phase = s.phase[b]
    if phase == MOVE:
        apply_move(s, t, b, action)
    elif phase == BID:
        apply_bid(s, t, b, action - BID_BASE)
    elif phase == SHOP:
        apply_shop(s, t, b, action - SHOP_BASE)
        resolve_distribution(s, t, b)
    else:
        apply_pick(s, b, action - PICK_BASE)
        resolve_distribution(s, t, b)


@kernel
def apply_move(s, t, b, action):
    player = s.current_player[b]
    value, direction = action // 2, action % 2
    areas = t.num_areas
    area = t.move_dest[s.position[b, player], action]
    if s.bid_count[b, area] >= BAR:  # R4.6: continue the same way past full areas
        step = 1 if direction == 0 else areas - 1
        while s.bid_count[b, area] >= BAR:
            area = (area + step) % areas
    s.hands[b, player, value] -= 1
    s.moved[b, player, value] += 1
    s.position[b, player] = area
    s.phase[b] = BID


@kernel
def apply_bid(s, t, b, value):
    player = s.current_player[b]
    area = s.position[b, player]
    s.hands[b, player, value] -= 1
    k = s.bid_count[b, area]
    s.bid_player[b, area, k] = player
    s.bid_value[b, area, k] = value
    s.bid_count[b, area] = k + 1
    s.turn[b] += 1
    n = t.num_players
    if s.turn[b] < TURNS_PER_ROUND * n:
        s.current_player[b] = (s.round_starter[b] + s.turn[b]) % n
        s.phase[b] = MOVE
        return
    award_start_card(s, t, b)
    s.dist_area[b] = SHOP_AREA
    s.dist_stage[b] = STAGE_REVEAL
    s.dist_marker[b] = 0
    resolve_distribution(s, t, b)


@kernel
def lowest_card(s, b, player):
    for v in range(V):
        if s.hands[b, player, v]:
            return v
    return -1  # unreachable: one card stays in hand


@kernel
def award_start_card(s, t, b):
    """R4.7: highest last card; ties clockwise from the holder's left, holder last."""
    n = t.num_players
    best = -1
    for p in range(n):
        best = max(best, lowest_card(s, b, p))
    holder = s.start_player[b]
    for k in range(1, n + 1):
        p = (holder + k) % n
        if lowest_card(s, b, p) == best:
            s.start_player[b] = p
            return


@kernel
def apply_shop(s, t, b, choice):
    player = s.bid_player[b, SHOP_AREA, s.dist_marker[b]]
    for k in range(2):
        pile = t.shop_piles[choice, k]
        if pile >= 0:
            top = s.tile_pile_len[b, pile] - 1
            held = s.tiles_held_len[b, player]
            s.tiles_held[b, player, held] = s.tile_piles[b, pile, top]
            s.tiles_held_len[b, player] = held + 1
            s.tile_pile_len[b, pile] = top
            s.tile_piles[b, pile, top] = 0
    s.dist_marker[b] += 1


@kernel
def apply_pick(s, b, value):
    player = s.bid_player[b, s.dist_area[b], s.dist_marker[b]]
    s.space_cards[b, value] -= 1
    s.hands[b, player, value] += 1
    s.dist_marker[b] += 1


# -- distribution (R5) and end of round (R6) ---------------------------------------------
@kernel
def shop_has_choice(s, t, b):
    value = shop_card_value(s, b)
    for i in range(1, NUM_SHOP_CHOICES):
        if shop_choice_open(s, t, b, i, value):
            return True
    return False


@kernel
def resolve_distribution(s, t, b):
    last_area = t.num_galleries
    while True:
        area = s.dist_area[b]
        if area > last_area:
            end_round(s, t, b)
            return
        count = s.bid_count[b, area]
        stage = s.dist_stage[b]
        if stage == STAGE_REVEAL:
            if count == 0:
                s.dist_area[b] = area + 1
                continue
            for v in range(V):
                s.space_cards[b, v] = 0
            for k in range(count):
                s.space_cards[b, s.bid_value[b, area, k]] += 1
            if area == SHOP_AREA:
                s.dist_stage[b] = STAGE_SHOP
            else:
                award_painting(s, t, b, area)
                s.dist_stage[b] = STAGE_PICK
            s.dist_marker[b] = 0
            continue
        marker = s.dist_marker[b]
        if stage == STAGE_SHOP:
            if marker == count:
                s.dist_stage[b] = STAGE_PICK
                s.dist_marker[b] = 0
                continue
            s.phase[b] = SHOP
            s.current_player[b] = s.bid_player[b, SHOP_AREA, marker]
            if not shop_has_choice(s, t, b):
                apply_shop(s, t, b, np.int64(0))  # D1: only "take nothing"
                continue
            return
        # STAGE_PICK
        if marker == count:
            clear_bar(s, b, area)  # markers return to their owners
            s.dist_area[b] = area + 1
            s.dist_stage[b] = STAGE_REVEAL
            continue
        values, only = 0, np.int64(0)
        for v in range(V):
            if s.space_cards[b, v]:
                values += 1
                only = v
        s.phase[b] = PICK
        s.current_player[b] = s.bid_player[b, area, marker]
        if values == 1:
            apply_pick(s, b, only)  # D1: every card left has one value
            continue
        return


@kernel
def bid_total(s, t, b, area, player):
    """R5.3 (and variant R5.6): the player's summed bid at a gallery, -1 if none."""
    total, cards, zeros = 0, 0, 0
    for k in range(s.bid_count[b, area]):
        if s.bid_player[b, area, k] == player:
            value = s.bid_value[b, area, k]
            total += value
            cards += 1
            zeros += value == 0
    if cards == 0:
        return -1
    if t.zero_is_ten and cards >= 2:
        total += 10 * zeros
    return total


@kernel
def row_holds(rows, lengths, b, player, number):
    """Whether ``rows[b, player, :lengths[b, player]]`` (a seat's tiles, its collection)
    holds ``number``."""
    for i in range(lengths[b, player]):
        if rows[b, player, i] == number:
            return True
    return False


@kernel
def holds_tile(s, b, player, number):
    return row_holds(s.tiles_held, s.tiles_held_len, b, player, number)


@kernel
def award_painting(s, t, b, area):
    """R5.4: highest total; ties to the matching tile's holder, else the lowest marker."""
    best, tied, winner = -1, 0, -1
    for p in range(t.num_players):
        total = bid_total(s, t, b, area, p)
        if total > best:
            best, tied, winner = total, 1, p
        elif total == best and total >= 0:
            tied += 1
    painting = s.gallery_painting[b, area]
    if tied > 1:
        winner = -1
        for p in range(t.num_players):
            if bid_total(s, t, b, area, p) == best and holds_tile(s, b, p, painting):
                winner = p
        for k in range(s.bid_count[b, area]):  # marker-bar order: lowest marker first
            if winner >= 0:
                break
            p = s.bid_player[b, area, k]
            if bid_total(s, t, b, area, p) == best:
                winner = p
    length = s.collection_len[b, winner]
    s.collections[b, winner, length] = painting
    s.collection_len[b, winner] = length + 1
    s.gallery_painting[b, area] = 0


@kernel
def game_ends(s, t, b):
    """R6.3 (game_end_reason is not None)."""
    empty_spaces = 0
    for area in range(1, t.num_galleries + 1):
        if s.gallery_painting[b, area] == 0:
            empty_spaces += 1
    if s.painting_pile_len[b] < empty_spaces:
        return True
    empty_piles = 0
    for i in range(t.pile_sizes.shape[0]):
        if s.tile_pile_len[b, i] == 0:
            empty_piles += 1
    return empty_piles >= t.empty_piles_to_end


@kernel
def end_round(s, t, b):
    n = t.num_players
    for p in range(n):
        for v in range(V):
            s.hands[b, p, v] += s.moved[b, p, v]
            s.moved[b, p, v] = 0
    for v in range(V):
        s.space_cards[b, v] = 0
    s.dist_area[b] = SHOP_AREA
    s.dist_stage[b] = STAGE_REVEAL
    s.dist_marker[b] = 0
    if game_ends(s, t, b):
        s.phase[b] = GAME_OVER
        return
    for area in range(1, t.num_galleries + 1):
        if s.gallery_painting[b, area] == 0:
            top = s.painting_pile_len[b] - 1
            s.gallery_painting[b, area] = s.painting_pile[b, top]
            s.painting_pile_len[b] = top
            s.painting_pile[b, top] = 0
    s.round[b] += 1
    s.turn[b] = 0
    s.round_starter[b] = s.start_player[b]
    s.current_player[b] = s.start_player[b]
    s.phase[b] = MOVE
