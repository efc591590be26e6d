"""Everything numba compiles: the rules (R3-R7), the observation, and the batched entry
points, on :class:`~.state.VecState`.

The rule functions are line-by-line ports of their namesakes in :mod:`..rules.game`,
:mod:`..rules.state` and :mod:`..rules.scoring`, including the D1 automatic steps and
every side effect on ``phase`` and ``current_player`` (so that ``to_state`` equals the
Python engine's state at every decision, which the differential test checks). Read the
Python functions for the why; comments here only mark where the port differs in form.

Why one file: numba's on-disk cache (``cache=True``) notices edits only to the file a
compiled function is in, while a caller's cached machine code contains its callees. A
caller in another file would keep running an edited callee's old code. Tables that could
change independently (observation offsets, card data) are passed in as arrays
(:mod:`.tables`); the constants imported from the rules are the fixed action layout and
board sizes.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.core.options import DefaultOptions

from ..rules.actions import BID_BASE, NUM_ACTIONS, NUM_CARD_VALUES, PICK_BASE, SHOP_BASE
from ..rules.board import MARKER_BAR_SIZE, MAX_AREAS, MAX_PLAYERS, SHOP_AREA, TURNS_PER_ROUND
from ..rules.cards import MAX_SYMBOLS_PER_ROW, NUM_PAINTINGS, NUM_ROWS
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

V = NUM_CARD_VALUES
BAR = MARKER_BAR_SIZE
NUM_SHOP_CHOICES = PICK_BASE - SHOP_BASE
NUM_MOVE_ACTIONS = BID_BASE

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)

# Compiled functions called only from other compiled functions. Without reference
# counting (numba's `_nrt` option): they take the state as a tuple of ~27 arrays, and
# counting each array in and out of every call made a legality check 20x slower
# (200 ns instead of 10 ns per game). So they allocate nothing (callers pass scratch
# arrays) and only borrow the arrays of their callers, which outlive every call. No
# Python wrapper (compile time for nothing) and numpy's error model (no zero-division
# checks: nothing here divides by a variable that can be zero). Should a numba release
# drop `_nrt`, the same code runs with counting, slower.
_NO_REFCOUNT = {"_nrt": False} if hasattr(DefaultOptions, "_nrt") else {}
kernel = njit(
    cache=True, no_cpython_wrapper=True, error_model="numpy", forceinline=True, **_NO_REFCOUNT
)
tiny_kernel = njit(cache=True, inline="always", **_NO_REFCOUNT)


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
def holds_tile(s, b, player, number):
    for i in range(s.tiles_held_len[b, player]):
        if s.tiles_held[b, player, i] == number:
            return True
    return False


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


# -- score (R7) and rewards ---------------------------------------------------------------
@kernel
def chain_rows(s, t, b, player, best, open_symbol, open_total):
    """R7.1 per row: the best chain, and the open chain at the collection's right end."""
    for row in range(NUM_ROWS):
        best[row] = 0
        open_symbol[row] = 0
        open_total[row] = 0
    for i in range(s.collection_len[b, player]):
        number = s.collections[b, player, i]
        for row in range(NUM_ROWS):
            symbol = t.card_symbol[number, row]
            if symbol < 0:
                open_symbol[row] = 0
                open_total[row] = 0
                continue
            value = t.card_value[number, row]
            if open_total[row] and open_symbol[row] == symbol:
                open_total[row] += value
            else:
                open_total[row] = value
            open_symbol[row] = symbol
            best[row] = max(best[row], open_total[row])


@kernel
def souvenir_points(s, t, b, player):
    """R7.2: 3 per tile whose painting is in the own collection, else 1."""
    points = 0
    for i in range(s.tiles_held_len[b, player]):
        tile = s.tiles_held[b, player, i]
        matched = False
        for k in range(s.collection_len[b, player]):
            if s.collections[b, player, k] == tile:
                matched = True
                break
        points += t.score_points[1] if matched else t.score_points[2]
    return points


@kernel
def total_score(s, t, b, player, best, open_symbol, open_total):
    """R7.1-R7.4 total (hand counts the face-up movement cards back in, as R6.1 will)."""
    chain_rows(s, t, b, player, best, open_symbol, open_total)
    total = 0
    for row in range(NUM_ROWS):
        total += best[row]
    total += souvenir_points(s, t, b, player)
    hand = 0
    for v in range(V):
        hand += v * (s.hands[b, player, v] + s.moved[b, player, v])
    total += hand // 4
    if s.start_player[b] == player:
        total += t.score_points[0]
    return total


@kernel
def scores_row(s, t, b, out, chains):
    """R7 totals of game b; ``chains`` is (3, 4) int64 scratch."""
    for p in range(t.num_players):
        out[p] = total_score(s, t, b, p, chains[0], chains[1], chains[2])


@kernel
def final_rewards_row(s, t, b, totals, rewards):
    """env.aec.final_rewards: 'win' (R7.5 ties on tiles, shared wins 1/k) or
    'score_margin' (own total - best other) / 10."""
    n = t.num_players
    if t.reward_mode == 0:
        share_wins(s, t, b, totals, rewards, -1.0)
    else:
        for p in range(n):
            other = -(1 << 30)
            for q in range(n):
                if q != p:
                    other = max(other, totals[q])
            rewards[p] = (totals[p] - other) / t.scales[2]


# -- the observation -----------------------------------------------------------------------
# ObservationEncoder's vector, bit for bit, built directly from the state (the encoder
# assembles it from cached parts). Offsets come from observation.FIELD at run time
# (Tables.obs_offsets). Floats are formed as the encoder forms them: card counts as
# float32(count) * float32(1/6) (numpy's uint8 x float32 multiply), every other fraction in
# float64 and then rounded to float32 (Python floats stored into a float32 array).
S, A = MAX_PLAYERS, MAX_AREAS
R, Y, P = NUM_ROWS, MAX_SYMBOLS_PER_ROW, NUM_PAINTINGS
ROUND_CAP = 20.0  # the encoder's round scale: min(round, 20) / 20

# The observation fields this code writes, in the order of Tables.obs_offsets.
OBS_FIELD_NAMES = (
    "num_players",
    "seat_active",
    "phase",
    "round",
    "turns_done",
    "area_exists",
    "position",
    "marker_owner",
    "bid_value",
    "resolving_area",
    "resolving_marker",
    "space_cards",
    "hand",
    "hidden_cards",
    "moved_cards",
    "start_card",
    "gallery_painting",
    "gallery_tile",
    "chain_best",
    "chain_open",
    "collection",
    "tiles",
    "pile_size",
    "pile_top",
    "painting_pile",
    "score",
)
(
    F_NUM_PLAYERS,
    F_SEAT_ACTIVE,
    F_PHASE,
    F_ROUND,
    F_TURNS,
    F_AREA_EXISTS,
    F_POSITION,
    F_OWNER,
    F_VALUE,
    F_RES_AREA,
    F_RES_MARKER,
    F_SPACE,
    F_HAND,
    F_HIDDEN,
    F_MOVED,
    F_START,
    F_GALLERY_PAINTING,
    F_GALLERY_TILE,
    F_CHAIN_BEST,
    F_CHAIN_OPEN,
    F_COLLECTION,
    F_TILES,
    F_PILE_SIZE,
    F_PILE_TOP,
    F_PAINTING_PILE,
    F_SCORE,
) = range(len(OBS_FIELD_NAMES))


@kernel
def observe_row(s, t, b, observer, out, hidden, chains):
    """Fill ``out`` (2221 float32) with game b as seen by ``observer``; ``hidden`` (S * V)
    and ``chains`` (3, 4) are int64 scratch."""
    out[:] = 0.0
    observe_table(s, t, b, observer, out)
    observe_cards(s, t, b, observer, out, hidden)
    for r in range(t.num_players):
        observe_seat(s, t, b, r, (observer + r) % t.num_players, out, chains)
    for g in range(t.num_galleries):
        observe_gallery(s, t, b, observer, g, out)
    observe_piles(s, t, b, out)


@kernel
def observe_table(s, t, b, observer, out):
    """num_players .. position, and the resolving area, marker and space cards."""
    o, n = t.obs_offsets, t.num_players
    out[o[F_NUM_PLAYERS] + n - 2] = 1.0
    for r in range(n):
        out[o[F_SEAT_ACTIVE] + r] = 1.0
    for area in range(t.num_areas):
        out[o[F_AREA_EXISTS] + area] = 1.0
    phase = s.phase[b]
    if phase != GAME_OVER:
        out[o[F_PHASE] + phase] = 1.0
    out[o[F_ROUND]] = np.float32(min(s.round[b], 20) / ROUND_CAP)
    out[o[F_TURNS]] = np.float32(s.turn[b] / (4.0 * n))
    for p in range(n):
        out[o[F_POSITION] + seat_of(p, observer, n) * A + s.position[b, p]] = 1.0
    if phase == SHOP or phase == PICK:
        out[o[F_RES_AREA] + s.dist_area[b]] = 1.0
        out[o[F_RES_MARKER] + s.dist_marker[b]] = 1.0
        for v in range(V):
            out[o[F_SPACE] + v] = np.float32(s.space_cards[b, v]) * t.count_scale


@kernel
def seat_of(player, observer, n):
    """The relative seat: how many places clockwise after the observer."""
    return (player - observer + n) % n


@kernel
def observe_cards(s, t, b, observer, out, hidden):
    """hand, hidden_cards, moved_cards and the marker bars (R8: others' hands are hidden
    during the turns, others' bids until their area is revealed)."""
    o, n, scale = t.obs_offsets, t.num_players, t.count_scale
    phase = s.phase[b]
    over = phase == GAME_OVER
    distributing = phase == SHOP or phase == PICK
    hidden[:] = 0
    for p in range(n):
        r = seat_of(p, observer, n)
        for v in range(V):
            out[o[F_MOVED] + r * V + v] = np.float32(s.moved[b, p, v]) * scale
            if distributing or over or r == 0:
                out[o[F_HAND] + r * V + v] = np.float32(s.hands[b, p, v]) * scale
            else:
                hidden[r * V + v] += s.hands[b, p, v]
    first_hidden_area = s.dist_area[b] + 1 if distributing else 0
    for area in range(t.num_areas):
        for k in range(s.bid_count[b, area]):
            p, value = s.bid_player[b, area, k], s.bid_value[b, area, k]
            r = seat_of(p, observer, n)
            out[o[F_OWNER] + (area * BAR + k) * S + r] = 1.0
            if p == observer or area < first_hidden_area:
                out[o[F_VALUE] + (area * BAR + k) * V + value] = 1.0
            elif not over:
                hidden[r * V + value] += 1
    for i in range(S * V):
        if hidden[i]:
            out[o[F_HIDDEN] + i] = np.float32(hidden[i]) * scale


@kernel
def observe_seat(s, t, b, r, p, out, chains):
    """start_card, chain_best, chain_open, collection, tiles and score of player p at
    relative seat r."""
    o = t.obs_offsets
    chain_scale = t.scales[0]
    best, open_symbol, open_total = chains[0], chains[1], chains[2]
    chain_rows(s, t, b, p, best, open_symbol, open_total)
    score = 0
    for row in range(R):
        out[o[F_CHAIN_BEST] + r * R + row] = np.float32(best[row] / chain_scale)
        score += best[row]
        if open_total[row]:
            base = o[F_CHAIN_OPEN] + (r * R + row) * (Y + 1)
            out[base + open_symbol[row]] = 1.0
            out[base + Y] = np.float32(open_total[row] / chain_scale)
    for i in range(s.collection_len[b, p]):
        out[o[F_COLLECTION] + r * P + s.collections[b, p, i] - 1] = 1.0
    for i in range(s.tiles_held_len[b, p]):
        out[o[F_TILES] + r * P + s.tiles_held[b, p, i] - 1] = 1.0
    score += souvenir_points(s, t, b, p)
    if s.start_player[b] == p:
        out[o[F_START] + r] = 1.0
        score += t.score_points[0]
    out[o[F_SCORE] + r] = np.float32(score / t.scales[1])


@kernel
def observe_gallery(s, t, b, observer, g, out):
    """gallery_painting and gallery_tile of gallery g + 1."""
    o = t.obs_offsets
    number = s.gallery_painting[b, g + 1]
    if number == 0:
        return
    base = o[F_GALLERY_PAINTING] + g * (1 + R * Y)
    out[base] = 1.0
    for row in range(R):
        symbol = t.card_symbol[number, row]
        if symbol >= 0:
            out[base + 1 + row * Y + symbol] = np.float32(t.card_value[number, row] / 3.0)
    slot = -1
    for p in range(t.num_players):  # the seat holding the matching tile ...
        if holds_tile(s, b, p, number):
            slot = seat_of(p, observer, t.num_players)
    for i in range(t.pile_sizes.shape[0]):  # ... or the pile whose top it is
        size = s.tile_pile_len[b, i]
        if slot < 0 and size and s.tile_piles[b, i, size - 1] == number:
            slot = S + i
    if slot >= 0:
        out[o[F_GALLERY_TILE] + g * (S + 4) + slot] = 1.0


@kernel
def observe_piles(s, t, b, out):
    """pile_size, pile_top and painting_pile."""
    o = t.obs_offsets
    for i in range(t.pile_sizes.shape[0]):
        size = s.tile_pile_len[b, i]
        if size:
            out[o[F_PILE_TOP] + i * P + s.tile_piles[b, i, size - 1] - 1] = 1.0
        out[o[F_PILE_SIZE] + i] = np.float32(size / t.pile_sizes[i])
    out[o[F_PAINTING_PILE]] = np.float32(s.painting_pile_len[b] / float(P))


# -- batched entry points -------------------------------------------------------------------
# Each handles games lo..hi-1 and releases the GIL, so .runner.Runner can split a batch
# over threads; games never share data. They allocate the scratch arrays the kernels use.
@njit(cache=True, nogil=True)
def deal_games(s, t, which, lo, hi):
    """New games in the slots where ``which`` is True."""
    tiles = np.empty(NUM_PAINTINGS, np.int8)
    for b in range(lo, hi):
        if which[b]:
            deal(s, t, b, tiles)
    return 0


@njit(cache=True, nogil=True)
def legal_masks(s, t, active, out, lo, hi):
    for b in range(lo, hi):
        if active[b]:
            legal_row(s, t, b, out[b])
    return 0


@njit(cache=True, nogil=True)
def find_illegal(s, t, actions, active, bad, lo, hi):
    """bad[b] = the action of an active game b is illegal; returns how many are."""
    count = 0
    for b in range(lo, hi):
        bad[b] = active[b] and not is_legal(s, t, b, actions[b])
        count += bad[b]
    return count


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def observe_games(s, t, seats, active, out, lo, hi):
    hidden = np.empty(S * V, np.int64)
    chains = np.empty((3, NUM_ROWS), np.int64)
    for b in range(lo, hi):
        if active[b]:
            observe_row(s, t, b, seats[b], out[b], hidden, chains)
    return 0


@njit(cache=True, nogil=True)
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
    k = below(s.action_rng, b, count)
    for a in range(NUM_ACTIONS):
        if row[a]:
            if k == 0:
                return a
            k -= 1
    return -1  # unreachable


@njit(cache=True, nogil=True)
def random_actions(s, t, out, lo, hi):
    row = np.empty(NUM_ACTIONS, np.bool_)
    for b in range(lo, hi):
        out[b] = random_action(s, t, b, row)
    return 0


@njit(cache=True, nogil=True)
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
# stale compiled constant. They live in this file for the cache reason in the docstring.
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


@njit(cache=True, nogil=True)
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
    for i in range(s.collection_len[b, player]):
        if s.collections[b, player, i] == number:
            return True
    return False


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
        hand = 0
        for v in range(V):
            hand += v * (s.hands[b, p, v] + s.moved[b, p, v])
        for area in range(t.num_areas):
            for k in range(s.bid_count[b, area]):
                if s.bid_player[b, area, k] == p:
                    hand += s.bid_value[b, area, k]
        total += hand // 4
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
    k = below(s.action_rng, b, count)
    for a in range(NUM_ACTIONS):
        if top[a]:
            if k == 0:
                return a
            k -= 1
    return -1  # unreachable


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


@njit(cache=True, nogil=True)
def heuristic_actions(s, t, hp, active, keep, actions, scores, top, lo, hi):
    """One heuristic action per active game (-1 for the others and finished games); with
    ``keep`` the per-action scores and top sets go to the game's rows of ``scores`` and
    ``top`` (else those are not used)."""
    w = heuristic_scratch()
    legal = np.empty(NUM_ACTIONS, np.bool_)
    own_scores = np.empty(NUM_ACTIONS, np.float64)
    own_top = np.empty(NUM_ACTIONS, np.bool_)
    for b in range(lo, hi):
        if not active[b]:
            actions[b] = -1
            continue
        row_scores = scores[b] if keep else own_scores
        row_top = top[b] if keep else own_top
        actions[b] = heuristic_action(s, t, hp, b, legal, row_scores, row_top, w)
    return 0


@njit(cache=True, nogil=True)
def heuristic_play_out(s, t, hp, active, rewards, final_scores, lo, hi):
    """play_out with the heuristic for every seat (ties from each game's action stream)."""
    w = heuristic_scratch()
    legal = np.empty(NUM_ACTIONS, np.bool_)
    scores = np.empty(NUM_ACTIONS, np.float64)
    top = np.empty(NUM_ACTIONS, np.bool_)
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


@njit(cache=True, nogil=True)
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
    w = heuristic_scratch()
    row = np.empty(NUM_ACTIONS, np.bool_)
    scores = np.empty(NUM_ACTIONS, np.float64)
    top = np.empty(NUM_ACTIONS, np.bool_)
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


@njit(cache=True, nogil=True)
def skip_draws(s, counts, lo, hi):
    """Advance each game's action stream as ``counts[b]`` random_action draws would (one
    splitmix64 step each; only a game that is over draws nothing)."""
    for b in range(lo, hi):
        s.action_rng[b] += np.uint64(counts[b]) * _GOLDEN
    return 0


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


@njit(cache=True, nogil=True)
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
        pips = 0
        for v in range(V):
            pips += v * (s.hands[b, p, v] + s.moved[b, p, v])
        for area in range(t.num_areas):
            for k in range(s.bid_count[b, area]):
                if s.bid_player[b, area, k] == p:
                    pips += s.bid_value[b, area, k]
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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
    legal = np.empty(NUM_ACTIONS, np.bool_)
    untried = np.empty(NUM_ACTIONS, np.int64)
    path_node = np.empty(cap, np.int64)
    path_seat = np.empty(cap, np.int64)
    rewards = np.empty(S, np.float64)
    values = np.empty(S, np.float64)
    chains = np.empty((3, NUM_ROWS), np.int64)
    pool = np.empty(P, np.int8)
    scores = np.empty(NUM_ACTIONS, np.float64)
    top = np.empty(NUM_ACTIONS, np.bool_)
    w = heuristic_scratch()
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
@njit(cache=True, nogil=True)
def root_scores(s, t, hp, b, scores):
    """The heuristic's score of every action at slot b (-inf: not legal; a one-answer
    decision scores only that answer) and its own choice, drawn on slot b's stream."""
    w = heuristic_scratch()
    legal = np.empty(NUM_ACTIONS, np.bool_)
    top = np.empty(NUM_ACTIONS, np.bool_)
    return heuristic_action(s, t, hp, b, legal, scores, top, w)


@njit(cache=True, nogil=True)
def rollout_sweeps(s, t, hp, root, det, work, observer, cands, sweeps, options, values, rng):
    """``sweeps`` sweeps from slot ``root`` for ``observer`` over the actions ``cands``:
    values[i, k] is the observer's value after candidate k in sweep i. Slots det and work
    are scratch; ``options`` is float64 (rounds, scale, potential, hand_weight); rng[0]
    draws the worlds and each sweep's rollout stream."""
    rounds = np.int64(options[0])
    scale, potential, hand_weight = options[1], options[2], options[3]
    end_round = np.int64(s.round[root]) + rounds if rounds > 0 else NO_ROUND_LIMIT
    legal = np.empty(NUM_ACTIONS, np.bool_)
    rewards = np.empty(S, np.float64)
    evals = np.empty(S, np.float64)
    chains = np.empty((3, NUM_ROWS), np.int64)
    pool = np.empty(P, np.int8)
    scores = np.empty(NUM_ACTIONS, np.float64)
    top = np.empty(NUM_ACTIONS, np.bool_)
    w = heuristic_scratch()
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


@kernel
def share_wins(s, t, b, totals, out, loss):
    """R7.5 from game b's R7 ``totals``: 1/k to each of the k seats tied on the best
    (total, tiles), ``loss`` to the others (``out`` may be ``totals``: each seat's entry
    is read before it is written). final_rewards_row and win_shares_row share it."""
    n = t.num_players
    top_total, top_tiles = -1.0, -1
    for p in range(n):
        tiles = s.tiles_held_len[b, p]
        if totals[p] > top_total or (totals[p] == top_total and tiles > top_tiles):
            top_total, top_tiles = totals[p], tiles
    winners = 0
    for p in range(n):
        if totals[p] == top_total and s.tiles_held_len[b, p] == top_tiles:
            winners += 1
    for p in range(n):
        if totals[p] == top_total and s.tiles_held_len[b, p] == top_tiles:
            out[p] = 1.0 / winners
        else:
            out[p] = loss
