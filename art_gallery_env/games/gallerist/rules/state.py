"""The Gallerist's game state and its setup (G2).

The state is plain lists and ints so that :meth:`GameState.clone` is cheap. A turn is driven
by a stack of *frames* (``state.frames``, top last): decision frames ask ``current_player``
for one action id, automatic frames are run by the engine (G20.1); their kinds and the other
constants are in :mod:`.frames`. Rules that change the state live in :mod:`.game` (the
driver), :mod:`.options` (legal actions per decision), :mod:`.decisions` (their effects),
:mod:`.turns` (end of turn and game), :mod:`.effects` (bonuses, tickets, visitors,
influence), :mod:`.locations` (the eight location actions) and :mod:`.lacerda` (the solo
bot); scoring in :mod:`.scoring`; what a seat may see in :mod:`.hidden`; JSON in
:mod:`.serialize`; consistency checks in :mod:`.invariants`.
"""

from __future__ import annotations

import random

from art_gallery_env.core.state_base import RulesState

from .data import (
    BLUE,
    COLLECTOR,
    MARKET_COLUMNS,
    MARKET_UPPER_ROWS,
    MAX_PROMOTION,
    NUM_ARTIST_SLOTS,
    NUM_COLOURS,
    NUM_CONTRACT_SLOTS,
    NUM_FORMS,
    NUM_REPUTATION_SPACES,
    RED,
    GameData,
    default_game_data,
)
from .effects import bag_to, place_work_visitors
from .frames import (
    A_ACTION,
    A_AUCTION,
    A_CONTRACT_BONUS,
    A_END_TURN,
    A_GAME_OVER,
    A_KICK_END,
    A_SELL_FLIP,
    A_START_TILE,
    A_TICKETS,
    ASSISTANT,
    AUTO_BASE,
    DECISION_KINDS,
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
    MARKET_LOWER_SPACES,
    MARKET_UPPER_SPACES,
    NUM_LOCATIONS,
    P_BUY,
    P_DISCOVER,
    P_FAME_BONUS,
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
    V_SELL,
    check_num_players,
)

__all__ = [  # the frame constants are re-exported: state is the rules' front door
    "ASSISTANT",
    "AUTO_BASE",
    "A_ACTION",
    "A_AUCTION",
    "A_CONTRACT_BONUS",
    "A_END_TURN",
    "A_GAME_OVER",
    "A_KICK_END",
    "A_SELL_FLIP",
    "A_START_TILE",
    "A_TICKETS",
    "DECISION_KINDS",
    "DECISION_NAMES",
    "EMPTY",
    "EXEC_MOVING",
    "EXEC_UNUSED",
    "EXEC_USED",
    "F_ARTIST",
    "F_ASSIST",
    "F_AUCTION",
    "F_CONTRACT",
    "F_EASEL",
    "F_FAME",
    "F_HIRE",
    "F_KICKED",
    "F_LEAVE",
    "F_ORIENT",
    "F_POST",
    "F_REP",
    "F_SELL",
    "F_SPACE",
    "F_START",
    "F_TICKET",
    "F_TURN",
    "F_VISITOR",
    "GALLERIST",
    "HOME",
    "KICKED",
    "LACERDA",
    "MARKET_LOWER_SPACES",
    "MARKET_UPPER_SPACES",
    "NUM_LOCATIONS",
    "P_BUY",
    "P_DISCOVER",
    "P_FAME_BONUS",
    "P_PROMOTE",
    "SLOT_DOWN_INFLUENCE",
    "SLOT_DOWN_MONEY",
    "SLOT_EMPTY",
    "SLOT_UP",
    "TILE_FROM_MARKET",
    "TILE_FROM_START",
    "T_CONTRACT",
    "T_MARKET_LOWER",
    "T_MARKET_UPPER",
    "V_LOBBY_TO_PLAZA",
    "V_PLAZA_TO_GALLERY",
    "V_SELL",
    "check_num_players",
    "GameState",
    "new_game",
]


class GameState(RulesState):
    """Everything about one game, including what some seats cannot see (G18).

    Per player ``p``: ``money``, ``influence``, ``tickets[p][colour]``, ``desks`` (assistants
    in the office), ``queue`` (still unemployed), ``removed`` (out of the game), ``gpos``
    (Gallerist: location 0..3, HOME or KICKED), ``lobby``/``gallery_visitors`` per colour,
    ``gallery`` (work ids, slot order), ``sold``, ``renowned`` (work id or -1), ``commission``
    (artist slot or -1), ``contracts[p][s] = [card, slot state, assistant on it]``,
    ``spaces`` (reputation tile per board space or -1), ``start_tile`` (tile on the third art
    slot or -1), ``pending_tile`` (taken from it this turn), ``curator``/``dealer`` (secret).

    Board: ``occupant[L]`` is -1 or ``2 * owner + kind`` (owner 4 = Lacerda); artist slot
    ``i = 2 * form + colour`` holds tile ``artist_tile[i]``; piles and the bag are lists whose
    last element is the top.
    """

    phase_label = "decision"  # the rules speak of decisions (G20.1), not phases

    __slots__ = (
        "data", "num_players", "solo", "current_player", "start_player", "round", "turn",
        "end_triggered", "final_round", "intermediate_pending", "intermediate_done", "over",
        "round_active", "frames", "events", "_legal",
        "money", "influence", "tickets", "desks", "queue", "removed", "gpos", "lobby",
        "gallery_visitors", "gallery", "sold", "renowned", "commission", "contracts", "spaces",
        "start_tile", "pending_tile", "curator", "dealer",
        "occupant", "kicked", "artist_tile", "discovered", "fame", "promotion", "tokens",
        "artist_bonus", "artist_collector", "celebrity", "work_artist", "masterpiece",
        "stacks", "work_visitors", "easels", "box_works", "bag", "plaza", "box_visitors",
        "box_office", "ticket_discard", "box_tickets", "deck", "display", "contract_discard",
        "promo_tokens", "market_tiles", "market_upper", "market_lower", "location_tiles",
        "box_tiles", "tile_discard", "box_artists", "box_bonus_tiles", "box_curators",
        "box_dealers", "lacerda_pos", "lacerda_kicked", "lacerda_supply", "lacerda_next_lower",
    )  # fmt: skip

    def __init__(self) -> None:  # use new_game() or from_dict()
        self._legal: list[int] | None = None

    # -- the public engine API ---------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def phase_name(self) -> str:
        """The kind of decision asked for now ('turn', 'ticket', ...) or 'game_over'."""
        if self.over:
            return "game_over"
        return DECISION_NAMES[self.frames[-1][0]]

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids for ``current_player`` (empty once the game is over).

        The list is cached until the next ``apply``; copy it before mutating it."""
        legal = self._legal
        if legal is None:
            legal = self._legal = [] if self.over else _game.legal_for(self, self.frames[-1])
        return legal

    def apply(self, action: int) -> None:
        """Apply one action of ``current_player``; an illegal one raises and changes nothing."""
        _game.apply_action(self, action)

    def after(self, action: int) -> GameState:
        """A copy with ``action`` applied; this state is unchanged. The copy starts with
        this state's cached legal actions (it is not edited in between, so they hold): the
        apply checks the action against them instead of listing them again. Search agents
        try every action this way."""
        child = self.clone()
        child._legal = self._legal
        _game.apply_action(child, action)
        return child

    def clone(self) -> GameState:
        """A deep copy that shares only immutable data (component data, the frames' and
        events' tuples). Written out field by field: search agents clone thousands of times
        a decision (tests/gallerist/test_gallerist_properties.py checks that every slot is
        copied and that no list is shared)."""
        o = GameState.__new__(GameState)
        o._legal = None
        # scalars (and ``kicked``, a tuple or None)
        o.data, o.num_players, o.solo = self.data, self.num_players, self.solo
        o.current_player, o.start_player = self.current_player, self.start_player
        o.round, o.turn, o.over = self.round, self.turn, self.over
        o.end_triggered, o.final_round = self.end_triggered, self.final_round
        o.intermediate_pending = self.intermediate_pending
        o.intermediate_done = self.intermediate_done
        o.round_active, o.kicked = self.round_active, self.kicked
        o.lacerda_pos, o.lacerda_kicked = self.lacerda_pos, self.lacerda_kicked
        o.lacerda_supply, o.lacerda_next_lower = self.lacerda_supply, self.lacerda_next_lower
        # flat lists
        o.frames, o.events = self.frames[:], self.events[:]
        o.money, o.influence, o.desks = self.money[:], self.influence[:], self.desks[:]
        o.queue, o.removed, o.gpos = self.queue[:], self.removed[:], self.gpos[:]
        o.renowned, o.commission = self.renowned[:], self.commission[:]
        o.start_tile, o.pending_tile = self.start_tile[:], self.pending_tile[:]
        o.curator, o.dealer, o.occupant = self.curator[:], self.dealer[:], self.occupant[:]
        o.artist_tile, o.discovered = self.artist_tile[:], self.discovered[:]
        o.fame, o.promotion, o.tokens = self.fame[:], self.promotion[:], self.tokens[:]
        o.artist_bonus, o.artist_collector = self.artist_bonus[:], self.artist_collector[:]
        o.celebrity, o.work_artist = self.celebrity[:], self.work_artist[:]
        o.masterpiece, o.easels = self.masterpiece[:], self.easels[:]
        o.box_works, o.bag, o.plaza = self.box_works[:], self.bag[:], self.plaza[:]
        o.box_visitors, o.box_office = self.box_visitors[:], self.box_office[:]
        o.ticket_discard, o.box_tickets = self.ticket_discard[:], self.box_tickets[:]
        o.deck, o.contract_discard = self.deck[:], self.contract_discard[:]
        o.promo_tokens, o.market_tiles = self.promo_tokens[:], self.market_tiles[:]
        o.market_upper, o.market_lower = self.market_upper[:], self.market_lower[:]
        o.location_tiles, o.box_tiles = self.location_tiles[:], self.box_tiles[:]
        o.tile_discard, o.box_artists = self.tile_discard[:], self.box_artists[:]
        o.box_bonus_tiles = self.box_bonus_tiles[:]
        o.box_curators, o.box_dealers = self.box_curators[:], self.box_dealers[:]
        # lists of lists
        o.tickets = [x[:] for x in self.tickets]
        o.lobby = [x[:] for x in self.lobby]
        o.gallery_visitors = [x[:] for x in self.gallery_visitors]
        o.gallery = [x[:] for x in self.gallery]
        o.sold = [x[:] for x in self.sold]
        o.spaces = [x[:] for x in self.spaces]
        o.stacks = [x[:] for x in self.stacks]
        o.work_visitors = [x[:] for x in self.work_visitors]
        o.display = [x[:] for x in self.display]
        o.contracts = [[c[:] for c in slots] for slots in self.contracts]
        return o


def new_game(
    num_players: int,
    seed: int | None = None,
    *,
    start_player: int | None = None,
    data: GameData | None = None,
) -> GameState:
    """Set up a game (G2; solo G17.1 for one player); everything random comes from ``seed``.

    The steps run in the order below, which is also the order in which they draw from the
    one ``rng``: reordering them would change every seeded game."""
    n = check_num_players(num_players)
    _check_start_player(start_player, n)
    d = data or default_game_data()
    rng = random.Random(seed)
    s = GameState()
    s.data, s.num_players, s.solo = d, n, n == 1
    s.round, s.turn = 1, 0
    s.end_triggered = s.final_round = s.intermediate_pending = s.intermediate_done = False
    s.over = False
    s.round_active = False  # G15.3: a location action was taken this round
    s.kicked = None
    _setup_visitors(s, rng)
    _setup_tickets(s)
    _setup_contracts(s, rng)
    first_blue = _setup_artists(s, rng)
    _setup_discovered_artist(s, rng, first_blue)
    _setup_signature_tokens(s)
    aside = _setup_works(s, rng)
    _setup_work_visitors(s)
    _setup_promotion_tokens(s)
    rep = _setup_market(s, rng)
    _setup_easels(s, rng, aside)
    _setup_plaza_and_lobbies(s)
    _setup_location_tiles(s, rep)
    _setup_player_boards(s, rng)
    _setup_lacerda(s)
    _setup_start_player(s, rng, start_player, seed)
    _game.advance(s)
    return s


def _check_start_player(start_player: int | None, n: int) -> None:
    """``start_player`` is None or a seat; a bool is refused although it is an int."""
    if start_player is not None and (
        isinstance(start_player, bool)
        or not isinstance(start_player, int)
        or not 0 <= start_player < n
    ):
        raise ValueError(f"start_player must be a seat in 0..{n - 1} or None, got {start_player!r}")


def _setup_visitors(s: GameState, rng: random.Random) -> None:
    """G2.1: the bag holds the box's visitors minus those removed for this player count."""
    d, n = s.data, s.num_players
    s.box_visitors = [d.visitors_removed[n - 1]] * NUM_COLOURS
    s.bag = [c for c in range(NUM_COLOURS) for _ in range(d.visitors[c] - s.box_visitors[c])]
    rng.shuffle(s.bag)
    s.plaza = [0] * NUM_COLOURS


def _setup_tickets(s: GameState) -> None:
    """G2.2: tickets in the box office by player count, the rest in the box."""
    d, n = s.data, s.num_players
    s.box_office = [d.tickets_per_colour[n - 1]] * NUM_COLOURS
    s.box_tickets = [d.tickets_in_box - k for k in s.box_office]
    s.ticket_discard = [0] * NUM_COLOURS


def _setup_contracts(s: GameState, rng: random.Random) -> None:
    """G2.3: a shuffled deck and four face-up display stacks."""
    s.deck = list(range(len(s.data.contracts)))
    rng.shuffle(s.deck)
    s.display = [[s.deck.pop()] for _ in range(4)]
    s.contract_discard = []


def _setup_artists(s: GameState, rng: random.Random) -> int:
    """G2.4: one tile per (form, colour) slot; returns the slot of the first blue one placed."""
    d = s.data
    tiles = list(range(len(d.artists)))
    rng.shuffle(tiles)
    s.artist_tile = [EMPTY] * NUM_ARTIST_SLOTS
    s.box_artists = []
    first_blue = EMPTY
    for t in tiles:
        a = d.artists[t]
        slot = 2 * a.form + a.colour
        if s.artist_tile[slot] == EMPTY:
            s.artist_tile[slot] = t
            if a.colour == BLUE and first_blue == EMPTY:
                first_blue = slot
        else:
            s.box_artists.append(t)
    s.box_artists.sort()
    return first_blue


def _setup_discovered_artist(s: GameState, rng: random.Random, first_blue: int) -> None:
    """G2.5: the first blue artist starts discovered, the others get a bonus tile, red ones a
    Collector from the bag; every artist's promotion is public."""
    d = s.data
    s.discovered = [i == first_blue for i in range(NUM_ARTIST_SLOTS)]
    s.fame = [
        d.artists[s.artist_tile[i]].initial_fame if s.discovered[i] else 0
        for i in range(NUM_ARTIST_SLOTS)
    ]
    s.promotion = [d.artists[t].promotion for t in s.artist_tile]
    s.celebrity = [False] * NUM_ARTIST_SLOTS
    bonus_tiles = list(range(len(d.artist_bonus_tiles)))
    rng.shuffle(bonus_tiles)
    s.artist_bonus = [
        EMPTY if s.discovered[i] else bonus_tiles.pop() for i in range(NUM_ARTIST_SLOTS)
    ]
    s.box_bonus_tiles = sorted(bonus_tiles)
    s.artist_collector = [False] * NUM_ARTIST_SLOTS
    for i in range(NUM_ARTIST_SLOTS):
        if i % 2 == RED and COLLECTOR in s.bag:
            s.bag.remove(COLLECTOR)
            s.artist_collector[i] = True


def _setup_signature_tokens(s: GameState) -> None:
    """G2.6: two signature tokens per artist."""
    s.tokens = [2] * NUM_ARTIST_SLOTS


def _setup_works(s: GameState, rng: random.Random) -> list[int]:
    """G2.7: one shuffled face-up stack per form; returns the top works set aside for G2.11."""
    d = s.data
    s.work_artist = [EMPTY] * len(d.works)
    s.masterpiece = [False] * len(d.works)
    s.stacks = []
    aside = []
    for form in range(NUM_FORMS):
        stack = d.works_of(form)
        rng.shuffle(stack)
        aside.append(stack.pop())
        s.stacks.append(stack)
    return aside


def _setup_work_visitors(s: GameState) -> None:
    """G2.8: visitors from the bag on each top work, one per ticket icon."""
    s.work_visitors = [[0] * NUM_COLOURS for _ in range(NUM_FORMS)]
    for form in range(NUM_FORMS):
        place_work_visitors(s, form)


def _setup_promotion_tokens(s: GameState) -> None:
    """G2.9: promotion tokens on their levels (index level - 1)."""
    s.promo_tokens = [s.data.promotion_tokens] * MAX_PROMOTION


def _setup_market(s: GameState, rng: random.Random) -> list[int]:
    """G2.10: reputation tiles on the market's upper part (G9.5: fewer, in columns 1 and 3,
    for 1-2 players); returns the shuffled tiles left for G2.13."""
    d, n = s.data, s.num_players
    rep = list(range(len(d.reputation_tiles)))
    rng.shuffle(rep)
    s.market_tiles = [EMPTY] * MARKET_UPPER_SPACES
    columns = d.small_game_columns if n <= 2 else range(MARKET_COLUMNS)
    for col in columns:
        for row in range(MARKET_UPPER_ROWS):
            if len([t for t in s.market_tiles if t != EMPTY]) < d.market_tiles[n - 1]:
                s.market_tiles[MARKET_UPPER_ROWS * col + row] = rep.pop()
    s.market_upper = [EMPTY] * MARKET_UPPER_SPACES
    s.market_lower = [EMPTY] * MARKET_LOWER_SPACES
    return rep


def _setup_easels(s: GameState, rng: random.Random, aside: list[int]) -> None:
    """G2.11: set-aside works on the easels by player count, the others back to the box."""
    count = s.data.easels[s.num_players - 1]
    rng.shuffle(aside)
    s.easels = aside[:count]
    s.box_works = sorted(aside[count:])


def _setup_plaza_and_lobbies(s: GameState) -> None:
    """G2.12: four visitors from the bag to the Plaza, one to each player's Lobby."""
    for _ in range(4):
        bag_to(s, s.plaza)
    s.lobby = [[0] * NUM_COLOURS for _ in range(s.num_players)]
    for p in range(s.num_players):
        bag_to(s, s.lobby[p])


def _setup_location_tiles(s: GameState, rep: list[int]) -> None:
    """G2.13: one reputation tile beside each location; the rest go back to the box."""
    s.location_tiles = [rep.pop() for _ in range(NUM_LOCATIONS)]
    s.box_tiles = sorted(rep)
    s.tile_discard = []


def _setup_player_boards(s: GameState, rng: random.Random) -> None:
    """G2.15: money, influence, assistants, empty boards and the secret cards."""
    d, n = s.data, s.num_players
    s.money = [d.start_money] * n
    s.influence = [d.start_influence] * n
    s.tickets = [[0] * NUM_COLOURS for _ in range(n)]
    s.desks = [d.start_desks] * n
    s.queue = [d.assistants - d.start_desks] * n
    s.removed = [0] * n
    s.gpos = [HOME] * n
    s.gallery_visitors = [[0] * NUM_COLOURS for _ in range(n)]
    s.gallery = [[] for _ in range(n)]
    s.sold = [[] for _ in range(n)]
    s.renowned = [EMPTY] * n
    s.commission = [EMPTY] * n
    s.contracts = [[[EMPTY, SLOT_EMPTY, 0] for _ in range(NUM_CONTRACT_SLOTS)] for _ in range(n)]
    s.spaces = [[EMPTY] * NUM_REPUTATION_SPACES for _ in range(n)]
    s.start_tile = [EMPTY] * n
    s.pending_tile = [EMPTY] * n
    curators = list(range(len(d.curators)))
    dealers = list(range(len(d.dealers)))
    rng.shuffle(curators)
    rng.shuffle(dealers)
    s.curator = [curators.pop() for _ in range(n)]
    s.dealer = [dealers.pop() for _ in range(n)]
    s.box_curators, s.box_dealers = sorted(curators), sorted(dealers)
    s.occupant = [EMPTY] * NUM_LOCATIONS


def _setup_lacerda(s: GameState) -> None:
    """G17.1: Lacerda starts off the board with all his assistants (none outside solo)."""
    s.lacerda_pos = EMPTY
    s.lacerda_kicked = False
    s.lacerda_supply = s.data.assistants if s.solo else 0
    s.lacerda_next_lower = False


def _setup_start_player(
    s: GameState, rng: random.Random, start_player: int | None, seed: int | None
) -> None:
    """G2.14: the start player, then start locations chosen in reverse player order."""
    n = s.num_players
    first = rng.randrange(n) if start_player is None else start_player
    s.start_player = s.current_player = first
    s.frames = [(F_TURN, first, EXEC_UNUSED)]
    s.frames += [(F_START, (first + k) % n) for k in range(n)]  # the last seat chooses first
    s.events = [("setup", {"seed": seed, "num_players": n, "start_player": first})]
    s._legal = None


from . import game as _game  # noqa: E402 - game imports this module; bound late on purpose
