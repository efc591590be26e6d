"""The Gallerist observation's writers of the board: one function per part of the vector
(the table flags, the places, Lacerda, the artists, the stacks, the easels, the plaza, the
box office, the contract display, the market), each writing exactly what
:func:`.observation_reference.encode_reference` writes there, through the memo's
memoryview. :mod:`.observation` decides which parts a call rewrites."""

from __future__ import annotations

import struct
from collections.abc import Callable
from itertools import compress
from operator import attrgetter, ne
from typing import TYPE_CHECKING

import numpy as np

from ..rules.data import (
    MARKET_LOWER_ROWS,
    MARKET_UPPER_ROWS,
    MAX_PROMOTION,
    NUM_COLOURS,
    NUM_FORMS,
)
from ..rules.effects import renowned_value
from ..rules.state import (
    EMPTY,
    F_KICKED,
    F_POST,
    F_TURN,
    LACERDA,
    NUM_LOCATIONS,
    GameState,
)
from .observation_fields import (
    FIELD,
    FIELDS,
    OBSERVATION_SIZE,
    OFFSET,
    OWN,
    ROUND_SCALE,
    B,
    S,
    T,
)
from .observation_reference import _artist_stars_block

if TYPE_CHECKING:
    from .observation import ObservationEncoder, Writer, _Memo

_O = OFFSET
_END = {f.name: f.offset + f.size for f in FIELDS}
_STRIDE = {f.name: f.size // S for f in FIELDS}
"""Entries per relative seat of a field whose first axis is the seat."""
_MENUS = (F_TURN, F_POST, F_KICKED)
_DECISION, _DECISION_ARTIST = _O["decision"], _O["decision_artist"]
_DECISION_LOCATION, _EXEC_STATE = _O["decision_location"], _O["exec_state"]
_ZERO = memoryview(bytes(4 * OBSERVATION_SIZE)).cast("f")
_STRUCTS: dict[int, struct.Struct] = {}


def _pack(count: int) -> Callable[..., None]:
    """``pack_into(buffer, byte_offset, *values)`` for ``count`` float32s."""
    packer = _STRUCTS.get(count)
    if packer is None:
        packer = _STRUCTS[count] = struct.Struct(f"{count}f")
    return packer.pack_into


def _set_ones(m: memoryview, old: list[int] | None, new: list[int]) -> list[int]:
    """Clear the entries in ``old`` and set those in ``new`` (a one-hot part's update)."""
    if old:
        for i in old:
            m[i] = 0.0
    for i in new:
        m[i] = 1.0
    return new


def _one_hots(m: memoryview, start: int, zero: memoryview, new: list[int]) -> None:
    """Clear the region from ``start`` (as long as ``zero``) and set the entries in ``new``
    (a one-hot part's update when it has many entries: one copy clears them all)."""
    m[start : start + len(zero)] = zero
    for i in new:
        m[i] = 1.0


# -- the writers, one per part (each writes exactly what encode_reference writes there) --
_FLAGS, _ROUND, _START_PLAYER = _O["flags"], _O["round"], _O["start_player"]
_PACK_FLAGS = _pack(FIELD["flags"].size)


def _w_table(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    """``flags`` and ``start_player``, rewritten when one of them changed (the box office
    and the bag change often, their flags seldom)."""
    flags = (
        s.end_triggered, s.final_round, s.intermediate_done, not any(s.box_office),
        sum(s.celebrity) >= 2, not s.bag, memo.rel[s.start_player],
    )  # fmt: skip
    if flags == memo.part[part]:
        return
    memo.part[part] = flags
    _PACK_FLAGS(memo.mb, 4 * _FLAGS, *map(float, flags[:6]))
    m = memo.m
    m[_START_PLAYER : _START_PLAYER + S] = _ZERO[:S]
    m[_START_PLAYER + flags[6]] = 1.0


def _w_round(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    """``round`` (a part of its own: it changes every turn, the flags seldom)."""
    memo.m[_ROUND] = min(1.0, s.round / ROUND_SCALE)


_OCCUPANT, _GALLERIST, _KICKED = _O["occupant"], _O["gallerist"], _O["kicked"]
_PLACES_ZERO = _ZERO[: _END["kicked"] - _OCCUPANT]


def _w_places(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    """``occupant``, ``gallerist`` and ``kicked``: who stands where (one-hots, in a row;
    one part, as a move changes two or three of them at once)."""
    rel = memo.rel
    ones = [_GALLERIST + rel[p] * (NUM_LOCATIONS + 2) + pos for p, pos in enumerate(s.gpos)]
    for loc, occ in enumerate(s.occupant):
        if occ != EMPTY:
            owner, kind = divmod(occ, 2)
            seat = S if owner == LACERDA else rel[owner]
            ones.append(_OCCUPANT + (loc * 2 + kind) * OWN + seat)
    if s.kicked is not None:
        owner, kind, loc = s.kicked
        ones += (_KICKED + rel[owner], _KICKED + S + kind, _KICKED + S + 2 + loc)
    _one_hots(memo.m, _OCCUPANT, _PLACES_ZERO, ones)


_LACERDA = _O["lacerda"]
_PACK_LACERDA = _pack(FIELD["lacerda"].size)


def _w_lacerda(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    pos = s.lacerda_pos
    _PACK_LACERDA(
        memo.mb, 4 * _LACERDA,
        float(pos == 0), float(pos == 1), float(pos == 2), float(pos == 3),
        float(s.lacerda_kicked), s.lacerda_supply / 10, float(s.lacerda_next_lower),
    )  # fmt: skip


_ARTIST, _ARTIST_BONUS = _O["artist"], _O["artist_bonus"]
_ARTIST_WIDTH = FIELD["artist"].shape[1]
_PACK_ARTIST = _pack(_ARTIST_WIDTH)
_ARTIST_KEYS = attrgetter(
    "artist_tile", "discovered", "celebrity", "fame", "promotion", "tokens",
    "artist_collector", "artist_bonus",
)  # fmt: skip


def _w_artists(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    """``artist`` and ``artist_bonus``, rewritten for the artists whose inputs changed."""
    keys = list(zip(*_ARTIST_KEYS(s)))
    old = memo.part[part]
    changed = range(len(keys)) if old is None else compress(range(len(keys)), map(ne, keys, old))
    memo.part[part] = keys
    d = s.data
    top, m, mb = d.celebrity_fame, memo.m, memo.mb
    for a in changed:
        tile, shown, celebrity, fame, promotion, tokens, collector, bonus = keys[a]
        _PACK_ARTIST(
            mb, 4 * (_ARTIST + _ARTIST_WIDTH * a),
            float(shown), float(celebrity), fame / top, d.artists[tile].initial_fame / top,
            d.artist_stars[tile][fame] / 6 if shown else 0.0,
            d.artist_values[tile][fame] / 20 if shown else 0.0,
            promotion / MAX_PROMOTION, tokens / 2, float(collector),
        )  # fmt: skip
        b = _ARTIST_BONUS + (B + 1) * a
        m[b : b + B + 1] = _ZERO[: B + 1]
        if bonus != EMPTY:
            tile_ = d.artist_bonus_tiles[bonus]
            m[b + tile_.kind] = 1.0
            m[b + B] = tile_.amount / 5


def _w_artist_stars(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    memo.vector[_O["artist_stars"] : _END["artist_stars"]] = _artist_stars_block(
        s.data, tuple(s.artist_tile)
    )


_STACK_WIDTH = FIELD["stack"].shape[1]


_STACK = _O["stack"]
_PACK_STACK = _pack(_STACK_WIDTH)


def _w_stacks(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    """The top work of each stack (not the order below, G18) and the visitors on it,
    rewritten for the stacks whose size, top work or visitors changed."""
    works = s.data.works
    keys = [
        (len(stack), stack[-1] if stack else EMPTY, tuple(visitors))
        for stack, visitors in zip(s.stacks, s.work_visitors)
    ]
    old = memo.part[part] or [None] * len(keys)
    memo.part[part] = keys
    for form in compress(range(len(keys)), map(ne, keys, old)):
        size, top_work, visitors = keys[form]
        row = [size / 7] + [0.0] * (1 + 2 * NUM_COLOURS)
        if size:
            work = works[top_work]
            row[1] = work.fame / 2
            for i, icon in enumerate(work.tickets):
                for c in range(NUM_COLOURS):
                    row[2 + NUM_COLOURS * i + c] = float(icon >> c & 1)
        row += [visitors[c] / 2 for c in range(NUM_COLOURS)]
        _PACK_STACK(memo.mb, 4 * (_STACK + _STACK_WIDTH * form), *row)


_EASEL, _EASEL_WIDTH = _O["easel"], FIELD["easel"].shape[1]


def _w_easels(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    """Rewritten when a work or its value changed (most fame changes leave them)."""
    works = s.data.works
    rows = [(work, renowned_value(s, work)) for work in s.easels]
    if rows == memo.part[part]:
        return
    memo.part[part] = rows
    m = memo.m
    m[_EASEL : _END["easel"]] = _ZERO[: _END["easel"] - _EASEL]
    for e, (work, value) in enumerate(rows):
        b = _EASEL + _EASEL_WIDTH * e
        m[b] = 1.0
        m[b + 1] = value / 20
        m[b + 2 + works[work].form] = 1.0


_PACK_COLOURS2 = _pack(2 * NUM_COLOURS)


def _w_plaza_bag(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    bag = s.bag
    _PACK_COLOURS2(
        memo.mb, 4 * _O["plaza"], *[x / 10 for x in s.plaza],
        *[bag.count(c) / 14 for c in range(NUM_COLOURS)],
    )  # fmt: skip


def _w_box_office(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    _PACK_COLOURS2(
        memo.mb, 4 * _O["box_office"], *[x / 20 for x in s.box_office],
        *[x / 20 for x in s.ticket_discard],
    )  # fmt: skip


def _seat_counts(name: str, attr: str, scale: int) -> Writer:
    """The writer of a per-seat count field (lobby, gallery visitors, tickets)."""
    start = 4 * _O[name]
    get = attrgetter(attr)
    packs = [_pack(NUM_COLOURS * n) for n in range(S + 1)]

    def write(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
        rows = get(s)
        packs[memo.n](memo.mb, start, *[x / scale for p in memo.order for x in rows[p]])

    return write


_DISPLAY, _DISPLAY_WIDTH = _O["display"], FIELD["display"].shape[1]
_DISPLAY_SIZE = _END["promotion_tokens"] - _DISPLAY
_DECK, _PROMOTION_TOKENS = _O["deck"], _O["promotion_tokens"]


def _w_display(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    """The contract display, the deck's size and the promotion tokens (write_display's
    entries, through the memoryview)."""
    d, m = s.data, memo.m
    m[_DISPLAY : _DISPLAY + _DISPLAY_SIZE] = _ZERO[:_DISPLAY_SIZE]
    for col, stack in enumerate(s.display):
        if stack:
            b = _DISPLAY + _DISPLAY_WIDTH * col
            card = d.contracts[stack[-1]]
            m[b] = 1.0
            m[b + 1] = len(stack) / 5
            m[b + 2 + card.form] = 1.0
            m[b + 2 + NUM_FORMS + card.bonus.kind] = 1.0
            m[b + 2 + NUM_FORMS + B] = card.bonus.amount / 5
    m[_DECK] = len(s.deck) / 20
    top = d.promotion_tokens
    for level, tokens in enumerate(s.promo_tokens):
        m[_PROMOTION_TOKENS + level] = tokens / top


_MARKET_UPPER, _MARKET_UPPER_WIDTH = _O["market_upper"], 1 + T + OWN
_MARKET_LOWER, _LOCATION_TILE = _O["market_lower"], _O["location_tile"]
_MARKET_ZERO = _ZERO[: _END["location_tile"] - _MARKET_UPPER]


def _w_market(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    """Tiles and assistants on the market, tiles beside the locations: all one-hot (the
    entries write_market sets)."""
    scoring = enc.tile_scoring
    rel = memo.rel
    ones = []
    for i, (tile, owner) in enumerate(zip(s.market_tiles, s.market_upper)):
        b = _MARKET_UPPER + _MARKET_UPPER_WIDTH * i
        if tile != EMPTY:
            ones += (b, b + 1 + scoring[tile])
        if owner != EMPTY:
            ones.append(b + 1 + T + (S if owner == LACERDA else rel[owner]))
    for i, owner in enumerate(s.market_lower):
        if owner != EMPTY:
            ones.append(_MARKET_LOWER + OWN * i + (S if owner == LACERDA else rel[owner]))
    for loc, tile in enumerate(s.location_tiles):
        if tile != EMPTY:
            b = _LOCATION_TILE + (1 + T) * loc
            ones += (b, b + 1 + scoring[tile])
    _one_hots(memo.m, _MARKET_UPPER, _MARKET_ZERO, ones)


def _float32_sums(step: float, count: int) -> list[float]:
    """``k`` times ``step`` added one by one into a float32 entry, for k = 0..count: the
    sums the reference's ``v[i] += step`` leaves, taken from NumPy itself."""
    entry = np.zeros(1, dtype=np.float32)
    sums = [0.0]
    for _ in range(count):
        entry[0] += step
        sums.append(float(entry[0]))
    return sums


_MARKET_COUNT, _MARKET_COUNT_SEAT = _O["market_count"], _STRIDE["market_count"]
_MARKET_COUNT_SIZE = FIELD["market_count"].size
_UPPER_SUMS = _float32_sums(0.25, MARKET_UPPER_ROWS)
_LOWER_SUMS = _float32_sums(1 / 3, MARKET_LOWER_ROWS)


def _w_market_count(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    """Per seat, its assistants per market column: counted, then written as the float32
    sums the reference's one-by-one additions give (so the entries are the same)."""
    rel, stride = memo.rel, _MARKET_COUNT_SEAT
    half = stride // 2
    counts = [0] * (stride * memo.n)
    for i, owner in enumerate(s.market_upper):
        if owner != EMPTY and owner != LACERDA:
            counts[stride * rel[owner] + i // MARKET_UPPER_ROWS] += 1
    for i, owner in enumerate(s.market_lower):
        if owner != EMPTY and owner != LACERDA:
            counts[stride * rel[owner] + half + i // MARKET_LOWER_ROWS] += 1
    m = memo.m
    m[_MARKET_COUNT : _MARKET_COUNT + _MARKET_COUNT_SIZE] = _ZERO[:_MARKET_COUNT_SIZE]
    for j, k in enumerate(counts):
        if k:
            m[_MARKET_COUNT + j] = (_UPPER_SUMS if j % stride < half else _LOWER_SUMS)[k]
