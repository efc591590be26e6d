"""The Gallerist observation's writers of each seat's own parts: galleries, holdings,
contracts, the commission, the own cards and the staff, each writing exactly what
:func:`.observation_reference.encode_reference` writes there. The economy's writer (money,
influence, the public score) stays in :mod:`.observation`: it reads the encoder's tables of
which attributes reach the score."""

from __future__ import annotations

from itertools import compress
from operator import ne
from typing import TYPE_CHECKING

from ..rules.data import (
    NUM_FORMS,
    NUM_REPUTATION_SPACES,
)
from ..rules.scoring import card_goals
from ..rules.state import (
    EMPTY,
    SLOT_EMPTY,
    GameState,
)
from .observation_fields import (
    FIELD,
    GW,
    T,
)
from .observation_writers import (
    _END,
    _O,
    _STRIDE,
    _ZERO,
    _pack,
    _set_ones,
)

if TYPE_CHECKING:
    from .observation import ObservationEncoder, _Memo


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
