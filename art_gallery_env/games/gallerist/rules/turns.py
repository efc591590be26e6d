"""The end of a turn and of the game (G3.1, G5, G6.6, G14, G15, G16.2, G17.2): what happens
after a player's last decision of a turn, who plays next, when the game ends."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .data import COLLECTOR, INVESTOR, MARKET_COLUMNS, MARKET_LOWER_ROWS, NUM_COLOURS, VIP
from .effects import gain_influence, send_home
from .frames import (
    A_AUCTION,
    A_END_TURN,
    A_GAME_OVER,
    A_START_TILE,
    EMPTY,
    EXEC_UNUSED,
    F_EASEL,
    F_KICKED,
    F_SPACE,
    F_TURN,
    F_VISITOR,
    GALLERIST,
    HOME,
    LACERDA,
    TILE_FROM_START,
    V_LOBBY_TO_PLAZA,
)
from .lacerda import lacerda_move

if TYPE_CHECKING:
    from .state import GameState

MAX_ROUNDS = 40
"""G15.3 [decision]: a game that has not triggered its end by this round ends as if it had."""
END_REASONS = ("conditions", "no_action", "round_limit")
"""Why the end was triggered: G15.1 (solo: G17.5), a round without any location action,
the round limit (both G15.3)."""


def start_tile(s: GameState, p: int) -> None:
    """G6.6: the tile taken from the third art slot goes onto an empty reputation space
    (or is discarded), then a Lobby visitor goes back to the Plaza."""
    s.frames.append((F_VISITOR, p, V_LOBBY_TO_PLAZA, (1 << NUM_COLOURS) - 1))
    if EMPTY in s.spaces[p]:
        s.frames.append((F_SPACE, p, TILE_FROM_START, 0))
    else:
        s.tile_discard.append(s.pending_tile[p])
        s.pending_tile[p] = EMPTY


def kicked_home(s: GameState) -> None:
    """G5.3: a kicked-out Gallerist goes to its Gallery, an assistant to a desk."""
    owner, kind, _loc = s.kicked
    s.kicked = None
    if kind == GALLERIST:
        s.gpos[owner] = HOME
    else:
        send_home(s, owner)


def end_turn(s: GameState, p: int, stage: int) -> None:
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
        kicked_home(s)
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
    round_over = nxt == s.start_player
    if not s.end_triggered:
        met = end_conditions(s)
        reason = None
        if met[0] if s.solo else sum(met) >= 2:
            reason = "conditions"
        elif round_over and not s.round_active:  # G15.3: nobody could act all round
            reason = "no_action"
        elif round_over and s.round >= MAX_ROUNDS:
            reason = "round_limit"
        if reason is not None:
            s.end_triggered = True
            s.events.append(
                ("end_triggered", {"round": s.round, "conditions": met, "reason": reason})
            )
    if round_over:
        s.round_active = False
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
    """Per seat with an offer: [total offer, offer in column 3, 2, 1] (G16.2). Lacerda's
    assistants on auction spaces are no offers (G17.7): he never paid for them."""
    out: dict[int, list[int]] = {}
    for i, owner in enumerate(s.market_lower):
        if owner != EMPTY and owner != LACERDA:
            col, row = divmod(i, MARKET_LOWER_ROWS)
            value = s.data.auction_offers[row]
            entry = out.setdefault(owner, [0] * (1 + MARKET_COLUMNS))
            entry[0] += value
            entry[MARKET_COLUMNS - col] += value
    return out


def auction_order(s: GameState) -> list[int]:
    """G16.2: highest total first; ties by the offer in column 3, then 2, then 1, then
    [decision] seat order from the start player."""
    totals = auction_totals(s)
    n = s.num_players
    ranked = sorted(totals, key=lambda o: ([-v for v in totals[o]], (o - s.start_player) % n))
    return [o for o in ranked if totals[o][0] > 0]


def final_auction(s: GameState) -> None:
    order = auction_order(s)[: len(s.easels)]
    s.events.append(("final_auction", {"order": order}))
    for owner in reversed(order):
        s.frames.append((F_EASEL, owner))
