"""The eight location actions (G6-G9): when each is possible, the choices it offers and
what each choice does."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .actions import (
    ASSIST_DESK,
    ASSIST_LOC_BASE,
    ASSIST_NONE,
    AUCTION,
    AUCTION_BASE,
    BUY,
    CONTRACT_BASE,
    DISCOVER,
    HIRE,
    HIRE_BASE,
    MEDIA,
    PROMOTE,
    REDRAW,
    REP_BASE,
    REPUTATION,
    SELL,
    SELL_BASE,
    SIGN,
    USE_COMMISSION,
    USE_TOKEN,
)
from .data import (
    COLLECTOR,
    MARKET_COLUMNS,
    MARKET_LOWER_ROWS,
    MARKET_UPPER_ROWS,
    MAX_PROMOTION,
    NUM_ARTIST_SLOTS,
    NUM_COLOURS,
    NUM_CONTRACT_SLOTS,
)
from .effects import (
    affordable,
    apply_bonus,
    assistant_code,
    assistants_available,
    can_sign,
    can_spend_for_fame,
    collectors,
    gain_influence,
    gallery_room,
    hired_count,
    increase_fame,
    pay,
    place_work_visitors,
    push_tickets,
    sales_value,
    send_home,
)
from .frames import (
    A_BUY,
    A_HIRE_BONUS,
    A_OFFER_BONUS,
    A_PROMOTE_FAME,
    A_SELL_FLIP,
    ASSISTANT,
    EMPTY,
    F_ARTIST,
    F_ASSIST,
    F_AUCTION,
    F_COMMISSION,
    F_CONTRACT,
    F_FAME,
    F_HIRE,
    F_REP,
    F_SELL,
    F_SPACE,
    F_VISITOR,
    NUM_LOCATIONS,
    P_BUY,
    P_DISCOVER,
    P_PROMOTE,
    SLOT_EMPTY,
    SLOT_UP,
    T_MARKET_LOWER,
    T_MARKET_UPPER,
    TILE_FROM_MARKET,
    V_LOBBY_TO_PLAZA,
    V_SELL,
)

if TYPE_CHECKING:
    from .state import GameState

_ALL = (1 << NUM_COLOURS) - 1


# -- legality of a whole location action -------------------------------------------------
def can_act(s: GameState, p: int, action: int, arriving: int = EMPTY) -> bool:
    """Whether ``p`` can carry out location action ``action`` (G3.5). ``arriving`` is the
    location ``p`` is about to move to: an own assistant there goes back to a desk first.
    Each check stops at the first possible choice (it runs for every menu)."""
    if action == DISCOVER:
        return s.commission[p] == EMPTY and not all(s.discovered)
    if action == BUY:
        return gallery_room(s, p) and _can_buy_some(s, p)
    if action == SIGN:
        return can_sign(s, p)
    if action == SELL:
        return can_sell(s, p)
    if action == HIRE:
        return can_hire(s, p, arriving == MEDIA)
    if action == PROMOTE:  # a promotion costs at least one influence
        return s.influence[p] > 0 and any(_can_promote(s, p, a) for a in range(NUM_ARTIST_SLOTS))
    if action == REPUTATION:
        return next(_reputation_spaces(s, p), None) is not None
    if action == AUCTION:
        return next(_auction_spaces(s, p), None) is not None
    raise AssertionError(f"not a location action: {action}")


def hire_room_on_arrival(s: GameState, p: int) -> int:
    """G3.3/G8.1: the most empty desks ``p`` can have on arriving at the Media Center: the
    assistant left behind may come from a desk (one more empty), and an own assistant
    standing there may be left behind instead of going home."""
    options = leave_options(s, p, MEDIA) if s.gpos[p] < NUM_LOCATIONS else [ASSIST_NONE]
    return max(free_desks_after_leave(s, p, choice, MEDIA) for choice in options)


def leave_options(s: GameState, p: int, dest: int) -> list[int]:
    """G3.3: none, an office desk, or an own assistant on a location, including the one at
    the destination ``dest`` (on arrival it is not yet home: ``s.kicked``, or ``dest``'s
    occupant while the move is being chosen)."""
    code = assistant_code(p)
    out = [ASSIST_NONE, ASSIST_DESK] if s.desks[p] else [ASSIST_NONE]
    out += [ASSIST_LOC_BASE + loc for loc in range(NUM_LOCATIONS) if s.occupant[loc] == code]
    if s.kicked == (p, ASSISTANT, dest):
        out.append(ASSIST_LOC_BASE + dest)
    return sorted(out)


def free_desks_after_leave(s: GameState, p: int, choice: int, dest: int) -> int:
    """Empty desks once leave-behind ``choice`` is made and an own assistant at ``dest`` that
    was not the one left behind has gone home (G5.3: removed if no desk is empty)."""
    free = s.data.desks - s.desks[p] + (choice == ASSIST_DESK)
    own_there = s.occupant[dest] == assistant_code(p) or s.kicked == (p, ASSISTANT, dest)
    if own_there and choice != ASSIST_LOC_BASE + dest:
        free = max(0, free - 1)
    return free


def start_action(s: GameState, p: int, action: int) -> None:
    """Push the first decision of location action ``action`` (its legality was checked)."""
    s.round_active = True  # G15.3
    s.events.append(("action", {"player": p, "action": action}))
    if action == DISCOVER:
        s.frames.append((F_ARTIST, p, P_DISCOVER, 0))
    elif action == BUY:
        s.frames.append((F_ARTIST, p, P_BUY, 0))
    elif action == SIGN:
        s.frames.append((F_CONTRACT, p, 1))
    elif action == SELL:
        s.frames.append((F_SELL, p))
    elif action == HIRE:
        s.frames.append((F_HIRE, p))
    elif action == PROMOTE:
        s.frames.append((F_ARTIST, p, P_PROMOTE, 0))
    elif action == REPUTATION:
        s.frames.append((F_REP, p))
    else:
        s.frames.append((F_AUCTION, p))


# -- Artists Colony (G6) and Media Center promotion (G8.2) -------------------------------
def buy_price(s: GameState, p: int, artist: int) -> int:
    """G6.3: current fame, or the initial fame for the own commission."""
    if s.commission[p] == artist:
        return s.data.artists[s.artist_tile[artist]].initial_fame
    return s.fame[artist]


def artist_options(s: GameState, p: int, purpose: int) -> list[int]:
    """Artist slots ``p`` may choose for discovering, buying, promoting or a fame bonus."""
    slots = range(NUM_ARTIST_SLOTS)
    if purpose == P_DISCOVER:
        return [a for a in slots if not s.discovered[a]]
    if purpose == P_BUY:
        return [a for a in slots if _can_buy(s, p, a)] if gallery_room(s, p) else []
    if purpose == P_PROMOTE:
        return [a for a in slots if _can_promote(s, p, a)]
    return [a for a in slots if s.discovered[a] and not s.celebrity[a]]  # fame bonus


def _can_buy(s: GameState, p: int, a: int) -> bool:
    """G6.3/G6.4/G6.7 for artist slot ``a`` (the gallery's room, G6.5, is checked apart):
    :func:`buy_ways` has one, without listing them."""
    if not s.stacks[a // 2]:
        return False
    if s.commission[p] == a and affordable(s, p, buy_price(s, p, a)):
        return True
    return can_buy_with_token(s, p, a)


def _can_buy_some(s: GameState, p: int) -> bool:
    """Whether some artist's work can be bought (the gallery's room apart): only a
    discovered or the commissioned artist can be (a token's artist is discovered)."""
    commission = s.commission[p]
    return any(
        _can_buy(s, p, a) for a in range(NUM_ARTIST_SLOTS) if s.discovered[a] or a == commission
    )


def can_buy_with_token(s: GameState, p: int, a: int) -> bool:
    """G6.3/G6.4: a signature token beside a discovered non-celebrity, at its current fame."""
    return (
        s.discovered[a] and not s.celebrity[a] and s.tokens[a] > 0 and affordable(s, p, s.fame[a])
    )


def buy_ways(s: GameState, p: int, a: int) -> list[int]:
    """G6.3: "an Artist with either an available Signature token or one you already have a
    commission for": USE_COMMISSION (the initial fame) and/or USE_TOKEN (the current fame)."""
    out = []
    if s.commission[p] == a and affordable(s, p, buy_price(s, p, a)):
        out.append(USE_COMMISSION)
    if can_buy_with_token(s, p, a):
        out.append(USE_TOKEN)
    return out


def _can_promote(s: GameState, p: int, a: int) -> bool:
    """G8.2: a discovered non-celebrity, a token of the next level, influence to pay it."""
    level = s.promotion[a] + 1
    return (
        s.discovered[a]
        and not s.celebrity[a]
        and level <= MAX_PROMOTION
        and s.promo_tokens[level - 1] > 0
        and s.influence[p] >= level
    )


def discover(s: GameState, p: int, a: int) -> None:
    """G6.1: bonus tile, the red artist's Collector to the Plaza, flip, fame, commission."""
    bonus_tile = s.artist_bonus[a]
    s.artist_bonus[a] = EMPTY
    if s.artist_collector[a]:
        s.artist_collector[a] = False
        s.plaza[COLLECTOR] += 1
    s.discovered[a] = True
    s.fame[a] = s.data.artists[s.artist_tile[a]].initial_fame
    s.tokens[a] -= 1
    s.commission[p] = a
    s.events.append(("discover", {"player": p, "artist": a}))
    if bonus_tile != EMPTY:
        s.box_bonus_tiles.append(bonus_tile)
        s.box_bonus_tiles.sort()
        apply_bonus(s, p, s.data.artist_bonus_tiles[bonus_tile], a)


def choose_buy(s: GameState, p: int, a: int) -> None:
    """G6.3 step 1: the artist is chosen; with a commission and a token both usable the
    player chooses which (F_COMMISSION), else the one there is is used."""
    ways = buy_ways(s, p, a)
    if len(ways) > 1:
        s.frames.append((F_COMMISSION, p, a))
    else:
        buy(s, p, a, ways[0] == USE_COMMISSION)


def buy(s: GameState, p: int, a: int, with_commission: bool) -> None:
    """G6.3 steps 2-3: the work's visitors to the Plaza, the payment; the rest follows it."""
    form = a // 2
    for c in range(NUM_COLOURS):
        s.plaza[c] += s.work_visitors[form][c]
    s.work_visitors[form] = [0] * NUM_COLOURS
    price = buy_price(s, p, a) if with_commission else s.fame[a]
    s.frames.append((A_BUY, p, a, int(with_commission)))
    pay(s, p, price)


def bought(s: GameState, p: int, a: int, with_commission: int) -> None:
    """G6.3 steps 4-8 (with G6.5/G6.6 placement first, [decision]): the work on top of the
    form's stack."""
    form = a // 2
    work = s.stacks[form].pop()
    if with_commission:
        s.commission[p] = EMPTY
    else:
        s.tokens[a] -= 1
    s.work_artist[work] = a
    if len(s.gallery[p]) == s.data.start_tile_slot - 1 and s.start_tile[p] != EMPTY:
        s.pending_tile[p] = s.start_tile[p]  # G6.6: over the work until the end of the turn
        s.start_tile[p] = EMPTY
    s.gallery[p].append(work)
    increase_fame(s, p, a, s.data.works[work].fame + collectors(s, p))
    place_work_visitors(s, form)  # G6.3 step 8
    s.events.append(("buy", {"player": p, "artist": a, "work": work}))
    push_tickets(s, p, s.data.works[work].tickets)
    if can_spend_for_fame(s, p, a):
        s.frames.append((F_FAME, p, a))


def promote(s: GameState, p: int, a: int) -> None:
    """G8.2 steps 1-4: influence equal to the new level, the token, its bonus; the fame
    (step 5) follows the bonus, so a Collector it brings counts."""
    level = s.promotion[a] + 1
    s.influence[p] -= level
    if s.promotion[a] > s.data.artists[s.artist_tile[a]].promotion:
        s.promo_tokens[s.promotion[a] - 1] += 1  # the old token back to the board
    s.promo_tokens[level - 1] -= 1
    s.promotion[a] = level
    s.events.append(("promote", {"player": p, "artist": a, "level": level}))
    s.frames.append((A_PROMOTE_FAME, p, a))
    apply_bonus(s, p, s.data.promotion_bonuses[level - 1])


def promotion_fame(s: GameState, p: int, a: int) -> None:
    """G8.2 step 5: +1 fame and +1 per Collector in the Gallery; influence may add more."""
    increase_fame(s, p, a, 1 + collectors(s, p))
    if can_spend_for_fame(s, p, a):
        s.frames.append((F_FAME, p, a))


# -- Sales Office (G7) -------------------------------------------------------------------
def contract_options(s: GameState, p: int, redraw_ok: bool) -> list[int]:
    out = []
    if redraw_ok and len(s.deck) >= 4:
        out.append(REDRAW)
    for d in range(4):
        if s.display[d]:
            for slot in range(NUM_CONTRACT_SLOTS):
                if s.contracts[p][slot][1] != SLOT_UP:
                    out.append(CONTRACT_BASE + 3 * d + slot)
    return out


def redraw(s: GameState) -> None:
    """G7.1: four new contracts on top of the display, left to right."""
    for d in range(4):
        s.display[d].append(s.deck.pop())


def sign(s: GameState, p: int, column: int, slot: int) -> None:
    """G7.1: take a display contract into a board slot; refill empty display spaces (G7.3)."""
    card = s.display[column].pop()
    old_card, old_state, assistant = s.contracts[p][slot]
    if old_state == SLOT_EMPTY:
        push_tickets(s, p, (1 << s.data.contract_slot_tickets[slot],))
    else:  # over a fulfilled contract: discard it, its assistant goes home
        s.contract_discard.append(old_card)
        if assistant:
            send_home(s, p)
    s.contracts[p][slot] = [card, SLOT_UP, 0]
    for stack in s.display:
        if not stack and s.deck:
            stack.append(s.deck.pop())
    s.events.append(("sign", {"player": p, "contract": card, "slot": slot}))


def sell_options(s: GameState, p: int) -> list[int]:
    out = []
    forms = [s.data.works[w].form for w in s.gallery[p]]
    for slot in range(NUM_CONTRACT_SLOTS):
        card, state, _ = s.contracts[p][slot]
        if state == SLOT_UP:
            form = s.data.contracts[card].form
            out += [SELL_BASE + 3 * w + slot for w, f in enumerate(forms) if f == form]
    return sorted(out)


def can_sell(s: GameState, p: int) -> bool:
    """Whether :func:`sell_options` has a choice: a face-up contract of an exhibited form."""
    if not s.gallery[p]:
        return False
    works, cards = s.data.works, s.data.contracts
    forms = {works[w].form for w in s.gallery[p]}
    return any(state == SLOT_UP and cards[card].form in forms for card, state, _ in s.contracts[p])


def sell(s: GameState, p: int, index: int, slot: int) -> None:
    """G7.4: money by the sales value, token back, a visitor out, the contract flips."""
    work = s.gallery[p].pop(index)
    artist = s.work_artist[work]
    value = sales_value(s, artist)
    s.money[p] += value
    s.sold[p].append(work)
    s.tokens[artist] += 1
    if s.contracts[p][slot][2]:
        s.contracts[p][slot][2] = 0
        send_home(s, p)
    s.events.append(("sell", {"player": p, "work": work, "value": value, "slot": slot}))
    s.frames.append((A_SELL_FLIP, p, slot, EMPTY))
    s.frames.append((F_VISITOR, p, V_SELL, _ALL))


# -- Media Center hiring (G8.1) ----------------------------------------------------------
def hire_cost(s: GameState, p: int, k: int) -> int:
    start = hired_count(s, p)
    return sum(s.data.hire_costs[start : start + k])


def hire_options(s: GameState, p: int, free: int | None = None) -> list[int]:
    """G8.1: how many to hire: up to the empty desks (``free``, default the office's now)."""
    if free is None:
        free = s.data.desks - s.desks[p]
    return [
        HIRE_BASE + k - 1
        for k in range(1, min(free, s.queue[p]) + 1)
        if affordable(s, p, hire_cost(s, p, k))
    ]


def can_hire(s: GameState, p: int, arriving_at_media: bool = False) -> bool:
    """Whether :func:`hire_options` has a choice (with the room on arrival at the Media
    Center when ``arriving_at_media``): one assistant, the cheapest hire (costs are never
    negative), waiting and affordable, then the room, the dearest check, last."""
    if not s.queue[p] or not affordable(s, p, hire_cost(s, p, 1)):
        return False
    room = s.data.desks - s.desks[p]
    if arriving_at_media and room < 2:  # arriving takes at most one empty desk
        room = hire_room_on_arrival(s, p)
    return room >= 1


def hire(s: GameState, p: int, k: int) -> None:
    """G8.1 steps 1-2: the assistants to the desks, their cost; the bonuses follow."""
    start = hired_count(s, p)
    cost = hire_cost(s, p, k)
    s.queue[p] -= k
    s.desks[p] += k
    s.events.append(("hire", {"player": p, "count": k}))
    s.frames.append((A_HIRE_BONUS, p, start, k))
    pay(s, p, cost)


def hire_bonuses(s: GameState, p: int, start: int, k: int) -> None:
    """G8.1 step 3: the bonus printed at each hired assistant's queue place."""
    for i in range(start, start + k):
        apply_bonus(s, p, s.data.hire_bonuses[i])


# -- International Market (G9) -----------------------------------------------------------
def lobby_meets(s: GameState, p: int, column: int) -> bool:
    """G9.1: distinct Lobby visitors matching the column's requirement slots."""
    key = (s.data.column_requirements[column], tuple(s.lobby[p]))
    meets = _LOBBY_MEETS.get(key)
    if meets is None:  # a pure function of the key; the menus ask it for every column
        meets = _LOBBY_MEETS[key] = _fits(*key)
    return meets


_LOBBY_MEETS: dict[tuple[tuple[int, ...], tuple[int, ...]], bool] = {}


def lobby_columns(s: GameState, p: int) -> tuple[bool, ...]:
    """:func:`lobby_meets` for every market column at once (the reputation and auction
    menus ask all of them: one lookup instead of one per column)."""
    key = (s.data.column_requirements, tuple(s.lobby[p]))
    met = _LOBBY_COLUMNS.get(key)
    if met is None:  # a pure function of the key, like lobby_meets
        met = _LOBBY_COLUMNS[key] = tuple(_fits(slots, key[1]) for slots in key[0])
    return met


_LOBBY_COLUMNS: dict[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], tuple[bool, ...]] = {}


def _fits(slots: tuple[int, ...], counts: tuple[int, ...]) -> bool:
    """Whether visitors ``counts`` (per colour) fill the requirement ``slots`` (a colour
    mask each), one distinct visitor per slot."""

    def fits(slots: tuple[int, ...], used: list[int]) -> bool:
        if not slots:
            return True
        for c in range(NUM_COLOURS):
            if slots[0] >> c & 1 and counts[c] > used[c]:
                used[c] += 1
                if fits(slots[1:], used):
                    return True
                used[c] -= 1
        return False

    return fits(slots, [0] * NUM_COLOURS)


def acquired_forms(s: GameState, p: int) -> set[int]:
    """Forms of the works ``p`` exhibits or sold (G9.2)."""
    works = s.data.works
    out = {works[w].form for w in s.gallery[p]} | {works[w].form for w in s.sold[p]}
    if s.renowned[p] != EMPTY:
        out.add(works[s.renowned[p]].form)
    return out


def market_columns(s: GameState) -> range | tuple[int, ...]:
    return s.data.small_game_columns if s.num_players <= 2 else range(MARKET_COLUMNS)


def reputation_options(s: GameState, p: int) -> list[int]:
    return list(_reputation_spaces(s, p))


def _reputation_spaces(s: GameState, p: int) -> Iterator[int]:
    """G9.2's choices in order, lazily: can_act stops at the first."""
    if EMPTY not in s.spaces[p] or not assistants_available(s, p):
        return
    forms = acquired_forms(s, p)
    met = lobby_columns(s, p)
    for col in range(MARKET_COLUMNS):
        if not met[col]:
            continue
        for row in range(MARKET_UPPER_ROWS):
            i = MARKET_UPPER_ROWS * col + row
            if row in forms and s.market_tiles[i] != EMPTY and s.market_upper[i] == EMPTY:
                yield REP_BASE + i


def take_reputation(s: GameState, p: int, index: int) -> None:
    """G9.2: influence, the tile onto the board, a Lobby visitor out, an assistant in."""
    col = index // MARKET_UPPER_ROWS
    gain_influence(s, p, s.data.column_influence[col])
    s.events.append(("reputation", {"player": p, "space": index, "tile": s.market_tiles[index]}))
    s.frames.append((F_ASSIST, p, T_MARKET_UPPER, index))
    s.frames.append((F_VISITOR, p, V_LOBBY_TO_PLAZA, _ALL))
    s.frames.append((F_SPACE, p, TILE_FROM_MARKET, index))  # the tile moves when placed


def auction_options(s: GameState, p: int) -> list[int]:
    return list(_auction_spaces(s, p))


def _auction_spaces(s: GameState, p: int) -> Iterator[int]:
    """G9.3's choices in order, lazily: can_act stops at the first."""
    if not assistants_available(s, p):
        return
    d, met = s.data, lobby_columns(s, p)
    for col in range(MARKET_COLUMNS):
        if not met[col]:
            continue
        influence = min(d.influence_max, s.influence[p] + d.column_influence[col])
        for row in range(MARKET_LOWER_ROWS):
            i = MARKET_LOWER_ROWS * col + row
            if s.market_lower[i] == EMPTY and affordable(s, p, d.auction_offers[row], influence):
                yield AUCTION_BASE + i


def make_offer(s: GameState, p: int, index: int) -> None:
    """G9.3: influence, pay the row's offer, the space's bonus, an assistant in."""
    col, row = divmod(index, MARKET_LOWER_ROWS)
    gain_influence(s, p, s.data.column_influence[col])
    s.events.append(("auction", {"player": p, "space": index}))
    s.frames.append((F_ASSIST, p, T_MARKET_LOWER, index))
    s.frames.append((A_OFFER_BONUS, p, index))
    pay(s, p, s.data.auction_offers[row])


def offer_bonus(s: GameState, p: int, index: int) -> None:
    """G9.3 step 3: the bonus of the auction space, after the payment."""
    col, row = divmod(index, MARKET_LOWER_ROWS)
    apply_bonus(s, p, s.data.auction_bonuses[row][col])
