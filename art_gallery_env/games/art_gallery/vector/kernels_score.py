"""The compiled score (R7), final rewards and observation: ports of :mod:`..rules.scoring`
and of the observation encoder's vector, bit for bit."""

from __future__ import annotations

import numpy as np

from ..rules.board import MAX_AREAS, MAX_PLAYERS
from ..rules.cards import MAX_SYMBOLS_PER_ROW, NUM_PAINTINGS, NUM_ROWS
from ..rules.phases import (
    GAME_OVER,
    PICK,
    SHOP,
)
from .jit import kernel
from .kernels_rules import BAR, V, holds_tile


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
def owned_pips(s, t, b, player):
    """The values of every movement card ``player`` owns: in hand, moved face up and bid
    on the bars (clock.standings' hand; the search's evaluation)."""
    pips = 0
    for v in range(V):
        pips += v * (s.hands[b, player, v] + s.moved[b, player, v])
    for area in range(t.num_areas):
        for k in range(s.bid_count[b, area]):
            if s.bid_player[b, area, k] == player:
                pips += s.bid_value[b, area, k]
    return pips


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
