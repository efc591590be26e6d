"""Constants of the Gallerist engine: piece codes, positions, contract slot states and the
decision frames that drive a turn (G20.1).

Kept apart from :mod:`.state` so that rule modules can name them without importing the
state (which binds the flow module late): the import graph stays acyclic.
"""

from __future__ import annotations

from art_gallery_env.core.errors import check_num_players as _check_num_players

from .data import MARKET_COLUMNS, MARKET_LOWER_ROWS, MARKET_UPPER_ROWS, MAX_PLAYERS

NUM_LOCATIONS = 4
HOME = 4  # a Gallerist in its own Gallery (not at a Location)
KICKED = 5  # a Gallerist on the black kicked-out space, waiting to go home (G5.1)
LACERDA = 4  # owner code of the solo bot's pieces (G17)
GALLERIST, ASSISTANT = 0, 1
EMPTY = -1
MARKET_UPPER_SPACES = MARKET_COLUMNS * MARKET_UPPER_ROWS  # index 4 * column + row
MARKET_LOWER_SPACES = MARKET_COLUMNS * MARKET_LOWER_ROWS  # index 3 * column + row

# Contract slot states on a player board (G7).
SLOT_EMPTY, SLOT_UP, SLOT_DOWN_INFLUENCE, SLOT_DOWN_MONEY = range(4)

# Decision frames (G20.1): (kind, player, *args).
F_START = 0  # (p): choose the start location (G2.14)
F_TURN = 1  # (p, exec_state): before the location action
F_POST = 2  # (p, exec_state): after the location action
F_KICKED = 3  # (p, location, exec_state): the Kicked-Out action (G5.2)
F_LEAVE = 4  # (p, origin, action): leave an assistant behind before ``action`` (G3.3)
F_ARTIST = 5  # (p, purpose, amount): choose an artist
F_FAME = 6  # (p, artist): spend influence for fame (G10.3)
F_TICKET = 7  # (p, allowed colour mask): choose a ticket colour (G11.1)
F_VISITOR = 8  # (p, purpose, allowed colour mask): choose a visitor colour
F_CONTRACT = 9  # (p, redraw allowed): sign a contract (G7.1)
F_SELL = 10  # (p): which work with which contract (G7.4)
F_HIRE = 11  # (p): how many assistants (G8.1)
F_REP = 12  # (p): which reputation tile in the market (G9.2)
F_AUCTION = 13  # (p): which auction space (G9.3)
F_SPACE = 14  # (p, source, market index): which reputation space of the board
F_ASSIST = 15  # (p, target kind, target index): which assistant to place
F_ORIENT = 16  # (p, slot): contract orientation (G7.4)
F_EASEL = 17  # (p): which renowned work (G16.2)
F_PAY = 18  # (p, steps left): more money from influence for a payment (G10.2)
F_COMMISSION = 19  # (p, artist): buy with the commission or with a signature token (G6.3)
F_DISCARD = 20  # (p, wanted colour, allowed colour mask): the other ticket to discard (G11.2)
DECISION_KINDS = 21
DECISION_NAMES = (
    "start", "turn", "post", "kicked", "leave", "artist", "fame", "ticket", "visitor",
    "contract", "sell", "hire", "reputation", "auction", "space", "assistant", "orient", "easel",
    "pay", "commission", "discard",
)  # fmt: skip
# Automatic frames (kinds >= AUTO_BASE).
AUTO_BASE = 32
A_ACTION = 32  # (p, action): start the location action, after the leave-behind decision
A_TICKETS = 33  # (p, taken mask, icon mask, ...): gain tickets one icon at a time (G11.1)
A_SELL_FLIP = 34  # (p, slot, colour moved or -1): flip the sold contract (G7.4)
A_END_TURN = 35  # (p, stage): the end of a turn (G3.1, G6.6, G5.1, G14, G15)
A_KICK_END = 36  # (p): after a Kicked-Out action, the piece goes home (G5.3)
A_CONTRACT_BONUS = 37  # (p, slot): the bonus of a contract an assistant was put on (G4.5)
A_AUCTION = 38  # (): the final auction of renowned works (G16.2)
A_START_TILE = 39  # (p): the start tile of the third art slot at the end of a turn (G6.6)
# 40 was A_LACERDA_PICK (Lacerda no longer takes part in the auction, G17.7)
A_GAME_OVER = 41  # (): the game ends
A_BUY = 42  # (p, artist, with commission): a bought work after its payment (G6.3)
A_HIRE_BONUS = 43  # (p, first, count): hiring bonuses after the payment (G8.1)
A_OFFER_BONUS = 44  # (p, auction space): the offer's bonus after the payment (G9.3)
A_PROMOTE_FAME = 45  # (p, artist): the promotion's fame after its bonus (G8.2)

# Purposes of F_ARTIST and F_VISITOR.
P_DISCOVER, P_BUY, P_PROMOTE, P_FAME_BONUS = range(4)
V_PLAZA_TO_GALLERY, V_LOBBY_TO_PLAZA, V_SELL = range(3)
# Where the tile of F_SPACE comes from: a market space, or the start tile (G6.6).
TILE_FROM_MARKET, TILE_FROM_START = range(2)
# Targets of F_ASSIST.
T_MARKET_UPPER, T_MARKET_LOWER, T_CONTRACT = range(3)

EXEC_UNUSED, EXEC_MOVING, EXEC_USED = range(3)


def check_num_players(num_players: object) -> int:
    """``num_players`` if it is an int in 1..4 (1: the solo game); ValueError else."""
    return _check_num_players(num_players, 1, MAX_PLAYERS)
