"""The Gallerist observation built the plain way, entry by entry (the oracle of the fast
encoder in :mod:`.observation`, and the writers it calls to build a part it has not
cached).

The vector holds only what the observer may know (G18): its own Curator and Art Dealer
cards but nobody else's, the top work of each stack but not the order below, the bag's
contents but not its order, the contract display but not the deck's order. Each ``write_*``
function fills its fields of a zeroed vector and nothing else.
"""

from __future__ import annotations

import numpy as np

from ..rules import data as gd
from ..rules.data import GameData
from ..rules.effects import hired_count, renowned_value, sales_value, stars
from ..rules.game import end_conditions
from ..rules.scoring import card_goals, public_scores
from ..rules.state import (
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
from .observation_fields import (
    FIELD,
    GW,
    MONEY_SCALE,
    OBSERVATION_SIZE,
    OFFSET,
    OWN,
    ROUND_SCALE,
    SCORE_SCALE,
    B,
    S,
    T,
)

_O = OFFSET


def _owner_index(owner: int, rel: list[int]) -> int:
    return S if owner == LACERDA else rel[owner]


def encode_reference(s: GameState, observer: int) -> np.ndarray:
    """The observation of ``observer``, float32 (see FIELDS), built entry by entry."""
    n = s.num_players
    v = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    rel = [(p - observer) % n for p in range(n)]  # absolute -> relative seat
    write_table(s, v, rel)
    write_pieces(s, v, rel)
    write_artists(s, v)
    write_works(s, v)
    write_visitors(s, v, rel)
    write_display(s, v)
    write_market(s, v, rel)
    scores = public_scores(s)
    for r in range(n):
        p = (observer + r) % n
        write_seat(s, v, p, r, scores[p])
    write_own_cards(s, v, observer)
    return v


def write_table(s: GameState, v: np.ndarray, rel: list[int]) -> None:
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


def write_pieces(s: GameState, v: np.ndarray, rel: list[int]) -> None:
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


def write_artists(s: GameState, v: np.ndarray) -> None:
    d = s.data
    top_fame = d.celebrity_fame
    base = _O["artist"]
    for a in range(gd.NUM_ARTIST_SLOTS):
        artist = d.artists[s.artist_tile[a]]
        discovered = s.discovered[a]
        v[base + 9 * a : base + 9 * a + 9] = (
            float(discovered),
            float(s.celebrity[a]),
            s.fame[a] / top_fame,
            artist.initial_fame / top_fame,
            stars(s, a) / 6 if discovered else 0.0,
            sales_value(s, a) / 20 if discovered else 0.0,
            s.promotion[a] / gd.MAX_PROMOTION,
            s.tokens[a] / 2,
            float(s.artist_collector[a]),
        )
        if s.artist_bonus[a] != EMPTY:
            bonus = d.artist_bonus_tiles[s.artist_bonus[a]]
            b = _O["artist_bonus"] + (B + 1) * a
            v[b + bonus.kind] = 1.0
            v[b + B] = bonus.amount / 5
    start = _O["artist_stars"]
    v[start : start + 6 * gd.NUM_ARTIST_SLOTS] = _artist_stars_block(d, tuple(s.artist_tile))


def write_works(s: GameState, v: np.ndarray) -> None:
    """The top work of each stack (the order below is secret, G18) and the easels."""
    d = s.data
    width = FIELD["stack"].shape[1]
    for form in range(gd.NUM_FORMS):
        b = _O["stack"] + width * form
        stack = s.stacks[form]
        v[b] = len(stack) / 7
        if stack:
            work = d.works[stack[-1]]
            v[b + 1] = work.fame / 2
            for i, icon in enumerate(work.tickets):
                for c in range(gd.NUM_COLOURS):
                    v[b + 2 + gd.NUM_COLOURS * i + c] = float(icon >> c & 1)
        for c in range(gd.NUM_COLOURS):
            v[b + 2 + 2 * gd.NUM_COLOURS + c] = s.work_visitors[form][c] / 2
    for e, work in enumerate(s.easels):
        b = _O["easel"] + (2 + gd.NUM_FORMS) * e
        v[b] = 1.0
        v[b + 1] = renowned_value(s, work) / 20
        v[b + 2 + d.works[work].form] = 1.0


def write_visitors(s: GameState, v: np.ndarray, rel: list[int]) -> None:
    """Visitors (the bag by colour, not its order) and tickets."""
    bag = [s.bag.count(c) for c in range(gd.NUM_COLOURS)]
    for c in range(gd.NUM_COLOURS):
        v[_O["plaza"] + c] = s.plaza[c] / 10
        v[_O["bag"] + c] = bag[c] / 14
        v[_O["box_office"] + c] = s.box_office[c] / 20
        v[_O["ticket_discard"] + c] = s.ticket_discard[c] / 20
    for p in range(s.num_players):
        b = gd.NUM_COLOURS * rel[p]
        for c in range(gd.NUM_COLOURS):
            v[_O["lobby"] + b + c] = s.lobby[p][c] / 5
            v[_O["gallery_visitors"] + b + c] = s.gallery_visitors[p][c] / 5
            v[_O["tickets"] + b + c] = s.tickets[p][c] / 10


def write_display(s: GameState, v: np.ndarray) -> None:
    """The contract display (not the deck's order) and the promotion tokens."""
    d = s.data
    width = FIELD["display"].shape[1]
    for col, stack in enumerate(s.display):
        if stack:
            b = _O["display"] + width * col
            card = d.contracts[stack[-1]]
            v[b] = 1.0
            v[b + 1] = len(stack) / 5
            v[b + 2 + card.form] = 1.0
            v[b + 2 + gd.NUM_FORMS + card.bonus.kind] = 1.0
            v[b + 2 + gd.NUM_FORMS + B] = card.bonus.amount / 5
    v[_O["deck"]] = len(s.deck) / 20
    for level in range(gd.MAX_PROMOTION):
        v[_O["promotion_tokens"] + level] = s.promo_tokens[level] / d.promotion_tokens


def write_market(s: GameState, v: np.ndarray, rel: list[int]) -> None:
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


def write_seat(s: GameState, v: np.ndarray, p: int, r: int, score: int) -> None:
    """Seat ``p``'s board as relative seat ``r``: its economy, then everything else."""
    write_seat_economy(s, v, p, r, score)
    write_seat_board(s, v, p, r)


def write_seat_economy(s: GameState, v: np.ndarray, p: int, r: int, score: int) -> None:
    """The ``player`` field: money, influence, assistants, works sold, public score..."""
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


def write_seat_board(s: GameState, v: np.ndarray, p: int, r: int) -> None:
    """The seat's other fields: market presence, works, tiles, contracts, commission."""
    d = s.data
    b = _O["market_count"] + 2 * gd.MARKET_COLUMNS * r
    for i, owner in enumerate(s.market_upper):
        if owner == p:
            v[b + i // gd.MARKET_UPPER_ROWS] += 0.25
    for i, owner in enumerate(s.market_lower):
        if owner == p:
            v[b + gd.MARKET_COLUMNS + i // gd.MARKET_LOWER_ROWS] += 1 / 3
    width = 3 + gd.NUM_FORMS + gd.NUM_ARTIST_SLOTS
    for slot, work in enumerate(s.gallery[p][:GW]):
        b = _O["gallery"] + (GW * r + slot) * width
        artist = s.work_artist[work]
        v[b] = 1.0
        v[b + 1] = sales_value(s, artist) / 20
        v[b + 2] = float(s.masterpiece[work])
        v[b + 3 + d.works[work].form] = 1.0
        v[b + 3 + gd.NUM_FORMS + artist] = 1.0
    if s.renowned[p] != EMPTY:
        b = _O["renowned"] + (1 + gd.NUM_FORMS) * r
        v[b] = 1.0
        v[b + 1 + d.works[s.renowned[p]].form] = 1.0
    for work in s.sold[p]:
        v[_O["sold"] + gd.NUM_FORMS * r + d.works[work].form] += 0.25
    b = _O["reputation"] + (gd.NUM_REPUTATION_SPACES + T) * r
    for i, tile in enumerate(s.spaces[p]):
        if tile != EMPTY:
            v[b + i] = 1.0
            v[b + gd.NUM_REPUTATION_SPACES + d.reputation_tiles[tile].scoring] += 1.0
    if s.start_tile[p] != EMPTY:
        v[_O["start_tile"] + T * r + d.reputation_tiles[s.start_tile[p]].scoring] = 1.0
    width = 5 + gd.NUM_FORMS + len(gd.BONUS_KINDS)
    for slot, (card, state, on) in enumerate(s.contracts[p]):
        b = _O["contracts"] + (gd.NUM_CONTRACT_SLOTS * r + slot) * width
        v[b + state] = 1.0
        if state != SLOT_EMPTY:
            v[b + 4] = float(on)
            v[b + 5 + d.contracts[card].form] = 1.0
            v[b + 5 + gd.NUM_FORMS + d.contracts[card].bonus.kind] = 1.0
    if s.commission[p] != EMPTY:
        v[_O["commission"] + gd.NUM_ARTIST_SLOTS * r + s.commission[p]] = 1.0


def write_own_cards(s: GameState, v: np.ndarray, observer: int) -> None:
    v[_O["own_cards"] + s.curator[observer]] = 1.0
    v[_O["own_cards"] + 4 + s.dealer[observer]] = 1.0
    curator, dealer = card_goals(s, observer)
    for i, done in enumerate(curator[:5]):
        v[_O["own_goals"] + i] = float(done)
    for i, done in enumerate(dealer[:5]):
        v[_O["own_goals"] + 5 + i] = float(done)


class ReferenceEncoder:
    """:func:`encode_reference` with the encoder interface (``encode``, ``reset``): to
    measure or check the fast encoder against it inside an env."""

    def reset(self) -> None:
        pass

    def encode(self, s: GameState, observer: int) -> np.ndarray:
        return encode_reference(s, observer)
