"""Versioned JSON for Gallerist states: save a game, load it, continue it.

Loading checks every field's type and range, then the rules' invariants (component
conservation and more), so a malformed or inconsistent file is rejected with a message
naming the bad field; nothing half-loaded is returned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import data as gd
from . import frames as fr
from .data import GameData, default_game_data
from .frames import KICKED, LACERDA, NUM_LOCATIONS, check_num_players

if TYPE_CHECKING:
    from .state import GameState

FORMAT = "art-gallery-env/gallerist-state"
VERSION = 3  # 2: round_active (G15.3); 3: the rulebook choices (new frames)

# frame kind -> number of ints after the kind (None: at least 2, for A_TICKETS)
_FRAME_ARITY = {
    fr.F_START: 1, fr.F_TURN: 2, fr.F_POST: 2, fr.F_KICKED: 3, fr.F_LEAVE: 3, fr.F_ARTIST: 3,
    fr.F_FAME: 2, fr.F_TICKET: 2, fr.F_VISITOR: 3, fr.F_CONTRACT: 2, fr.F_SELL: 1, fr.F_HIRE: 1,
    fr.F_REP: 1, fr.F_AUCTION: 1, fr.F_SPACE: 3, fr.F_ASSIST: 3, fr.F_ORIENT: 2, fr.F_EASEL: 1,
    fr.F_PAY: 2, fr.F_COMMISSION: 2, fr.F_DISCARD: 3, fr.A_ACTION: 2, fr.A_TICKETS: None,
    fr.A_SELL_FLIP: 3, fr.A_END_TURN: 2, fr.A_KICK_END: 1, fr.A_CONTRACT_BONUS: 2, fr.A_AUCTION: 0,
    fr.A_START_TILE: 1, fr.A_GAME_OVER: 0, fr.A_BUY: 3, fr.A_HIRE_BONUS: 3, fr.A_OFFER_BONUS: 2,
    fr.A_PROMOTE_FAME: 2,
}  # fmt: skip
_SCALAR_BOOLS = (
    "end_triggered", "final_round", "intermediate_pending", "intermediate_done", "over",
    "lacerda_kicked", "lacerda_next_lower", "round_active",
)  # fmt: skip


class StateFormatError(ValueError):
    """A saved state that cannot be loaded; the message names the bad field."""


def _fields(d: GameData, n: int) -> dict[str, tuple]:
    """Field -> (shape, low, high): shape is () for an int, (k,) a list of k ints
    ((None,) any length), (k, m) a k-list of m-lists; 'bool' entries hold booleans."""
    works, tiles, cards = len(d.works) - 1, len(d.reputation_tiles) - 1, len(d.contracts) - 1
    big = 1_000_000
    return {
        "current_player": ((), 0, n - 1),
        "start_player": ((), 0, n - 1),
        "round": ((), 1, 10_000),
        "turn": ((), 0, 10_000),
        "money": ((n,), 0, big),
        "influence": ((n,), 0, d.influence_max),
        "tickets": ((n, gd.NUM_COLOURS), 0, 3 * d.tickets_in_box),
        "desks": ((n,), 0, d.desks),
        "queue": ((n,), 0, d.assistants),
        "removed": ((n,), 0, d.assistants),
        "gpos": ((n,), 0, KICKED),
        "lobby": ((n, gd.NUM_COLOURS), 0, 100),
        "gallery_visitors": ((n, gd.NUM_COLOURS), 0, 100),
        "gallery": ((n, None), 0, works),
        "sold": ((n, None), 0, works),
        "renowned": ((n,), -1, works),
        "commission": ((n,), -1, gd.NUM_ARTIST_SLOTS - 1),
        "spaces": ((n, gd.NUM_REPUTATION_SPACES), -1, tiles),
        "start_tile": ((n,), -1, tiles),
        "pending_tile": ((n,), -1, tiles),
        "curator": ((n,), 0, len(d.curators) - 1),
        "dealer": ((n,), 0, len(d.dealers) - 1),
        "occupant": ((NUM_LOCATIONS,), -1, 2 * LACERDA + 1),
        "artist_tile": ((gd.NUM_ARTIST_SLOTS,), 0, len(d.artists) - 1),
        "discovered": ((gd.NUM_ARTIST_SLOTS,), "bool"),
        "fame": ((gd.NUM_ARTIST_SLOTS,), 0, d.celebrity_fame),
        "promotion": ((gd.NUM_ARTIST_SLOTS,), 0, gd.MAX_PROMOTION),
        "tokens": ((gd.NUM_ARTIST_SLOTS,), 0, 2),
        "artist_bonus": ((gd.NUM_ARTIST_SLOTS,), -1, len(d.artist_bonus_tiles) - 1),
        "artist_collector": ((gd.NUM_ARTIST_SLOTS,), "bool"),
        "celebrity": ((gd.NUM_ARTIST_SLOTS,), "bool"),
        "work_artist": ((len(d.works),), -1, gd.NUM_ARTIST_SLOTS - 1),
        "masterpiece": ((len(d.works),), "bool"),
        "stacks": ((gd.NUM_FORMS, None), 0, works),
        "work_visitors": ((gd.NUM_FORMS, gd.NUM_COLOURS), 0, 10),
        "easels": ((None,), 0, works),
        "box_works": ((None,), 0, works),
        "bag": ((None,), 0, gd.NUM_COLOURS - 1),
        "plaza": ((gd.NUM_COLOURS,), 0, 100),
        "box_visitors": ((gd.NUM_COLOURS,), 0, 100),
        "box_office": ((gd.NUM_COLOURS,), 0, d.tickets_in_box),
        "ticket_discard": ((gd.NUM_COLOURS,), 0, 3 * d.tickets_in_box),
        "box_tickets": ((gd.NUM_COLOURS,), 0, d.tickets_in_box),
        "deck": ((None,), 0, cards),
        "display": ((4, None), 0, cards),
        "contract_discard": ((None,), 0, cards),
        "promo_tokens": ((gd.MAX_PROMOTION,), 0, d.promotion_tokens),
        "market_tiles": ((gd.MARKET_COLUMNS * gd.MARKET_UPPER_ROWS,), -1, tiles),
        "market_upper": ((gd.MARKET_COLUMNS * gd.MARKET_UPPER_ROWS,), -1, LACERDA),
        "market_lower": ((gd.MARKET_COLUMNS * gd.MARKET_LOWER_ROWS,), -1, LACERDA),
        "location_tiles": ((NUM_LOCATIONS,), -1, tiles),
        "box_tiles": ((None,), 0, tiles),
        "tile_discard": ((None,), 0, tiles),
        "box_artists": ((None,), 0, len(d.artists) - 1),
        "box_bonus_tiles": ((None,), 0, len(d.artist_bonus_tiles) - 1),
        "box_curators": ((None,), 0, len(d.curators) - 1),
        "box_dealers": ((None,), 0, len(d.dealers) - 1),
        "lacerda_pos": ((), -1, NUM_LOCATIONS - 1),
        "lacerda_supply": ((), 0, d.assistants),
    }


def state_to_dict(s: GameState) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "data": {"name": s.data.name, "fingerprint": s.data.fingerprint},
        "num_players": s.num_players,
    }
    for name in _fields(s.data, s.num_players):
        value = getattr(s, name)
        out[name] = (
            [x[:] if isinstance(x, list) else x for x in value]
            if isinstance(value, list)
            else value
        )
    for name in _SCALAR_BOOLS:
        out[name] = getattr(s, name)
    out["contracts"] = [[slot[:] for slot in slots] for slots in s.contracts]
    out["kicked"] = list(s.kicked) if s.kicked is not None else None
    out["frames"] = [list(f) for f in s.frames]
    out["events"] = [[kind, data] for kind, data in s.events]
    return out


def read_state(s: GameState, data: Any, game_data: GameData | None = None) -> None:
    """Fill the blank state ``s`` from ``data`` (see ``GameState.from_dict``), checking
    every field and then the rules' invariants."""
    d, n = _read_header(data, game_data)
    s.data, s.num_players, s.solo = d, n, n == 1
    for name, (shape, *bounds) in _fields(d, n).items():
        setattr(s, name, _read(data, name, shape, bounds))
    for name in _SCALAR_BOOLS:
        value = data.get(name)
        if not isinstance(value, bool):
            raise StateFormatError(f"{name}: expected true or false, got {value!r}")
        setattr(s, name, value)
    s.contracts = _read_contracts(data.get("contracts"), n, len(d.contracts) - 1)
    s.kicked = _read_kicked(data.get("kicked"), n)
    s.frames = _read_frames(data.get("frames"), n)
    s.events = _read_events(data.get("events"))
    s._legal = None
    _check_loaded(s)


def _read_header(data: Any, game_data: GameData | None) -> tuple[GameData, int]:
    """Format, version, the component data it was saved with, and the player count."""
    if not isinstance(data, dict):
        raise StateFormatError("state: expected a JSON object")
    if data.get("format") != FORMAT:
        raise StateFormatError(f"format: expected {FORMAT!r}, got {data.get('format')!r}")
    if data.get("version") != VERSION:
        raise StateFormatError(
            f"version: {data.get('version')!r} is not supported (this engine reads {VERSION})"
        )
    d = game_data or default_game_data()
    saved = data.get("data")
    if not isinstance(saved, dict) or saved.get("fingerprint") != d.fingerprint:
        raise StateFormatError(
            f"data: the game was saved with component data {saved!r}; pass that data to load it "
            f"(given {d.name!r}, fingerprint {d.fingerprint!r})"
        )
    n = data.get("num_players")
    try:
        check_num_players(n)
    except ValueError as err:
        raise StateFormatError(f"num_players: {err}") from None
    return d, n


def _check_loaded(s: GameState) -> None:
    """The loaded fields together: sizes the field shapes leave open, then the invariants
    and the pending decision, each failure as a StateFormatError."""
    from .invariants import InconsistentStateError, check_invariants

    if len(s.easels) > gd.MAX_EASELS or len(s.gallery) and max(len(g) for g in s.gallery) > 4:
        raise StateFormatError("easels/gallery: too many works")
    try:
        check_invariants(s)
    except InconsistentStateError as err:
        raise StateFormatError(f"inconsistent state: {err}") from None
    except (IndexError, KeyError, TypeError, AssertionError) as err:  # a frame that makes no sense
        raise StateFormatError(
            f"frames: the pending decision cannot be evaluated ({err!r})"
        ) from None


def _check_int(name: str, value: Any, bounds: list[Any]) -> Any:
    if bounds == ["bool"]:
        if not isinstance(value, bool):
            raise StateFormatError(f"{name}: {value!r} is not true or false")
        return value
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise StateFormatError(f"{name}: {value!r} is not an int in {low}..{high}")
    return value


def _read_list(name: str, value: Any, length: int | None, bounds: list[Any]) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        what = "a list" if length is None else f"a list of {length}"
        raise StateFormatError(f"{name}: expected {what}, got {value!r:.60}")
    return [_check_int(f"{name}[{i}]", v, bounds) for i, v in enumerate(value)]


def _read(data: dict[str, Any], name: str, shape: tuple, bounds: list[Any]) -> Any:
    if name not in data:
        raise StateFormatError(f"{name}: missing")
    value = data[name]
    if shape == ():
        return _check_int(name, value, bounds)
    if len(shape) == 1:
        return _read_list(name, value, shape[0], bounds)
    if not isinstance(value, list) or len(value) != shape[0]:
        raise StateFormatError(f"{name}: expected a list of {shape[0]} lists")
    return [_read_list(f"{name}[{i}]", v, shape[1], bounds) for i, v in enumerate(value)]


def _read_contracts(value: Any, n: int, top: int) -> list[list[list[int]]]:
    if not isinstance(value, list) or len(value) != n:
        raise StateFormatError(f"contracts: expected a list of {n} player boards")
    out = []
    for p, slots in enumerate(value):
        if not isinstance(slots, list) or len(slots) != gd.NUM_CONTRACT_SLOTS:
            raise StateFormatError(f"contracts[{p}]: expected {gd.NUM_CONTRACT_SLOTS} slots")
        board = []
        for i, slot in enumerate(slots):
            card, state, on = _read_list(f"contracts[{p}][{i}]", slot, 3, [-1, top])
            if not 0 <= state <= 3 or on not in (0, 1):
                raise StateFormatError(
                    f"contracts[{p}][{i}]: state must be 0..3 and assistant 0 or 1"
                )
            board.append([card, state, on])
        out.append(board)
    return out


def _read_kicked(value: Any, n: int) -> tuple[int, int, int] | None:
    if value is None:
        return None
    owner, kind, loc = _read_list("kicked", value, 3, [0, LACERDA])
    if owner >= n or kind > 1 or loc >= NUM_LOCATIONS:
        raise StateFormatError(f"kicked: {value!r} is not [seat, 0 or 1, location]")
    return owner, kind, loc


def _read_frames(value: Any, n: int) -> list[tuple[int, ...]]:
    if not isinstance(value, list):
        raise StateFormatError("frames: expected a list")
    frames = []
    for i, raw in enumerate(value):
        frame = _read_list(f"frames[{i}]", raw, None, [-1, 10_000])
        if not frame or frame[0] not in _FRAME_ARITY:
            raise StateFormatError(f"frames[{i}]: unknown frame kind in {raw!r}")
        arity = _FRAME_ARITY[frame[0]]
        if (len(frame) - 1 != arity) if arity is not None else len(frame) < 3:
            raise StateFormatError(
                f"frames[{i}]: kind {frame[0]} takes {arity} arguments, got {raw!r}"
            )
        no_player = frame[0] in (fr.A_AUCTION, fr.A_GAME_OVER)
        if len(frame) > 1 and not no_player and not 0 <= frame[1] < n:
            raise StateFormatError(f"frames[{i}]: player {frame[1]} is not in 0..{n - 1}")
        frames.append(tuple(frame))
    return frames


def _read_events(value: Any) -> list[tuple[str, dict[str, Any]]]:
    if not isinstance(value, list):
        raise StateFormatError("events: expected a list")
    events = []
    for i, item in enumerate(value):
        if not (
            isinstance(item, list)
            and len(item) == 2
            and isinstance(item[0], str)
            and isinstance(item[1], dict)
        ):
            raise StateFormatError(f"events[{i}]: expected [kind, {{...}}]")
        events.append((item[0], item[1]))
    return events
