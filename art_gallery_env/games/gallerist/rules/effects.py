"""Small state changes shared by many rules: money and influence (G10), tickets (G11),
visitors (G4.2, G12), fame and celebrity (G13), assistants (G5.3) and bonuses (G19).

Functions that need a player's choice push a decision frame instead of choosing; everything
else changes the state at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .data import (
    B_ASSISTANT,
    B_CONTRACT,
    B_FAME,
    B_INFLUENCE,
    B_INFLUENCE_PER_VISITOR,
    B_MONEY,
    B_MONEY_PER_VISITOR,
    B_TICKET_ANY,
    B_TICKETS_TWO,
    B_VISITOR_BAG,
    B_VISITOR_PLAZA,
    B_VISITOR_VIP_INVESTOR,
    COLLECTOR,
    INVESTOR,
    NUM_ARTIST_SLOTS,
    NUM_COLOURS,
    VIP,
    Bonus,
)
from .frames import (
    A_TICKETS,
    ASSISTANT,
    EMPTY,
    F_ARTIST,
    F_CONTRACT,
    F_DISCARD,
    F_FAME,
    F_PAY,
    F_VISITOR,
    LACERDA,
    NUM_LOCATIONS,
    P_FAME_BONUS,
    SLOT_UP,
    V_PLAZA_TO_GALLERY,
)

if TYPE_CHECKING:
    from .state import GameState

ALL_COLOURS = (1 << NUM_COLOURS) - 1
VIP_OR_INVESTOR = (1 << VIP) | (1 << INVESTOR)


# -- money and influence (G10) -----------------------------------------------------------
def affordable(s: GameState, p: int, cost: int, influence: int | None = None) -> bool:
    """G10.2: cash plus what influence can pay (one money per money icon passed)."""
    inf = s.influence[p] if influence is None else influence
    return s.money[p] + s.data.money_below[inf] >= cost


def pay(s: GameState, p: int, cost: int) -> None:
    """G10.2: pay ``cost``; influence pays what cash lacks at once, icon by icon, and the
    player may let it pay more of the cost (a decision, :data:`F_PAY`, pushed on top: the
    caller pushes the rest of its action first)."""
    prev = s.data.prev_money_icon
    converted = 0
    while s.money[p] < cost:
        s.influence[p] = prev[s.influence[p]]
        s.money[p] += 1
        converted += 1
    s.money[p] -= cost
    if cost > converted and s.data.money_below[s.influence[p]]:
        s.frames.append((F_PAY, p, cost - converted))


def can_pay_with_influence(s: GameState, p: int, steps: int) -> bool:
    """G10.2: another step of influence for money: money left to pay and a money icon below."""
    return steps > 0 and s.data.money_below[s.influence[p]] > 0


def influence_for_money(s: GameState, p: int) -> None:
    """G10.2: back to the previous money icon for one money (for a cost being paid)."""
    s.influence[p] = s.data.prev_money_icon[s.influence[p]]
    s.money[p] += 1


def gain_influence(s: GameState, p: int, amount: int) -> None:
    """G10.1: influence past the end of the track is lost."""
    s.influence[p] = min(s.data.influence_max, s.influence[p] + amount)


def can_spend_for_fame(s: GameState, p: int, artist: int) -> bool:
    return s.influence[p] > 0 and not s.celebrity[artist]


def spend_for_fame(s: GameState, p: int, artist: int) -> None:
    """G10.3: back to the previous fame icon for one more fame."""
    s.influence[p] = s.data.prev_fame_icon[s.influence[p]]
    increase_fame(s, p, artist, 1)


# -- fame (G13) --------------------------------------------------------------------------
def increase_fame(s: GameState, p: int, artist: int, amount: int) -> None:
    """G13.3: fame stops at the celebrity space; reaching it makes a celebrity (G13.2)."""
    if s.celebrity[artist] or amount <= 0:
        return
    top = s.data.celebrity_fame
    s.fame[artist] = min(top, s.fame[artist] + amount)
    if s.fame[artist] >= top:
        s.celebrity[artist] = True
        s.money[p] += s.data.celebrity_money
        made = []
        for q in range(s.num_players):
            for w in s.gallery[q]:
                if s.work_artist[w] == artist:
                    s.masterpiece[w] = True
                    made.append(w)
        s.events.append(("celebrity", {"player": p, "artist": artist, "masterpieces": made}))


def collectors(s: GameState, p: int) -> int:
    return s.gallery_visitors[p][COLLECTOR]


def stars(s: GameState, artist: int) -> int:
    return s.data.artist_stars[s.artist_tile[artist]][s.fame[artist]]


def sales_value(s: GameState, artist: int) -> int:
    """G13.1: the money a work of ``artist`` sells (and scores) for."""
    return s.data.artist_values[s.artist_tile[artist]][s.fame[artist]]


def renowned_value(s: GameState, work: int) -> int:
    """G16.2: as if made by the most famous discovered artist of its form (0 if none)."""
    form = s.data.works[work].form
    best = [a for a in (2 * form, 2 * form + 1) if s.discovered[a]]
    if not best:
        return 0
    return sales_value(s, max(best, key=lambda a: (s.fame[a], -a)))


def gallery_room(s: GameState, p: int) -> bool:
    """G6.5: three slots, a fourth while a masterpiece is exhibited."""
    slots = s.data.gallery_slots
    if any(s.masterpiece[w] for w in s.gallery[p]):
        slots += 1
    return len(s.gallery[p]) < slots


# -- tickets (G11) -----------------------------------------------------------------------
def _note_box_office(s: GameState, colour: int) -> None:
    if s.box_office[colour] == 0 and not s.intermediate_done:
        s.intermediate_pending = True  # G14: scored at the end of this turn


def gain_ticket(s: GameState, p: int, colour: int) -> None:
    """G11.1-G11.3: from the box office; a colour that is out is bought with another, which
    the player chooses (a decision, :data:`F_DISCARD`, when two colours are left)."""
    bo = s.box_office
    if bo[colour] > 0:
        bo[colour] -= 1
        s.tickets[p][colour] += 1
        _note_box_office(s, colour)
        return
    others = [c for c in range(NUM_COLOURS) if bo[c] > 0]
    if len(others) > 1:  # G11.2: "remove one of any other ticket": the player's pick
        s.frames.append((F_DISCARD, p, colour, sum(1 << c for c in others)))
    else:
        discard_for_ticket(s, p, colour, others[0] if others else EMPTY)


def discard_for_ticket(s: GameState, p: int, colour: int, other: int) -> None:
    """G11.2: ``other`` (a box-office colour, or EMPTY if none is left) goes to the discard
    pile, then the wanted ``colour`` comes from there ([decision] lost if there is none)."""
    discard = s.ticket_discard
    if other != EMPTY:
        s.box_office[other] -= 1
        discard[other] += 1
        _note_box_office(s, other)
    if discard[colour] > 0:  # G11.2/G11.3: take it from the discard pile
        discard[colour] -= 1
        s.tickets[p][colour] += 1


def spend_ticket(s: GameState, p: int, colour: int) -> None:
    """G11.4: spent tickets go to the discard pile."""
    s.tickets[p][colour] -= 1
    s.ticket_discard[colour] += 1


def discard_most_tickets(s: GameState) -> None:
    """G17.3: one ticket from the box-office stack with the most tickets to the discard."""
    bo = s.box_office
    if any(bo):
        colour = max(range(NUM_COLOURS), key=lambda c: (bo[c], -c))
        bo[colour] -= 1
        s.ticket_discard[colour] += 1
        _note_box_office(s, colour)


def push_tickets(s: GameState, p: int, icons: tuple[int, ...] | list[int]) -> None:
    """G11.1: gain one ticket per icon (bit mask of allowed colours), never two of a kind."""
    if icons:
        s.frames.append((A_TICKETS, p, 0, *icons))


# -- visitors (G4.2, G4.4, G12) ----------------------------------------------------------
def collector_room(s: GameState, p: int) -> bool:
    """G4.4: at most one Collector more than the works the player has sold."""
    return s.gallery_visitors[p][COLLECTOR] < 1 + len(s.sold[p])


def may_enter_gallery(s: GameState, p: int, colour: int) -> bool:
    return colour != COLLECTOR or collector_room(s, p)


def visitor_move_options(s: GameState, p: int) -> list[tuple[int, int]]:
    """G4.2: (colour, source) pairs a ticket may move; source 0 Plaza, 1 + r Lobby of the
    seat r places after ``p``. Plaza -> own Lobby -> own Gallery; other Lobbies -> Plaza."""
    n = s.num_players
    options = []
    for c in range(NUM_COLOURS):
        if not s.tickets[p][c]:
            continue
        if s.plaza[c]:
            options.append((c, 0))
        if s.lobby[p][c] and may_enter_gallery(s, p, c):
            options.append((c, 1))
        for r in range(1, n):
            if s.lobby[(p + r) % n][c]:
                options.append((c, 1 + r))
    return options


def move_visitor(s: GameState, p: int, colour: int, source: int) -> None:
    spend_ticket(s, p, colour)
    if source == 0:
        s.plaza[colour] -= 1
        s.lobby[p][colour] += 1
    elif source == 1:
        s.lobby[p][colour] -= 1
        s.gallery_visitors[p][colour] += 1
    else:
        q = (p + source - 1) % s.num_players
        s.lobby[q][colour] -= 1
        s.plaza[colour] += 1


def bag_visitor_to_gallery(s: GameState, p: int) -> None:
    """G12.2: a random visitor from the bag into the Gallery (a Collector with no room goes
    to the Lobby, [decision])."""
    if s.bag:
        colour = s.bag.pop()
        target = s.gallery_visitors[p] if may_enter_gallery(s, p, colour) else s.lobby[p]
        target[colour] += 1


# -- assistants (G5.3, G19) --------------------------------------------------------------
def assistant_code(owner: int) -> int:
    return 2 * owner + ASSISTANT


def assistants_on_locations(s: GameState, p: int) -> list[int]:
    code = assistant_code(p)
    return [loc for loc in range(NUM_LOCATIONS) if s.occupant[loc] == code]


def assistants_available(s: GameState, p: int) -> int:
    """Assistants that may be placed: in the office or on a location (G9.2, G4.5)."""
    return s.desks[p] + s.occupant.count(assistant_code(p))


def send_home(s: GameState, owner: int) -> None:
    """G5.3: an assistant goes to a free desk, or out of the game if all desks are taken.
    Lacerda's go back to his supply (G17.3)."""
    if owner == LACERDA:
        s.lacerda_supply += 1
    elif s.desks[owner] < s.data.desks:
        s.desks[owner] += 1
    else:
        s.removed[owner] += 1


def hired_count(s: GameState, p: int) -> int:
    return s.data.assistants - s.data.start_desks - s.queue[p]


def free_hire(s: GameState, p: int) -> None:
    """G19 'assistant': the next unemployed assistant to a free desk, at no cost, no bonus."""
    if s.queue[p] and s.desks[p] < s.data.desks:
        s.queue[p] -= 1
        s.desks[p] += 1


# -- contracts ---------------------------------------------------------------------------
def face_up_contracts(s: GameState, p: int) -> int:
    return sum(1 for slot in s.contracts[p] if slot[1] == SLOT_UP)


def can_sign(s: GameState, p: int) -> bool:
    """G7.1/G7.2: fewer than three face-up contracts and a card to take (or to draw)."""
    return face_up_contracts(s, p) < 3 and (any(s.display) or len(s.deck) >= 4)


# -- bonuses (G19) -----------------------------------------------------------------------
def fame_bonus_targets(s: GameState) -> list[int]:
    return [a for a in range(NUM_ARTIST_SLOTS) if s.discovered[a] and not s.celebrity[a]]


def fame_bonus(s: GameState, p: int, artist: int, amount: int) -> None:
    """G19 fame bonus; G10.3: like every action that increases fame, influence may add more."""
    increase_fame(s, p, artist, amount)
    if can_spend_for_fame(s, p, artist):
        s.frames.append((F_FAME, p, artist))


def _fame_bonus(s: GameState, p: int, bonus: Bonus, artist: int) -> None:
    if artist != EMPTY:
        fame_bonus(s, p, artist, bonus.amount)
    elif fame_bonus_targets(s):
        s.frames.append((F_ARTIST, p, P_FAME_BONUS, bonus.amount))


def _contract_bonus(s: GameState, p: int, bonus: Bonus, artist: int) -> None:
    if can_sign(s, p):
        s.frames.append((F_CONTRACT, p, 1))


def _add_money(s: GameState, p: int, amount: int) -> None:
    s.money[p] += amount


_BONUS_EFFECTS: dict[int, Callable[[GameState, int, Bonus, int], None]] = {
    B_MONEY: lambda s, p, b, a: _add_money(s, p, b.amount),
    B_INFLUENCE: lambda s, p, b, a: gain_influence(s, p, b.amount),
    B_FAME: _fame_bonus,
    B_TICKET_ANY: lambda s, p, b, a: push_tickets(s, p, (ALL_COLOURS,)),
    B_TICKETS_TWO: lambda s, p, b, a: push_tickets(s, p, (ALL_COLOURS, ALL_COLOURS)),
    B_VISITOR_PLAZA: lambda s, p, b, a: s.frames.append(
        (F_VISITOR, p, V_PLAZA_TO_GALLERY, ALL_COLOURS)
    ),
    B_VISITOR_VIP_INVESTOR: lambda s, p, b, a: s.frames.append(
        (F_VISITOR, p, V_PLAZA_TO_GALLERY, VIP_OR_INVESTOR)
    ),
    B_VISITOR_BAG: lambda s, p, b, a: bag_visitor_to_gallery(s, p),
    B_ASSISTANT: lambda s, p, b, a: free_hire(s, p),
    B_CONTRACT: _contract_bonus,
    B_INFLUENCE_PER_VISITOR: lambda s, p, b, a: gain_influence(
        s, p, b.amount * s.gallery_visitors[p][b.colour]
    ),
    B_MONEY_PER_VISITOR: lambda s, p, b, a: _add_money(
        s, p, b.amount * s.gallery_visitors[p][b.colour]
    ),
}


def apply_bonus(s: GameState, p: int, bonus: Bonus | None, artist: int = EMPTY) -> None:
    """Gain ``bonus`` (G19); a fame bonus goes to ``artist`` if given, else to a chosen one.
    Bonuses that need a choice push a decision frame."""
    if bonus is not None:
        _BONUS_EFFECTS[bonus.kind](s, p, bonus, artist)


# -- setup helpers shared with the rules ------------------------------------------------
def bag_to(s: GameState, counts: list[int]) -> None:
    """Draw one visitor from the bag (if any) into ``counts`` (G12.1)."""
    if s.bag:
        counts[s.bag.pop()] += 1


def place_work_visitors(s: GameState, form: int) -> None:
    """G2.8/G6.3: visitors from the bag on the top work, one per ticket icon."""
    if s.stacks[form]:
        for _ in s.data.works[s.stacks[form][-1]].tickets:
            bag_to(s, s.work_visitors[form])
