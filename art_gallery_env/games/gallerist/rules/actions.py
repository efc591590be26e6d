"""The Discrete(115) action layout of The Gallerist (public API; G20.2).

A turn is a sequence of small decisions; every decision picks one id from one fixed table.
Seats in ids are *relative* to the acting player (0 = itself, 1 = the next clockwise...), so a
policy shared by all seats reads them the same way.

| ids      | meaning                                                                      |
|----------|------------------------------------------------------------------------------|
| 0..7     | location action ``2*L + a``: Artists Colony (0 discover, 1 buy), Sales Office |
|          | (2 sign contract, 3 sell), Media Center (4 hire, 5 promote), International   |
|          | Market (6 reputation tile, 7 auction offer); on a turn it moves the Gallerist |
|          | to L, after a kick-out it is the Kicked-Out location action at L              |
| 8..11    | setup: start at location L                                                   |
| 12       | done: end the turn / stop moving visitors / stop spending influence / pass   |
| 13..18   | assistant: 13 none, 14 from an office desk, 15..18 from location L            |
| 19..26   | artist ``19 + 2*form + colour`` (colour 0 blue, 1 red)                        |
| 27       | spend influence: back to the previous fame icon for +1 fame (decision fame), |
|          | or to the previous money icon for +1 money (decision pay)                    |
| 28..30   | ticket colour: investor, VIP, collector (to take; at decision discard: the   |
|          | other colour that goes to the discard pile)                                  |
| 31..33   | visitor colour: investor, VIP, collector                                     |
| 34       | draw 4 new contracts onto the display before signing                         |
| 35..46   | sign contract: display column d (0..3) into board slot s (0..2): 35 + 3d + s |
| 47..58   | sell the work in gallery slot w (0..3) with the contract in slot s: 47+3w+s  |
| 59..62   | hire k = 1..4 assistants                                                      |
| 63..74   | reputation tile at market column c (0..2), row r (0..3): 63 + 4c + r          |
| 75..83   | auction offer at market column c (0..2), row r (0..2): 75 + 3c + r            |
| 84..89   | reputation space 0..5 of the player board                                    |
| 90..91   | contract orientation: influence half up, money half up                        |
| 92..106  | move a visitor of colour v from source s (0 Plaza, 1+r the Lobby of relative |
|          | seat r) one step towards the own Gallery: 92 + 5v + s                         |
| 107..109 | use the bonus of the contract in board slot s                                 |
| 110..112 | take the renowned work from easel e                                           |
| 113..114 | buy from the commissioned artist: with the commission (its initial fame), or  |
|          | with a signature token (its current fame; the commission stays)               |
"""

from __future__ import annotations

from art_gallery_env.core.errors import check_action_id as _check_action_id

from .data import MAX_EASELS, NUM_CONTRACT_SLOTS, NUM_REPUTATION_SPACES

NUM_ACTIONS = 115
LOCATIONS = ("colony", "sales", "media", "market")
LOCATION_NAMES = ("Artists Colony", "Sales Office", "Media Center", "International Market")
COLONY, SALES, MEDIA, MARKET = range(4)
ACTION_NAMES = ("discover", "buy", "contract", "sell", "hire", "promote", "reputation", "auction")
(
    DISCOVER,
    BUY,
    SIGN,
    SELL,
    HIRE,
    PROMOTE,
    REPUTATION,
    AUCTION,
) = range(8)

LOC_BASE = 0
START_BASE = 8
DONE = 12
ASSIST_NONE = 13
ASSIST_DESK = 14
ASSIST_LOC_BASE = 15
ARTIST_BASE = 19
SPEND_FAME = 27
TICKET_BASE = 28
VISITOR_BASE = 31
REDRAW = 34
CONTRACT_BASE = 35
SELL_BASE = 47
HIRE_BASE = 59
REP_BASE = 63
AUCTION_BASE = 75
SPACE_BASE = 84
ORIENT_BASE = 90
MOVE_BASE = 92
BONUS_BASE = 107
EASEL_BASE = 110
USE_COMMISSION = 113
USE_TOKEN = 114

ORIENT_INFLUENCE, ORIENT_MONEY = 0, 1
COLOUR_WORDS = ("investor", "vip", "collector")
_COLOUR_ALIASES = {"brown": 0, "pink": 1, "white": 2, "investors": 0, "vips": 1, "collectors": 2}
FORM_WORDS = ("painting", "photo", "sculpture", "digital")
ARTIST_COLOUR_WORDS = ("blue", "red")

assert EASEL_BASE + MAX_EASELS == USE_COMMISSION and USE_TOKEN + 1 == NUM_ACTIONS
assert SPACE_BASE + NUM_REPUTATION_SPACES == ORIENT_BASE
assert SELL_BASE == CONTRACT_BASE + 4 * NUM_CONTRACT_SLOTS


def check_action_id(action: object) -> int:
    """``action`` as a plain int in 0..112 (numpy ints allowed); ValueError naming it else."""
    return _check_action_id(action, NUM_ACTIONS)


def _names() -> list[str]:
    """All 115 names in id order, built per block of the table above."""
    names = _turn_names() + _choice_names() + _board_names() + _move_bonus_easel_names()
    assert len(names) == NUM_ACTIONS
    return names


def _turn_names() -> list[str]:
    """Ids 0..18: location actions, start locations, done and the assistant left behind."""
    names = [f"{LOCATIONS[a // 2]} {ACTION_NAMES[a]}" for a in range(8)]
    names += [f"start {loc}" for loc in LOCATIONS]
    names.append("done")
    names += ["assistant none", "assistant desk"] + [f"assistant {loc}" for loc in LOCATIONS]
    return names


def _choice_names() -> list[str]:
    """Ids 19..34: artists, spending influence, ticket and visitor colours, redrawing."""
    names = [f"artist {f} {c}" for f in FORM_WORDS for c in ARTIST_COLOUR_WORDS]
    names.append("spend influence")
    names += [f"ticket {c}" for c in COLOUR_WORDS]
    names += [f"visitor {c}" for c in COLOUR_WORDS]
    names.append("redraw contracts")
    return names


def _board_names() -> list[str]:
    """Ids 35..91: contracts, sales, hiring, the market, reputation spaces, orientation."""
    names = [f"contract {d} slot {s}" for d in range(4) for s in range(NUM_CONTRACT_SLOTS)]
    names += [f"sell {w} contract {s}" for w in range(4) for s in range(NUM_CONTRACT_SLOTS)]
    names += [f"hire {k}" for k in range(1, 5)]
    names += [f"reputation {c} {r}" for c in range(3) for r in range(4)]
    names += [f"auction {c} {r}" for c in range(3) for r in range(3)]
    names += [f"space {i}" for i in range(NUM_REPUTATION_SPACES)]
    names += ["orient influence", "orient money"]
    return names


def _move_bonus_easel_names() -> list[str]:
    """Ids 92..114: moving visitors, contract bonuses, a renowned work from an easel, the
    commission or a token."""
    sources = ["plaza"] + [f"lobby {r}" for r in range(4)]
    names = [f"move {c} {s}" for c in COLOUR_WORDS for s in sources]
    names += [f"bonus {s}" for s in range(NUM_CONTRACT_SLOTS)]
    names += [f"easel {e}" for e in range(MAX_EASELS)]
    return names + ["use commission", "use token"]


ALL_ACTION_NAMES: tuple[str, ...] = tuple(_names())
_NAME_TO_ACTION = {name: a for a, name in enumerate(ALL_ACTION_NAMES)}
_NAME_TO_ACTION["spend influence fame"] = SPEND_FAME  # its name before it also paid money
_NAME_TO_ACTION["spend influence money"] = SPEND_FAME


def action_to_str(action: int) -> str:
    """Readable, parseable name: 'colony buy', 'ticket vip', 'move collector lobby 0'..."""
    return ALL_ACTION_NAMES[check_action_id(action)]


def str_to_action(text: str) -> int:
    """Inverse of :func:`action_to_str`; tolerant of case, spaces and colour aliases."""
    words = str(text).lower().replace("_", " ").replace("-", " ").split()
    words = [COLOUR_WORDS[_COLOUR_ALIASES[w]] if w in _COLOUR_ALIASES else w for w in words]
    key = " ".join(words)
    if key not in _NAME_TO_ACTION:
        raise ValueError(
            f"unknown action {text!r}; actions are named like 'colony buy', 'market auction', "
            f"'artist photo red', 'ticket vip', 'move collector plaza', 'contract 2 slot 0', "
            f"'done' (all names: art_gallery_env.games.gallerist.rules.actions.ALL_ACTION_NAMES)"
        )
    return _NAME_TO_ACTION[key]
