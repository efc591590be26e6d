"""The layout of the Gallerist observation vector: its fields, their offsets and meanings.

One layout for 1-4 players, seats relative to the observer: seat ``r`` is the player ``r``
places clockwise after the observer (r = 0 is the observer); owner one-hots have a fifth
entry for Lacerda, the solo bot; everything is padded to 4 seats. Kept apart from the
encoders (:mod:`.observation` fast, :mod:`.observation_reference` plain) so both read the
same table.
"""

from __future__ import annotations

import numpy as np

from art_gallery_env.core.fields import Field, decode, with_offsets
from art_gallery_env.core.fields import layout_fingerprint as _fingerprint

from ..rules import data as gd
from ..rules.actions import NUM_ACTIONS
from ..rules.state import DECISION_KINDS, NUM_LOCATIONS

S = gd.MAX_PLAYERS
OWN = S + 1  # owner one-hots: relative seats, then Lacerda
B = len(gd.BONUS_KINDS)
T = len(gd.TILE_SCORINGS)
GW = 4  # gallery slots shown (the fourth needs a masterpiece)
MONEY_SCALE = 100.0
SCORE_SCALE = 200.0
ROUND_SCALE = 40.0
# The observation Box's high. Money and the score have no cap in the rules (every other
# field is a one-hot or a count scaled to about 0..1, a few above 1 by a little: the Plaza
# and a Gallery can hold more visitors than their scale); 10 is 1,000 money or 2,000
# points, far above what a game reaches (its scores run to a couple of hundred).
OBSERVATION_HIGH = 10.0

_FIELDS = [
    Field("num_players", (S,), "one-hot: 1, 2, 3 or 4 players"),
    Field("seat_active", (S,), "1 for each relative seat that is at the table"),
    Field("decision", (DECISION_KINDS,), "one-hot kind of the pending decision (0 when over)"),
    Field("decision_artist", (gd.NUM_ARTIST_SLOTS,), "artist slot of a pending fame spending"),
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
        (gd.NUM_ARTIST_SLOTS, 9),
        "per artist slot (2 * form + colour): discovered, celebrity, fame / 19, initial fame / "
        "19, stars / 6, sales value / 20, promotion / 5, signature tokens / 2, Collector on tile",
    ),
    Field("artist_stars", (gd.NUM_ARTIST_SLOTS, 6), "fame thresholds of the six stars / 19"),
    Field("artist_bonus", (gd.NUM_ARTIST_SLOTS, B + 1), "bonus tile: kind one-hot, amount / 5"),
    Field(
        "stack",
        (gd.NUM_FORMS, 2 + 2 * gd.NUM_COLOURS + gd.NUM_COLOURS),
        "per form: works left / 7, top work's fame / 2, its two ticket icons (colour bits), "
        "visitors on it per colour / 2",
    ),
    Field("easel", (gd.MAX_EASELS, 2 + gd.NUM_FORMS), "per easel: present, value now / 20, form"),
    Field("plaza", (gd.NUM_COLOURS,), "visitors in the Plaza / 10"),
    Field("bag", (gd.NUM_COLOURS,), "visitors in the bag per colour / 14 (public by counting)"),
    Field("lobby", (S, gd.NUM_COLOURS), "visitors in each seat's Lobby / 5", 0),
    Field("gallery_visitors", (S, gd.NUM_COLOURS), "visitors in each seat's Gallery / 5", 0),
    Field("box_office", (gd.NUM_COLOURS,), "tickets in the box office / 20"),
    Field("ticket_discard", (gd.NUM_COLOURS,), "tickets in the discard pile / 20"),
    Field("tickets", (S, gd.NUM_COLOURS), "tickets held by each seat / 10", 0),
    Field(
        "display",
        (4, 2 + gd.NUM_FORMS + B + 1),
        "per display column: has a card, stack depth / 5, top card form, bonus kind, amount / 5",
    ),
    Field("deck", (1,), "contracts left in the deck / 20"),
    Field("promotion_tokens", (gd.MAX_PROMOTION,), "promotion tokens left per level / 4"),
    Field(
        "market_upper",
        (gd.MARKET_COLUMNS * gd.MARKET_UPPER_ROWS, 1 + T + OWN),
        "per reputation space (4 * column + row): tile present, its scoring, assistant owner",
        2,
    ),
    Field(
        "market_lower",
        (gd.MARKET_COLUMNS * gd.MARKET_LOWER_ROWS, OWN),
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
        (S, 2 * gd.MARKET_COLUMNS),
        "per seat: assistants per column, upper then lower",
        0,
    ),
    Field(
        "gallery",
        (S, GW, 3 + gd.NUM_FORMS + gd.NUM_ARTIST_SLOTS),
        "per seat and slot: present, sales value / 20, masterpiece, form, artist slot",
        0,
    ),
    Field("renowned", (S, 1 + gd.NUM_FORMS), "per seat: renowned work taken, its form", 0),
    Field("sold", (S, gd.NUM_FORMS), "per seat: works sold per form / 4", 0),
    Field(
        "reputation",
        (S, gd.NUM_REPUTATION_SPACES + T),
        "per seat: spaces filled, tiles' scorings",
        0,
    ),
    Field("start_tile", (S, T), "per seat: scoring of the tile on the third art slot", 0),
    Field(
        "contracts",
        (S, gd.NUM_CONTRACT_SLOTS, 5 + gd.NUM_FORMS + B),
        "per seat and slot: state (empty, up, down influence, down money), assistant on it, "
        "form, front bonus kind",
        0,
    ),
    Field("commission", (S, gd.NUM_ARTIST_SLOTS), "per seat: commissioned artist slot", 0),
    Field("own_cards", (8,), "the observer's Curator card and Art Dealer card (one-hots)"),
    Field("own_goals", (10,), "observer: Curator collections done (5), Art Dealer sets done (5)"),
]


FIELDS, OBSERVATION_SIZE = with_offsets(_FIELDS)
FIELD = {f.name: f for f in FIELDS}
OFFSET = {f.name: f.offset for f in FIELDS}


def decode_observation(vector: np.ndarray) -> dict[str, np.ndarray]:
    """The vector split into named fields with their shapes (see FIELDS for meanings)."""
    return decode(np.asarray(vector), FIELDS, OBSERVATION_SIZE)


def layout_fingerprint() -> str:
    """A stable id of the Gallerist's observation and action layout a policy was trained
    on (as ``art_gallery_env.agents.policy_format.layout_fingerprint`` for Art Gallery).

    sha256 of the game's name, the field names and shapes in order, and the number of
    actions: any change to either layout changes it, and it never equals Art Gallery's,
    so a checkpoint of the other game or of an older layout is rejected, not misread.
    """
    return _fingerprint(FIELDS, NUM_ACTIONS, salt="gallerist")
