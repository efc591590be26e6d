"""The Gallerist observation vector, built fast: only the parts that changed are rebuilt.

The layout (fields, offsets, meanings) is in :mod:`.observation_fields`; the plain encoder
that writes it entry by entry is :func:`.observation_reference.encode_reference`, the oracle
of this one (a test compares them on thousands of states at every table size and seat,
with observers and games interleaved, and golden hashes pin the output).

A decision changes only a few parts of the board. For each observer the encoder keeps its
last vector and a copy of the state lists each part was built from (pieces on the board,
artists, works on offer, visitors and tickets, contract display, market, the seats'
boards and economy, the observer's cards); a call compares the state's lists with those
copies (list equality, done in C) and rewrites only the parts that differ, mostly with the
reference's writers. Parts that do not depend on the observer (artists, works, display,
each seat's board and the fixed parts of its public score) are kept once for all
observers. Only the pending decision is written every time. Comparisons are by value,
never by object identity, so the encoder is exact for any sequence of states from any
games.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..rules.data import NUM_COLOURS, TILE_SCORINGS
from ..rules.effects import hired_count
from ..rules.scoring import majority_money, public_score_parts
from ..rules.state import (
    EMPTY,
    F_FAME,
    F_KICKED,
    F_LEAVE,
    F_POST,
    F_TURN,
    LACERDA,
    NUM_LOCATIONS,
    GameState,
)
from .observation_fields import (
    FIELD,
    FIELDS,
    MONEY_SCALE,
    OBSERVATION_SIZE,
    OFFSET,
    OWN,
    ROUND_SCALE,
    SCORE_SCALE,
    S,
    decode_observation,
)
from .observation_reference import (
    encode_reference,
    write_artists,
    write_display,
    write_market,
    write_own_cards,
    write_seat_board,
    write_works,
)

__all__ = [
    "FIELD",
    "FIELDS",
    "OBSERVATION_SIZE",
    "ObservationEncoder",
    "decode_observation",
    "encode",
    "encode_reference",
]


def _span(first: str, last: str) -> tuple[int, int]:
    """Offsets from the start of field ``first`` to the end of field ``last``."""
    return OFFSET[first], OFFSET[last] + FIELD[last].size


ARTISTS = _span("artist", "artist_bonus")
WORKS = _span("stack", "easel")
VISITORS = _span("plaza", "tickets")
DISPLAY = _span("display", "promotion_tokens")
MARKET = _span("market_upper", "location_tile")
SEATS = _span("player", "commission")
SEAT_BOARD = _span("market_count", "commission")
OWN_CARDS = _span("own_cards", "own_goals")
_NUM_PLAYERS, _SEAT_ACTIVE, _PLAYER = OFFSET["num_players"], OFFSET["seat_active"], OFFSET["player"]
_DECISION, _DECISION_ARTIST = OFFSET["decision"], OFFSET["decision_artist"]
_DECISION_LOCATION, _EXEC_STATE = OFFSET["decision_location"], OFFSET["exec_state"]
_FLAGS, _ROUND, _START_PLAYER = OFFSET["flags"], OFFSET["round"], OFFSET["start_player"]
_OCCUPANT, _GALLERIST, _KICKED = OFFSET["occupant"], OFFSET["gallerist"], OFFSET["kicked"]
_LACERDA = OFFSET["lacerda"]
_MENUS = (F_TURN, F_POST, F_KICKED)
_INFLUENCE_TILE = TILE_SCORINGS.index("influence_per_3")
_VISITOR_SIZE = VISITORS[1] - VISITORS[0]
_V_LOBBY, _V_GALLERY, _V_TICKETS, _V_OFFICE, _V_DISCARD = (
    OFFSET[name] - VISITORS[0]
    for name in ("lobby", "gallery_visitors", "tickets", "box_office", "ticket_discard")
)
_VISITOR_SCALE = np.ones(_VISITOR_SIZE, dtype=np.float32)
"""What write_visitors divides each count by."""
for _name, _scale in (
    ("plaza", 10), ("bag", 14), ("lobby", 5), ("gallery_visitors", 5), ("box_office", 20),
    ("ticket_discard", 20), ("tickets", 10),
):  # fmt: skip
    _start = OFFSET[_name] - VISITORS[0]
    _VISITOR_SCALE[_start : _start + FIELD[_name].size] = _scale
_TURN_END = ARTISTS[0]


def _seat_shift() -> list[np.ndarray]:
    """Per relative seat r, the map from an index of seat 0's board fields to seat r's."""
    out = []
    for r in range(S):
        shift = np.arange(OBSERVATION_SIZE)
        for f in FIELDS:
            if SEAT_BOARD[0] <= f.offset < SEAT_BOARD[1]:
                assert f.seat_axis == 0 and f.shape[0] == S
                stride = f.size // S
                shift[f.offset : f.offset + stride] += r * stride
        out.append(shift)
    return out


_SEAT_SHIFT = _seat_shift()
_SPANS = (ARTISTS, WORKS, VISITORS, DISPLAY, MARKET, SEATS, OWN_CARDS)
assert all(a[1] <= b[0] for a, b in zip(_SPANS, _SPANS[1:]))  # in order, not overlapping
assert _SPANS[-1][1] == OBSERVATION_SIZE


class _Memo:
    """One observer's last vector and what each part of it was built from."""

    __slots__ = ("vector", "seen")

    def __init__(self, vector: np.ndarray) -> None:
        self.vector = vector
        self.seen: dict[str, Any] = {}


class ObservationEncoder:
    """Builds the vector for any observer of any state (see the module docstring).

    Per observer it keeps the last vector and what each part was built from, and rewrites
    only the parts whose inputs differ. Parts that do not depend on the observer (artists,
    works on offer, contract display, the seats' public scores) are also kept once for all
    observers, with a version number that dependent parts compare."""

    def __init__(self) -> None:
        self._fingerprint: str | None = None
        self._memos: dict[tuple[int, int], _Memo] = {}
        self._rel: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
        self._shared: dict[str, tuple[Any, Any, int]] = {}
        self._records: dict[tuple[str, int], list[Any]] = {}
        self._scratch = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        self._version = 0

    def reset(self) -> None:
        """Forget the last vectors (they are exact for any state; this only frees them)."""
        self._memos.clear()
        self._shared.clear()
        self._records.clear()

    def _shared_block(
        self,
        name: str,
        inputs: tuple,
        span: tuple[int, int],
        s: GameState,
        v: np.ndarray,
        seen: dict[str, Any],
    ) -> int:
        """Bring the observer-independent part ``name`` of ``v`` up to date; its version."""
        shared = self._shared.get(name)
        if shared is not None and shared[0] == inputs:
            if seen.get(name) != shared[2]:
                v[span[0] : span[1]] = shared[1]
                seen[name] = shared[2]
            return shared[2]
        v[span[0] : span[1]] = 0.0
        writer, snapshot = _SHARED_PARTS[name]
        writer(s, v)
        self._version += 1
        self._shared[name] = (snapshot(inputs), v[span[0] : span[1]].copy(), self._version)
        seen[name] = self._version
        return self._version

    def encode(self, s: GameState, observer: int) -> np.ndarray:
        """The observation of ``observer`` (float32, the layout of FIELDS)."""
        memo, rel, order = self._memo_for(s, observer)
        v, seen = memo.vector, memo.seen
        _write_decision(s, v)
        pieces = _pieces_inputs(s)
        if seen.get("pieces") != pieces:
            _write_pieces(s, v, rel)
            seen["pieces"] = tuple([_copy(x) for x in pieces])
        artists = self._shared_block(
            "artists",
            (
                s.artist_tile, s.discovered, s.fame, s.celebrity, s.promotion, s.tokens,
                s.artist_bonus, s.artist_collector,
            ),
            ARTISTS, s, v, seen,
        )  # fmt: skip
        works = (s.stacks, s.work_visitors, s.easels, artists)
        self._shared_block("works", works, WORKS, s, v, seen)
        _update_visitors(s, v, seen, order)
        self._shared_block("display", (s.display, len(s.deck), s.promo_tokens), DISPLAY, s, v, seen)
        _update_market(s, v, seen, rel)
        self._update_seat_boards(s, v, seen, order)
        self._update_economy(s, v, seen, order)
        _update_own_cards(s, v, seen, observer)
        return v.copy()

    def _memo_for(self, s: GameState, observer: int) -> tuple[_Memo, list[int], list[int]]:
        """The memo of (table size, observer), its seat maps (absolute -> relative and
        back), and its fixed parts written once per table size; other component data
        first forgets every memo."""
        if s.data.fingerprint != self._fingerprint:
            self.reset()
            self._fingerprint = s.data.fingerprint
        n = s.num_players
        table = (n, observer)
        seats = self._rel.get(table)
        if seats is None:
            seats = self._rel[table] = (
                [(p - observer) % n for p in range(n)],  # absolute -> relative
                [(observer + r) % n for r in range(n)],  # relative -> absolute
            )
        memo = self._memos.get(table)
        if memo is None:
            memo = self._memos[table] = _Memo(np.zeros(OBSERVATION_SIZE, dtype=np.float32))
        if memo.seen.get("table") != n:
            memo.vector[:_DECISION] = _template(n)[:_DECISION]
            memo.seen["table"] = n
        return memo, seats[0], seats[1]

    def _update_seat_boards(
        self, s: GameState, v: np.ndarray, seen: dict[str, Any], order: list[int]
    ) -> None:
        """Each seat's board fields, shifted to its relative seat, when any seat's changed."""
        boards = self._seat_boards(s)
        versions = tuple([record[1] for record in boards])
        if seen.get("seats") != versions:
            v[SEAT_BOARD[0] : SEAT_BOARD[1]] = 0.0
            for r, p in enumerate(order):
                index, values = boards[p][2]
                v[_SEAT_SHIFT[r][index]] = values
            seen["seats"] = versions

    def _update_economy(
        self, s: GameState, v: np.ndarray, seen: dict[str, Any], order: list[int]
    ) -> None:
        """Money, influence, assistants, tiles and public scores, when any input changed."""
        parts = self._score_parts(s)
        economy = (
            s.money, s.influence, s.desks, s.queue, s.removed, s.start_tile, s.pending_tile,
            [len(sold) for sold in s.sold], parts,
        )  # fmt: skip
        if seen.get("economy") != economy:
            _write_economy(s, v, order, parts)
            seen["economy"] = tuple([_copy(x) for x in economy])

    def _common(self, name: str, inputs: tuple) -> tuple[int, list[Any]]:
        """A version number of ``inputs`` (flat lists) shared by all seats' records, and
        a list for values computed on first need for that version."""
        common = self._shared.get(name)
        if common is None or common[0] != inputs:
            self._version += 1
            common = self._shared[name] = (tuple([x[:] for x in inputs]), self._version, [])
        return common[1], common[2]

    def _seat_boards(self, s: GameState) -> list[tuple]:
        """Per seat, kept for all observers: (inputs, version, its board fields as sparse
        (index, value) arrays for relative seat 0), rebuilt when its inputs changed."""
        n = s.num_players
        common, _ = self._common("boards", (s.market_upper, s.market_lower, s.fame, s.masterpiece))
        records = self._records.setdefault(("boards", n), [None] * n)
        for p in range(n):
            inputs = (
                s.gallery[p], s.sold[p], s.renowned[p], s.spaces[p], s.start_tile[p],
                s.contracts[p], s.commission[p], common,
            )  # fmt: skip
            record = records[p]
            if record is not None and record[0] == inputs:
                continue
            start, end = SEAT_BOARD
            scratch = self._scratch
            scratch[start:end] = 0.0
            write_seat_board(s, scratch, p, 0)
            index = np.flatnonzero(scratch[start:end]) + start
            self._version += 1
            copied = (
                s.gallery[p][:], s.sold[p][:], inputs[2], s.spaces[p][:], inputs[4],
                _copy2(s.contracts[p]), inputs[6], common,
            )  # fmt: skip
            records[p] = (copied, self._version, (index, scratch[index]))
        return records

    def _score_parts(self, s: GameState) -> list[tuple[int, int]]:
        """Per seat, kept for all observers: the parts of its public score that do not move
        with cash (nor with influence, unless it holds the 'influence per 3' tile)."""
        n = s.num_players
        common, majorities = self._common(
            "scores",
            (s.market_upper, s.market_lower, s.fame, s.discovered, s.promotion, s.masterpiece),
        )
        records = self._records.setdefault(("scores", n), [None] * n)
        for p in range(n):
            inputs = (
                s.gallery[p], s.sold[p], s.renowned[p], s.spaces[p], s.gallery_visitors[p],
                s.queue[p], s.removed[p], common,
            )  # fmt: skip
            record = records[p]
            if (
                record is not None
                and record[0] == inputs
                and (not record[2] or record[3] == s.influence[p])
            ):
                continue
            if not majorities:
                majorities.append(majority_money(s))
            has_tile = any(
                s.data.reputation_tiles[tile].scoring == _INFLUENCE_TILE
                for tile in s.spaces[p]
                if tile != EMPTY
            )
            copied = (
                s.gallery[p][:], s.sold[p][:], inputs[2], s.spaces[p][:],
                s.gallery_visitors[p][:], inputs[5], inputs[6], common,
            )  # fmt: skip
            records[p] = (
                copied,
                public_score_parts(s, p, majorities[0]),
                has_tile,
                s.influence[p],
            )
        return [record[1] for record in records]


def _copy2(rows: list[list[Any]]) -> list[list[Any]]:
    return [row[:] for row in rows]


def _copy(x: Any) -> Any:
    """A copy of a flat list (other values are immutable)."""
    return x[:] if x.__class__ is list else x


def _template(n: int) -> np.ndarray:
    """The fields before ``artist`` with only the table size set (the rest is per call)."""
    template = _TEMPLATES.get(n)
    if template is None:
        template = _TEMPLATES[n] = np.zeros(_TURN_END, dtype=np.float32)
        template[_NUM_PLAYERS + n - 1] = 1.0
        template[_SEAT_ACTIVE : _SEAT_ACTIVE + n] = 1.0
    return template


_TEMPLATES: dict[int, np.ndarray] = {}
_SHARED_PARTS = {
    "artists": (write_artists, lambda inputs: tuple([x[:] for x in inputs])),
    "works": (
        write_works,
        lambda inputs: (_copy2(inputs[0]), _copy2(inputs[1]), inputs[2][:], inputs[3]),
    ),
    "display": (write_display, lambda inputs: (_copy2(inputs[0]), inputs[1], inputs[2][:])),
}
"""Writer and input copier of each observer-independent part."""


def _update_visitors(s: GameState, v: np.ndarray, seen: dict[str, Any], order: list[int]) -> None:
    """Visitors and tickets everywhere, when any count changed."""
    visitors = (
        s.plaza, s.bag, s.lobby, s.gallery_visitors, s.tickets, s.box_office,
        s.ticket_discard,
    )  # fmt: skip
    if seen.get("visitors") != visitors:
        v[VISITORS[0] : VISITORS[1]] = _visitors(s, order)
        seen["visitors"] = (
            s.plaza[:], s.bag[:], _copy2(s.lobby), _copy2(s.gallery_visitors),
            _copy2(s.tickets), s.box_office[:], s.ticket_discard[:],
        )  # fmt: skip


def _update_market(s: GameState, v: np.ndarray, seen: dict[str, Any], rel: list[int]) -> None:
    """The market and the tiles beside the locations, when any changed."""
    market = (s.market_tiles, s.market_upper, s.market_lower, s.location_tiles)
    if seen.get("market") != market:
        v[MARKET[0] : MARKET[1]] = 0.0
        write_market(s, v, rel)
        seen["market"] = (
            s.market_tiles[:], s.market_upper[:], s.market_lower[:], s.location_tiles[:],
        )  # fmt: skip


def _update_own_cards(s: GameState, v: np.ndarray, seen: dict[str, Any], observer: int) -> None:
    """The observer's secret cards and their goals, when its cards or works changed."""
    own = (s.curator[observer], s.dealer[observer], s.gallery[observer],
           s.renowned[observer], s.sold[observer])  # fmt: skip
    if seen.get("own") != own:
        v[OWN_CARDS[0] : OWN_CARDS[1]] = 0.0
        write_own_cards(s, v, observer)
        seen["own"] = (own[0], own[1], own[2][:], own[3], own[4][:])


def _write_economy(
    s: GameState, v: np.ndarray, order: list[int], parts: list[tuple[int, int]]
) -> None:
    """The ``player`` field of every seat: cash, influence, assistants, public score..."""
    d = s.data
    top, desks, costs, money_of = d.influence_max, d.desks, d.hire_costs, d.influence_money
    influence = s.influence
    economy: list[float] = []
    for p in order:
        queue = s.queue[p]
        fixed, rep_influence = parts[p]
        score = s.money[p] + fixed + money_of[min(top, influence[p] + rep_influence)]
        economy += (
            s.money[p] / MONEY_SCALE,
            influence[p] / top,
            s.desks[p] / desks,
            queue / 8,
            s.removed[p] / 10,
            costs[hired_count(s, p)] / 6 if queue else 0.0,
            len(s.sold[p]) / 8,
            score / SCORE_SCALE,
            float(s.start_tile[p] != EMPTY),
            float(s.pending_tile[p] != EMPTY),
        )
    v[_PLAYER : _PLAYER + 10 * len(order)] = economy


def _visitors(s: GameState, order: list[int]) -> np.ndarray:
    """The fields ``plaza`` to ``tickets`` (as write_visitors builds them): the counts as
    bytes, divided by their scales in one call (float32 division of small ints rounds
    exactly as the reference's float64 division then cast)."""
    counts = bytearray(_VISITOR_SIZE)
    counts[0:3] = s.plaza
    bag = s.bag
    counts[3:6] = (bag.count(0), bag.count(1), bag.count(2))
    lobby, gallery, tickets = s.lobby, s.gallery_visitors, s.tickets
    for r, p in enumerate(order):
        b = NUM_COLOURS * r
        counts[_V_LOBBY + b : _V_LOBBY + b + 3] = lobby[p]
        counts[_V_GALLERY + b : _V_GALLERY + b + 3] = gallery[p]
        counts[_V_TICKETS + b : _V_TICKETS + b + 3] = tickets[p]
    counts[_V_OFFICE : _V_OFFICE + 3] = s.box_office
    counts[_V_DISCARD : _V_DISCARD + 3] = s.ticket_discard
    return np.frombuffer(counts, dtype=np.uint8) / _VISITOR_SCALE


def _write_decision(s: GameState, v: np.ndarray) -> None:
    """The fields ``decision`` to ``exec_state`` (as write_table builds them)."""
    v[_DECISION:_FLAGS] = 0.0
    if s.over:
        return
    frames = s.frames
    frame = frames[-1]
    kind = frame[0]
    v[_DECISION + kind] = 1.0
    if kind == F_FAME:
        v[_DECISION_ARTIST + frame[2]] = 1.0
    elif kind in (F_KICKED, F_LEAVE):
        v[_DECISION_LOCATION + frame[2]] = 1.0
    for f in reversed(frames):
        if f[0] in _MENUS:
            v[_EXEC_STATE + f[-1]] = 1.0
            break


def _pieces_inputs(s: GameState) -> tuple:
    """What the fields ``flags`` to ``lacerda`` show (compared between calls)."""
    return (
        s.end_triggered, s.final_round, s.intermediate_done, s.box_office, s.celebrity,
        not s.bag, s.round, s.start_player, s.occupant, s.gpos, s.kicked, s.lacerda_pos,
        s.lacerda_kicked, s.lacerda_supply, s.lacerda_next_lower,
    )  # fmt: skip


def _write_pieces(s: GameState, v: np.ndarray, rel: list[int]) -> None:
    """The fields ``flags`` to ``lacerda`` (as write_table and write_pieces build them):
    one-hots gathered in a list, set in one call."""
    v[_FLAGS:_TURN_END] = 0.0
    flags = (
        s.end_triggered, s.final_round, s.intermediate_done, not any(s.box_office),
        sum(s.celebrity) >= 2, not s.bag,
    )  # fmt: skip
    ones = [_FLAGS + i for i, flag in enumerate(flags) if flag]
    ones.append(_START_PLAYER + rel[s.start_player])
    for loc, occ in enumerate(s.occupant):
        if occ != EMPTY:
            owner, kind = divmod(occ, 2)
            ones.append(
                _OCCUPANT + (loc * 2 + kind) * OWN + (S if owner == LACERDA else rel[owner])
            )
    for p, pos in enumerate(s.gpos):
        ones.append(_GALLERIST + rel[p] * (NUM_LOCATIONS + 2) + pos)
    if s.kicked is not None:
        owner, kind, loc = s.kicked
        ones += (_KICKED + rel[owner], _KICKED + S + kind, _KICKED + S + 2 + loc)
    if s.lacerda_pos != EMPTY:
        ones.append(_LACERDA + s.lacerda_pos)
    if s.lacerda_kicked:
        ones.append(_LACERDA + 4)
    if s.lacerda_next_lower:
        ones.append(_LACERDA + 6)
    v[ones] = 1.0
    v[_ROUND] = min(1.0, s.round / ROUND_SCALE)
    v[_LACERDA + 5] = s.lacerda_supply / 10


_DEFAULT = ObservationEncoder()


def encode(s: GameState, observer: int) -> np.ndarray:
    """The observation of ``observer`` with a shared module-level encoder."""
    return _DEFAULT.encode(s, observer)
