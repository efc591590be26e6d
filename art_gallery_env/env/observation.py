"""The observation vector: one layout for every table size, seats relative to the observer.

Seat ``r`` in the layout is the player ``r`` places clockwise after the observer (r = 0 is
the observer). Everything is padded to 6 seats and 9 areas (Shop + 8 galleries). The vector
holds what the observer may know under R8, with perfect recall, and nothing more: a
test checks that determinized states give the same vector.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import chain
from typing import Any

import numpy as np

from ..rules.actions import NUM_CARD_VALUES, PILE_MARKS
from ..rules.board import MARKER_BAR_SIZE, MAX_AREAS, MAX_GALLERIES, MAX_PLAYERS, PILE_SIZES
from ..rules.cards import MAX_SYMBOLS_PER_ROW, NUM_PAINTINGS, NUM_ROWS, CardSet
from ..rules.scoring import START_CARD_POINTS, souvenir_points
from ..rules.state import GAME_OVER, PICK, SHOP, GameState

S, A, V, B = MAX_PLAYERS, MAX_AREAS, NUM_CARD_VALUES, MARKER_BAR_SIZE
R, Y, P, G = NUM_ROWS, MAX_SYMBOLS_PER_ROW, NUM_PAINTINGS, MAX_GALLERIES
CHAIN_SCALE = 10.0
SCORE_SCALE = 50.0


@dataclass(frozen=True)
class Field:
    name: str
    shape: tuple[int, ...]
    meaning: str
    seat_axis: int | None = None  # axis indexed by relative seat, if any
    offset: int = 0

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


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


def _with_offsets(fields: list[Field]) -> tuple[Field, ...]:
    out, offset = [], 0
    for f in fields:
        out.append(Field(f.name, f.shape, f.meaning, f.seat_axis, offset))
        offset += f.size
    return tuple(out)


FIELDS: tuple[Field, ...] = _with_offsets(_FIELDS)
FIELD = {f.name: f for f in FIELDS}
OBSERVATION_SIZE = sum(f.size for f in FIELDS)


_O = {f.name: f.offset for f in FIELDS}
O_PHASE, O_ROUND, O_TURNS = _O["phase"], _O["round"], _O["turns_done"]
O_POSITION, O_OWNER, O_VALUE = _O["position"], _O["marker_owner"], _O["bid_value"]
O_RES_AREA, O_RES_MARKER, O_SPACE = _O["resolving_area"], _O["resolving_marker"], _O["space_cards"]
O_HAND, O_HIDDEN, O_MOVED = _O["hand"], _O["hidden_cards"], _O["moved_cards"]
PUBLIC_BLOCK_START = _O["start_card"]
assert O_HIDDEN == O_HAND + S * V and O_MOVED == O_HIDDEN + S * V  # filled as one block
"""Fields from here to the end change only during distribution, so they are cached."""
COUNT_SCALE = np.float32(1.0 / S)
_NO_CARDS = [0] * V
_CACHE_LIMIT = 4096


def _marker_bar_indices(
    area: int, bids: list[tuple[int, int]], seat_of: list[int], observer: int, hidden: bool
) -> list[int]:
    """One-hot indices of an area's marker owners and of the bid values ``observer`` knows."""
    indices = []
    owner_base = O_OWNER + area * B * S
    value_base = O_VALUE + area * B * V
    for k, (owner, value) in enumerate(bids):
        indices.append(owner_base + k * S + seat_of[owner])
        if owner == observer or not hidden:
            indices.append(value_base + k * V + value)
    return indices


@cache
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


class ObservationEncoder:
    """Fills the vector for one observer.

    The public block (start card, paintings, collections, tiles, piles, scores) only
    changes during distribution; it is cached under a key made of exactly the public
    data it encodes, so the cache can never serve a block from another game.
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
        self._chains: dict[tuple[int, ...], tuple[list[int], list[tuple[int, int]]]] = {}
        self._public_blocks: dict[tuple, np.ndarray] = {}
        self._static: dict[tuple[int, int], list[int]] = {}
        self._bars: dict[tuple, list[int]] = {}

    def reset(self) -> None:
        self._chains.clear()
        self._public_blocks.clear()
        self._bars.clear()

    def encode(self, state: GameState, observer: int) -> np.ndarray:
        vec = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        n = state.num_players
        hot = list(self._static_hot(n, state.num_areas))
        seat_of = [(p - observer) % n for p in range(n)]  # absolute -> relative
        phase = state.phase
        over = phase == GAME_OVER
        distributing = phase in (SHOP, PICK)
        if not over:
            hot.append(O_PHASE + phase)
        vec[O_ROUND] = min(state.round, 20) / 20.0
        vec[O_TURNS] = state.turn / (4.0 * n)

        position = state.position
        append = hot.append
        for p in range(n):
            append(O_POSITION + seat_of[p] * A + position[p])

        # Marker bars, and which of each player's cards nobody else can locate (R8).
        # During the turns a player's hidden cards are hand + face-down bids; once the
        # distribution starts hands are public and only unrevealed bids stay hidden.
        hidden = [[0] * V for _ in range(n)] if distributing else [h[:] for h in state.hands]
        first_hidden_area = state.dist_area + 1 if distributing else 0
        bar_cache = self._bars
        for area, bids in enumerate(state.bids):
            if not bids:
                continue
            area_hidden = area >= first_hidden_area
            key = (n, observer, area, area_hidden, tuple(bids))
            indices = bar_cache.get(key)
            if indices is None:
                if len(bar_cache) >= _CACHE_LIMIT:
                    bar_cache.clear()
                indices = bar_cache[key] = _marker_bar_indices(
                    area, bids, seat_of, observer, area_hidden
                )
            hot += indices
            if area_hidden:
                for owner, value in bids:
                    hidden[owner][value] += 1
        if distributing:
            append(O_RES_AREA + state.dist_area)
            append(O_RES_MARKER + state.dist_marker)
            _counts(vec, O_SPACE, state.space_cards)
        vec.put(hot, 1.0)

        # hand, hidden_cards and moved_cards: three contiguous (S, V) fields of counts.
        rows = [_NO_CARDS] * (3 * S)
        for p in range(n):
            r = seat_of[p]
            hand = state.hands[p]
            if p == observer or distributing or over:
                rows[r] = hand
            if p != observer and not over:
                rows[S + r] = hidden[p]
            rows[2 * S + r] = state.moved[p]
        counts = np.frombuffer(bytes(chain.from_iterable(rows)), dtype=np.uint8)
        np.multiply(counts, COUNT_SCALE, out=vec[O_HAND : O_HAND + 3 * S * V])
        vec[PUBLIC_BLOCK_START:] = self._public_block(state, observer)
        return vec

    def _static_hot(self, n: int, num_areas: int) -> list[int]:
        key = (n, num_areas)
        if key not in self._static:
            self._static[key] = (
                [_O["num_players"] + n - 2]
                + list(range(_O["seat_active"], _O["seat_active"] + n))
                + list(range(_O["area_exists"], _O["area_exists"] + num_areas))
            )
        return self._static[key]

    def _public_block(self, state: GameState, observer: int) -> np.ndarray:
        """The public block for ``observer``: the absolute-seat block, rows rotated."""
        key = (
            state.num_players,
            state.start_player,
            tuple(state.gallery_painting),
            tuple((len(pile), pile[-1] if pile else 0) for pile in state.tile_piles),
            tuple(map(tuple, state.tiles_held)),
            tuple(map(tuple, state.collections)),
            len(state.painting_pile),
        )
        rotated = self._public_blocks.get((key, observer))
        if rotated is not None:
            return rotated
        block = self._public_blocks.get(key)
        if block is None:
            if len(self._public_blocks) >= _CACHE_LIMIT:
                self._public_blocks.clear()
            full = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
            seats = list(range(state.num_players))
            hot = [_O["start_card"] + state.start_player]
            self._encode_paintings(full, hot, state, seats)
            self._encode_collections(full, hot, state, seats)
            full[hot] = 1.0
            block = self._public_blocks[key] = full[PUBLIC_BLOCK_START:]
        if observer != 0:
            block = block[_seat_permutation(state.num_players, observer)]
        self._public_blocks[(key, observer)] = block
        return block

    def _encode_paintings(
        self, vec: np.ndarray, hot: list[int], state: GameState, seat_of: list[int]
    ) -> None:
        o_paint, o_tile = _O["gallery_painting"], _O["gallery_tile"]
        width = 1 + R * Y
        holder = {t: p for p, held in enumerate(state.tiles_held) for t in held}
        tops = {pile[-1]: i for i, pile in enumerate(state.tile_piles) if pile}
        for g in range(state.num_galleries):
            number = state.gallery_painting[g + 1]
            if not number:
                continue
            base = o_paint + g * width
            vec[base] = 1.0
            for index, value in self._painting_rows[number]:
                vec[base + 1 + index] = value
            if number in holder:
                hot.append(o_tile + g * (S + 4) + seat_of[holder[number]])
            elif number in tops:
                hot.append(o_tile + g * (S + 4) + S + tops[number])
        o_size, o_top = _O["pile_size"], _O["pile_top"]
        for i, pile in enumerate(state.tile_piles):
            vec[o_size + i] = len(pile) / PILE_SIZES[i]
            if pile:
                hot.append(o_top + i * P + pile[-1] - 1)
        vec[_O["painting_pile"]] = len(state.painting_pile) / float(P)

    def _encode_collections(
        self, vec: np.ndarray, hot: list[int], state: GameState, seat_of: list[int]
    ) -> None:
        o_best, o_open = _O["chain_best"], _O["chain_open"]
        o_col, o_tiles, o_score = _O["collection"], _O["tiles"], _O["score"]
        for p in range(state.num_players):
            r = seat_of[p]
            collection = state.collections[p]
            best, open_chains = self._chain_summary(collection)
            for row in range(R):
                vec[o_best + r * R + row] = best[row] / CHAIN_SCALE
                symbol, total = open_chains[row]
                base = o_open + (r * R + row) * (Y + 1)
                if total:
                    hot.append(base + symbol)
                    vec[base + Y] = total / CHAIN_SCALE
            hot.extend(o_col + r * P + number - 1 for number in collection)
            hot.extend(o_tiles + r * P + tile - 1 for tile in state.tiles_held[p])
            score = sum(best) + souvenir_points(state.tiles_held[p], collection)
            score += START_CARD_POINTS * (state.start_player == p)
            vec[o_score + r] = score / SCORE_SCALE

    def _chain_summary(self, collection: list[int]) -> tuple[list[int], list[tuple[int, int]]]:
        """Best chain per row and the open chain at the right end (R7.1), cached."""
        key = tuple(collection)
        cached = self._chains.get(key)
        if cached is not None:
            return cached
        best = [0] * R
        open_chains = [(0, 0)] * R
        for number in collection:
            rows = self.cards.painting(number).rows
            for row in range(R):
                entry = rows[row]
                if entry is None:
                    open_chains[row] = (0, 0)
                    continue
                symbol, value = entry
                prev_symbol, prev_total = open_chains[row]
                total = prev_total + value if prev_total and prev_symbol == symbol else value
                open_chains[row] = (symbol, total)
                best[row] = max(best[row], total)
        if len(self._chains) >= _CACHE_LIMIT:
            self._chains.clear()
        self._chains[key] = (best, open_chains)
        return best, open_chains


def _counts(vec: np.ndarray, offset: int, counts: list[int]) -> None:
    for value, k in enumerate(counts):
        if k:
            vec[offset + value] = k * COUNT_SCALE


def decode_observation(vec: np.ndarray | list[float]) -> dict[str, Any]:
    """A readable dict of one observation: every field reshaped, plus plain-word summaries."""
    vec = np.asarray(vec, dtype=np.float32)
    if vec.shape != (OBSERVATION_SIZE,):
        raise ValueError(f"expected an observation of shape ({OBSERVATION_SIZE},), got {vec.shape}")
    fields = {f.name: vec[f.offset : f.offset + f.size].reshape(f.shape) for f in FIELDS}
    n = int(np.argmax(fields["num_players"])) + 2
    phase = ("move", "bid", "shop", "pick")
    summary: dict[str, Any] = {
        "num_players": n,
        "phase": phase[int(np.argmax(fields["phase"]))] if fields["phase"].any() else "game_over",
        "round": round(float(fields["round"][0]) * 20),
        "positions": {r: int(np.argmax(fields["position"][r])) for r in range(n)},
        "hand": _count_dict(fields["hand"][0]),
        "others_hands": {r: _count_dict(fields["hand"][r]) for r in range(1, n)},
        "others_hidden_cards": {r: _count_dict(fields["hidden_cards"][r]) for r in range(1, n)},
        "start_card_seat": int(np.argmax(fields["start_card"])),
        "marker_bars": {
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
        },
        "collections": {
            r: (np.flatnonzero(fields["collection"][r]) + 1).tolist() for r in range(n)
        },
        "tiles": {r: (np.flatnonzero(fields["tiles"][r]) + 1).tolist() for r in range(n)},
        "pile_tops": {
            mark: int(np.argmax(fields["pile_top"][i])) + 1 if fields["pile_top"][i].any() else None
            for i, mark in enumerate(PILE_MARKS)
        },
    }
    return {"fields": fields, "summary": summary}


def _count_dict(row: np.ndarray) -> dict[int, int]:
    return {v: int(round(float(c) * S)) for v, c in enumerate(row) if c}


def observation_table_markdown() -> str:
    """The field table for the docs, generated from the layout itself."""
    lines = ["| field | offset | shape | meaning |", "|---|---|---|---|"]
    for f in FIELDS:
        lines.append(f"| `{f.name}` | {f.offset} | {f.shape} | {f.meaning} |")
    lines.append(f"| total | | ({OBSERVATION_SIZE},) | |")
    return "\n".join(lines)
