"""The flow of a game (G3, G4, G5, G15, G20): legal actions and their effects per decision
frame, automatic frames, turn order, the end of the game.

Every decision with no choice (one legal action) is applied by the engine, so
``current_player`` always has at least two actions to choose from (G20.1).
"""

from __future__ import annotations

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
    NUM_ACTIONS,
    ORIENT_BASE,
    ORIENT_INFLUENCE,
    REDRAW,
    REP_BASE,
    SELL_BASE,
    SPACE_BASE,
    SPEND_FAME,
    START_BASE,
    TICKET_BASE,
    VISITOR_BASE,
    action_to_str,
    check_action_id,
)
from .data import (
    COLLECTOR,
    INVESTOR,
    MARKET_COLUMNS,
    MARKET_LOWER_ROWS,
    NUM_COLOURS,
    VIP,
)
from .effects import (
    apply_bonus,
    assistant_code,
    assistants_available,
    can_spend_for_fame,
    gain_influence,
    gain_ticket,
    increase_fame,
    may_enter_gallery,
    move_visitor,
    renowned_value,
    send_home,
    spend_for_fame,
    visitor_move_options,
)
from .lacerda import lacerda_kicked, lacerda_move
from .locations import (
    artist_options,
    auction_options,
    buy,
    can_act,
    contract_options,
    discover,
    hire,
    hire_options,
    make_offer,
    promote,
    redraw,
    reputation_options,
    sell,
    sell_options,
    sign,
    start_action,
    take_reputation,
)
from .state import (
    A_ACTION,
    A_AUCTION,
    A_CONTRACT_BONUS,
    A_END_TURN,
    A_GAME_OVER,
    A_KICK_END,
    A_LACERDA_PICK,
    A_SELL_FLIP,
    A_START_TILE,
    A_TICKETS,
    AUTO_BASE,
    DECISION_NAMES,
    EMPTY,
    EXEC_MOVING,
    EXEC_UNUSED,
    EXEC_USED,
    F_ARTIST,
    F_ASSIST,
    F_AUCTION,
    F_CONTRACT,
    F_EASEL,
    F_FAME,
    F_HIRE,
    F_KICKED,
    F_LEAVE,
    F_ORIENT,
    F_POST,
    F_REP,
    F_SELL,
    F_SPACE,
    F_START,
    F_TICKET,
    F_TURN,
    F_VISITOR,
    GALLERIST,
    HOME,
    KICKED,
    LACERDA,
    NUM_LOCATIONS,
    P_BUY,
    P_DISCOVER,
    P_PROMOTE,
    SLOT_DOWN_INFLUENCE,
    SLOT_DOWN_MONEY,
    SLOT_EMPTY,
    SLOT_UP,
    T_CONTRACT,
    T_MARKET_LOWER,
    T_MARKET_UPPER,
    TILE_FROM_MARKET,
    TILE_FROM_START,
    V_LOBBY_TO_PLAZA,
    V_PLAZA_TO_GALLERY,
    GameState,
)

MAX_ROUNDS = 40
"""G15.3 [decision]: a game that has not triggered its end by this round ends as if it had."""


class IllegalActionError(ValueError):
    """An action that the current player may not take; the state is left untouched."""


# -- legal actions -----------------------------------------------------------------------
def legal_for(s: GameState, frame: tuple) -> list[int]:
    kind, p = frame[0], frame[1]
    if kind == F_TURN:
        return _turn_options(s, p, frame[2])
    if kind == F_POST:
        if frame[2] == EXEC_MOVING:
            return [DONE] + _move_ids(s, p)
        out = [DONE]
        if frame[2] == EXEC_UNUSED:
            out += _move_ids(s, p) + _bonus_ids(s, p)
        return out
    if kind == F_KICKED:
        return _kicked_options(s, p, frame[2], frame[3])
    if kind == F_START:
        return [
            START_BASE + loc
            for loc in range(NUM_LOCATIONS)
            if s.location_tiles[loc] != EMPTY and s.occupant[loc] == EMPTY
        ]
    if kind == F_LEAVE:
        out = [ASSIST_NONE]
        if s.desks[p]:
            out.append(ASSIST_DESK)
        code = assistant_code(p)
        return out + [
            ASSIST_LOC_BASE + loc for loc in range(NUM_LOCATIONS) if s.occupant[loc] == code
        ]
    if kind == F_ARTIST:
        return [ARTIST_BASE + a for a in artist_options(s, p, frame[2])]
    if kind == F_FAME:
        return [DONE, SPEND_FAME] if can_spend_for_fame(s, p, frame[2]) else [DONE]
    if kind == F_TICKET:
        return [TICKET_BASE + c for c in range(NUM_COLOURS) if frame[2] >> c & 1]
    if kind == F_VISITOR:
        return [VISITOR_BASE + c for c in _visitor_colours(s, p, frame[2], frame[3])]
    if kind == F_CONTRACT:
        return contract_options(s, p, bool(frame[2]))
    if kind == F_SELL:
        return sell_options(s, p)
    if kind == F_HIRE:
        return hire_options(s, p)
    if kind == F_REP:
        return reputation_options(s, p)
    if kind == F_AUCTION:
        return auction_options(s, p)
    if kind == F_SPACE:
        return [SPACE_BASE + i for i, t in enumerate(s.spaces[p]) if t == EMPTY]
    if kind == F_ASSIST:
        out = [ASSIST_DESK] if s.desks[p] else []
        code = assistant_code(p)
        return out + [
            ASSIST_LOC_BASE + loc for loc in range(NUM_LOCATIONS) if s.occupant[loc] == code
        ]
    if kind == F_ORIENT:
        return [ORIENT_BASE, ORIENT_BASE + 1]
    if kind == F_EASEL:
        return [EASEL_BASE + e for e in range(len(s.easels))]
    raise AssertionError(f"not a decision frame: {frame}")


def _turn_options(s: GameState, p: int, exec_state: int) -> list[int]:
    """G3.2/G3.5: move to another location and take one of its actions; G4.1: one executive
    action before or after; [decision] pass only when no location action is possible."""
    if exec_state == EXEC_MOVING:
        return [DONE] + _move_ids(s, p)
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
        out += _move_ids(s, p) + _bonus_ids(s, p)
    return sorted(out)


def _kicked_options(s: GameState, p: int, loc: int, exec_state: int) -> list[int]:
    """G5.2: a location action here for influence back to the previous fame icon, or an
    executive action, or nothing."""
    if exec_state == EXEC_MOVING:
        return [DONE] + _move_ids(s, p)
    out = [DONE]
    if s.influence[p] > 0:
        saved = s.influence[p]
        s.influence[p] = s.data.prev_fame_icon[saved]
        try:
            out += [LOC_BASE + a for a in (2 * loc, 2 * loc + 1) if can_act(s, p, a)]
        finally:
            s.influence[p] = saved
    return sorted(out + _move_ids(s, p) + _bonus_ids(s, p))


def _move_ids(s: GameState, p: int) -> list[int]:
    return [MOVE_BASE + 5 * c + src for c, src in visitor_move_options(s, p)]


def _bonus_ids(s: GameState, p: int) -> list[int]:
    """G4.5: a contract whose current side's bonus has no assistant on it yet."""
    if not assistants_available(s, p):
        return []
    return [
        BONUS_BASE + i
        for i, (card, state, on) in enumerate(s.contracts[p])
        if state != SLOT_EMPTY and not on
    ]


def _visitor_colours(s: GameState, p: int, purpose: int, mask: int) -> list[int]:
    if purpose == V_PLAZA_TO_GALLERY:
        return [
            c
            for c in range(NUM_COLOURS)
            if mask >> c & 1 and s.plaza[c] and may_enter_gallery(s, p, c)
        ]
    if purpose == V_LOBBY_TO_PLAZA:
        return [c for c in range(NUM_COLOURS) if s.lobby[p][c]]
    return [c for c in range(NUM_COLOURS) if s.gallery_visitors[p][c]]


# -- applying a decision -------------------------------------------------------------------
def apply_action(s: GameState, action: int) -> None:
    legal = s._legal
    if legal is None:
        legal = s.legal_actions()
    if action.__class__ is not int:  # numpy ints are fine; bools, floats and strings are not
        try:
            action = check_action_id(action)
        except ValueError:
            _raise_illegal(s, action, legal)
    if action not in legal:
        _raise_illegal(s, action, legal)
    s._legal = None
    frame = s.frames[-1]
    s.events.append(("decision", {"player": frame[1], "action": action}))
    _decide(s, frame, action)
    advance(s)


def _raise_illegal(s: GameState, action: object, legal: list[int]) -> None:
    if s.over:
        raise IllegalActionError(f"the game is over; no action is legal (got {action!r})")
    try:
        problem = f"action {action} ({action_to_str(action)}) is not legal"  # type: ignore[arg-type]
    except ValueError:
        problem = f"action must be an int in 0..{NUM_ACTIONS - 1}, got {action!r}"
    choices = ", ".join(f"{a} ({action_to_str(a)})" for a in legal)
    raise IllegalActionError(
        f"{problem} for player {s.current_player} at decision "
        f"{DECISION_NAMES[s.frames[-1][0]]!r}; legal actions: {choices}"
    )


def _decide(s: GameState, frame: tuple, action: int) -> None:
    kind, p = frame[0], frame[1]
    frames = s.frames
    if kind in (F_TURN, F_POST, F_KICKED):
        _decide_menu(s, frame, action)
    elif kind == F_START:
        loc = action - START_BASE
        frames.pop()
        s.occupant[loc] = 2 * p + GALLERIST
        s.gpos[p] = loc
        s.start_tile[p] = s.location_tiles[loc]  # G2.14/G2.15c: onto the third art slot
        s.location_tiles[loc] = EMPTY
        s.events.append(("start", {"player": p, "location": loc}))
    elif kind == F_LEAVE:
        frames.pop()
        origin = frame[2]
        if action == ASSIST_DESK:
            s.desks[p] -= 1
        elif action != ASSIST_NONE:
            s.occupant[action - ASSIST_LOC_BASE] = EMPTY
        if action != ASSIST_NONE:
            s.occupant[origin] = assistant_code(p)
    elif kind == F_ARTIST:
        frames.pop()
        a = action - ARTIST_BASE
        purpose = frame[2]
        if purpose == P_DISCOVER:
            discover(s, p, a)
        elif purpose == P_BUY:
            buy(s, p, a)
        elif purpose == P_PROMOTE:
            promote(s, p, a)
        else:
            increase_fame(s, p, a, frame[3])
    elif kind == F_FAME:
        if action == DONE:
            frames.pop()
        else:
            spend_for_fame(s, p, frame[2])
    elif kind == F_TICKET:
        frames.pop()
        c = action - TICKET_BASE
        gain_ticket(s, p, c)
        if frames and frames[-1][0] == A_TICKETS:  # the next icon may not repeat the colour
            nxt = frames[-1]
            frames[-1] = (A_TICKETS, nxt[1], nxt[2] | 1 << c, *nxt[3:])
    elif kind == F_VISITOR:
        frames.pop()
        c = action - VISITOR_BASE
        purpose = frame[2]
        if purpose == V_PLAZA_TO_GALLERY:
            s.plaza[c] -= 1
            s.gallery_visitors[p][c] += 1
        elif purpose == V_LOBBY_TO_PLAZA:
            s.lobby[p][c] -= 1
            s.plaza[c] += 1
        else:
            s.gallery_visitors[p][c] -= 1
            s.plaza[c] += 1
            flip = frames[-1]
            frames[-1] = (A_SELL_FLIP, flip[1], flip[2], c)
    elif kind == F_CONTRACT:
        if action == REDRAW:
            redraw(s)
            frames[-1] = (F_CONTRACT, p, 0)
        else:
            frames.pop()
            column, slot = divmod(action - CONTRACT_BASE, 3)
            sign(s, p, column, slot)
    elif kind == F_SELL:
        frames.pop()
        index, slot = divmod(action - SELL_BASE, 3)
        sell(s, p, index, slot)
    elif kind == F_HIRE:
        frames.pop()
        hire(s, p, action - HIRE_BASE + 1)
    elif kind == F_REP:
        frames.pop()
        take_reputation(s, p, action - REP_BASE)
    elif kind == F_AUCTION:
        frames.pop()
        make_offer(s, p, action - AUCTION_BASE)
    elif kind == F_SPACE:
        frames.pop()
        i = action - SPACE_BASE
        if frame[2] == TILE_FROM_MARKET:
            s.spaces[p][i] = s.market_tiles[frame[3]]
            s.market_tiles[frame[3]] = EMPTY
        else:
            s.spaces[p][i] = s.pending_tile[p]
            s.pending_tile[p] = EMPTY
        apply_bonus(s, p, s.data.reputation_spaces[i])
    elif kind == F_ASSIST:
        frames.pop()
        if action == ASSIST_DESK:
            s.desks[p] -= 1
        else:
            s.occupant[action - ASSIST_LOC_BASE] = EMPTY
        target, index = frame[2], frame[3]
        if target == T_MARKET_UPPER:
            s.market_upper[index] = p
        elif target == T_MARKET_LOWER:
            s.market_lower[index] = p
        else:
            s.contracts[p][index][2] = 1
    elif kind == F_ORIENT:
        frames.pop()
        orientation = action - ORIENT_BASE
        s.contracts[p][frame[2]][1] = (
            SLOT_DOWN_INFLUENCE if orientation == ORIENT_INFLUENCE else SLOT_DOWN_MONEY
        )
    elif kind == F_EASEL:
        frames.pop()
        work = s.easels.pop(action - EASEL_BASE)
        s.renowned[p] = work
        s.events.append(("renowned", {"player": p, "work": work, "value": renowned_value(s, work)}))
    else:  # pragma: no cover
        raise AssertionError(f"not a decision frame: {frame}")


def _decide_menu(s: GameState, frame: tuple, action: int) -> None:
    """F_TURN, F_POST and F_KICKED: location actions, executive actions, done."""
    kind, p = frame[0], frame[1]
    frames = s.frames
    exec_state = frame[3] if kind == F_KICKED else frame[2]
    if MOVE_BASE <= action < BONUS_BASE:  # G4.2: one ticket moves one visitor one step
        c, source = divmod(action - MOVE_BASE, 5)
        move_visitor(s, p, c, source)
        frames[-1] = (*frame[:-1], EXEC_MOVING)
        return
    if BONUS_BASE <= action < EASEL_BASE:  # G4.5: an assistant onto a contract's bonus
        slot = action - BONUS_BASE
        frames[-1] = (A_KICK_END, p) if kind == F_KICKED else (*frame[:-1], EXEC_USED)
        frames.append((A_CONTRACT_BONUS, p, slot))
        frames.append((F_ASSIST, p, T_CONTRACT, slot))
        return
    if action == DONE:
        if exec_state == EXEC_MOVING and kind != F_KICKED:
            frames[-1] = (*frame[:-1], EXEC_USED)
        elif kind == F_KICKED:
            frames[-1] = (A_KICK_END, p)
        else:  # end of turn (F_POST) or [decision] pass (F_TURN, no location action)
            frames[-1] = (A_END_TURN, p, 0)
        return
    # a location action (G3)
    if kind == F_KICKED:  # G5.2: paid with influence, taken where the piece was kicked out
        s.influence[p] = s.data.prev_fame_icon[s.influence[p]]
        frames[-1] = (A_KICK_END, p)
        start_action(s, p, action - LOC_BASE)
        return
    loc = (action - LOC_BASE) // 2
    origin = s.gpos[p]
    frames[-1] = (F_POST, p, EXEC_USED if exec_state == EXEC_MOVING else exec_state)
    frames.append((A_ACTION, p, action - LOC_BASE))
    if origin < NUM_LOCATIONS:
        s.occupant[origin] = EMPTY
    arrive(s, p, loc)
    if origin < NUM_LOCATIONS and (s.desks[p] or assistant_code(p) in s.occupant):
        frames.append((F_LEAVE, p, origin))  # G3.3


def arrive(s: GameState, p: int, loc: int) -> None:
    """G3.4: whoever stands at ``loc`` is kicked out; the Gallerist stands there."""
    occupant = s.occupant[loc]
    kicked = None
    if occupant != EMPTY:
        owner, kind = divmod(occupant, 2)
        if owner == LACERDA:
            lacerda_kicked(s, kind, loc)
        elif owner == p:  # the own assistant goes home without a Kicked-Out action
            send_home(s, p)
        else:
            if kind == GALLERIST:
                s.gpos[owner] = KICKED
            s.kicked = kicked = (owner, kind, loc)
    s.occupant[loc] = 2 * p + GALLERIST
    s.gpos[p] = loc
    s.events.append(("move", {"player": p, "to": loc, "kicked": list(kicked) if kicked else None}))


# -- automatic frames -------------------------------------------------------------------
def _run_auto(s: GameState, frame: tuple) -> None:
    kind = frame[0]
    frames = s.frames
    if kind == A_ACTION:  # the location action, after the leave-behind decision
        frames.pop()
        start_action(s, frame[1], frame[2])
    elif kind == A_TICKETS:
        frames.pop()
        p, taken = frame[1], frame[2]
        if len(frame) == 3:
            return
        icon, rest = frame[3], frame[4:]
        allowed = icon & ~taken or icon
        if allowed & (allowed - 1):  # a choice
            if rest:
                frames.append((A_TICKETS, p, taken, *rest))
            frames.append((F_TICKET, p, allowed))
        else:
            c = allowed.bit_length() - 1
            gain_ticket(s, p, c)
            if rest:
                frames.append((A_TICKETS, p, taken | allowed, *rest))
    elif kind == A_SELL_FLIP:
        frames.pop()
        p, slot, colour = frame[1], frame[2], frame[3]
        if colour == VIP:
            s.contracts[p][slot][1] = SLOT_DOWN_INFLUENCE
        elif colour == INVESTOR:
            s.contracts[p][slot][1] = SLOT_DOWN_MONEY
        else:
            s.contracts[p][slot][1] = SLOT_DOWN_INFLUENCE  # until the player orients it
            frames.append((F_ORIENT, p, slot))
    elif kind == A_CONTRACT_BONUS:
        frames.pop()
        p, slot = frame[1], frame[2]
        card, state, _ = s.contracts[p][slot]
        d = s.data
        bonus = (
            d.contracts[card].bonus
            if state == SLOT_UP
            else d.contract_back[state - SLOT_DOWN_INFLUENCE]
        )
        s.events.append(("contract_bonus", {"player": p, "slot": slot}))
        apply_bonus(s, p, bonus)
    elif kind == A_START_TILE:
        frames.pop()
        _start_tile(s, frame[1])
    elif kind == A_KICK_END:
        frames.pop()
        p = frame[1]
        _kicked_home(s)
        if s.pending_tile[p] != EMPTY:
            frames.append((A_START_TILE, p))
    elif kind == A_END_TURN:
        _end_turn(s, frame[1], frame[2])
    elif kind == A_AUCTION:
        frames.pop()
        _final_auction(s)
    elif kind == A_LACERDA_PICK:
        frames.pop()
        if s.easels:
            best = max(range(len(s.easels)), key=lambda e: (renowned_value(s, s.easels[e]), -e))
            work = s.easels.pop(best)
            s.box_works.append(work)
            s.box_works.sort()
            s.events.append(("renowned", {"player": LACERDA, "work": work, "value": 0}))
    elif kind == A_GAME_OVER:
        frames.pop()
        s.over = True
        totals = [b["total"] for b in s.score_breakdown()]
        s.events.append(("game_over", {"totals": totals}))
    else:  # pragma: no cover
        raise AssertionError(f"not an automatic frame: {frame}")


def _start_tile(s: GameState, p: int) -> None:
    """G6.6: the tile taken from the third art slot goes onto an empty reputation space
    (or is discarded), then a Lobby visitor goes back to the Plaza."""
    s.frames.append((F_VISITOR, p, V_LOBBY_TO_PLAZA, (1 << NUM_COLOURS) - 1))
    if EMPTY in s.spaces[p]:
        s.frames.append((F_SPACE, p, TILE_FROM_START, 0))
    else:
        s.tile_discard.append(s.pending_tile[p])
        s.pending_tile[p] = EMPTY


def _kicked_home(s: GameState) -> None:
    """G5.3: a kicked-out Gallerist goes to its Gallery, an assistant to a desk."""
    owner, kind, _loc = s.kicked
    s.kicked = None
    if kind == GALLERIST:
        s.gpos[owner] = HOME
    else:
        send_home(s, owner)


def _end_turn(s: GameState, p: int, stage: int) -> None:
    frames = s.frames
    if stage == 0:  # G6.6: the start tile taken this turn
        frames[-1] = (A_END_TURN, p, 1)
        if s.pending_tile[p] != EMPTY:
            frames.append((A_START_TILE, p))
    elif stage == 1:  # G5.1: the kicked-out player acts (G5.4: not in the final round)
        frames[-1] = (A_END_TURN, p, 2)
        _offer_kicked_action(s)
    elif stage == 2:  # G17.2: Lacerda moves after the player's turn
        frames[-1] = (A_END_TURN, p, 3)
        if s.solo and not s.final_round:
            lacerda_move(s)
            _offer_kicked_action(s)
    else:
        frames.pop()
        _next_turn(s, p)


def _offer_kicked_action(s: GameState) -> None:
    if s.kicked is None:
        return
    owner, _kind, loc = s.kicked
    if s.final_round:
        _kicked_home(s)
    else:
        s.frames.append((F_KICKED, owner, loc, EXEC_UNUSED))


def end_conditions(s: GameState) -> list[bool]:
    """G15.1: box office empty, two or more celebrities, bag empty."""
    return [not any(s.box_office), sum(s.celebrity) >= 2, not s.bag]


def _next_turn(s: GameState, p: int) -> None:
    """G14 intermediate scoring, G15 end of game, G3.1 next player."""
    if s.intermediate_pending and not s.intermediate_done:
        _intermediate_scoring(s)
    n = s.num_players
    nxt = (p + 1) % n
    s.turn += 1
    if not s.end_triggered:
        met = end_conditions(s)
        if (met[0] if s.solo else sum(met) >= 2) or (
            s.round >= MAX_ROUNDS and nxt == s.start_player
        ):
            s.end_triggered = True
            s.events.append(("end_triggered", {"round": s.round, "conditions": met}))
    if nxt == s.start_player:  # the round is over
        if s.final_round:
            s.frames.append((A_GAME_OVER,))
            s.frames.append((A_AUCTION,))
            return
        if s.end_triggered:
            s.final_round = True
            s.events.append(("final_round", {"round": s.round + 1}))
        s.round += 1
        s.turn = 0
        s.events.append(("round_start", {"round": s.round}))
    s.frames.append((F_TURN, nxt, EXEC_UNUSED))


def _intermediate_scoring(s: GameState) -> None:
    """G14: once, when a box-office colour runs out."""
    s.intermediate_done = True
    s.intermediate_pending = False
    for q in range(s.num_players):
        g = s.gallery_visitors[q]
        gain_influence(s, q, 2 * g[VIP] + g[COLLECTOR])
        s.money[q] += 2 * g[INVESTOR] + g[COLLECTOR]
    s.events.append(("intermediate_scoring", {}))


def auction_totals(s: GameState) -> dict[int, list[int]]:
    """Per owner (seats, 4 = Lacerda): [total offer, offer in column 3, 2, 1] (G16.2)."""
    out: dict[int, list[int]] = {}
    for i, owner in enumerate(s.market_lower):
        if owner != EMPTY:
            col, row = divmod(i, MARKET_LOWER_ROWS)
            value = s.data.auction_offers[row]
            entry = out.setdefault(owner, [0] * (1 + MARKET_COLUMNS))
            entry[0] += value
            entry[MARKET_COLUMNS - col] += value
    return out


def auction_order(s: GameState) -> list[int]:
    """G16.2: highest total first; ties by the offer in column 3, then 2, then 1, then
    [decision] seat order from the start player (Lacerda last)."""
    totals = auction_totals(s)
    n = s.num_players

    def seat_order(owner: int) -> int:
        return n if owner == LACERDA else (owner - s.start_player) % n

    ranked = sorted(totals, key=lambda o: ([-v for v in totals[o]], seat_order(o)))
    return [o for o in ranked if totals[o][0] > 0]


def _final_auction(s: GameState) -> None:
    order = auction_order(s)[: len(s.easels)]
    s.events.append(("final_auction", {"order": order}))
    for owner in reversed(order):
        s.frames.append((A_LACERDA_PICK,) if owner == LACERDA else (F_EASEL, owner))


# -- the driver ----------------------------------------------------------------------------
def advance(s: GameState) -> None:
    """Run automatic frames and forced decisions until a real decision or the end."""
    frames = s.frames
    while frames:
        frame = frames[-1]
        if frame[0] >= AUTO_BASE:
            _run_auto(s, frame)
            continue
        legal = legal_for(s, frame)
        if not legal:  # nothing to choose: the step is skipped
            frames.pop()
            continue
        if len(legal) == 1:
            s.events.append(("decision", {"player": frame[1], "action": legal[0], "forced": True}))
            _decide(s, frame, legal[0])
            continue
        s.current_player = frame[1]
        s._legal = legal
        return
    s._legal = []
