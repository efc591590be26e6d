"""What a chosen action does, per kind of decision frame (G2-G9, G16.2): one function per
frame kind, picked by :data:`DECIDE`. Each pops (or replaces) its frame and may push more."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import frames as fr
from .actions import (
    ARTIST_BASE,
    ASSIST_DESK,
    ASSIST_LOC_BASE,
    ASSIST_NONE,
    AUCTION_BASE,
    BONUS_BASE,
    CONTRACT_BASE,
    DONE,
    EASEL_BASE,
    HIRE_BASE,
    LOC_BASE,
    MOVE_BASE,
    ORIENT_BASE,
    ORIENT_INFLUENCE,
    REDRAW,
    REP_BASE,
    SELL_BASE,
    SPACE_BASE,
    START_BASE,
    TICKET_BASE,
    USE_COMMISSION,
    VISITOR_BASE,
)
from .effects import (
    apply_bonus,
    assistant_code,
    discard_for_ticket,
    fame_bonus,
    gain_ticket,
    influence_for_money,
    move_visitor,
    renowned_value,
    send_home,
    spend_for_fame,
)
from .frames import (
    ASSISTANT,
    EMPTY,
    EXEC_MOVING,
    EXEC_USED,
    GALLERIST,
    KICKED,
    LACERDA,
    NUM_LOCATIONS,
    P_BUY,
    P_DISCOVER,
    P_PROMOTE,
    SLOT_DOWN_INFLUENCE,
    SLOT_DOWN_MONEY,
    T_CONTRACT,
    T_MARKET_LOWER,
    T_MARKET_UPPER,
    TILE_FROM_MARKET,
    V_LOBBY_TO_PLAZA,
    V_PLAZA_TO_GALLERY,
)
from .lacerda import lacerda_kicked
from .locations import (
    buy,
    choose_buy,
    discover,
    hire,
    make_offer,
    promote,
    redraw,
    sell,
    sign,
    start_action,
    take_reputation,
)

if TYPE_CHECKING:
    from .state import GameState


def decide(s: GameState, frame: tuple, action: int) -> None:
    """Carry out legal ``action`` of the decision ``frame`` (the top of ``s.frames``)."""
    DECIDE[frame[0]](s, frame, action)


def _menu(s: GameState, frame: tuple, action: int) -> None:
    """F_TURN, F_POST and F_KICKED: location actions, executive actions, done."""
    kind, p = frame[0], frame[1]
    frames = s.frames
    if MOVE_BASE <= action < BONUS_BASE:  # G4.2: one ticket moves one visitor one step
        c, source = divmod(action - MOVE_BASE, 5)
        move_visitor(s, p, c, source)
        frames[-1] = (*frame[:-1], EXEC_MOVING)
    elif BONUS_BASE <= action < EASEL_BASE:  # G4.5: an assistant onto a contract's bonus
        slot = action - BONUS_BASE
        frames[-1] = (fr.A_KICK_END, p) if kind == fr.F_KICKED else (*frame[:-1], EXEC_USED)
        frames.append((fr.A_CONTRACT_BONUS, p, slot))
        frames.append((fr.F_ASSIST, p, T_CONTRACT, slot))
    elif action == DONE:
        if kind == fr.F_KICKED:
            frames[-1] = (fr.A_KICK_END, p)
        elif frame[-1] == EXEC_MOVING:
            frames[-1] = (*frame[:-1], EXEC_USED)
        else:  # the end of the turn (F_POST) or [decision] a pass (F_TURN, G3.5)
            frames[-1] = (fr.A_END_TURN, p, 0)
    elif kind == fr.F_KICKED:  # G5.2: paid with influence, taken where the piece was kicked out
        s.influence[p] = s.data.prev_fame_icon[s.influence[p]]
        frames[-1] = (fr.A_KICK_END, p)
        start_action(s, p, action - LOC_BASE)
    else:
        _move_gallerist(s, frame, action - LOC_BASE)


def _move_gallerist(s: GameState, frame: tuple, action: int) -> None:
    """G3.2-G3.4: go to the action's location, kick out its occupant, maybe leave an
    assistant where the Gallerist was; the location action follows."""
    p, exec_state = frame[1], frame[2]
    frames = s.frames
    origin = s.gpos[p]
    frames[-1] = (fr.F_POST, p, EXEC_USED if exec_state == EXEC_MOVING else exec_state)
    frames.append((fr.A_ACTION, p, action))
    leave = origin < NUM_LOCATIONS and (s.desks[p] > 0 or assistant_code(p) in s.occupant)
    if origin < NUM_LOCATIONS:
        s.occupant[origin] = EMPTY
    arrive(s, p, action // 2, leave)
    if leave:
        frames.append((fr.F_LEAVE, p, origin, action))  # G3.3


def arrive(s: GameState, p: int, loc: int, leave: bool = False) -> None:
    """G3.4: whoever stands at ``loc`` is kicked out; the Gallerist stands there. An own
    assistant goes home without a Kicked-Out action, unless a leave-behind decision
    follows (``leave``): then it waits aside (``s.kicked``) as one it may choose (G3.3)."""
    occupant = s.occupant[loc]
    kicked = None
    if occupant != EMPTY:
        owner, kind = divmod(occupant, 2)
        if owner == LACERDA:
            lacerda_kicked(s, kind, loc)
        elif owner == p and leave:
            s.kicked = (p, ASSISTANT, loc)
        elif owner == p:
            send_home(s, p)
        else:
            if kind == GALLERIST:
                s.gpos[owner] = KICKED
            s.kicked = kicked = (owner, kind, loc)
    s.occupant[loc] = 2 * p + GALLERIST
    s.gpos[p] = loc
    s.events.append(("move", {"player": p, "to": loc, "kicked": list(kicked) if kicked else None}))


def _start(s: GameState, frame: tuple, action: int) -> None:
    p, loc = frame[1], action - START_BASE
    s.frames.pop()
    s.occupant[loc] = 2 * p + GALLERIST
    s.gpos[p] = loc
    s.start_tile[p] = s.location_tiles[loc]  # G2.14/G2.15: onto the third art slot
    s.location_tiles[loc] = EMPTY
    s.events.append(("start", {"player": p, "location": loc}))


def _take_assistant(s: GameState, p: int, action: int) -> None:
    if action == ASSIST_DESK:
        s.desks[p] -= 1
    else:
        s.occupant[action - ASSIST_LOC_BASE] = EMPTY


def _leave(s: GameState, frame: tuple, action: int) -> None:
    """G3.3: the chosen assistant onto the location left; then an own assistant that stood
    at the destination and was not chosen goes home (G3.4)."""
    s.frames.pop()
    p, origin, dest = frame[1], frame[2], frame[3] // 2
    own_there = s.kicked == (p, ASSISTANT, dest)
    if action == ASSIST_LOC_BASE + dest and own_there:
        s.kicked = None
    elif action != ASSIST_NONE:
        _take_assistant(s, p, action)
    if action != ASSIST_NONE:
        s.occupant[origin] = assistant_code(p)
    if s.kicked == (p, ASSISTANT, dest):
        s.kicked = None
        send_home(s, p)


def _assist(s: GameState, frame: tuple, action: int) -> None:
    s.frames.pop()
    p, target, index = frame[1], frame[2], frame[3]
    _take_assistant(s, p, action)
    if target == T_MARKET_UPPER:
        s.market_upper[index] = p
    elif target == T_MARKET_LOWER:
        s.market_lower[index] = p
    else:
        s.contracts[p][index][2] = 1


_ARTIST_ACTIONS = {P_DISCOVER: discover, P_BUY: choose_buy, P_PROMOTE: promote}


def _artist(s: GameState, frame: tuple, action: int) -> None:
    s.frames.pop()
    p, purpose, artist = frame[1], frame[2], action - ARTIST_BASE
    if purpose in _ARTIST_ACTIONS:
        _ARTIST_ACTIONS[purpose](s, p, artist)
    else:  # a fame bonus (G19)
        fame_bonus(s, p, artist, frame[3])


def _fame(s: GameState, frame: tuple, action: int) -> None:
    if action == DONE:
        s.frames.pop()
    else:
        spend_for_fame(s, frame[1], frame[2])


def _ticket(s: GameState, frame: tuple, action: int) -> None:
    frames = s.frames
    frames.pop()
    c = action - TICKET_BASE
    if frames and frames[-1][0] == fr.A_TICKETS:  # G11.1: the next icon may not repeat it
        nxt = frames[-1]
        frames[-1] = (fr.A_TICKETS, nxt[1], nxt[2] | 1 << c, *nxt[3:])
    gain_ticket(s, frame[1], c)  # last: it may push the discard decision (G11.2)


def _discard(s: GameState, frame: tuple, action: int) -> None:
    """G11.2: the chosen other colour to the discard pile, the wanted one from there."""
    s.frames.pop()
    discard_for_ticket(s, frame[1], frame[2], action - TICKET_BASE)


def _pay(s: GameState, frame: tuple, action: int) -> None:
    """G10.2: one more money from influence for the cost being paid, or done."""
    if action == DONE:
        s.frames.pop()
    else:
        influence_for_money(s, frame[1])
        s.frames[-1] = (fr.F_PAY, frame[1], frame[2] - 1)


def _commission(s: GameState, frame: tuple, action: int) -> None:
    s.frames.pop()
    buy(s, frame[1], frame[2], action == USE_COMMISSION)


def _visitor(s: GameState, frame: tuple, action: int) -> None:
    frames = s.frames
    frames.pop()
    p, purpose, c = frame[1], frame[2], action - VISITOR_BASE
    if purpose == V_PLAZA_TO_GALLERY:
        s.plaza[c] -= 1
        s.gallery_visitors[p][c] += 1
    elif purpose == V_LOBBY_TO_PLAZA:
        s.lobby[p][c] -= 1
        s.plaza[c] += 1
    else:  # out of the Gallery after a sale: the contract's orientation follows (G7.4)
        s.gallery_visitors[p][c] -= 1
        s.plaza[c] += 1
        flip = frames[-1]
        frames[-1] = (fr.A_SELL_FLIP, flip[1], flip[2], c)


def _contract(s: GameState, frame: tuple, action: int) -> None:
    if action == REDRAW:
        redraw(s)
        s.frames[-1] = (fr.F_CONTRACT, frame[1], 0)
    else:
        s.frames.pop()
        column, slot = divmod(action - CONTRACT_BASE, 3)
        sign(s, frame[1], column, slot)


def _sell(s: GameState, frame: tuple, action: int) -> None:
    s.frames.pop()
    index, slot = divmod(action - SELL_BASE, 3)
    sell(s, frame[1], index, slot)


def _space(s: GameState, frame: tuple, action: int) -> None:
    s.frames.pop()
    p, i = frame[1], action - SPACE_BASE
    if frame[2] == TILE_FROM_MARKET:
        s.spaces[p][i] = s.market_tiles[frame[3]]
        s.market_tiles[frame[3]] = EMPTY
    else:
        s.spaces[p][i] = s.pending_tile[p]
        s.pending_tile[p] = EMPTY
    apply_bonus(s, p, s.data.reputation_spaces[i])


def _orient(s: GameState, frame: tuple, action: int) -> None:
    s.frames.pop()
    up = SLOT_DOWN_INFLUENCE if action - ORIENT_BASE == ORIENT_INFLUENCE else SLOT_DOWN_MONEY
    s.contracts[frame[1]][frame[2]][1] = up


def _easel(s: GameState, frame: tuple, action: int) -> None:
    s.frames.pop()
    p = frame[1]
    work = s.easels.pop(action - EASEL_BASE)
    s.renowned[p] = work
    s.events.append(("renowned", {"player": p, "work": work, "value": renowned_value(s, work)}))


def _pop_then(fn: Callable[[GameState, int, int], None], base: int, offset: int = 0):
    def run(s: GameState, frame: tuple, action: int) -> None:
        s.frames.pop()
        fn(s, frame[1], action - base + offset)

    return run


DECIDE: dict[int, Callable[[GameState, tuple, int], None]] = {
    fr.F_START: _start,
    fr.F_TURN: _menu,
    fr.F_POST: _menu,
    fr.F_KICKED: _menu,
    fr.F_LEAVE: _leave,
    fr.F_ARTIST: _artist,
    fr.F_FAME: _fame,
    fr.F_TICKET: _ticket,
    fr.F_VISITOR: _visitor,
    fr.F_CONTRACT: _contract,
    fr.F_SELL: _sell,
    fr.F_HIRE: _pop_then(hire, HIRE_BASE, 1),
    fr.F_REP: _pop_then(take_reputation, REP_BASE),
    fr.F_AUCTION: _pop_then(make_offer, AUCTION_BASE),
    fr.F_SPACE: _space,
    fr.F_ASSIST: _assist,
    fr.F_ORIENT: _orient,
    fr.F_EASEL: _easel,
    fr.F_PAY: _pay,
    fr.F_COMMISSION: _commission,
    fr.F_DISCARD: _discard,
}
