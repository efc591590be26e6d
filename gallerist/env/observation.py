"""The Gallerist observation vector: one layout for 1-4 players, seats relative to the
observer.

Seat ``r`` in the layout is the player ``r`` places clockwise after the observer (r = 0 is
the observer); owner one-hots have a fifth entry for Lacerda, the solo bot. Everything is
padded to 4 seats. The vector holds only what the observer may know (G18): its own Curator
and Art Dealer cards but nobody else's, the top work of each stack but not the order below,
the bag's contents but not its order, the contract display but not the deck's order. A test
checks that determinized states give the same vector.
"""

from __future__ import annotations

import numpy as np

from art_gallery_env.env.observation import Field

from ..rules.data import (
    BONUS_KINDS,
    MARKET_COLUMNS,
    MARKET_LOWER_ROWS,
    MARKET_UPPER_ROWS,
    MAX_EASELS,
    MAX_PLAYERS,
    MAX_PROMOTION,
    NUM_ARTIST_SLOTS,
    NUM_COLOURS,
    NUM_CONTRACT_SLOTS,
    NUM_FORMS,
    NUM_REPUTATION_SPACES,
    TILE_SCORINGS,
    GameData,
)
from ..rules.effects import hired_count, renowned_value, sales_value, stars
from ..rules.game import end_conditions
from ..rules.scoring import card_goals, public_scores
from ..rules.state import (
    DECISION_KINDS,
    EMPTY,
    F_FAME,
    F_KICKED,
    F_LEAVE,
    F_POST,
    F_TURN,
    LACERDA,
    NUM_LOCATIONS,
    SLOT_EMPTY,
    GameState,
)

S = MAX_PLAYERS
OWN = S + 1  # owner one-hots: relative seats, then Lacerda
B = len(BONUS_KINDS)
T = len(TILE_SCORINGS)
GW = 4  # gallery slots shown (the fourth needs a masterpiece)
MONEY_SCALE = 100.0
SCORE_SCALE = 200.0
ROUND_SCALE = 40.0

_FIELDS = [
    Field("num_players", (S,), "one-hot: 1, 2, 3 or 4 players"),
    Field("seat_active", (S,), "1 for each relative seat that is at the table"),
    Field("decision", (DECISION_KINDS,), "one-hot kind of the pending decision (0 when over)"),
    Field("decision_artist", (NUM_ARTIST_SLOTS,), "artist slot of a pending fame spending"),
    Field("decision_location", (NUM_LOCATIONS,), "location of a pending kick-out / leave"),
    Field("exec_state", (3,), "executive action this turn: unused, moving visitors, used"),
    Field(
        "flags",
        (6,),
        "end triggered, final round, intermediate scoring done, box office empty, "
        "two celebrities, bag empty",
    ),
    Field("round", (1,), "round / 40, capped at 1"),
    Field("start_player", (S,), "one-hot relative seat of the start player", 0),
    Field(
        "occupant",
        (NUM_LOCATIONS, 2, OWN),
        "per location: Gallerist (0) or assistant (1) of relative seat / Lacerda",
        2,
    ),
    Field(
        "gallerist", (S, NUM_LOCATIONS + 2), "per seat: location 0..3, own gallery, kicked out", 0
    ),
    Field("kicked", (S + 2 + NUM_LOCATIONS,), "pending kick-out: seat, piece kind, location"),
    Field(
        "lacerda", (NUM_LOCATIONS + 3,), "Lacerda: location, kicked, supply / 10, next part lower"
    ),
    Field(
        "artist",
        (NUM_ARTIST_SLOTS, 9),
        "per artist slot (2 * form + colour): discovered, celebrity, fame / 19, initial fame / "
        "19, stars / 6, sales value / 20, promotion / 5, signature tokens / 2, Collector on tile",
    ),
    Field("artist_stars", (NUM_ARTIST_SLOTS, 6), "fame thresholds of the six stars / 19"),
    Field("artist_bonus", (NUM_ARTIST_SLOTS, B + 1), "bonus tile: kind one-hot, amount / 5"),
    Field(
        "stack",
        (NUM_FORMS, 2 + 2 * NUM_COLOURS + NUM_COLOURS),
        "per form: works left / 7, top work's fame / 2, its two ticket icons (colour bits), "
        "visitors on it per colour / 2",
    ),
    Field("easel", (MAX_EASELS, 2 + NUM_FORMS), "per easel: present, value now / 20, form"),
    Field("plaza", (NUM_COLOURS,), "visitors in the Plaza / 10"),
    Field("bag", (NUM_COLOURS,), "visitors in the bag per colour / 14 (public by counting)"),
    Field("lobby", (S, NUM_COLOURS), "visitors in each seat's Lobby / 5", 0),
    Field("gallery_visitors", (S, NUM_COLOURS), "visitors in each seat's Gallery / 5", 0),
    Field("box_office", (NUM_COLOURS,), "tickets in the box office / 20"),
    Field("ticket_discard", (NUM_COLOURS,), "tickets in the discard pile / 20"),
    Field("tickets", (S, NUM_COLOURS), "tickets held by each seat / 10", 0),
    Field(
        "display",
        (4, 2 + NUM_FORMS + B + 1),
        "per display column: has a card, stack depth / 5, top card form, bonus kind, amount / 5",
    ),
    Field("deck", (1,), "contracts left in the deck / 20"),
    Field("promotion_tokens", (MAX_PROMOTION,), "promotion tokens left per level / 4"),
    Field(
        "market_upper",
        (MARKET_COLUMNS * MARKET_UPPER_ROWS, 1 + T + OWN),
        "per reputation space (4 * column + row): tile present, its scoring, assistant owner",
        2,
    ),
    Field(
        "market_lower",
        (MARKET_COLUMNS * MARKET_LOWER_ROWS, OWN),
        "per auction space (3 * column + row): assistant owner",
        1,
    ),
    Field("location_tile", (NUM_LOCATIONS, 1 + T), "tile beside each location: present, scoring"),
    Field(
        "player",
        (S, 10),
        "per seat: money / 100, influence / 35, desks / 4, unemployed / 8, removed / 10, next "
        "hire cost / 6, works sold / 8, public score / 200, start tile on slot 3, "
        "pending start tile",
        0,
    ),
    Field(
        "market_count",
        (S, 2 * MARKET_COLUMNS),
        "per seat: assistants per column, upper then lower",
        0,
    ),
    Field(
        "gallery",
        (S, GW, 3 + NUM_FORMS + NUM_ARTIST_SLOTS),
        "per seat and slot: present, sales value / 20, masterpiece, form, artist slot",
        0,
    ),
    Field("renowned", (S, 1 + NUM_FORMS), "per seat: renowned work taken, its form", 0),
    Field("sold", (S, NUM_FORMS), "per seat: works sold per form / 4", 0),
    Field(
        "reputation", (S, NUM_REPUTATION_SPACES + T), "per seat: spaces filled, tiles' scorings", 0
    ),
    Field("start_tile", (S, T), "per seat: scoring of the tile on the third art slot", 0),
    Field(
        "contracts",
        (S, NUM_CONTRACT_SLOTS, 5 + NUM_FORMS + B),
        "per seat and slot: state (empty, up, down influence, down money), assistant on it, "
        "form, front bonus kind",
        0,
    ),
    Field("commission", (S, NUM_ARTIST_SLOTS), "per seat: commissioned artist slot", 0),
    Field("own_cards", (8,), "the observer's Curator card and Art Dealer card (one-hots)"),
    Field("own_goals", (10,), "observer: Curator collections done (5), Art Dealer sets done (5)"),
]


def _with_offsets(fields: list[Field]) -> tuple[Field, ...]:
    out, offset = [], 0
    for f in fields:
        out.append(Field(f.name, f.shape, f.meaning, f.seat_axis, offset))
        offset += f.size
    return tuple(out)


FIELDS: tuple[Field, ...] = _with_offsets(_FIELDS)
FIELD = {f.name: f for f in FIELDS}
OBSERVATION_SIZE = sum(f.size for f in FIELDS)
_O = {f.name: f.offset for f in FIELDS}


def decode_observation(vector: np.ndarray) -> dict[str, np.ndarray]:
    """The vector split into named fields with their shapes (see FIELDS for meanings)."""
    vector = np.asarray(vector)
    if vector.shape != (OBSERVATION_SIZE,):
        raise ValueError(
            f"expected an observation of shape ({OBSERVATION_SIZE},), got {vector.shape}"
        )
    return {f.name: vector[f.offset : f.offset + f.size].reshape(f.shape) for f in FIELDS}


class ObservationEncoder:
    """Builds the vector for one observer; stateless (``reset`` exists for symmetry)."""

    def reset(self) -> None:
        pass

    def encode(self, s: GameState, observer: int) -> np.ndarray:
        return encode(s, observer)


def _owner_index(owner: int, rel: list[int]) -> int:
    return S if owner == LACERDA else rel[owner]


def encode(s: GameState, observer: int) -> np.ndarray:
    """The observation of ``observer``, float32 (see FIELDS). Written entry by entry into a
    zero array: a few hundred entries are set, cheaper than converting a full list."""
    n = s.num_players
    v = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    rel = [(p - observer) % n for p in range(n)]  # absolute -> relative seat
    _encode_table(s, v, rel)
    _encode_pieces(s, v, rel)
    _encode_artists(s, v)
    _encode_works(s, v)
    _encode_supplies(s, v, rel)
    _encode_market(s, v, rel)
    scores = public_scores(s)
    for r in range(n):
        p = (observer + r) % n
        _encode_seat(s, v, p, r, scores[p])
    _encode_own_cards(s, v, observer)
    return v


def _encode_table(s: GameState, v: np.ndarray, rel: list[int]) -> None:
    """Table size, the pending decision, the state of the turn and of the game."""
    n = s.num_players
    v[_O["num_players"] + n - 1] = 1.0
    for r in range(n):
        v[_O["seat_active"] + r] = 1.0
    if not s.over:
        frame = s.frames[-1]
        v[_O["decision"] + frame[0]] = 1.0
        if frame[0] == F_FAME:
            v[_O["decision_artist"] + frame[2]] = 1.0
        elif frame[0] in (F_KICKED, F_LEAVE):
            v[_O["decision_location"] + frame[2]] = 1.0
        menu = next((f for f in reversed(s.frames) if f[0] in (F_TURN, F_POST, F_KICKED)), None)
        if menu is not None:
            v[_O["exec_state"] + menu[-1]] = 1.0
    flags = [s.end_triggered, s.final_round, s.intermediate_done, *end_conditions(s)]
    for i, flag in enumerate(flags):
        v[_O["flags"] + i] = float(flag)
    v[_O["round"]] = min(1.0, s.round / ROUND_SCALE)
    v[_O["start_player"] + rel[s.start_player]] = 1.0


def _encode_pieces(s: GameState, v: np.ndarray, rel: list[int]) -> None:
    """Who stands where: location occupants, Gallerists, a kicked-out piece, Lacerda."""
    for loc, occ in enumerate(s.occupant):
        if occ != EMPTY:
            owner, kind = divmod(occ, 2)
            v[_O["occupant"] + (loc * 2 + kind) * OWN + _owner_index(owner, rel)] = 1.0
    for p in range(s.num_players):
        v[_O["gallerist"] + rel[p] * (NUM_LOCATIONS + 2) + s.gpos[p]] = 1.0
    if s.kicked is not None:
        owner, kind, loc = s.kicked
        base = _O["kicked"]
        v[base + rel[owner]] = 1.0
        v[base + S + kind] = 1.0
        v[base + S + 2 + loc] = 1.0
    base = _O["lacerda"]
    if s.lacerda_pos != EMPTY:
        v[base + s.lacerda_pos] = 1.0
    v[base + 4] = float(s.lacerda_kicked)
    v[base + 5] = s.lacerda_supply / 10
    v[base + 6] = float(s.lacerda_next_lower)


_STARS_BLOCKS: dict[tuple[str, tuple[int, ...]], np.ndarray] = {}


def _artist_stars_block(data: GameData, tiles: tuple[int, ...]) -> np.ndarray:
    """The ``artist_stars`` field, fixed for a game once its artist tiles are placed
    (kept per data fingerprint and tile placement; a few hundred placements occur)."""
    key = (data.fingerprint, tiles)
    block = _STARS_BLOCKS.get(key)
    if block is None:
        if len(_STARS_BLOCKS) > 4096:
            _STARS_BLOCKS.clear()
        top = data.celebrity_fame
        stars_ = [t / top for tile in tiles for t in data.artists[tile].stars]
        block = _STARS_BLOCKS[key] = np.array(stars_, dtype=np.float32)
    return block


def _encode_artists(s: GameState, v: np.ndarray) -> None:
    d = s.data
    top_fame = d.celebrity_fame
    base = _O["artist"]
    for a in range(NUM_ARTIST_SLOTS):
        artist = d.artists[s.artist_tile[a]]
        discovered = s.discovered[a]
        v[base + 9 * a : base + 9 * a + 9] = (
            float(discovered),
            float(s.celebrity[a]),
            s.fame[a] / top_fame,
            artist.initial_fame / top_fame,
            stars(s, a) / 6 if discovered else 0.0,
            sales_value(s, a) / 20 if discovered else 0.0,
            s.promotion[a] / MAX_PROMOTION,
            s.tokens[a] / 2,
            float(s.artist_collector[a]),
        )
        if s.artist_bonus[a] != EMPTY:
            bonus = d.artist_bonus_tiles[s.artist_bonus[a]]
            b = _O["artist_bonus"] + (B + 1) * a
            v[b + bonus.kind] = 1.0
            v[b + B] = bonus.amount / 5
    start = _O["artist_stars"]
    v[start : start + 6 * NUM_ARTIST_SLOTS] = _artist_stars_block(d, tuple(s.artist_tile))


def _encode_works(s: GameState, v: np.ndarray) -> None:
    """The top work of each stack (the order below is secret, G18) and the easels."""
    d = s.data
    width = FIELD["stack"].shape[1]
    for form in range(NUM_FORMS):
        b = _O["stack"] + width * form
        stack = s.stacks[form]
        v[b] = len(stack) / 7
        if stack:
            work = d.works[stack[-1]]
            v[b + 1] = work.fame / 2
            for i, icon in enumerate(work.tickets):
                for c in range(NUM_COLOURS):
                    v[b + 2 + NUM_COLOURS * i + c] = float(icon >> c & 1)
        for c in range(NUM_COLOURS):
            v[b + 2 + 2 * NUM_COLOURS + c] = s.work_visitors[form][c] / 2
    for e, work in enumerate(s.easels):
        b = _O["easel"] + (2 + NUM_FORMS) * e
        v[b] = 1.0
        v[b + 1] = renowned_value(s, work) / 20
        v[b + 2 + d.works[work].form] = 1.0


def _encode_supplies(s: GameState, v: np.ndarray, rel: list[int]) -> None:
    """Visitors, tickets, the contract display (not the deck's order) and promotion tokens."""
    d = s.data
    bag = [s.bag.count(c) for c in range(NUM_COLOURS)]
    for c in range(NUM_COLOURS):
        v[_O["plaza"] + c] = s.plaza[c] / 10
        v[_O["bag"] + c] = bag[c] / 14
        v[_O["box_office"] + c] = s.box_office[c] / 20
        v[_O["ticket_discard"] + c] = s.ticket_discard[c] / 20
    for p in range(s.num_players):
        b = NUM_COLOURS * rel[p]
        for c in range(NUM_COLOURS):
            v[_O["lobby"] + b + c] = s.lobby[p][c] / 5
            v[_O["gallery_visitors"] + b + c] = s.gallery_visitors[p][c] / 5
            v[_O["tickets"] + b + c] = s.tickets[p][c] / 10
    width = FIELD["display"].shape[1]
    for col, stack in enumerate(s.display):
        if stack:
            b = _O["display"] + width * col
            card = d.contracts[stack[-1]]
            v[b] = 1.0
            v[b + 1] = len(stack) / 5
            v[b + 2 + card.form] = 1.0
            v[b + 2 + NUM_FORMS + card.bonus.kind] = 1.0
            v[b + 2 + NUM_FORMS + B] = card.bonus.amount / 5
    v[_O["deck"]] = len(s.deck) / 20
    for level in range(MAX_PROMOTION):
        v[_O["promotion_tokens"] + level] = s.promo_tokens[level] / d.promotion_tokens


def _encode_market(s: GameState, v: np.ndarray, rel: list[int]) -> None:
    d = s.data
    width = 1 + T + OWN
    for i, tile in enumerate(s.market_tiles):
        b = _O["market_upper"] + width * i
        if tile != EMPTY:
            v[b] = 1.0
            v[b + 1 + d.reputation_tiles[tile].scoring] = 1.0
        if s.market_upper[i] != EMPTY:
            v[b + 1 + T + _owner_index(s.market_upper[i], rel)] = 1.0
    for i, owner in enumerate(s.market_lower):
        if owner != EMPTY:
            v[_O["market_lower"] + OWN * i + _owner_index(owner, rel)] = 1.0
    for loc, tile in enumerate(s.location_tiles):
        if tile != EMPTY:
            b = _O["location_tile"] + (1 + T) * loc
            v[b] = 1.0
            v[b + 1 + d.reputation_tiles[tile].scoring] = 1.0


def _encode_seat(s: GameState, v: np.ndarray, p: int, r: int, score: int) -> None:
    d = s.data
    b = _O["player"] + 10 * r
    hired = hired_count(s, p)
    v[b] = s.money[p] / MONEY_SCALE
    v[b + 1] = s.influence[p] / d.influence_max
    v[b + 2] = s.desks[p] / d.desks
    v[b + 3] = s.queue[p] / 8
    v[b + 4] = s.removed[p] / 10
    v[b + 5] = d.hire_costs[hired] / 6 if s.queue[p] else 0.0
    v[b + 6] = len(s.sold[p]) / 8
    v[b + 7] = score / SCORE_SCALE  # without the secret cards
    v[b + 8] = float(s.start_tile[p] != EMPTY)
    v[b + 9] = float(s.pending_tile[p] != EMPTY)
    b = _O["market_count"] + 2 * MARKET_COLUMNS * r
    for i, owner in enumerate(s.market_upper):
        if owner == p:
            v[b + i // MARKET_UPPER_ROWS] += 0.25
    for i, owner in enumerate(s.market_lower):
        if owner == p:
            v[b + MARKET_COLUMNS + i // MARKET_LOWER_ROWS] += 1 / 3
    width = 3 + NUM_FORMS + NUM_ARTIST_SLOTS
    for slot, work in enumerate(s.gallery[p][:GW]):
        b = _O["gallery"] + (GW * r + slot) * width
        artist = s.work_artist[work]
        v[b] = 1.0
        v[b + 1] = sales_value(s, artist) / 20
        v[b + 2] = float(s.masterpiece[work])
        v[b + 3 + d.works[work].form] = 1.0
        v[b + 3 + NUM_FORMS + artist] = 1.0
    if s.renowned[p] != EMPTY:
        b = _O["renowned"] + (1 + NUM_FORMS) * r
        v[b] = 1.0
        v[b + 1 + d.works[s.renowned[p]].form] = 1.0
    for work in s.sold[p]:
        v[_O["sold"] + NUM_FORMS * r + d.works[work].form] += 0.25
    b = _O["reputation"] + (NUM_REPUTATION_SPACES + T) * r
    for i, tile in enumerate(s.spaces[p]):
        if tile != EMPTY:
            v[b + i] = 1.0
            v[b + NUM_REPUTATION_SPACES + d.reputation_tiles[tile].scoring] += 1.0
    if s.start_tile[p] != EMPTY:
        v[_O["start_tile"] + T * r + d.reputation_tiles[s.start_tile[p]].scoring] = 1.0
    width = 5 + NUM_FORMS + len(BONUS_KINDS)
    for slot, (card, state, on) in enumerate(s.contracts[p]):
        b = _O["contracts"] + (NUM_CONTRACT_SLOTS * r + slot) * width
        v[b + state] = 1.0
        if state != SLOT_EMPTY:
            v[b + 4] = float(on)
            v[b + 5 + d.contracts[card].form] = 1.0
            v[b + 5 + NUM_FORMS + d.contracts[card].bonus.kind] = 1.0
    if s.commission[p] != EMPTY:
        v[_O["commission"] + NUM_ARTIST_SLOTS * r + s.commission[p]] = 1.0


def _encode_own_cards(s: GameState, v: np.ndarray, observer: int) -> None:
    v[_O["own_cards"] + s.curator[observer]] = 1.0
    v[_O["own_cards"] + 4 + s.dealer[observer]] = 1.0
    curator, dealer = card_goals(s, observer)
    for i, done in enumerate(curator[:5]):
        v[_O["own_goals"] + i] = float(done)
    for i, done in enumerate(dealer[:5]):
        v[_O["own_goals"] + 5 + i] = float(done)
