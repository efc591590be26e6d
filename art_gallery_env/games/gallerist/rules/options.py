"""Legal actions of each kind of decision frame (G3-G9, G16.2, G20.1): one function per
frame kind, picked by :data:`OPTIONS`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import frames as fr
from .actions import (
    ARTIST_BASE,
    ASSIST_DESK,
    ASSIST_LOC_BASE,
    BONUS_BASE,
    DONE,
    EASEL_BASE,
    HIRE,
    LOC_BASE,
    MOVE_BASE,
    ORIENT_BASE,
    SPACE_BASE,
    SPEND_FAME,
    START_BASE,
    TICKET_BASE,
    VISITOR_BASE,
)
from .data import NUM_COLOURS
from .effects import (
    assistant_code,
    assistants_available,
    can_pay_with_influence,
    can_spend_for_fame,
    may_enter_gallery,
    visitor_move_options,
)
from .frames import (
    EMPTY,
    EXEC_MOVING,
    EXEC_UNUSED,
    NUM_LOCATIONS,
    SLOT_EMPTY,
    V_LOBBY_TO_PLAZA,
    V_PLAZA_TO_GALLERY,
)
from .locations import (
    artist_options,
    auction_options,
    buy_ways,
    can_act,
    contract_options,
    free_desks_after_leave,
    hire_options,
    leave_options,
    reputation_options,
    sell_options,
)

if TYPE_CHECKING:
    from .state import GameState


def legal_for(s: GameState, frame: tuple) -> list[int]:
    """Sorted legal action ids of the decision ``frame`` (its player acts)."""
    return OPTIONS[frame[0]](s, frame[1], frame)


def _turn(s: GameState, p: int, frame: tuple) -> list[int]:
    """G3.2/G3.5: move to another location and take one of its actions; G4.1: one executive
    action before or after; [decision] pass only when no location action is possible."""
    exec_state = frame[2]
    if exec_state == EXEC_MOVING:
        return [DONE] + move_ids(s, p)
    here = s.gpos[p]
    out = [
        LOC_BASE + a
        for loc in range(NUM_LOCATIONS)
        if loc != here
        for a in (2 * loc, 2 * loc + 1)
        if can_act(s, p, a, loc)
    ]
    if not out:
        out.append(DONE)
    if exec_state == EXEC_UNUSED:
        out += move_ids(s, p) + bonus_ids(s, p)
    return sorted(out)


def _post(s: GameState, p: int, frame: tuple) -> list[int]:
    if frame[2] == EXEC_MOVING:
        return [DONE] + move_ids(s, p)
    out = [DONE]
    if frame[2] == EXEC_UNUSED:
        out += move_ids(s, p) + bonus_ids(s, p)
    return out


def _kicked(s: GameState, p: int, frame: tuple) -> list[int]:
    """G5.2: a location action here for influence back to the previous fame icon, or an
    executive action, or nothing."""
    loc, exec_state = frame[2], frame[3]
    if exec_state == EXEC_MOVING:
        return [DONE] + move_ids(s, p)
    out = [DONE]
    if s.influence[p] > 0:
        saved = s.influence[p]
        s.influence[p] = s.data.prev_fame_icon[saved]
        try:
            out += [LOC_BASE + a for a in (2 * loc, 2 * loc + 1) if can_act(s, p, a)]
        finally:
            s.influence[p] = saved
    return sorted(out + move_ids(s, p) + bonus_ids(s, p))


def move_ids(s: GameState, p: int) -> list[int]:
    return [MOVE_BASE + 5 * c + src for c, src in visitor_move_options(s, p)]


def bonus_ids(s: GameState, p: int) -> list[int]:
    """G4.5: a contract whose current side's bonus has no assistant on it yet."""
    if not assistants_available(s, p):
        return []
    return [
        BONUS_BASE + i
        for i, (_card, state, on) in enumerate(s.contracts[p])
        if state != SLOT_EMPTY and not on
    ]


def _start(s: GameState, p: int, frame: tuple) -> list[int]:
    return [
        START_BASE + loc
        for loc in range(NUM_LOCATIONS)
        if s.location_tiles[loc] != EMPTY and s.occupant[loc] == EMPTY
    ]


def _assistants(s: GameState, p: int) -> list[int]:
    out = [ASSIST_DESK] if s.desks[p] else []
    code = assistant_code(p)
    return out + [ASSIST_LOC_BASE + loc for loc in range(NUM_LOCATIONS) if s.occupant[loc] == code]


def _leave(s: GameState, p: int, frame: tuple) -> list[int]:
    """G3.3: none, a desk, an own assistant on a location (the destination's included);
    before hiring only the choices that leave a desk empty (the action was offered so)."""
    dest = frame[3] // 2
    out = leave_options(s, p, dest)
    if frame[3] == HIRE:
        out = [c for c in out if hire_options(s, p, free_desks_after_leave(s, p, c, dest))]
    return out


def _visitor(s: GameState, p: int, frame: tuple) -> list[int]:
    purpose, mask = frame[2], frame[3]
    if purpose == V_PLAZA_TO_GALLERY:
        colours = [
            c
            for c in range(NUM_COLOURS)
            if mask >> c & 1 and s.plaza[c] and may_enter_gallery(s, p, c)
        ]
    elif purpose == V_LOBBY_TO_PLAZA:
        colours = [c for c in range(NUM_COLOURS) if s.lobby[p][c]]
    else:
        colours = [c for c in range(NUM_COLOURS) if s.gallery_visitors[p][c]]
    return [VISITOR_BASE + c for c in colours]


OPTIONS: dict[int, Callable[[GameState, int, tuple], list[int]]] = {
    fr.F_START: _start,
    fr.F_TURN: _turn,
    fr.F_POST: _post,
    fr.F_KICKED: _kicked,
    fr.F_LEAVE: _leave,
    fr.F_ARTIST: lambda s, p, f: [ARTIST_BASE + a for a in artist_options(s, p, f[2])],
    fr.F_FAME: lambda s, p, f: [DONE, SPEND_FAME] if can_spend_for_fame(s, p, f[2]) else [DONE],
    fr.F_TICKET: lambda s, p, f: [TICKET_BASE + c for c in range(NUM_COLOURS) if f[2] >> c & 1],
    fr.F_VISITOR: _visitor,
    fr.F_CONTRACT: lambda s, p, f: contract_options(s, p, bool(f[2])),
    fr.F_SELL: lambda s, p, f: sell_options(s, p),
    fr.F_HIRE: lambda s, p, f: hire_options(s, p),
    fr.F_REP: lambda s, p, f: reputation_options(s, p),
    fr.F_AUCTION: lambda s, p, f: auction_options(s, p),
    fr.F_SPACE: lambda s, p, f: [SPACE_BASE + i for i, t in enumerate(s.spaces[p]) if t == EMPTY],
    fr.F_ASSIST: lambda s, p, f: _assistants(s, p),
    fr.F_ORIENT: lambda s, p, f: [ORIENT_BASE, ORIENT_BASE + 1],
    fr.F_EASEL: lambda s, p, f: [EASEL_BASE + e for e in range(len(s.easels))],
    fr.F_PAY: lambda s, p, f: [DONE, SPEND_FAME] if can_pay_with_influence(s, p, f[2]) else [DONE],
    fr.F_COMMISSION: lambda s, p, f: buy_ways(s, p, f[2]),
    fr.F_DISCARD: lambda s, p, f: [TICKET_BASE + c for c in range(NUM_COLOURS) if f[3] >> c & 1],
}
