"""The Gallerist's component data: schema, loading and validation (G1).

Numbers printed on the published components are partly public (an open-source
implementation lists artists, works, contracts and reputation tiles) and partly not (the
Curator and Art Dealer cards, hiring bonuses, the player board's reputation spaces). The
project ships one validated file, ``gallerist/data/gallerist.json``; ``docs/gallerist_rules.md``
names the source of every number and marks the designed ones as [decision]. Any other file
in the same schema can be passed to ``new_game(..., data=load_game_data(path))``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from art_gallery_env.core.data_checks import DataChecks

SCHEMA_VERSION = 1
NUM_FORMS = 4
NUM_COLOURS = 3
INVESTOR, VIP, COLLECTOR = range(NUM_COLOURS)
BLUE, RED = 0, 1
NUM_ARTIST_SLOTS = NUM_FORMS * 2  # one blue and one red artist per art form (G2.4)
NUM_REPUTATION_SPACES = 6
NUM_CONTRACT_SLOTS = 3
MARKET_COLUMNS = 3
MARKET_UPPER_ROWS = NUM_FORMS  # one row per art form (G9.2)
MARKET_LOWER_ROWS = 3
MAX_PLAYERS = 4
MAX_EASELS = 3
MAX_PROMOTION = 5

BONUS_KINDS = (
    "money",
    "influence",
    "fame",
    "ticket_any",
    "tickets_two",
    "visitor_plaza",
    "visitor_plaza_vip_investor",
    "visitor_bag",
    "assistant",
    "contract",
    "influence_per_visitor",
    "money_per_visitor",
)
(
    B_MONEY,
    B_INFLUENCE,
    B_FAME,
    B_TICKET_ANY,
    B_TICKETS_TWO,
    B_VISITOR_PLAZA,
    B_VISITOR_VIP_INVESTOR,
    B_VISITOR_BAG,
    B_ASSISTANT,
    B_CONTRACT,
    B_INFLUENCE_PER_VISITOR,
    B_MONEY_PER_VISITOR,
) = range(len(BONUS_KINDS))
_AMOUNT_KINDS = {B_MONEY, B_INFLUENCE, B_FAME, B_INFLUENCE_PER_VISITOR, B_MONEY_PER_VISITOR}

TILE_SCORINGS = (
    "influence_per_3",
    "collectors",
    "vips",
    "investors",
    "visitors",
    "visitor_sets",
    "reputation_tiles",
    "auction_assistants",
    "assistants_in_play",
    "promoted_artists",
    "works_acquired",
    "works_sold",
    "works_exhibited",
    "art_forms",
    "photo",
    "painting",
    "digital",
    "sculpture",
    "famous_artists",
    "masterpieces",
)

_DEFAULT_PATH = "gallerist/data/gallerist.json"


class GameDataError(ValueError):
    """Component data that breaks the schema; the message starts with the bad field's path."""


@dataclass(frozen=True)
class Bonus:
    """A bonus icon (G19): ``kind`` indexes BONUS_KINDS; ``colour`` only for per-visitor kinds."""

    kind: int
    amount: int = 0
    colour: int = -1

    def describe(self, colours: tuple[str, ...] = ("investor", "vip", "collector")) -> str:
        name = BONUS_KINDS[self.kind]
        if self.kind in (B_INFLUENCE_PER_VISITOR, B_MONEY_PER_VISITOR):
            return f"{name.split('_')[0]} {self.amount} per {colours[self.colour]} in gallery"
        return f"{name} {self.amount}" if self.kind in _AMOUNT_KINDS else name


@dataclass(frozen=True)
class Artist:
    id: str
    form: int
    colour: int  # BLUE or RED
    initial_fame: int
    promotion: int  # printed starting promotion level
    stars: tuple[int, ...]  # fame thresholds of the 1st..6th star


@dataclass(frozen=True)
class Work:
    id: str
    form: int
    fame: int
    tickets: tuple[int, ...]  # per ticket icon: bit mask of the allowed colours


@dataclass(frozen=True)
class Contract:
    id: str
    form: int
    bonus: Bonus


@dataclass(frozen=True)
class ReputationTile:
    id: str
    scoring: int  # index into TILE_SCORINGS
    money: int
    influence: int


@dataclass(frozen=True)
class Goal:
    """A Curator collection or an Art Dealer set: slots of allowed forms (bit masks), or
    ``distinct_forms`` different forms; worth ``value`` money when complete (G16.5, G16.6)."""

    slots: tuple[int, ...]
    distinct_forms: int
    value: int


@dataclass(frozen=True)
class GoalCard:
    id: str
    goals: tuple[Goal, ...]


@dataclass(frozen=True)
class SoloGoal:
    name: str
    curator_goals: int
    curator_top: bool
    dealer_goals: int
    goal_money: int
    reputation_tiles: int
    masterpieces: int
    money: int


@dataclass(frozen=True)
class GameData:
    """Validated component data (G1); build it with :func:`game_data_from_dict`."""

    name: str
    description: str
    art_forms: tuple[str, ...]
    colours: tuple[str, ...]
    visitors: tuple[int, ...]  # per colour in the box
    visitors_removed: tuple[int, ...]  # per player count 1..4, per colour
    tickets_per_colour: tuple[int, ...]  # per player count 1..4
    tickets_in_box: int
    easels: tuple[int, ...]  # per player count 1..4
    market_tiles: tuple[int, ...]  # per player count 1..4
    star_values: tuple[int, ...]
    celebrity_fame: int
    celebrity_money: int
    artists: tuple[Artist, ...]
    works: tuple[Work, ...]
    artist_bonus_tiles: tuple[Bonus, ...]
    contracts: tuple[Contract, ...]
    contract_back: tuple[Bonus, Bonus]  # (influence half, money half)
    reputation_tiles: tuple[ReputationTile, ...]
    start_money: int
    start_influence: int
    assistants: int
    start_desks: int
    desks: int
    hire_costs: tuple[int, ...]
    hire_bonuses: tuple[Bonus | None, ...]
    reputation_spaces: tuple[Bonus, ...]
    contract_slot_tickets: tuple[int, ...]
    gallery_slots: int
    start_tile_slot: int
    influence_max: int
    money_icons: tuple[int, ...]
    fame_icons: tuple[int, ...]
    promotion_tokens: int
    promotion_bonuses: tuple[Bonus, ...]
    column_influence: tuple[int, ...]
    column_requirements: tuple[tuple[int, ...], ...]  # per column: slots of allowed colours
    small_game_columns: tuple[int, ...]
    auction_offers: tuple[int, ...]
    auction_bonuses: tuple[tuple[Bonus, ...], ...]  # [row][column]
    majority_money: tuple[tuple[int, ...], ...]  # [column][place]
    curators: tuple[GoalCard, ...]
    dealers: tuple[GoalCard, ...]
    solo_goals: tuple[SoloGoal, ...]
    fingerprint: str
    # derived from the influence track, per influence value i (G10):
    prev_money_icon: tuple[int, ...] = ()  # the money icon before i (-1 at 0)
    money_below: tuple[int, ...] = ()  # money icons before i: money influence can pay
    prev_fame_icon: tuple[int, ...] = ()  # the fame icon before i (-1 at 0)
    fame_below: tuple[int, ...] = ()  # fame icons before i: fame influence can buy
    influence_money: tuple[int, ...] = ()  # end-of-game money for ending on i (G16.7)
    # per artist tile, per fame 0..celebrity: stars and sales value (G13.1)
    artist_stars: tuple[tuple[int, ...], ...] = ()
    artist_values: tuple[tuple[int, ...], ...] = ()

    def works_of(self, form: int) -> list[int]:
        return [i for i, w in enumerate(self.works) if w.form == form]

    def artists_for(self, form: int, colour: int) -> list[int]:
        return [i for i, a in enumerate(self.artists) if a.form == form and a.colour == colour]


# -- validation helpers ---------------------------------------------------------------
_check = DataChecks(GameDataError)  # the component data's checks


def _nums(value: Any, path: str, length: int, lo: int = 0, hi: int = 10_000) -> tuple[int, ...]:
    return tuple(
        _check.num(v, f"{path}[{i}]", lo, hi)
        for i, v in enumerate(_check.seq(value, path, length, length))
    )


def _name(value: Any, path: str, names: tuple[str, ...]) -> int:
    if value not in names:
        _check.fail(path, f"{value!r} is not one of {list(names)}")
    return names.index(value)


def _mask(value: Any, path: str, names: tuple[str, ...]) -> int:
    items = _check.seq(value, path, 1, len(names))
    mask = 0
    for i, item in enumerate(items):
        mask |= 1 << _name(item, f"{path}[{i}]", names)
    return mask


def _bonus(value: Any, path: str, colours: tuple[str, ...]) -> Bonus:
    raw = _check.obj(value, path, ("kind", "amount"), ("colour",))
    kind = _name(raw["kind"], f"{path}.kind", BONUS_KINDS)
    amount = _check.num(raw["amount"], f"{path}.amount", 0, 50)
    if (kind in _AMOUNT_KINDS) != (amount > 0):
        _check.fail(
            f"{path}.amount",
            f"{BONUS_KINDS[kind]!r} needs amount {'>= 1' if kind in _AMOUNT_KINDS else '0'}",
        )
    per_visitor = kind in (B_INFLUENCE_PER_VISITOR, B_MONEY_PER_VISITOR)
    if per_visitor != ("colour" in raw):
        _check.fail(path, "'colour' is given exactly for the per-visitor kinds")
    colour = _name(raw["colour"], f"{path}.colour", colours) if per_visitor else -1
    return Bonus(kind, amount, colour)


def _goal(value: Any, path: str, forms: tuple[str, ...]) -> Goal:
    if not isinstance(value, dict):
        _check.fail(path, "expected an object")
    if "distinct_forms" in value:
        raw = _check.obj(value, path, ("distinct_forms", "value"))
        return Goal(
            (),
            _check.num(raw["distinct_forms"], f"{path}.distinct_forms", 1, len(forms)),
            _check.num(raw["value"], f"{path}.value", 1, 100),
        )
    raw = _check.obj(value, path, ("slots", "value"))
    slots = tuple(
        _mask(s, f"{path}.slots[{i}]", forms)
        for i, s in enumerate(_check.seq(raw["slots"], f"{path}.slots", 1, 5))
    )
    return Goal(slots, 0, _check.num(raw["value"], f"{path}.value", 1, 100))


def _goal_cards(value: Any, path: str, forms: tuple[str, ...], key: str) -> tuple[GoalCard, ...]:
    cards = []
    for i, raw in enumerate(_check.seq(value, path, MAX_PLAYERS, MAX_PLAYERS)):
        raw = _check.obj(raw, f"{path}[{i}]", ("id", key))
        goals = tuple(
            _goal(g, f"{path}[{i}].{key}[{j}]", forms)
            for j, g in enumerate(_check.seq(raw[key], f"{path}[{i}].{key}", 1, 5))
        )
        cards.append(GoalCard(_check.text(raw["id"], f"{path}[{i}].id"), goals))
    return tuple(cards)


_TOP_KEYS = (
    "schema_version", "name", "description", "art_forms", "visitor_colours", "visitors",
    "visitors_removed_per_colour", "tickets_per_colour", "tickets_in_box", "easels",
    "market_tiles", "star_values", "celebrity", "artists", "works", "artist_bonus_tiles",
    "contracts", "contract_back", "reputation_tiles", "player_board", "influence_track",
    "promotion", "market", "curators", "dealers", "solo_goals",
)  # fmt: skip


def _items(value: Any, path: str, lo: int, hi: int, parse: Callable[[Any, str], Any]) -> tuple:
    """Parse each entry of a list with ``parse(entry, path[i])``."""
    return tuple(parse(v, f"{path}[{i}]") for i, v in enumerate(_check.seq(value, path, lo, hi)))


def _parse_names(raw: dict[str, Any]) -> dict[str, Any]:
    forms = _items(raw["art_forms"], "art_forms", NUM_FORMS, NUM_FORMS, _check.text)
    colours = _items(
        raw["visitor_colours"], "visitor_colours", NUM_COLOURS, NUM_COLOURS, _check.text
    )
    if len(set(forms)) != NUM_FORMS or len(set(colours)) != NUM_COLOURS:
        _check.fail("art_forms/visitor_colours", "names must be distinct")
    if not isinstance(raw["description"], str):
        _check.fail("description", "expected a string")
    return {
        "name": _check.text(raw["name"], "name"),
        "description": raw["description"],
        "art_forms": forms,
        "colours": colours,
    }


def _parse_counts(raw: dict[str, Any], colours: tuple[str, ...]) -> dict[str, Any]:
    visitors = _check.obj(raw["visitors"], "visitors", colours)
    celebrity = _check.obj(raw["celebrity"], "celebrity", ("fame", "money"))
    per_count = MARKET_COLUMNS * MARKET_UPPER_ROWS
    return {
        "visitors": tuple(_check.num(visitors[c], f"visitors.{c}", 8, 40) for c in colours),
        "visitors_removed": _nums(
            raw["visitors_removed_per_colour"], "visitors_removed_per_colour", MAX_PLAYERS, 0, 8
        ),
        "tickets_per_colour": _nums(
            raw["tickets_per_colour"], "tickets_per_colour", MAX_PLAYERS, 1, 40
        ),
        "tickets_in_box": _check.num(raw["tickets_in_box"], "tickets_in_box", 1, 40),
        "easels": _nums(raw["easels"], "easels", MAX_PLAYERS, 1, MAX_EASELS),
        "market_tiles": _nums(raw["market_tiles"], "market_tiles", MAX_PLAYERS, 0, per_count),
        "star_values": _nums(raw["star_values"], "star_values", 7, 0, 100),
        "celebrity_fame": _check.num(celebrity["fame"], "celebrity.fame", 10, 40),
        "celebrity_money": _check.num(celebrity["money"], "celebrity.money", 0, 50),
    }


def _parse_artist(value: Any, p: str, forms: tuple[str, ...]) -> Artist:
    a = _check.obj(value, p, ("id", "form", "colour", "initial_fame", "promotion", "stars"))
    thresholds = _nums(a["stars"], f"{p}.stars", 6, 1, 40)
    if list(thresholds) != sorted(set(thresholds)):
        _check.fail(f"{p}.stars", "thresholds must increase")
    return Artist(
        _check.text(a["id"], f"{p}.id"),
        _name(a["form"], f"{p}.form", forms),
        _name(a["colour"], f"{p}.colour", ("blue", "red")),
        _check.num(a["initial_fame"], f"{p}.initial_fame", 1, 18),
        _check.num(a["promotion"], f"{p}.promotion", 0, MAX_PROMOTION - 1),
        thresholds,
    )


def _parse_work(value: Any, p: str, forms: tuple[str, ...], colours: tuple[str, ...]) -> Work:
    w = _check.obj(value, p, ("id", "form", "fame", "tickets"))
    return Work(
        _check.text(w["id"], f"{p}.id"),
        _name(w["form"], f"{p}.form", forms),
        _check.num(w["fame"], f"{p}.fame", 0, 5),
        _items(w["tickets"], f"{p}.tickets", 1, 2, lambda t, q: _mask(t, q, colours)),
    )


def _parse_pieces(raw: dict[str, Any], forms: tuple[str, ...], colours: tuple[str, ...]) -> dict:
    """G1.2, G1.3: artists (two of each colour per form) and works (eight per form)."""
    artists = _items(raw["artists"], "artists", 16, 16, lambda a, p: _parse_artist(a, p, forms))
    for form in range(NUM_FORMS):
        for colour in (BLUE, RED):
            if sum(1 for a in artists if a.form == form and a.colour == colour) != 2:
                _check.fail(
                    "artists", f"need 2 {('blue', 'red')[colour]} artists of {forms[form]!r} (G1.2)"
                )
    works = _items(raw["works"], "works", 32, 32, lambda w, p: _parse_work(w, p, forms, colours))
    for form in range(NUM_FORMS):
        if sum(1 for w in works if w.form == form) != 8:
            _check.fail("works", f"need 8 works of {forms[form]!r} (G1.3)")
    return {"artists": artists, "works": works}


def _parse_cards(raw: dict[str, Any], forms: tuple[str, ...], colours: tuple[str, ...]) -> dict:
    """G1.7-G1.10: contracts, reputation tiles, bonus tiles, Curator and Art Dealer cards."""

    def contract(value: Any, p: str) -> Contract:
        c = _check.obj(value, p, ("id", "form", "bonus"))
        form = _name(c["form"], f"{p}.form", forms)
        return Contract(
            _check.text(c["id"], f"{p}.id"), form, _bonus(c["bonus"], f"{p}.bonus", colours)
        )

    def tile(value: Any, p: str) -> ReputationTile:
        t = _check.obj(value, p, ("id", "scoring", "money", "influence"))
        return ReputationTile(
            _check.text(t["id"], f"{p}.id"),
            _name(t["scoring"], f"{p}.scoring", TILE_SCORINGS),
            _check.num(t["money"], f"{p}.money", 0, 20),
            _check.num(t["influence"], f"{p}.influence", 0, 10),
        )

    back = _check.obj(raw["contract_back"], "contract_back", ("influence", "money"))
    return {
        "artist_bonus_tiles": _items(
            raw["artist_bonus_tiles"],
            "artist_bonus_tiles",
            8,
            16,
            lambda b, p: _bonus(b, p, colours),
        ),
        "contracts": _items(raw["contracts"], "contracts", 20, 20, contract),
        "contract_back": (
            _bonus(back["influence"], "contract_back.influence", colours),
            _bonus(back["money"], "contract_back.money", colours),
        ),
        "reputation_tiles": _items(raw["reputation_tiles"], "reputation_tiles", 20, 20, tile),
        "curators": _goal_cards(raw["curators"], "curators", forms, "collections"),
        "dealers": _goal_cards(raw["dealers"], "dealers", forms, "goals"),
    }


_BOARD_KEYS = (
    "start_money", "start_influence", "assistants", "start_desks", "desks", "hire",
    "reputation_spaces", "contract_slot_tickets", "gallery_slots", "start_tile_slot",
)  # fmt: skip


def _parse_board(raw: dict[str, Any], colours: tuple[str, ...], top: int) -> dict[str, Any]:
    """G2.15, G8.1: the player board."""
    board = _check.obj(raw["player_board"], "player_board", _BOARD_KEYS)
    assistants = _check.num(board["assistants"], "player_board.assistants", 2, 20)
    start_desks = _check.num(board["start_desks"], "player_board.start_desks", 1, 4)
    queue = assistants - start_desks

    def hire(value: Any, p: str) -> tuple[int, Bonus | None]:
        h = _check.obj(value, p, ("cost", "bonus"))
        bonus = None if h["bonus"] is None else _bonus(h["bonus"], f"{p}.bonus", colours)
        return _check.num(h["cost"], f"{p}.cost", 0, 30), bonus

    hires = _items(board["hire"], "player_board.hire", queue, queue, hire)
    slots = _check.num(board["gallery_slots"], "player_board.gallery_slots", 3, 3)
    spaces, tickets = NUM_REPUTATION_SPACES, NUM_CONTRACT_SLOTS
    return {
        "start_money": _check.num(board["start_money"], "player_board.start_money", 0, 100),
        "start_influence": _check.num(
            board["start_influence"], "player_board.start_influence", 0, top
        ),
        "assistants": assistants,
        "start_desks": start_desks,
        "desks": _check.num(board["desks"], "player_board.desks", start_desks, 6),
        "hire_costs": tuple(cost for cost, _ in hires),
        "hire_bonuses": tuple(bonus for _, bonus in hires),
        "reputation_spaces": _items(
            board["reputation_spaces"],
            "player_board.reputation_spaces",
            spaces,
            spaces,
            lambda b, p: _bonus(b, p, colours),
        ),  # fmt: skip
        "contract_slot_tickets": _items(
            board["contract_slot_tickets"],
            "player_board.contract_slot_tickets",
            tickets,
            tickets,
            lambda c, p: _name(c, p, colours),
        ),  # fmt: skip
        "gallery_slots": slots,
        "start_tile_slot": _check.num(
            board["start_tile_slot"], "player_board.start_tile_slot", 1, slots
        ),
    }


def _parse_track(raw: dict[str, Any]) -> dict[str, Any]:
    """G10.1: the influence track and its icons."""
    track = _check.obj(
        raw["influence_track"], "influence_track", ("max", "money_icons", "fame_icons")
    )
    top = _check.num(track["max"], "influence_track.max", 10, 100)
    icons = {}
    for name in ("money_icons", "fame_icons"):
        path = f"influence_track.{name}"
        icons[name] = _items(track[name], path, 2, top + 1, lambda v, p: _check.num(v, p, 0, top))
        if icons[name][0] != 0 or list(icons[name]) != sorted(set(icons[name])):
            _check.fail(path, "must start at 0 and increase")
    return {"influence_max": top, **icons}


def _parse_market(raw: dict[str, Any], colours: tuple[str, ...]) -> dict[str, Any]:
    """G8.2 promotion and G9 the International Market."""
    promo = _check.obj(raw["promotion"], "promotion", ("tokens_per_level", "bonuses"))
    market = _check.obj(raw["market"], "market", (
        "column_influence", "column_requirements", "small_game_columns", "auction_offers",
        "auction_bonuses", "majority_money",
    ))  # fmt: skip
    cols, rows = MARKET_COLUMNS, MARKET_LOWER_ROWS

    def requirement(col: Any, p: str) -> tuple[int, ...]:
        return _items(col, p, 1, 3, lambda s, q: _mask(s, q, colours))

    def bonus_row(row: Any, p: str) -> tuple[Bonus, ...]:
        return _items(row, p, cols, cols, lambda b, q: _bonus(b, q, colours))

    return {
        "promotion_tokens": _check.num(
            promo["tokens_per_level"], "promotion.tokens_per_level", 1, 8
        ),
        "promotion_bonuses": _items(
            promo["bonuses"],
            "promotion.bonuses",
            MAX_PROMOTION,
            MAX_PROMOTION,
            lambda b, p: _bonus(b, p, colours),
        ),  # fmt: skip
        "column_influence": _nums(
            market["column_influence"], "market.column_influence", cols, 0, 10
        ),
        "column_requirements": _items(
            market["column_requirements"], "market.column_requirements", cols, cols, requirement
        ),
        "small_game_columns": _items(
            market["small_game_columns"],
            "market.small_game_columns",
            1,
            cols,
            lambda c, p: _check.num(c, p, 0, cols - 1),
        ),  # fmt: skip
        "auction_offers": _nums(market["auction_offers"], "market.auction_offers", rows, 0, 30),
        "auction_bonuses": _items(
            market["auction_bonuses"], "market.auction_bonuses", rows, rows, bonus_row
        ),
        "majority_money": _items(
            market["majority_money"],
            "market.majority_money",
            cols,
            cols,
            lambda col, p: _nums(col, p, 3, 0, 50),
        ),  # fmt: skip
    }


_SOLO_KEYS = (
    "name", "curator_goals", "curator_top", "dealer_goals", "goal_money", "reputation_tiles",
    "masterpieces", "money",
)  # fmt: skip


def _parse_solo_goal(value: Any, p: str) -> SoloGoal:
    """G17.6: one goal level."""
    g = _check.obj(value, p, _SOLO_KEYS)
    if not isinstance(g["curator_top"], bool):
        _check.fail(f"{p}.curator_top", "expected true or false")
    return SoloGoal(
        _check.text(g["name"], f"{p}.name"),
        _check.num(g["curator_goals"], f"{p}.curator_goals", 0, 5),
        g["curator_top"],
        _check.num(g["dealer_goals"], f"{p}.dealer_goals", 0, 5),
        _check.num(g["goal_money"], f"{p}.goal_money", 0, 500),
        _check.num(g["reputation_tiles"], f"{p}.reputation_tiles", 0, NUM_REPUTATION_SPACES),
        _check.num(g["masterpieces"], f"{p}.masterpieces", 0, 8),
        _check.num(g["money"], f"{p}.money", 0, 1000),
    )


def game_data_from_dict(data: Any) -> GameData:
    """Validate ``data`` (the JSON schema of ``gallerist.json``) and build a GameData."""
    raw = _check.obj(data, "data", _TOP_KEYS)
    if raw["schema_version"] != SCHEMA_VERSION:
        _check.fail("schema_version", f"expected {SCHEMA_VERSION}, got {raw['schema_version']!r}")
    names = _parse_names(raw)
    forms, colours = names["art_forms"], names["colours"]
    counts = _parse_counts(raw, colours)
    pieces = _parse_pieces(raw, forms, colours)
    track = _parse_track(raw)
    fields = {
        **names,
        **counts,
        **pieces,
        **_parse_cards(raw, forms, colours),
        **_parse_board(raw, colours, track["influence_max"]),
        **track,
        **_parse_market(raw, colours),
        "solo_goals": _items(raw["solo_goals"], "solo_goals", 1, 5, _parse_solo_goal),
    }
    fingerprint = json.dumps(raw, sort_keys=True, separators=(",", ":")).encode()
    return GameData(
        **fields,
        fingerprint=hashlib.sha256(fingerprint).hexdigest()[:16],
        **_track_tables(track["influence_max"], track["money_icons"], track["fame_icons"]),
        **_star_tables(pieces["artists"], counts["star_values"], counts["celebrity_fame"]),
    )


def _star_tables(
    artists: tuple[Artist, ...], values: tuple[int, ...], top: int
) -> dict[str, tuple]:
    star_rows = [tuple(sum(1 for t in a.stars if f >= t) for f in range(top + 1)) for a in artists]
    value_rows = [tuple(values[k] for k in row) for row in star_rows]
    return {"artist_stars": tuple(star_rows), "artist_values": tuple(value_rows)}


def _track_tables(top: int, money: tuple[int, ...], fame: tuple[int, ...]) -> dict[str, tuple]:
    """Per influence value: the previous icon of each kind and how many icons lie below."""
    tables: dict[str, list[int]] = {
        k: []
        for k in (
            "prev_money_icon",
            "money_below",
            "prev_fame_icon",
            "fame_below",
            "influence_money",
        )
    }
    for i in range(top + 1):
        below_money = [m for m in money if m < i]
        below_fame = [f for f in fame if f < i]
        tables["prev_money_icon"].append(below_money[-1] if below_money else -1)
        tables["money_below"].append(len(below_money))
        tables["prev_fame_icon"].append(below_fame[-1] if below_fame else -1)
        tables["fame_below"].append(len(below_fame))
        tables["influence_money"].append(sum(1 for m in money if m <= i) - 1)
    return {k: tuple(v) for k, v in tables.items()}


def load_game_data(path: str | os.PathLike[str] | None = None) -> GameData:
    """Load and validate a data file; ``None`` loads the packaged ``gallerist.json``."""
    if path is None:
        text = (
            resources.files(__package__.rsplit(".", 1)[0])
            .joinpath("data/gallerist.json")
            .read_text("utf-8")
        )
        where = _DEFAULT_PATH
    else:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        where = os.fspath(path)
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as err:
        raise GameDataError(f"{where}: not valid JSON ({err})") from None
    return game_data_from_dict(raw)


@functools.cache
def default_game_data() -> GameData:
    """The packaged data, parsed once."""
    return load_game_data()
