"""The driver of a game (G20.1): apply a legal action, then run automatic frames and
forced decisions until a player has a real choice. Legal actions per decision live in
:mod:`.options`, their effects in :mod:`.decisions`, the end of a turn in :mod:`.turns`.

Every decision with no choice (one legal action) is applied by the engine, so
``current_player`` always has at least two actions to choose from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from art_gallery_env.core.errors import IllegalActionError, illegal_action_message

from .actions import NUM_ACTIONS, action_to_str, check_action_id
from .data import INVESTOR, VIP
from .decisions import decide
from .effects import apply_bonus, gain_ticket
from .frames import (
    A_ACTION,
    A_AUCTION,
    A_BUY,
    A_CONTRACT_BONUS,
    A_END_TURN,
    A_GAME_OVER,
    A_HIRE_BONUS,
    A_KICK_END,
    A_OFFER_BONUS,
    A_PROMOTE_FAME,
    A_SELL_FLIP,
    A_START_TILE,
    A_TICKETS,
    AUTO_BASE,
    DECISION_NAMES,
    EMPTY,
    F_ORIENT,
    F_TICKET,
    SLOT_DOWN_INFLUENCE,
    SLOT_DOWN_MONEY,
    SLOT_UP,
)
from .locations import bought, hire_bonuses, offer_bonus, promotion_fame, start_action
from .options import legal_for
from .turns import (
    MAX_ROUNDS,
    auction_order,
    auction_totals,
    end_conditions,
    end_turn,
    final_auction,
    kicked_home,
    start_tile,
)

if TYPE_CHECKING:
    from .state import GameState

__all__ = [
    "MAX_ROUNDS",
    "IllegalActionError",
    "advance",
    "apply_action",
    "auction_order",
    "auction_totals",
    "end_conditions",
    "legal_for",
]


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
    decide(s, frame, action)
    advance(s)


def _raise_illegal(s: GameState, action: object, legal: list[int]) -> None:
    if s.over:
        raise IllegalActionError(f"the game is over; no action is legal (got {action!r})")
    where = f"for player {s.current_player} at decision {DECISION_NAMES[s.frames[-1][0]]!r}"
    raise IllegalActionError(
        illegal_action_message(action, legal, action_to_str, NUM_ACTIONS, where)
    )


def advance(s: GameState) -> None:
    """Run automatic frames and forced decisions until a real decision or the end."""
    frames = s.frames
    while frames:
        frame = frames[-1]
        if frame[0] >= AUTO_BASE:
            AUTO[frame[0]](s, frame)
            continue
        legal = legal_for(s, frame)
        if not legal:  # nothing to choose: the step is skipped
            frames.pop()
            continue
        if len(legal) == 1:
            s.events.append(("decision", {"player": frame[1], "action": legal[0], "forced": True}))
            decide(s, frame, legal[0])
            continue
        s.current_player = frame[1]
        s._legal = legal
        return
    s._legal = []


# -- automatic frames -------------------------------------------------------------------
def _action(s: GameState, frame: tuple) -> None:
    """The location action, after the leave-behind decision (G3.3)."""
    s.frames.pop()
    start_action(s, frame[1], frame[2])


def _tickets(s: GameState, frame: tuple) -> None:
    """G11.1: the next ticket icon; a choice when it allows several colours."""
    frames = s.frames
    frames.pop()
    p, taken = frame[1], frame[2]
    if len(frame) == 3:
        return
    icon, rest = frame[3], frame[4:]
    allowed = icon & ~taken or icon
    if allowed & (allowed - 1):
        if rest:
            frames.append((A_TICKETS, p, taken, *rest))
        frames.append((F_TICKET, p, allowed))
    else:
        if rest:
            frames.append((A_TICKETS, p, taken | allowed, *rest))
        gain_ticket(s, p, allowed.bit_length() - 1)  # last: it may push a decision (G11.2)


def _sell_flip(s: GameState, frame: tuple) -> None:
    """G7.4: the sold contract turns face down, oriented by the visitor who left."""
    s.frames.pop()
    p, slot, colour = frame[1], frame[2], frame[3]
    if colour == INVESTOR:
        s.contracts[p][slot][1] = SLOT_DOWN_MONEY
    else:
        s.contracts[p][slot][1] = SLOT_DOWN_INFLUENCE  # a VIP, or until the player chooses
        if colour != VIP:
            s.frames.append((F_ORIENT, p, slot))


def _contract_bonus(s: GameState, frame: tuple) -> None:
    s.frames.pop()
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


def _kick_end(s: GameState, frame: tuple) -> None:
    s.frames.pop()
    kicked_home(s)
    if s.pending_tile[frame[1]] != EMPTY:
        s.frames.append((A_START_TILE, frame[1]))


def _game_over(s: GameState, frame: tuple) -> None:
    s.frames.pop()
    s.over = True
    s.events.append(("game_over", {"totals": [b["total"] for b in s.score_breakdown()]}))


def _popped(fn: Callable[..., None], *args: int) -> Callable[[GameState, tuple], None]:
    def run(s: GameState, frame: tuple) -> None:
        s.frames.pop()
        fn(s, *[frame[i] for i in args])

    return run


AUTO: dict[int, Callable[[GameState, tuple], None]] = {
    A_ACTION: _action,
    A_BUY: _popped(bought, 1, 2, 3),
    A_HIRE_BONUS: _popped(hire_bonuses, 1, 2, 3),
    A_OFFER_BONUS: _popped(offer_bonus, 1, 2),
    A_PROMOTE_FAME: _popped(promotion_fame, 1, 2),
    A_TICKETS: _tickets,
    A_SELL_FLIP: _sell_flip,
    A_END_TURN: lambda s, frame: end_turn(s, frame[1], frame[2]),
    A_KICK_END: _kick_end,
    A_CONTRACT_BONUS: _contract_bonus,
    A_AUCTION: _popped(final_auction),
    A_START_TILE: _popped(start_tile, 1),
    A_GAME_OVER: _game_over,
}
