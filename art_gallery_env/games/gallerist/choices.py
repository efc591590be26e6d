"""Each legal choice of a Gallerist decision in words (``GameSpec.describe_choice``), and the
decision's prompt: what the terminal prints beside a choice and the browser under its button.

A turn is a chain of small decisions (G20.1): the location action, the assistant left
behind, which artist, which ticket, which visitor ... Every text here is read from public
parts of the state and the seat's own cards (G18): it is given a world of the seat's
information set and never simulates an action (that would draw a hidden visitor or card).
"""

from __future__ import annotations

from collections.abc import Callable

from .env.narration import artist_name
from .render_svg import bonus_text
from .rules import actions as act
from .rules.actions import LOCATION_NAMES
from .rules.data import MARKET_LOWER_ROWS, MARKET_UPPER_ROWS, TILE_SCORINGS
from .rules.effects import renowned_value, sales_value
from .rules.frames import NUM_LOCATIONS
from .rules.locations import hire_cost
from .rules.state import (
    ASSISTANT,
    EMPTY,
    EXEC_MOVING,
    LACERDA,
    SLOT_DOWN_INFLUENCE,
    SLOT_EMPTY,
    SLOT_UP,
    GameState,
)

COLOURS = ("investor", "VIP", "collector")
ACTION_WORDS = (
    "discover an artist (G6.1)",
    "buy a work of art (G6.3)",
    "sign a contract (G7.1)",
    "sell a work of art (G7.4)",
    "hire assistants (G8.1)",
    "promote an artist (G8.2)",
    "take a reputation tile (G9.2)",
    "make an auction offer (G9.3)",
)
PROMPTS = {
    "start": "Choose your start location (G2.14): its reputation tile goes to your board",
    "turn": (
        "Your turn: move your Gallerist to another location and take one of its actions; "
        "one executive action (visitors moved with tickets, or an assistant on a contract "
        "bonus) before or after (G3, G4)"
    ),
    "post": "After your location action: an executive action, or end your turn (G4.1)",
    "kicked": (
        "You were kicked out (G5.2): an action here for influence, an executive action, or go home"
    ),
    "leave": "Leave an assistant behind where your Gallerist was? (G3.3)",
    "artist": "Choose an artist",
    "fame": "Spend influence for more fame? (G10.3)",
    "ticket": "Choose a ticket colour (G11.1)",
    "visitor": "Choose a visitor",
    "contract": "Choose a contract from the display and a slot of your board (G7.1)",
    "sell": "Choose the work to sell and the contract to sell it with (G7.4)",
    "hire": "How many assistants do you hire? (G8.1)",
    "reputation": "Choose a reputation tile of the market (G9.2)",
    "auction": "Choose an auction offer (G9.3)",
    "space": "Choose a space of your board for the reputation tile (G9.2)",
    "assistant": "Which assistant do you place? (G9.2, G9.3, G4.5)",
    "orient": "Which half of the sold contract goes up? (G7.4)",
    "easel": "Choose a renowned work from an easel (G16.2)",
    "pay": "Pay part of the cost with influence? (G10.2)",
    "commission": "Buy with your commission or with a signature token? (G6.3)",
    "discard": "Your ticket colour is out: which other ticket goes to the discard? (G11.2)",
}


def prompt(s: GameState) -> str:
    """The question of the decision in front of ``s.current_player``."""
    frame = s.frames[-1]
    phase = s.phase_name
    if phase == "artist":
        purpose = ("to discover", "to buy a work from", "to promote", "for the fame bonus")
        return f"Choose an artist {purpose[frame[2]] if frame[2] < 4 else ''}".rstrip()
    if phase == "visitor":
        purpose = (
            "to bring from the Plaza into your gallery",
            "to send from your lobby to the Plaza",
            "to leave your gallery after the sale",
        )
        return f"Choose a visitor {purpose[frame[2]] if frame[2] < 3 else ''}".rstrip()
    return PROMPTS.get(phase, f"Your decision: {phase}")


def describe_choice(s: GameState, seat: int, action: int) -> str:
    """What a legal ``action`` of ``seat`` does, in words, from what the seat may know."""
    if s.over or s.current_player != seat:
        return ""
    for (lo, hi), describe in _BLOCKS:
        if lo <= action < hi:
            return describe(s, seat, action)
    return _single(s, seat, action)


# -- the turn's menu --------------------------------------------------------------------------
def _a(word: str) -> str:
    """'an investor', 'a VIP'."""
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


def _tile(s: GameState, tile: int) -> str:
    """A reputation tile by what it scores (its id, where that says more)."""
    t = s.data.reputation_tiles[tile]
    scoring = TILE_SCORINGS[t.scoring].replace("_", " ")
    return f"the '{scoring}' tile" if t.id == TILE_SCORINGS[t.scoring] else f"{t.id} ({scoring})"


def _who(s: GameState, owner: int, seat: int) -> str:
    if owner == LACERDA:
        return "Lacerda"
    return "your" if owner == seat else f"P{owner}'s"


def _location(s: GameState, seat: int, action: int) -> str:
    """A location action: the move there (and whom it kicks out), or the Kicked-Out action."""
    loc = (action - act.LOC_BASE) // 2
    what = ACTION_WORDS[action - act.LOC_BASE]
    if s.phase_name == "kicked":
        back = s.data.prev_fame_icon[s.influence[seat]]
        return f"{what} here at the {LOCATION_NAMES[loc]}, for influence (back to {back}) (G5.2)"
    text = f"move your Gallerist to the {LOCATION_NAMES[loc]} and {what}"
    occupant = s.occupant[loc]
    if occupant != EMPTY:
        owner, kind = divmod(occupant, 2)
        piece = "assistant" if kind == ASSISTANT else "Gallerist"
        if owner == seat and s.gpos[seat] < NUM_LOCATIONS:  # G3.3: it waits aside
            origin = LOCATION_NAMES[s.gpos[seat]]
            text += f"; your {piece} there may stay at the {origin} instead of going home (G3.3)"
        elif owner == seat:  # from the own Gallery nothing is left behind (G3.4)
            text += f"; your {piece} there goes home (G3.4)"
        else:
            text += f"; kicks out {_who(s, owner, seat)} {piece} (G3.4)"
    return text


def _move(s: GameState, seat: int, action: int) -> str:
    """G4.2: a ticket moves one visitor one step towards the own Gallery."""
    colour, source = divmod(action - act.MOVE_BASE, 5)
    name = COLOURS[colour]
    spend = f"spend {_a(name)} ticket ({s.tickets[seat][colour]} held): "
    if source == 0:
        return spend + f"{_a(name)} visitor from the Plaza to your lobby (G4.2)"
    if source == 1:
        return spend + f"{_a(name)} visitor from your lobby into your gallery (G4.2)"
    other = (seat + source - 1) % s.num_players
    return spend + f"{_a(name)} visitor from P{other}'s lobby to the Plaza (G4.2)"


def _bonus(s: GameState, seat: int, action: int) -> str:
    """G4.5: an assistant onto the bonus of an own contract."""
    slot = action - act.BONUS_BASE
    card, state, _on = s.contracts[seat][slot]
    d = s.data
    if state == SLOT_UP:
        bonus = d.contracts[card].bonus
    else:
        bonus = d.contract_back[0 if state == SLOT_DOWN_INFLUENCE else 1]
    return f"put an assistant on the contract in slot {slot}: {bonus_text(bonus)} (G4.5)"


def _start(s: GameState, seat: int, action: int) -> str:
    loc = action - act.START_BASE
    tile = s.location_tiles[loc]
    text = f"start at the {LOCATION_NAMES[loc]}"
    if tile != EMPTY:
        text += f"; take {_tile(s, tile)}"
    return text


def _done(s: GameState, seat: int, action: int) -> str:
    frame = s.frames[-1]
    phase = s.phase_name
    if phase in ("turn", "post", "kicked") and frame[-1] == EXEC_MOVING:
        return "stop moving visitors"
    texts = {
        "turn": "pass: no location action is possible (G3.5)",
        "post": "end your turn",
        "kicked": "take no action here: your piece goes home (G5.3)",
        "fame": "spend no more influence",
        "pay": "pay the rest in money",
    }
    return texts.get(phase, "done")


# -- one-step decisions -----------------------------------------------------------------------
def _assistant(s: GameState, seat: int, action: int) -> str:
    phase = s.phase_name
    if phase == "leave":
        return _leave(s, seat, action)
    if action == act.ASSIST_DESK:
        return f"an assistant from your office desks ({s.desks[seat]} there)"
    loc = action - act.ASSIST_LOC_BASE
    return f"your assistant from the {LOCATION_NAMES[loc]} (it leaves it free)"


def _leave(s: GameState, seat: int, action: int) -> str:
    """G3.3: an assistant onto the location left; an own assistant that stood where the
    Gallerist arrived waits aside and goes home unless it is the one chosen."""
    _kind, _p, origin_loc, location_action = s.frames[-1]
    origin, dest = LOCATION_NAMES[origin_loc], location_action // 2
    aside = s.kicked == (seat, ASSISTANT, dest)
    home = f"; your assistant from the {LOCATION_NAMES[dest]} goes home" if aside else ""
    if action == act.ASSIST_NONE:
        return f"leave no assistant at the {origin}{home}"
    if action == act.ASSIST_DESK:
        return f"an assistant from your office desks to the {origin} ({s.desks[seat]} at desks)"
    loc = action - act.ASSIST_LOC_BASE
    text = f"your assistant from the {LOCATION_NAMES[loc]} to the {origin}"
    return text + (" instead of going home" if aside and loc == dest else home)


def _artist(s: GameState, seat: int, action: int) -> str:
    a = action - act.ARTIST_BASE
    d = s.data
    name = f"the {artist_name(d, a)} artist"
    purpose = s.frames[-1][2]
    tile = d.artists[s.artist_tile[a]]
    if purpose == 0:  # discover (G6.1)
        bonus = s.artist_bonus[a]
        extra = f", bonus {bonus_text(d.artist_bonus_tiles[bonus])}" if bonus != EMPTY else ""
        fame = f"initial fame {tile.initial_fame}"
        return f"discover {name}: {fame}{extra}; it becomes your commission"
    if purpose == 1:  # buy (G6.3)
        price = tile.initial_fame if s.commission[seat] == a else s.fame[a]
        stack = s.stacks[a // 2]
        top = f", the work gives fame +{d.works[stack[-1]].fame}" if stack else ""
        return f"buy a {d.art_forms[a // 2]} by {name} for {price}{top}"
    if purpose == 2:  # promote (G8.2)
        level = s.promotion[a] + 1
        return f"promote {name} to level {level}: pay {level} influence; fame +1 per collector"
    return f"the fame bonus for {name} (fame now {s.fame[a]})"


def _ticket(s: GameState, seat: int, action: int) -> str:
    colour = action - act.TICKET_BASE
    left = s.box_office[colour]
    if s.phase_name == "discard":
        return f"{_a(COLOURS[colour])} ticket from the box office to the discard ({left} there)"
    return f"take {_a(COLOURS[colour])} ticket ({left} left in the box office)"


def _visitor(s: GameState, seat: int, action: int) -> str:
    colour = action - act.VISITOR_BASE
    name = COLOURS[colour]
    purpose = s.frames[-1][2]
    if purpose == 0:
        return f"{_a(name)} visitor from the Plaza ({s.plaza[colour]} there) into your gallery"
    if purpose == 1:
        return f"{_a(name)} visitor from your lobby ({s.lobby[seat][colour]} there) to the Plaza"
    return f"{_a(name)} visitor leaves your gallery for the Plaza (the contract turns by it)"


def _sign(s: GameState, seat: int, action: int) -> str:
    column, slot = divmod(action - act.CONTRACT_BASE, 3)
    d = s.data
    card = d.contracts[s.display[column][-1]]
    ticket = COLOURS[d.contract_slot_tickets[slot]]
    text = (
        f"sign the {d.art_forms[card.form]} contract ({bonus_text(card.bonus)}) of display "
        f"column {column} into slot {slot}: {_a(ticket)} ticket"
    )
    if s.contracts[seat][slot][1] != SLOT_EMPTY:
        text += "; it covers the contract there"
    return text


def _sell(s: GameState, seat: int, action: int) -> str:
    index, slot = divmod(action - act.SELL_BASE, 3)
    d = s.data
    work = s.gallery[seat][index]
    value = sales_value(s, s.work_artist[work])
    return (
        f"sell your {d.art_forms[d.works[work].form]} (gallery slot {index}) for {value} "
        f"with the contract in slot {slot}"
    )


def _hire(s: GameState, seat: int, action: int) -> str:
    k = action - act.HIRE_BASE + 1
    cost = hire_cost(s, seat, k)
    return f"hire {k} assistant{'s' if k > 1 else ''} for {cost} money"


def _reputation(s: GameState, seat: int, action: int) -> str:
    index = action - act.REP_BASE
    column, row = divmod(index, MARKET_UPPER_ROWS)
    d = s.data
    return (
        f"{_tile(s, s.market_tiles[index])}, column {column + 1}, {d.art_forms[row]} row: "
        f"+{d.column_influence[column]} influence"
    )


def _auction(s: GameState, seat: int, action: int) -> str:
    index = action - act.AUCTION_BASE
    column, row = divmod(index, MARKET_LOWER_ROWS)
    d = s.data
    bonus = bonus_text(d.auction_bonuses[row][column])
    return (
        f"offer {d.auction_offers[row]} for the final auction (column {column + 1}): "
        f"{bonus}, +{d.column_influence[column]} influence"
    )


def _space(s: GameState, seat: int, action: int) -> str:
    i = action - act.SPACE_BASE
    return f"reputation space {i}: {bonus_text(s.data.reputation_spaces[i])}"


def _orient(s: GameState, seat: int, action: int) -> str:
    half = action - act.ORIENT_BASE
    back = s.data.contract_back[half]
    return f"the {('influence', 'money')[half]} half up: its bonus {bonus_text(back)}"


def _easel(s: GameState, seat: int, action: int) -> str:
    work = s.easels[action - act.EASEL_BASE]
    form = s.data.art_forms[s.data.works[work].form]
    return f"take the renowned {form} (worth {renowned_value(s, work)} at the end, G16.2)"


def _single(s: GameState, seat: int, action: int) -> str:
    """The ids that are one choice each: done, spending influence, redraw, commission."""
    d = s.data
    if action == act.DONE:
        return _done(s, seat, action)
    if action == act.SPEND_FAME:
        if s.phase_name == "pay":
            back = d.prev_money_icon[s.influence[seat]]
            return f"pay 1 money with influence (back to {back}) (G10.2)"
        back = d.prev_fame_icon[s.influence[seat]]
        return f"+1 fame for influence (back to {back}) (G10.3)"
    if action == act.REDRAW:
        return "draw 4 new contracts onto the display first (G7.1)"
    artist = s.frames[-1][2]
    tile = d.artists[s.artist_tile[artist]]
    if action == act.USE_COMMISSION:
        return f"with your commission: at its initial fame, {tile.initial_fame}"
    if action == act.USE_TOKEN:
        return f"with a signature token: at its fame, {s.fame[artist]}; the commission stays"
    return ""


_Describe = Callable[[GameState, int, int], str]
_BLOCKS: tuple[tuple[tuple[int, int], _Describe], ...] = (
    ((act.LOC_BASE, act.LOC_BASE + 8), _location),
    ((act.START_BASE, act.START_BASE + 4), _start),
    ((act.ASSIST_NONE, act.ASSIST_LOC_BASE + 4), _assistant),
    ((act.ARTIST_BASE, act.ARTIST_BASE + 8), _artist),
    ((act.TICKET_BASE, act.TICKET_BASE + 3), _ticket),
    ((act.VISITOR_BASE, act.VISITOR_BASE + 3), _visitor),
    ((act.CONTRACT_BASE, act.SELL_BASE), _sign),
    ((act.SELL_BASE, act.HIRE_BASE), _sell),
    ((act.HIRE_BASE, act.REP_BASE), _hire),
    ((act.REP_BASE, act.AUCTION_BASE), _reputation),
    ((act.AUCTION_BASE, act.SPACE_BASE), _auction),
    ((act.SPACE_BASE, act.ORIENT_BASE), _space),
    ((act.ORIENT_BASE, act.MOVE_BASE), _orient),
    ((act.MOVE_BASE, act.BONUS_BASE), _move),
    ((act.BONUS_BASE, act.EASEL_BASE), _bonus),
    ((act.EASEL_BASE, act.USE_COMMISSION), _easel),
)
