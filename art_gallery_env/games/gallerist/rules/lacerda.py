"""Lacerda, the solo bot (G17): moves clockwise, leaves assistants, takes market spaces.

The engine plays him inside ``apply``, so in a one-player game ``current_player`` is
always seat 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import MARKET
from .data import MARKET_LOWER_ROWS, MARKET_UPPER_ROWS
from .effects import assistant_code, discard_most_tickets
from .frames import (
    ASSISTANT,
    EMPTY,
    GALLERIST,
    KICKED,
    LACERDA,
    NUM_LOCATIONS,
)

if TYPE_CHECKING:
    from .state import GameState

LACERDA_GALLERIST = 2 * LACERDA + GALLERIST
LACERDA_ASSISTANT = 2 * LACERDA + ASSISTANT


def lacerda_move(s: GameState) -> None:
    """G17.2: the first time opposite the player's Gallerist, then one location clockwise,
    leaving an assistant behind; arriving kicks out whatever stands there."""
    if s.lacerda_pos == EMPTY:
        here = s.gpos[0]
        target = (here + 2) % NUM_LOCATIONS if here < NUM_LOCATIONS else MARKET
    else:
        origin = s.lacerda_pos
        target = (origin + 1) % NUM_LOCATIONS
        if s.lacerda_kicked:  # G17.3: kicked out earlier; the player stands at ``origin``
            s.lacerda_kicked = False
        else:
            s.occupant[origin] = EMPTY
            if s.lacerda_supply:
                s.lacerda_supply -= 1
                s.occupant[origin] = LACERDA_ASSISTANT
    occupant = s.occupant[target]
    kicked = None
    if occupant == LACERDA_ASSISTANT:
        s.lacerda_supply += 1
    elif occupant != EMPTY:
        owner, kind = divmod(occupant, 2)
        if kind == GALLERIST:
            s.gpos[owner] = KICKED
        s.kicked = kicked = (owner, kind, target)
    s.occupant[target] = LACERDA_GALLERIST
    s.lacerda_pos = target
    s.events.append(("lacerda", {"to": target, "kicked": list(kicked) if kicked else None}))
    if target == MARKET:
        lacerda_to_market(s)


def lacerda_kicked(s: GameState, kind: int, location: int) -> None:
    """G17.3: the player kicked out a Lacerda piece: an assistant goes back to his supply, a
    Gallerist waits to move on; either way one ticket leaves the box office."""
    if kind == ASSISTANT:
        s.lacerda_supply += 1
    else:
        s.lacerda_kicked = True
    discard_most_tickets(s)
    s.events.append(("lacerda_kicked", {"kind": kind, "location": location}))
    if location == MARKET:
        lacerda_to_market(s)


def _first_free(spaces: list[int], order: list[int]) -> int:
    for i in order:
        if spaces[i] == EMPTY:
            return i
    return EMPTY


def lacerda_to_market(s: GameState) -> None:
    """G17.4: an assistant on the first free space, top-left to the right then down,
    alternating between the reputation part and the auction part."""
    if not s.lacerda_supply:
        return
    columns = s.data.small_game_columns
    upper_order = [MARKET_UPPER_ROWS * c + r for r in range(MARKET_UPPER_ROWS) for c in columns]
    lower_order = [MARKET_LOWER_ROWS * c + r for r in range(MARKET_LOWER_ROWS) for c in range(3)]
    parts = [(s.market_lower, lower_order, True), (s.market_upper, upper_order, False)]
    if not s.lacerda_next_lower:
        parts.reverse()
    for spaces, order, lower in parts:
        i = _first_free(spaces, order)
        if i == EMPTY:
            continue
        spaces[i] = LACERDA
        s.lacerda_supply -= 1
        if not lower and s.market_tiles[i] != EMPTY:
            s.tile_discard.append(s.market_tiles[i])
            s.market_tiles[i] = EMPTY
        s.events.append(("lacerda_market", {"lower": lower, "space": i}))
        break
    s.lacerda_next_lower = not s.lacerda_next_lower


def lacerda_pieces_on_board(s: GameState) -> int:
    code = assistant_code(LACERDA)
    return sum(1 for o in s.occupant if o == code)
