"""The Gallerist observation vector, built fast: only the parts whose inputs changed are
rewritten.

The layout (fields, offsets, meanings) is in :mod:`.observation_fields`; the plain encoder
that writes it entry by entry is :func:`.observation_reference.encode_reference`, the oracle
of this one (tests/gallerist/test_gallerist_observation.py compares them on many thousands
of states at every table size and seat, with observers and games interleaved, and golden
hashes pin the output).

Per observer the encoder keeps its last vector and a copy of every state attribute the
vector is built from (``_ATTRS``). A call reads them all in one ``attrgetter`` call and
finds the ones that differ from the copies in C (``compress(map(ne, ...))``); a decision
changes five or six of them. Each attribute names the *parts* of the vector built from it
(the table flags, the occupants, the Gallerists, each visitor field, the artists, the
economy...; ``_PARTS``), and only those parts are rewritten, through a memoryview (a
float32 store costs half of NumPy's) and ``struct`` packs of whole rows; a part that keeps
per-row keys (artists, galleries, contracts, easels) rewrites only the rows that changed.
The public score's expensive pieces (majorities, reputation tiles, exhibition) are kept once
for all observers, per seat. Comparisons are by value, never by object identity, so the
encoder is exact for any sequence of states from any games; every float is computed by the
reference's expression and rounded to float32 once, as NumPy rounds it.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from itertools import compress
from operator import attrgetter, ne
from typing import Any

import numpy as np

from ..rules.data import (
    MARKET_LOWER_ROWS,
    MARKET_UPPER_ROWS,
    MAX_PROMOTION,
    NUM_COLOURS,
    NUM_FORMS,
    NUM_REPUTATION_SPACES,
    TILE_SCORINGS,
)
from ..rules.effects import renowned_value
from ..rules.scoring import card_goals, majority_money, reputation_scores
from ..rules.state import (
    EMPTY,
    F_FAME,
    F_KICKED,
    F_LEAVE,
    F_POST,
    F_TURN,
    LACERDA,
    NUM_LOCATIONS,
    SLOT_EMPTY,
    GameState,
)
from .observation_fields import (
    FIELD,
    FIELDS,
    GW,
    MONEY_SCALE,
    OBSERVATION_SIZE,
    OFFSET,
    OWN,
    ROUND_SCALE,
    SCORE_SCALE,
    B,
    S,
    T,
    decode_observation,
)
from .observation_reference import _artist_stars_block, encode_reference

__all__ = [
    "FIELD",
    "FIELDS",
    "OBSERVATION_SIZE",
    "ObservationEncoder",
    "decode_observation",
    "encode",
    "encode_reference",
]

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


class _Memo:
    """One observer's last vector (with its memoryviews), the copies of the attributes it
    was built from, and each part's own record (entries set, row keys)."""

    __slots__ = (
        "vector", "m", "mb", "snap", "part", "decision", "order", "rel", "n", "changed",
    )  # fmt: skip

    def __init__(self, n: int, observer: int) -> None:
        self.vector = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        self.m = memoryview(self.vector)  # format "f": one float32 per item
        self.mb = self.m.cast("B")  # bytes, for struct.pack_into
        self.m[_O["num_players"] + n - 1] = 1.0
        for r in range(n):
            self.m[_O["seat_active"] + r] = 1.0
        self.snap: list[Any] = [_UNSEEN] * len(_ATTRS)
        self.part: list[Any] = [None] * len(_PARTS)
        self.decision: list[int] = []  # the entries set in decision .. exec_state
        self.order = [(observer + r) % n for r in range(n)]  # relative seat -> player
        self.rel = [(p - observer) % n for p in range(n)]  # player -> relative seat
        self.n = n
        self.changed: tuple[int, ...] = ()  # the attributes that differed at this call


Writer = Callable[["ObservationEncoder", GameState, _Memo, int], None]
"""Brings one part of the memo's vector up to date: ``(encoder, state, memo, part)``."""


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


_GALLERY, _GALLERY_WIDTH = _O["gallery"], FIELD["gallery"].shape[2]


def _w_gallery(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    """Each seat's exhibited works, rewritten for the seats whose works or values changed."""
    d = s.data
    values, tiles, fame, artist_of, masterpiece = (
        d.artist_values, s.artist_tile, s.fame, s.work_artist, s.masterpiece
    )  # fmt: skip
    rows = [
        [(w, artist_of[w], values[tiles[artist_of[w]]][fame[artist_of[w]]], masterpiece[w])
         for w in s.gallery[p][:GW]]
        for p in memo.order
    ]  # fmt: skip
    old = memo.part[part] or [None] * len(rows)
    memo.part[part] = rows
    m = memo.m
    for r in compress(range(len(rows)), map(ne, rows, old)):
        b = _GALLERY + GW * _GALLERY_WIDTH * r
        m[b : b + GW * _GALLERY_WIDTH] = _ZERO[: GW * _GALLERY_WIDTH]
        for work, artist, value, master in rows[r]:
            m[b] = 1.0
            m[b + 1] = value / 20
            m[b + 2] = float(master)
            m[b + 3 + d.works[work].form] = 1.0
            m[b + 3 + NUM_FORMS + artist] = 1.0
            b += _GALLERY_WIDTH


def _w_holdings(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    """``renowned``, ``sold``, ``reputation`` and ``start_tile`` (in a row; sums in NumPy)."""
    d, v = s.data, memo.vector
    v[_O["renowned"] : _END["start_tile"]] = 0.0
    works, tiles = d.works, d.reputation_tiles
    for r, p in enumerate(memo.order):
        if s.renowned[p] != EMPTY:
            b = _O["renowned"] + (1 + NUM_FORMS) * r
            v[b] = 1.0
            v[b + 1 + works[s.renowned[p]].form] = 1.0
        for work in s.sold[p]:
            v[_O["sold"] + NUM_FORMS * r + works[work].form] += 0.25
        b = _O["reputation"] + (NUM_REPUTATION_SPACES + T) * r
        for i, tile in enumerate(s.spaces[p]):
            if tile != EMPTY:
                v[b + i] = 1.0
                v[b + NUM_REPUTATION_SPACES + tiles[tile].scoring] += 1.0
        if s.start_tile[p] != EMPTY:
            v[_O["start_tile"] + T * r + tiles[s.start_tile[p]].scoring] = 1.0


_CONTRACTS = _O["contracts"]
_CONTRACT_SEAT = _STRIDE["contracts"]
_CONTRACT_WIDTH = FIELD["contracts"].shape[2]


def _w_contracts(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    """Each seat's contract slots, rewritten for the seats whose slots changed."""
    cards = s.data.contracts
    rows = [tuple([tuple(slot) for slot in s.contracts[p]]) for p in memo.order]
    old = memo.part[part] or [None] * len(rows)
    memo.part[part] = rows
    m = memo.m
    for r in compress(range(len(rows)), map(ne, rows, old)):
        b = _CONTRACTS + _CONTRACT_SEAT * r
        m[b : b + _CONTRACT_SEAT] = _ZERO[:_CONTRACT_SEAT]
        for card, state, on in rows[r]:
            m[b + state] = 1.0
            if state != SLOT_EMPTY:
                m[b + 4] = float(on)
                m[b + 5 + cards[card].form] = 1.0
                m[b + 5 + NUM_FORMS + cards[card].bonus.kind] = 1.0
            b += _CONTRACT_WIDTH


def _w_commission(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    base, stride = _O["commission"], _STRIDE["commission"]
    commission = s.commission
    ones = [base + stride * r + commission[p] for r, p in enumerate(memo.order)
            if commission[p] != EMPTY]  # fmt: skip
    memo.part[part] = _set_ones(memo.m, memo.part[part], ones)


_OWN_CARDS, _OWN_GOALS = _O["own_cards"], _O["own_goals"]
_OWN_SIZE = _END["own_goals"] - _OWN_CARDS


def _w_own_cards(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    """The observer's two secret cards and which of their goals it has met (write_own_cards'
    entries); the goals depend only on the cards and the forms shown and sold, so they are
    kept per such key (a game meets a few dozen)."""
    p, works = memo.order[0], s.data.works
    shown = [works[w].form for w in s.gallery[p]]
    if s.renowned[p] != EMPTY:
        shown.append(works[s.renowned[p]].form)
    key = (s.curator[p], s.dealer[p], tuple(shown), tuple([works[w].form for w in s.sold[p]]))
    goals = enc._goals.get(key)
    if goals is None:
        curator, dealer = card_goals(s, p)
        if len(enc._goals) >= _MAX_GOALS:  # bounded: the encoder may live for many games
            enc._goals.clear()
        goals = enc._goals[key] = _five(curator) + _five(dealer)
    m = memo.m
    m[_OWN_CARDS : _OWN_CARDS + _OWN_SIZE] = _ZERO[:_OWN_SIZE]
    m[_OWN_CARDS + key[0]] = 1.0
    m[_OWN_CARDS + 4 + key[1]] = 1.0
    _PACK_GOALS(memo.mb, 4 * _OWN_GOALS, *goals)


_PACK_GOALS = _pack(10)
_MAX_GOALS = 1 << 14


def _five(done: list[bool]) -> list[float]:
    """A card's first five goals as entries (0 where it has fewer)."""
    return [float(x) for x in done[:5]] + [0.0] * (5 - len(done[:5]))


_PLAYER = _O["player"]
_PLAYER_WIDTH = _STRIDE["player"]


def _w_staff(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    """The ``player`` field's counts of every seat: desks, unemployed, removed, next hire
    cost, works sold and the start tile flags (a part of their own: a desk taken or freed,
    the most frequent change, then leaves the score alone)."""
    d, m = s.data, memo.m
    costs, hired_base = d.hire_costs, d.assistants - d.start_desks  # hired = base - queue
    b = _PLAYER
    for p in memo.order:
        queue = s.queue[p]
        m[b + 2] = s.desks[p] / d.desks
        m[b + 3] = queue / 8
        m[b + 4] = s.removed[p] / 10
        m[b + 5] = costs[hired_base - queue] / 6 if queue else 0.0
        m[b + 6] = len(s.sold[p]) / 8
        m[b + 8] = float(s.start_tile[p] != EMPTY)
        m[b + 9] = float(s.pending_tile[p] != EMPTY)
        b += _PLAYER_WIDTH


def _w_economy(enc: ObservationEncoder, s: GameState, memo: _Memo, part: int) -> None:
    """The ``player`` field's cash, influence and public score of every seat."""
    d, m = s.data, memo.m
    top, money_of = d.influence_max, d.influence_money
    # The public score without the secret cards (public_score_parts): the majorities (kept
    # by the encoder until the market changes), the exhibition and the auction's work
    # (summed here, a few lookups), and the reputation tiles, which this memo keeps until
    # an attribute their units read changed (most rewrites are for cash or influence).
    kept = memo.part[part]
    if kept is None or not kept[1].isdisjoint(memo.changed):
        reputation, reads = _reputation(s, enc.tile_scoring)
        kept = memo.part[part] = (reputation, reads)
    elif _SCORE_DIRECT.isdisjoint(memo.changed):
        return  # what changed reaches the score only through tiles that do not read it
    reputation = kept[0]
    majorities = enc.majorities(s)
    values, tile_of, fame, artist_of = d.artist_values, s.artist_tile, s.fame, s.work_artist
    b = _PLAYER
    for p in memo.order:
        influence, money = s.influence[p], s.money[p]
        fixed, rep_influence = reputation[p]
        fixed += majorities.get(p, 0)
        for work in s.gallery[p]:  # the exhibition: each work's sales value
            artist = artist_of[work]
            fixed += values[tile_of[artist]][fame[artist]]
        if s.renowned[p] != EMPTY:  # the auction's work counts twice (G16.2)
            fixed += 2 * renowned_value(s, s.renowned[p])
        m[b] = money / MONEY_SCALE
        m[b + 1] = influence / top
        m[b + 7] = (money + fixed + money_of[min(top, influence + rep_influence)]) / SCORE_SCALE
        b += _PLAYER_WIDTH


_SCORE_INPUTS = (
    "gallery sold renowned spaces gallery_visitors queue removed influence market_upper "
    "market_lower discovered fame artist_tile promotion masterpiece work_artist"
)
_PART_TABLE: tuple[tuple[str, Writer, str], ...] = (
    ("end_triggered final_round intermediate_done box_office celebrity bag start_player",
     _w_table, "flags start_player"),
    ("round", _w_round, "round"),
    ("occupant gpos kicked", _w_places, "occupant gallerist kicked"),
    ("lacerda_pos lacerda_kicked lacerda_supply lacerda_next_lower", _w_lacerda, "lacerda"),
    ("artist_tile discovered fame celebrity promotion tokens artist_bonus artist_collector",
     _w_artists, "artist artist_bonus"),
    ("artist_tile", _w_artist_stars, "artist_stars"),
    ("stacks work_visitors", _w_stacks, "stack"),
    ("easels discovered fame artist_tile", _w_easels, "easel"),
    ("plaza bag", _w_plaza_bag, "plaza bag"),
    ("lobby", _seat_counts("lobby", "lobby", 5), "lobby"),
    ("gallery_visitors", _seat_counts("gallery_visitors", "gallery_visitors", 5),
     "gallery_visitors"),
    ("box_office ticket_discard", _w_box_office, "box_office ticket_discard"),
    ("tickets", _seat_counts("tickets", "tickets", 10), "tickets"),
    ("display deck promo_tokens", _w_display, "display deck promotion_tokens"),
    ("market_tiles market_upper market_lower location_tiles", _w_market,
     "market_upper market_lower location_tile"),
    ("desks queue removed sold start_tile pending_tile", _w_staff, "player"),
    ("money influence " + _SCORE_INPUTS, _w_economy, ""),  # the player field's other columns
    ("market_upper market_lower", _w_market_count, "market_count"),
    ("gallery work_artist fame artist_tile masterpiece", _w_gallery, "gallery"),
    ("renowned sold spaces start_tile", _w_holdings, "renowned sold reputation start_tile"),
    ("contracts", _w_contracts, "contracts"),
    ("commission", _w_commission, "commission"),
    ("curator dealer gallery renowned sold", _w_own_cards, "own_cards own_goals"),
)  # fmt: skip
"""Per part: the state attributes it is built from, its writer and its fields. The fields
not named here are the table size (set once per memo) and the pending decision (each call)."""
_PARTS = tuple(writer for _, writer, _ in _PART_TABLE)
_ATTRS = tuple(sorted({a for names, _, _ in _PART_TABLE for a in names.split()}))
_READ = attrgetter(*_ATTRS)
_DEPENDS = tuple(
    tuple(i for i, (names, _, _) in enumerate(_PART_TABLE) if a in names.split()) for a in _ATTRS
)
"""Per attribute, the parts built from it."""
_UNIT_READS = {
    "influence_per_3": "influence",
    "collectors": "gallery_visitors",
    "vips": "gallery_visitors",
    "investors": "gallery_visitors",
    "visitors": "gallery_visitors",
    "visitor_sets": "gallery_visitors",
    "reputation_tiles": "spaces",
    "auction_assistants": "market_lower",
    "assistants_in_play": "queue removed",
    "promoted_artists": "promotion",
    "famous_artists": "discovered fame",
    "masterpieces": "gallery masterpiece",
    **dict.fromkeys(
        ("works_acquired", "works_sold", "works_exhibited", "art_forms", "photo", "painting",
         "digital", "sculpture"),
        "gallery sold renowned",
    ),
}  # fmt: skip
"""Per tile scoring, the state attributes its unit reads (rules/scoring.py's _UNITS)."""
assert set(_UNIT_READS) == set(TILE_SCORINGS), "a read set per tile scoring"
_SPACES_ONLY = frozenset([_ATTRS.index("spaces")])
_SCORE_DIRECT = frozenset(
    _ATTRS.index(a)
    for a in ("money", "influence", "market_upper", "market_lower", "gallery", "work_artist",
              "artist_tile", "fame", "renowned", "discovered")
)  # fmt: skip
"""The attributes _w_economy reads itself (the others of its part reach the score only
through the reputation tiles' units)."""
_UNIT_ATTRS = tuple(
    frozenset(_ATTRS.index(a) for a in _UNIT_READS[name].split()) for name in TILE_SCORINGS
)


def _reputation(s: GameState, scoring: list[int]) -> tuple[list[tuple[int, int]], frozenset[int]]:
    """Per seat, its reputation tiles' (money, influence) (G16.3), and the attributes they
    were computed from: the boards' spaces and what the units of the tiles held read
    (``scoring``: each tile's scoring)."""
    out = []
    reads = _SPACES_ONLY
    for p, board in enumerate(s.spaces):
        if board.count(EMPTY) == len(board):  # no tile: no reputation score
            out.append((0, 0))
            continue
        out.append(reputation_scores(s, p))
        for t in board:
            if t != EMPTY:
                reads = reads | _UNIT_ATTRS[scoring[t]]
    return out, reads


Plan = tuple[tuple[Writer, int], ...]
_PLANS: dict[tuple[int, ...], Plan] = {}
"""Per set of changed attributes, the (writer, part) pairs to run (random play meets a few
thousand sets; the dict is bounded)."""
_MAX_PLANS = 1 << 15
_DEPMASK = tuple(sum(1 << part for part in parts) for parts in _DEPENDS)
_MASK_PLANS: dict[int, Plan] = {}
"""Per set of parts (a bit mask), its plan: there are far fewer of these."""


def _plan(changed: tuple[int, ...]) -> Plan:
    """The writers of the parts built from any attribute in ``changed``, in table order."""
    mask = 0
    for i in changed:
        mask |= _DEPMASK[i]
    plan = _MASK_PLANS.get(mask)
    if plan is None:
        plan = _MASK_PLANS[mask] = tuple(
            (writer, part) for part, writer in enumerate(_PARTS) if mask >> part & 1
        )
    if len(_PLANS) < _MAX_PLANS:
        _PLANS[changed] = plan
    return plan


_NESTED = {"tickets", "lobby", "gallery_visitors", "gallery", "sold", "spaces", "stacks",
           "work_visitors", "display"}  # fmt: skip


def _copy2(rows: list[list[Any]]) -> list[list[Any]]:
    return [row[:] for row in rows]


def _copy3(seats: list[list[list[Any]]]) -> list[list[list[Any]]]:
    return [[slot[:] for slot in slots] for slots in seats]


def _same(x: Any) -> Any:
    return x  # immutable (numbers, bools, a tuple or None)


_COPY = tuple(
    _copy3 if a == "contracts" else _copy2 if a in _NESTED else _same if a in (
        "end_triggered", "final_round", "intermediate_done", "round", "start_player", "kicked",
        "lacerda_pos", "lacerda_kicked", "lacerda_supply", "lacerda_next_lower",
    ) else list.copy
    for a in _ATTRS
)  # fmt: skip
"""Per attribute, how to copy it so that the copy shares no list with the state."""
_INDEX = range(len(_ATTRS))
_FIELDS_COVERED = ["num_players", "seat_active", "decision", "decision_artist"]
_FIELDS_COVERED += ["decision_location", "exec_state"]
_FIELDS_COVERED += [f for _, _, fields in _PART_TABLE for f in fields.split()]
assert sorted(_FIELDS_COVERED) == sorted(f.name for f in FIELDS), "each field in one part"


class _Unseen:
    """Compares unequal to everything: an attribute not read yet."""

    def __eq__(self, other: object) -> bool:
        return False

    def __ne__(self, other: object) -> bool:
        return True

    __hash__ = None  # type: ignore[assignment]


_UNSEEN = _Unseen()


_MARKET = attrgetter("market_upper", "market_lower")


class ObservationEncoder:
    """Builds the vector for any observer of any state (see the module docstring)."""

    def __init__(self) -> None:
        self._data: Any = None
        self._fingerprint: str | None = None
        self.tile_scoring: list[int] = []  # per reputation tile of the data, its scoring
        self.reset()

    def reset(self) -> None:
        """Forget the last vectors (they are exact for any state; this only frees them)."""
        self._memos: dict[tuple[int, int], _Memo] = {}
        self._market: Any = _UNSEEN
        self._majorities: dict[int, int] = {}
        self._goals: dict[tuple[Any, ...], list[float]] = {}  # see _w_own_cards

    def __getstate__(self) -> dict[str, Any]:
        """A copy or pickle (OpenSpiel's serialisation, deepcopy of an env) starts with no
        last vectors: memoryviews do not pickle, and they are only a cache."""
        state = self.__dict__.copy()
        state["_memos"] = {}
        return state

    def encode(self, s: GameState, observer: int) -> np.ndarray:
        """The observation of ``observer`` (float32, the layout of FIELDS)."""
        if s.data is not self._data:
            if s.data.fingerprint != self._fingerprint:
                self.reset()
                self._fingerprint = s.data.fingerprint
            self._data = s.data
            self.tile_scoring = [tile.scoring for tile in s.data.reputation_tiles]
        key = (s.num_players, observer)
        memo = self._memos.get(key)
        if memo is None:
            memo = self._memos[key] = _Memo(*key)
        ones = _decision_entries(s)
        if ones != memo.decision:
            memo.decision = _set_ones(memo.m, memo.decision, ones)
        values = _READ(s)
        snap = memo.snap
        changed = tuple(compress(_INDEX, map(ne, values, snap)))
        if changed:
            for i in changed:
                snap[i] = _COPY[i](values[i])
            memo.changed = changed
            for writer, part in _PLANS.get(changed) or _plan(changed):
                writer(self, s, memo, part)
        return memo.vector.copy()

    def majorities(self, s: GameState) -> dict[int, int]:
        """The market majorities' money per owner (G16.1), kept for all observers until
        the market changes."""
        market = _MARKET(s)
        if market != self._market:
            self._market = (market[0][:], market[1][:])
            self._majorities = majority_money(s)
        return self._majorities


def _decision_entries(s: GameState) -> list[int]:
    """The entries set in ``decision`` .. ``exec_state`` (as write_table sets them)."""
    if s.over:
        return []
    frames = s.frames
    frame = frames[-1]
    kind = frame[0]
    ones = [_DECISION + kind]
    if kind == F_FAME:
        ones.append(_DECISION_ARTIST + frame[2])
    elif kind in (F_KICKED, F_LEAVE):
        ones.append(_DECISION_LOCATION + frame[2])
    for f in reversed(frames):
        if f[0] in _MENUS:
            ones.append(_EXEC_STATE + f[-1])
            break
    return ones


_DEFAULT = ObservationEncoder()


def encode(s: GameState, observer: int) -> np.ndarray:
    """The observation of ``observer`` with a shared module-level encoder."""
    return _DEFAULT.encode(s, observer)
