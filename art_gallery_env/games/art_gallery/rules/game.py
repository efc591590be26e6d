"""Legal actions and their effects, one function per phase (R4-R6).

Distribution steps that offer no choice (a Shop marker that can take nothing, a card pick
where every remaining card has one value, painting awards) are resolved automatically, so
``current_player`` is always somebody with a real decision to make ([decision] D1 in
docs/rules.md).
"""

from __future__ import annotations

from functools import cache
from operator import add
from typing import TYPE_CHECKING

from art_gallery_env.core.errors import (  # one type for all
    IllegalActionError,
    illegal_action_message,
)

from .actions import (
    BID_BASE,
    NUM_ACTIONS,
    NUM_CARD_VALUES,
    PICK_BASE,
    SHOP_BASE,
    SHOP_CHOICE_COST,
    SHOP_CHOICE_PILES,
    action_to_str,
    check_action_id,
)
from .board import (
    MARKER_BAR_SIZE,
    SHOP_AREA,
    TURNS_PER_ROUND,
    empty_piles_ending_game,
    move_destinations,
)
from .phases import (
    BID,
    GAME_OVER,
    MOVE,
    PHASE_NAMES,
    PICK,
    SHOP,
    STAGE_PICK,
    STAGE_REVEAL,
    STAGE_SHOP,
)

if TYPE_CHECKING:
    from .state import GameState

_VALUES = range(NUM_CARD_VALUES)
_NO_CARDS = (0,) * NUM_CARD_VALUES


# -- legal actions ---------------------------------------------------------------------
def legal_actions(state: GameState) -> list[int]:
    phase = state.phase
    if phase == MOVE:
        return _legal_moves(state)
    if phase == BID:
        hand = state.hands[state.current_player]
        return [BID_BASE + v for v in _VALUES if hand[v]]
    if phase == SHOP:
        return _legal_shop_choices(state)
    if phase == PICK:
        cards = state.space_cards
        return [PICK_BASE + v for v in _VALUES if cards[v]]
    return []


def _legal_moves(state: GameState) -> list[int]:
    """R4.3/R4.5: every (card, direction) not ending on a full bar; R4.6 if none is left."""
    player = state.current_player
    hand = state.hands[player]
    full = [len(b) >= MARKER_BAR_SIZE for b in state.bids]
    legal = []
    for value, clockwise, to_cw, anticlockwise, to_acw in _move_table(state.num_areas)[
        state.position[player]
    ]:
        if hand[value]:
            if not full[to_cw]:
                legal.append(clockwise)
            if value and not full[to_acw]:
                legal.append(anticlockwise)
    if not legal:  # R4.6 fallback: every (card, direction) move, passing full areas
        for v in _VALUES:
            if hand[v]:
                legal.append(2 * v)
                if v:
                    legal.append(2 * v + 1)
    return legal


@cache
def _move_table(num_areas: int) -> tuple[tuple[tuple[int, int, int, int, int], ...], ...]:
    """Per area, per card value: (value, cw action, its landing, acw action, its landing)."""
    return tuple(
        tuple((v, 2 * v, landing[2 * v], 2 * v + 1, landing[2 * v + 1]) for v in _VALUES)
        for landing in move_destinations(num_areas)
    )


def shop_card_value(state: GameState) -> int:
    """The value of the card under the Shop marker being resolved (R5.1)."""
    return state.bids[SHOP_AREA][state.dist_marker][1]


def _legal_shop_choices(state: GameState) -> list[int]:
    """R5.1: nothing, one pile with mark <= v, or two different piles with marks summing <= v."""
    value = shop_card_value(state)
    piles = state.tile_piles
    legal = [SHOP_BASE]
    for i in range(1, len(SHOP_CHOICE_COST)):
        if SHOP_CHOICE_COST[i] <= value and all(piles[p] for p in SHOP_CHOICE_PILES[i]):
            legal.append(SHOP_BASE + i)
    return legal


# -- apply -----------------------------------------------------------------------------
def apply_action(state: GameState, action: int) -> None:
    legal = state._legal
    if legal is None:
        legal = state._legal = legal_actions(state)
    if action.__class__ is not int:  # numpy ints are fine; bools, floats and strings are not
        action = _as_action_id(state, action, legal)
    if action not in legal:
        _raise_illegal(state, action, legal)
    state._legal = None
    phase = state.phase
    if phase == MOVE:
        _apply_move(state, action)
    elif phase == BID:
        _apply_bid(state, action - BID_BASE)
    elif phase == SHOP:
        _apply_shop(state, action - SHOP_BASE)
        _resolve_distribution(state)
    else:
        _apply_pick(state, action - PICK_BASE)
        _resolve_distribution(state)


def _as_action_id(state: GameState, action: object, legal: list[int]) -> int:
    try:
        return check_action_id(action)
    except ValueError:
        _raise_illegal(state, action, legal)
        raise  # unreachable: _raise_illegal always raises


def _raise_illegal(state: GameState, action: object, legal: list[int]) -> None:
    if state.phase == GAME_OVER:
        raise IllegalActionError(f"the game is over; no action is legal (got {action!r})")
    where = f"for player {state.current_player} in phase {PHASE_NAMES[state.phase]!r}"
    raise IllegalActionError(
        illegal_action_message(action, legal, action_to_str, NUM_ACTIONS, where)
    )


def _apply_move(state: GameState, action: int) -> None:
    """R4.3 (and the R4.6 fallback: continue in the same direction past full areas)."""
    player = state.current_player
    value, direction = divmod(action, 2)
    num_areas = state.num_areas
    area = move_destinations(num_areas)[state.position[player]][action]
    bids = state.bids
    fallback = len(bids[area]) >= MARKER_BAR_SIZE
    if fallback:
        step = 1 if direction == 0 else -1
        while len(bids[area]) >= MARKER_BAR_SIZE:
            area = (area + step) % num_areas
    state.hands[player][value] -= 1
    state.moved[player][value] += 1
    state.position[player] = area
    state.phase = BID
    state.events.append(
        (
            "move",
            {
                "player": player,
                "value": value,
                "direction": direction,
                "to": area,
                "fallback": fallback,
            },
        )
    )


def _apply_bid(state: GameState, value: int) -> None:
    """R4.4: card face down on the area's action space, marker on the lowest free space."""
    player = state.current_player
    area = state.position[player]
    state.hands[player][value] -= 1
    state.bids[area].append((player, value))
    state.events.append(
        (
            "bid",
            {"player": player, "area": area, "marker": len(state.bids[area]) - 1, "value": value},
        )
    )
    state.turn += 1
    if state.turn < TURNS_PER_ROUND * state.num_players:
        state.current_player = (state.round_starter + state.turn) % state.num_players
        state.phase = MOVE
        return
    _award_start_card(state)
    state.dist_area = SHOP_AREA
    state.dist_stage = STAGE_REVEAL
    state.dist_marker = 0
    _resolve_distribution(state)


def _award_start_card(state: GameState) -> None:
    """R4.7: highest last card takes the start card; ties go clockwise from the holder's left."""
    n = state.num_players
    last_cards = [_lowest_card(hand) for hand in state.hands]
    holder = state.start_player
    order = [(holder + k) % n for k in range(1, n + 1)]  # holder checked last
    best = max(last_cards)
    state.start_player = next(p for p in order if last_cards[p] == best)
    state.public_changed()
    state.events.append(("start_card", {"player": state.start_player, "last_cards": last_cards}))


def _lowest_card(hand: list[int]) -> int:
    """The lowest value in a hand (at R4.7 each hand holds exactly one card)."""
    for value, count in enumerate(hand):
        if count:
            return value
    raise ValueError("empty hand")  # unreachable: the invariants keep one card in hand


def _apply_shop(state: GameState, choice: int) -> None:
    """R5.1: take the top tile of each chosen pile."""
    player = state.bids[SHOP_AREA][state.dist_marker][0]
    taken = [state.tile_piles[p].pop() for p in SHOP_CHOICE_PILES[choice]]
    state.tiles_held[player].extend(taken)
    state.public_changed()
    state.events.append(
        ("shop", {"player": player, "marker": state.dist_marker, "choice": choice, "tiles": taken})
    )
    state.dist_marker += 1


def _apply_pick(state: GameState, value: int) -> None:
    """R5.2/R5.5: the marker's owner takes one card from the action space into hand."""
    player = state.bids[state.dist_area][state.dist_marker][0]
    state.space_cards[value] -= 1
    state.hands[player][value] += 1
    state.events.append(
        (
            "pick",
            {
                "player": player,
                "area": state.dist_area,
                "marker": state.dist_marker,
                "value": value,
            },
        )
    )
    state.dist_marker += 1


# -- distribution (R5) and end of round (R6) --------------------------------------------
def _resolve_distribution(state: GameState) -> None:
    """Advance the distribution until a player has a real choice or the round ends."""
    last_area = state.num_galleries
    while True:
        area = state.dist_area
        if area > last_area:
            _end_round(state)
            return
        stage = state.dist_stage
        if stage == STAGE_REVEAL:
            _reveal_area(state, area)
        elif stage == STAGE_SHOP:
            if _shop_step(state):
                return
        elif _pick_step(state):  # STAGE_PICK
            return


def _reveal_area(state: GameState, area: int) -> None:
    """R5: turn the area's bids face up onto its action space (the Shop goes to its tile
    stage, a gallery awards its painting); an area without bids is skipped."""
    bids = state.bids[area]
    if not bids:
        state.dist_area += 1
        return
    counts = [0] * NUM_CARD_VALUES
    for _, value in bids:
        counts[value] += 1
    state.space_cards = counts
    state.events.append(("reveal", {"area": area, "bids": [list(b) for b in bids]}))
    if area == SHOP_AREA:
        state.dist_stage = STAGE_SHOP
    else:
        _award_painting(state, area)
        state.dist_stage = STAGE_PICK
    state.dist_marker = 0


def _shop_step(state: GameState) -> bool:
    """R5.1 for the Shop's next marker; True when its owner has a real choice to make."""
    bids = state.bids[state.dist_area]
    if state.dist_marker == len(bids):
        state.dist_stage = STAGE_PICK
        state.dist_marker = 0
        return False
    state.phase = SHOP
    state.current_player = bids[state.dist_marker][0]
    choices = _legal_shop_choices(state)
    if len(choices) == 1:
        _apply_shop(state, choices[0] - SHOP_BASE)
        return False
    state._legal = choices
    return True


def _pick_step(state: GameState) -> bool:
    """R5.2 for the area's next marker; True when its owner has a real choice to make.
    After the last marker the markers go home and the next area is revealed."""
    bids = state.bids[state.dist_area]
    if state.dist_marker == len(bids):
        bids.clear()  # markers return to their owners
        state.dist_area += 1
        state.dist_stage = STAGE_REVEAL
        return False
    values = [v for v in _VALUES if state.space_cards[v]]
    state.phase = PICK
    state.current_player = bids[state.dist_marker][0]
    if len(values) == 1:
        _apply_pick(state, values[0])
        return False
    state._legal = [PICK_BASE + v for v in values]
    return True


def bid_totals(state: GameState, area: int) -> list[int]:
    """R5.3 (and variant R5.6): each player's summed bid at a gallery."""
    totals = [0] * state.num_players
    if not state.zero_is_ten:
        for player, value in state.bids[area]:
            totals[player] += value
        return totals
    counts = [0] * state.num_players
    zeros = [0] * state.num_players
    for player, value in state.bids[area]:
        totals[player] += value
        counts[player] += 1
        zeros[player] += value == 0
    for p in range(state.num_players):
        if counts[p] >= 2:
            totals[p] += 10 * zeros[p]
    return totals


def gallery_winner(state: GameState, area: int, totals: list[int] | None = None) -> int:
    """R5.4: highest total; ties to the matching tile's holder, else the lowest marker."""
    bids = state.bids[area]
    if totals is None:
        totals = bid_totals(state, area)
    bidders = {p for p, _ in bids}
    best = max(totals[p] for p in bidders)
    tied = [p for p in bidders if totals[p] == best]
    if len(tied) == 1:
        return tied[0]
    painting = state.gallery_painting[area]
    for p in tied:
        if painting in state.tiles_held[p]:
            return p
    return next(p for p, _ in bids if p in tied)  # marker-bar order: lowest marker first


def _award_painting(state: GameState, area: int) -> None:
    painting = state.gallery_painting[area]
    totals = bid_totals(state, area)
    winner = gallery_winner(state, area, totals)
    state.collections[winner].append(painting)
    state.gallery_painting[area] = 0
    state.public_changed()
    state.events.append(
        (
            "painting",
            {
                "area": area,
                "painting": painting,
                "player": winner,
                "totals": totals,
            },
        )
    )


def game_end_reason(state: GameState) -> str | None:
    """R6.3: why the game ends at this round's end, or None if it goes on."""
    empty_spaces = state.gallery_painting.count(0) - 1  # the Shop's 0 is not a space
    if len(state.painting_pile) < empty_spaces:
        return "painting pile cannot refill the galleries"
    empty_piles = sum(1 for pile in state.tile_piles if not pile)
    if empty_piles >= empty_piles_ending_game(state.num_players):
        return f"{empty_piles} tile piles are empty"
    return None


def _end_round(state: GameState) -> None:
    """R6: movement cards back to hand, end check, refill clockwise, next round."""
    for hand, moved in zip(state.hands, state.moved):
        hand[:] = map(add, hand, moved)
        moved[:] = _NO_CARDS
    state.space_cards = [0] * NUM_CARD_VALUES
    state.dist_area = SHOP_AREA
    state.dist_stage = STAGE_REVEAL
    state.dist_marker = 0
    reason = game_end_reason(state)
    if reason is not None:
        state.phase = GAME_OVER
        state._legal = []
        state.events.append(("game_over", {"reason": reason, "rounds": state.round}))
        return
    refilled = []
    state.public_changed()
    for area in range(1, state.num_galleries + 1):
        if state.gallery_painting[area] == 0:
            state.gallery_painting[area] = state.painting_pile.pop()
            refilled.append([area, state.gallery_painting[area]])
    state.round += 1
    state.turn = 0
    state.round_starter = state.start_player
    state.current_player = state.start_player
    state.phase = MOVE
    state._legal = None
    state.events.append(
        (
            "round_start",
            {"round": state.round, "start_player": state.start_player, "refilled": refilled},
        )
    )
