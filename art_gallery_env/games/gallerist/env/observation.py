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

The writers of the parts live in :mod:`.observation_writers` (the board) and
:mod:`.observation_seat_writers` (each seat's own parts); this module holds the memo, the
table of parts and the attributes they read, the plans and the encoder.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from operator import attrgetter, ne
from typing import Any

import numpy as np

from ..rules.data import (
    TILE_SCORINGS,
)
from ..rules.effects import renowned_value
from ..rules.scoring import majority_money, reputation_scores
from ..rules.state import (
    EMPTY,
    F_FAME,
    F_KICKED,
    F_LEAVE,
    GameState,
)
from .observation_fields import (
    FIELD,
    FIELDS,
    MONEY_SCALE,
    OBSERVATION_SIZE,
    SCORE_SCALE,
    decode_observation,
)
from .observation_reference import encode_reference
from .observation_seat_writers import (
    _PLAYER,
    _PLAYER_WIDTH,
    _w_commission,
    _w_contracts,
    _w_gallery,
    _w_holdings,
    _w_own_cards,
    _w_staff,
)
from .observation_writers import (
    _DECISION,
    _DECISION_ARTIST,
    _DECISION_LOCATION,
    _EXEC_STATE,
    _MENUS,
    _O,
    _seat_counts,
    _set_ones,
    _w_artist_stars,
    _w_artists,
    _w_box_office,
    _w_display,
    _w_easels,
    _w_lacerda,
    _w_market,
    _w_market_count,
    _w_places,
    _w_plaza_bag,
    _w_round,
    _w_stacks,
    _w_table,
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
