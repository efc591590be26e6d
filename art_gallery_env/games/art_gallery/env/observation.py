"""The observation vector: one layout for every table size, seats relative to the observer.

Seat ``r`` in the layout is the player ``r`` places clockwise after the observer (r = 0 is
the observer). Everything is padded to 6 seats and 9 areas (Shop + 8 galleries). The vector
holds what the observer may know under R8, with perfect recall, and nothing more: a
test checks that determinized states give the same vector.
"""

from __future__ import annotations

from itertools import chain
from operator import itemgetter
from typing import Any

import numpy as np

from art_gallery_env.core.fields import Field, with_offsets

from ..rules.actions import NUM_CARD_VALUES, PILE_MARKS
from ..rules.board import MARKER_BAR_SIZE, MAX_AREAS, MAX_GALLERIES, MAX_PLAYERS, PILE_SIZES
from ..rules.cards import MAX_SYMBOLS_PER_ROW, MAX_VALUE, NUM_PAINTINGS, NUM_ROWS, CardSet
from ..rules.phases import GAME_OVER, PICK, SHOP
from ..rules.scoring import (
    EMPTY_CHAIN_SUMMARY,
    MATCHED_SOUVENIR_POINTS,
    START_CARD_POINTS,
    ChainSummary,
    extend_chain_summary,
    souvenir_points,
)
from ..rules.state import GameState

S, A, V, B = MAX_PLAYERS, MAX_AREAS, NUM_CARD_VALUES, MARKER_BAR_SIZE
R, Y, P, G = NUM_ROWS, MAX_SYMBOLS_PER_ROW, NUM_PAINTINGS, MAX_GALLERIES
CHAIN_SCALE = 10.0
SCORE_SCALE = 50.0
# The largest value the encoding writes (the observation Box's high): a chain sums at most
# every painting's top value; the score adds four such rows, 3 per tile and the start card.
# Every other field is a one-hot or a count scaled to 0..1.
_MOST_CHAIN = MAX_VALUE * NUM_PAINTINGS
OBSERVATION_HIGH = max(
    1.0,
    _MOST_CHAIN / CHAIN_SCALE,
    (R * _MOST_CHAIN + MATCHED_SOUVENIR_POINTS * sum(PILE_SIZES) + START_CARD_POINTS) / SCORE_SCALE,
)


_FIELDS = [
    Field("num_players", (5,), "one-hot: 2, 3, 4, 5 or 6 players"),
    Field("seat_active", (S,), "1 for each relative seat that is at the table"),
    Field("phase", (4,), "one-hot: move, bid, shop, pick (all 0 once the game is over)"),
    Field("round", (1,), "round number / 20, capped at 1"),
    Field("turns_done", (1,), "turns played this round / (4 * players)"),
    Field("area_exists", (A,), "1 for the Shop (area 0) and each gallery in play"),
    Field("position", (S, A), "one-hot area of each seat's piece"),
    Field("marker_owner", (A, B, S), "marker-bar space I..VI of each area: one-hot owner seat"),
    Field(
        "bid_value",
        (A, B, V),
        "card under that marker, one-hot, if the observer may know it "
        "(its own bids; any bid once its area is revealed)",
    ),
    Field("resolving_area", (A,), "one-hot area being distributed (0 outside distribution)"),
    Field("resolving_marker", (B,), "one-hot marker being resolved in that area"),
    Field("space_cards", (V,), "cards still on the resolving area's action space, count / 6"),
    Field(
        "hand",
        (S, V),
        "cards in hand per value, count / 6: own always, others' once "
        "public (from the start-card comparison, R4.7)",
    ),
    Field(
        "hidden_cards",
        (S, V),
        "others' cards known to exist but not located, count / 6: hand + face-down bids "
        "during the turns, unrevealed bids during the distribution; 0 for the observer",
    ),
    Field("moved_cards", (S, V), "face-up movement cards this round, count / 6"),
    Field("start_card", (S,), "one-hot seat holding the start card", 0),
    Field(
        "gallery_painting",
        (G, 1 + R * Y),
        "per gallery 1..8: painting present, then per row the value / 3 at its symbol's index",
    ),
    Field(
        "gallery_tile",
        (G, S + 4),
        "per gallery: seat holding the matching tile (one-hot), "
        "then the tile is on top of pile 1/3/5/7",
        1,
    ),
    Field("chain_best", (S, R), "per seat and row: best chain so far / 10 (R7.1)", 0),
    Field(
        "chain_open",
        (S, R, Y + 1),
        "per seat and row: symbol of the open chain at the "
        "collection's right end (one-hot), then its sum / 10",
        0,
    ),
    Field("collection", (S, P), "paintings in each seat's collection (multi-hot by number)", 0),
    Field("tiles", (S, P), "tiles held by each seat (multi-hot by number)", 0),
    Field("pile_size", (4,), "tiles left on piles 1/3/5/7 / initial size"),
    Field("pile_top", (4, P), "top tile of each pile (one-hot by number)"),
    Field("painting_pile", (1,), "painting cards left in the pile / 48"),
    Field(
        "score",
        (S,),
        "rows + souvenirs + start card of each seat (R7 without the hidden hand) / 50",
        0,
    ),
]


FIELDS, OBSERVATION_SIZE = with_offsets(_FIELDS)
FIELD = {f.name: f for f in FIELDS}


_O = {f.name: f.offset for f in FIELDS}
O_PHASE, O_ROUND, O_TURNS = _O["phase"], _O["round"], _O["turns_done"]
O_POSITION, O_OWNER, O_VALUE = _O["position"], _O["marker_owner"], _O["bid_value"]
O_RES_AREA, O_RES_MARKER, O_SPACE = _O["resolving_area"], _O["resolving_marker"], _O["space_cards"]
O_HAND, O_HIDDEN, O_MOVED = _O["hand"], _O["hidden_cards"], _O["moved_cards"]
PUBLIC_BLOCK_START = _O["start_card"]
"""Fields from here to the end change only during distribution, so they are cached."""
PUBLIC_BLOCK_SIZE = OBSERVATION_SIZE - PUBLIC_BLOCK_START
assert O_HIDDEN == O_HAND + S * V and O_MOVED == O_HIDDEN + S * V  # filled as one block
COUNT_SCALE = 1.0 / S
BARS_SIZE = A * B * (S + V)
assert O_VALUE == O_OWNER + A * B * S  # marker_owner and bid_value are written as one region
PRIVATE_SCALE = np.ones(PUBLIC_BLOCK_START, dtype=np.float32)
"""Per entry before the public block: counts are stored as count / 6, the rest as is."""
PRIVATE_SCALE[O_HAND : O_HAND + 3 * S * V] = COUNT_SCALE
PRIVATE_SCALE[O_SPACE : O_SPACE + V] = COUNT_SCALE
_CACHE_LIMIT = 4096

Sparse = tuple[np.ndarray, np.ndarray]
"""Indices into the public block and the values to write there."""


def _sparse(index: list[int], value: list[float]) -> Sparse:
    return (
        np.array(index, dtype=np.intp) - PUBLIC_BLOCK_START,
        np.array(value, dtype=np.float32),
    )


def _seat_permutation(num_players: int, observer: int) -> np.ndarray:
    """Index map turning the public block for seat 0 into the block for ``observer``."""
    seat_map = [(r + observer) % num_players if r < num_players else r for r in range(S)]
    perm = np.arange(OBSERVATION_SIZE)
    for f in FIELDS:
        if f.offset < PUBLIC_BLOCK_START or f.seat_axis is None:
            continue
        index = np.arange(f.offset, f.offset + f.size).reshape(f.shape)
        if f.seat_axis == 0:
            index = index[seat_map]
        else:  # gallery_tile: the first S columns are seats
            index[:, :S] = index[:, seat_map]
        perm[f.offset : f.offset + f.size] = index.ravel()
    return perm[PUBLIC_BLOCK_START:] - PUBLIC_BLOCK_START


class _SeatLayout:
    """What depends only on (players, areas, observer), computed once per table (the
    static one-hots, the seat order), and the marker bars as this observer saw them
    last, updated area by area (a turn adds one bid to one area)."""

    __slots__ = (
        "observer",
        "static",
        "seat_of",
        "in_seat_order",
        "position_base",
        "public_rotation",
        "seen_bids",
        "seen_hidden",
        "seen_hidden_cards",
        "seen_first_hidden_area",
        "bars",
        "hidden_bids",
        "hidden_bids_array",
        "num_hidden_bids",
    )

    def __init__(self, num_players: int, num_areas: int, observer: int) -> None:
        static = bytearray(PUBLIC_BLOCK_START)
        static[_O["num_players"] + num_players - 2] = 1
        static[_O["seat_active"] : _O["seat_active"] + num_players] = b"\x01" * num_players
        static[_O["area_exists"] : _O["area_exists"] + num_areas] = b"\x01" * num_areas
        self.static = bytes(static)
        self.observer = observer
        self.seat_of = [(p - observer) % num_players for p in range(num_players)]  # abs -> rel
        # players' lists (hands, moved cards) rearranged into relative seat order
        self.in_seat_order = itemgetter(*[(observer + r) % num_players for r in range(num_players)])
        self.position_base = [O_POSITION + r * A for r in self.seat_of]
        self.public_rotation = _seat_permutation(num_players, observer)
        self.seen_bids: list[list[tuple[int, int]]] = [[] for _ in range(num_areas)]
        self.seen_hidden = [False] * num_areas
        self.seen_hidden_cards: list[list[int]] = [[] for _ in range(num_areas)]
        self.seen_first_hidden_area = -1  # every area's bars match seen_bids with this
        # marker_owner + bid_value as the observer knows them (its own bids, and all
        # bids of revealed areas) ...
        self.bars = bytearray(BARS_SIZE)
        # ... and the opponents' bids in unrevealed areas, laid out like hidden_cards
        self.hidden_bids = bytearray(S * V)
        self.hidden_bids_array = np.frombuffer(self.hidden_bids, dtype=np.uint8)
        self.num_hidden_bids = 0

    def update_bars(self, bids: list[list[tuple[int, int]]], first_hidden_area: int) -> None:
        seen_bids = self.seen_bids
        if first_hidden_area == self.seen_first_hidden_area and bids == seen_bids:
            return
        seen_hidden = self.seen_hidden
        for area, area_bids in enumerate(bids):
            hidden = area >= first_hidden_area
            if hidden != seen_hidden[area] or area_bids != seen_bids[area]:
                self._update_bar(area, area_bids, hidden)
        self.seen_first_hidden_area = first_hidden_area

    def _update_bar(self, area: int, bids: list[tuple[int, int]], hidden: bool) -> None:
        seen = self.seen_bids[area]
        start = len(seen)
        if not (hidden == self.seen_hidden[area] and bids[:start] == seen):  # not appended to
            self._clear_bar(area)
            seen, start = self.seen_bids[area], 0
        owners = area * B * S
        values = A * B * S + area * B * V
        bars, counts, hidden_cards = self.bars, self.hidden_bids, self.seen_hidden_cards[area]
        for k in range(start, len(bids)):
            owner, value = bids[k]
            r = self.seat_of[owner]
            bars[owners + k * S + r] = 1
            if owner == self.observer or not hidden:
                bars[values + k * V + value] = 1
            else:
                hidden_cards.append(r * V + value)
                counts[r * V + value] += 1
                self.num_hidden_bids += 1
        seen += bids[start:]
        self.seen_hidden[area] = hidden

    def _clear_bar(self, area: int) -> None:
        owners = area * B * S
        values = A * B * S + area * B * V
        self.bars[owners : owners + B * S] = bytes(B * S)
        self.bars[values : values + B * V] = bytes(B * V)
        for index in self.seen_hidden_cards[area]:
            self.hidden_bids[index] -= 1
        self.num_hidden_bids -= len(self.seen_hidden_cards[area])
        self.seen_bids[area] = []
        self.seen_hidden_cards[area] = []


def public_key(state: GameState) -> tuple:
    """Exactly the public data the public block encodes (start card onwards)."""
    return (
        state.num_players,
        state.start_player,
        tuple(state.gallery_painting),
        tuple([(len(pile), pile[-1] if pile else 0) for pile in state.tile_piles]),
        tuple(map(tuple, state.tiles_held)),
        tuple(map(tuple, state.collections)),
        len(state.painting_pile),
    )


class ObservationEncoder:
    """Fills the vector for one observer.

    The public block (start card, paintings, collections, tiles, piles, scores) only
    changes during distribution; it is cached under a key made of exactly the public
    data it encodes, so the cache can never serve a block from another game. It is
    assembled from cached parts (the paintings on display, each seat's collection and
    tiles), since one distribution step changes only one or two of them.
    """

    def __init__(self, cards: CardSet) -> None:
        self.cards = cards
        self._painting_rows = {
            p.number: [
                (row * Y + entry[0], entry[1] / 3.0)
                for row, entry in enumerate(p.rows)
                if entry is not None
            ]
            for p in cards.paintings
        }
        self._chains: dict[tuple[int, ...], ChainSummary] = {}
        self._layouts: dict[tuple[int, int, int], _SeatLayout] = {}
        self._public_blocks: dict[tuple, dict[int, np.ndarray]] = {}  # by observer
        self._last_public: tuple[tuple | None, dict[int, np.ndarray]] = (None, {})
        self._seat_parts: dict[tuple, Sparse] = {}
        self._gallery_parts: dict[tuple[int, int], Sparse] = {}
        self._last_build: tuple[int, np.ndarray, list[object], list[Sparse | None]] = (
            0,
            np.zeros(0),
            [],
            [],
        )
        self._private = bytearray(PUBLIC_BLOCK_START)  # reused: see encode
        self._private_array = np.frombuffer(self._private, dtype=np.uint8)
        # The public key of the last state encoded, valid for that very state object while
        # its public_version is unchanged (the engine bumps it at every change). Holding
        # the state keeps its id from being reused by another object.
        self._key_of: tuple[GameState | None, int, tuple | None] = (None, -1, None)

    def __getstate__(self) -> dict[str, Any]:
        """Pickle without byte buffers: a copied numpy view would stop sharing them."""
        state = self.__dict__.copy()
        del state["_private"], state["_private_array"]
        state["_layouts"] = {}  # they hold views too; rebuilt on demand
        state["_key_of"] = (None, -1, None)  # a cache, not worth pickling a state for
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._private = bytearray(PUBLIC_BLOCK_START)
        self._private_array = np.frombuffer(self._private, dtype=np.uint8)

    def reset(self) -> None:
        """Forget the previous game (the caches are exact, this only bounds memory)."""
        self._chains.clear()
        self._public_blocks.clear()
        self._last_public = (None, {})
        self._seat_parts.clear()
        self._gallery_parts.clear()
        self._last_build = (0, np.zeros(0), [], [])
        self._key_of = (None, -1, None)

    def _public_key(self, state: GameState) -> tuple:
        """:func:`public_key`, rebuilt only when the state object or its public_version changed."""
        owner, version, key = self._key_of
        if owner is not state or version != state.public_version:
            key = public_key(state)
            self._key_of = (state, state.public_version, key)
        return key

    def encode(self, state: GameState, observer: int) -> np.ndarray:
        n = state.num_players
        layout_key = (n, state.num_areas, observer)
        layout = self._layouts.get(layout_key)
        if layout is None:
            layout = self._layouts[layout_key] = _SeatLayout(n, state.num_areas, observer)
        # Everything before the public block is small integers (one-hots and card
        # counts): it is written as bytes and scaled to floats in one numpy call.
        private = self._private
        private[:] = layout.static
        phase = state.phase
        over = phase == GAME_OVER
        distributing = phase in (SHOP, PICK)
        if not over:
            private[O_PHASE + phase] = 1
        for base, area in zip(layout.position_base, state.position):
            private[base + area] = 1
        size = n * V
        private[O_MOVED : O_MOVED + size] = bytes(
            chain.from_iterable(layout.in_seat_order(state.moved))
        )
        hands = layout.in_seat_order(state.hands)
        # A player's hidden cards (R8) are hand + face-down bids during the turns; once
        # the distribution starts hands are public and only unrevealed bids stay hidden.
        if distributing or over:
            private[O_HAND : O_HAND + size] = bytes(chain.from_iterable(hands))
        else:
            private[O_HAND : O_HAND + V] = hands[0]
            private[O_HIDDEN + V : O_HIDDEN + size] = bytes(chain.from_iterable(hands[1:]))
        layout.update_bars(state.bids, state.dist_area + 1 if distributing else 0)
        private[O_OWNER : O_OWNER + BARS_SIZE] = layout.bars
        if distributing:
            private[O_RES_AREA + state.dist_area] = 1
            private[O_RES_MARKER + state.dist_marker] = 1
            private[O_SPACE : O_SPACE + V] = state.space_cards
        private_array = self._private_array
        if layout.num_hidden_bids and not over:
            private_array[O_HIDDEN : O_HIDDEN + S * V] += layout.hidden_bids_array

        vec = np.empty(OBSERVATION_SIZE, dtype=np.float32)
        np.multiply(private_array, PRIVATE_SCALE, out=vec[:PUBLIC_BLOCK_START])
        vec[O_ROUND] = min(state.round, 20) / 20.0
        vec[O_TURNS] = state.turn / (4.0 * n)
        owner, version, key = self._key_of  # _public_key's fast path, inlined
        if owner is not state or version != state.public_version:
            key = self._public_key(state)
        last_key, rotated = self._last_public
        block = rotated.get(observer) if key is last_key else None
        vec[PUBLIC_BLOCK_START:] = (
            self._public_block(state, key, layout) if block is None else block
        )
        return vec

    def _public_block(self, state: GameState, key: tuple, layout: _SeatLayout) -> np.ndarray:
        """The public block for the layout's observer: seat 0's block, seats rotated."""
        last_key, rotated = self._last_public
        if key is not last_key:
            rotated = self._public_blocks.get(key)
            if rotated is None:
                if len(self._public_blocks) >= _CACHE_LIMIT:
                    self._public_blocks.clear()
                rotated = self._public_blocks[key] = {0: self._build_public_block(state, key)}
            self._last_public = (key, rotated)
        block = rotated.get(layout.observer)
        if block is None:
            block = rotated[layout.observer] = rotated[0][layout.public_rotation]
        return block

    def _build_public_block(self, state: GameState, key: tuple) -> np.ndarray:
        """Seat 0's public block, made from the last one built by rewriting only the
        parts whose inputs differ (a distribution step changes one or two of them):
        one part per seat, per gallery, and one for tiles on display and piles."""
        n, start_player, galleries, piles, tiles_held, collections, paintings_left = key
        sources: list[object] = [
            (collections[p], tiles_held[p], p == start_player) for p in range(n)
        ]
        sources += galleries[1:]
        sources.append((galleries, piles, tiles_held, paintings_left))
        last_players, block, last_sources, last_parts = self._last_build
        if last_players == n:
            block = block.copy()
        else:
            block = np.zeros(PUBLIC_BLOCK_SIZE, dtype=np.float32)
            last_sources, last_parts = [None] * len(sources), [None] * len(sources)
        parts = last_parts[:]
        for slot, source in enumerate(sources):
            if source == last_sources[slot]:
                continue
            if last_parts[slot] is not None:
                block[last_parts[slot][0]] = 0.0
            part = parts[slot] = self._public_part(state, slot, source)
            if part is not None:
                block[part[0]] = part[1]
        self._last_build = (n, block, sources, parts)
        return block

    def _public_part(self, state: GameState, slot: int, source: Any) -> Sparse | None:
        """The part in ``slot`` of the public block (seats, then galleries, then tiles
        and piles), which depends only on ``source``."""
        n = state.num_players
        if slot < n:
            collection, tiles, has_start = source
            return self._seat_part(slot, collection, tiles, has_start)
        if slot < n + state.num_galleries:
            return self._gallery_part(slot - n, source) if source else None
        return self._tiles_and_piles(state)

    def _gallery_part(self, gallery: int, number: int) -> Sparse:
        """gallery_painting of one gallery 1..8 (``gallery`` counts from 0)."""
        part = self._gallery_parts.get((gallery, number))
        if part is None:
            base = _O["gallery_painting"] + gallery * (1 + R * Y)
            rows = self._painting_rows[number]
            part = self._gallery_parts[(gallery, number)] = _sparse(
                [base] + [base + 1 + i for i, _ in rows], [1.0] + [v for _, v in rows]
            )
        return part

    def _tiles_and_piles(self, state: GameState) -> Sparse:
        """gallery_tile, pile_size, pile_top and painting_pile."""
        o_tile = _O["gallery_tile"]
        holder = {t: p for p, held in enumerate(state.tiles_held) for t in held}
        tops = {pile[-1]: i for i, pile in enumerate(state.tile_piles) if pile}
        index: list[int] = []
        for g in range(state.num_galleries):
            number = state.gallery_painting[g + 1]
            if number in holder:
                index.append(o_tile + g * (S + 4) + holder[number])
            elif number in tops:
                index.append(o_tile + g * (S + 4) + S + tops[number])
        o_size, o_top = _O["pile_size"], _O["pile_top"]
        index += [o_top + i * P + pile[-1] - 1 for i, pile in enumerate(state.tile_piles) if pile]
        value = [1.0] * len(index)
        index += [o_size + i for i in range(len(PILE_SIZES))]
        value += [len(pile) / size for pile, size in zip(state.tile_piles, PILE_SIZES)]
        index.append(_O["painting_pile"])
        value.append(len(state.painting_pile) / float(P))
        return _sparse(index, value)

    def _seat_part(
        self, r: int, collection: tuple[int, ...], tiles: tuple[int, ...], has_start: bool
    ) -> Sparse:
        """start_card, chain_best, chain_open, collection, tiles and score of seat ``r``."""
        key = (r, collection, tiles, has_start)  # r is absolute here: seat 0's view
        part = self._seat_parts.get(key)
        if part is not None:
            return part
        o_best, o_open = _O["chain_best"], _O["chain_open"]
        o_col, o_tiles = _O["collection"], _O["tiles"]
        best, open_symbol, open_sum = self._chain_summary(collection)
        index = [o_best + r * R + row for row in range(R)]
        value = [b / CHAIN_SCALE for b in best]
        for row in range(R):
            if open_sum[row]:
                base = o_open + (r * R + row) * (Y + 1)
                index += (base + open_symbol[row], base + Y)
                value += (1.0, open_sum[row] / CHAIN_SCALE)
        index += [o_col + r * P + number - 1 for number in collection]
        index += [o_tiles + r * P + tile - 1 for tile in tiles]
        value += [1.0] * (len(collection) + len(tiles))
        if has_start:
            index.append(_O["start_card"] + r)
            value.append(1.0)
        score = sum(best) + souvenir_points(list(tiles), list(collection))
        score += START_CARD_POINTS * has_start
        index.append(_O["score"] + r)
        value.append(score / SCORE_SCALE)
        if len(self._seat_parts) >= _CACHE_LIMIT:
            self._seat_parts.clear()
        part = self._seat_parts[key] = _sparse(index, value)
        return part

    def _chain_summary(self, collection: tuple[int, ...]) -> ChainSummary:
        """R7.1 of a collection, cached. A collection only grows at its right end, so it
        extends its prefix's summary."""
        cached = self._chains.get(collection)
        if cached is not None:
            return cached
        if collection:
            summary = extend_chain_summary(
                self._chain_summary(collection[:-1]), self.cards.rows_by_number[collection[-1]]
            )
        else:
            summary = EMPTY_CHAIN_SUMMARY
        if len(self._chains) >= _CACHE_LIMIT:
            self._chains.clear()
        self._chains[collection] = summary
        return summary


def decode_observation(vec: np.ndarray | list[float]) -> dict[str, Any]:
    """A readable dict of one observation: every field reshaped, plus plain-word summaries."""
    vec = np.asarray(vec, dtype=np.float32)
    if vec.shape != (OBSERVATION_SIZE,):
        raise ValueError(f"expected an observation of shape ({OBSERVATION_SIZE},), got {vec.shape}")
    fields = {f.name: vec[f.offset : f.offset + f.size].reshape(f.shape) for f in FIELDS}
    n = int(np.argmax(fields["num_players"])) + 2
    summary: dict[str, Any] = {
        "num_players": n,
        "phase": _one_hot_name(fields["phase"], ("move", "bid", "shop", "pick"), "game_over"),
        "round": round(float(fields["round"][0]) * 20),
        "positions": {r: int(np.argmax(fields["position"][r])) for r in range(n)},
        "hand": _count_dict(fields["hand"][0]),
        "others_hands": {r: _count_dict(fields["hand"][r]) for r in range(1, n)},
        "others_hidden_cards": {r: _count_dict(fields["hidden_cards"][r]) for r in range(1, n)},
        "start_card_seat": int(np.argmax(fields["start_card"])),
        "marker_bars": _marker_bars(fields),
        "collections": {
            r: (np.flatnonzero(fields["collection"][r]) + 1).tolist() for r in range(n)
        },
        "tiles": {r: (np.flatnonzero(fields["tiles"][r]) + 1).tolist() for r in range(n)},
        "pile_tops": _pile_tops(fields),
    }
    return {"fields": fields, "summary": summary}


def _one_hot_name(row: np.ndarray, names: tuple[str, ...], none: str) -> str:
    """The name of a one-hot row's set entry, or ``none`` when no entry is set."""
    return names[int(np.argmax(row))] if row.any() else none


def _marker_bars(fields: dict[str, np.ndarray]) -> dict[int, list[tuple[int, int | None]]]:
    """Each existing area's markers as (owner seat, bid value or None where hidden)."""
    return {
        area: [
            (
                int(np.argmax(fields["marker_owner"][area, k])),
                int(np.argmax(fields["bid_value"][area, k]))
                if fields["bid_value"][area, k].any()
                else None,
            )
            for k in range(B)
            if fields["marker_owner"][area, k].any()
        ]
        for area in range(A)
        if fields["area_exists"][area]
    }


def _pile_tops(fields: dict[str, np.ndarray]) -> dict[int, int | None]:
    """Each tile pile's top painting number, None for an empty pile."""
    return {
        mark: int(np.argmax(fields["pile_top"][i])) + 1 if fields["pile_top"][i].any() else None
        for i, mark in enumerate(PILE_MARKS)
    }


def _count_dict(row: np.ndarray) -> dict[int, int]:
    return {v: int(round(float(c) * S)) for v, c in enumerate(row) if c}


def observation_table_markdown(fields: tuple[Field, ...] | None = None) -> str:
    """The field table for the docs, generated from the layout itself (this game's layout,
    or ``fields`` of another game's)."""
    fields = FIELDS if fields is None else fields
    lines = ["| field | offset | shape | meaning |", "|---|---|---|---|"]
    for f in fields:
        lines.append(f"| `{f.name}` | {f.offset} | {f.shape} | {f.meaning} |")
    lines.append(f"| total | | ({sum(f.size for f in fields)},) | |")
    return "\n".join(lines)
