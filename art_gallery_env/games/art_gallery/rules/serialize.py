"""Versioned JSON for game states: save a game, load it, continue it.

Loading checks every field's type and range and then the rules' invariants, so a
malformed or inconsistent file is rejected with a message naming the bad field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import NUM_CARD_VALUES
from .board import PILE_SIZES, check_num_players, galleries_for
from .cards import CardSet, default_card_set
from .phases import PHASE_NAMES, STAGE_NAMES

if TYPE_CHECKING:
    from .state import GameState

FORMAT = "art-gallery-env/state"
VERSION = 1
_EVENT_KINDS = {
    "setup",
    "round_start",
    "move",
    "bid",
    "start_card",
    "reveal",
    "shop",
    "painting",
    "pick",
    "game_over",
}


class StateFormatError(ValueError):
    """A saved state that cannot be loaded; the message names the bad field."""


def state_to_dict(state: GameState) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "card_set": {"name": state.cards.name, "fingerprint": state.cards.fingerprint},
        "num_players": state.num_players,
        "zero_is_ten": state.zero_is_ten,
        "phase": PHASE_NAMES[state.phase],
        "current_player": state.current_player,
        "round": state.round,
        "turn": state.turn,
        "round_starter": state.round_starter,
        "start_player": state.start_player,
        "position": list(state.position),
        "hands": [list(h) for h in state.hands],
        "moved": [list(m) for m in state.moved],
        "bids": [[list(b) for b in bids] for bids in state.bids],
        "gallery_painting": list(state.gallery_painting),
        "painting_pile": list(state.painting_pile),
        "tile_piles": [list(p) for p in state.tile_piles],
        "tiles_held": [list(t) for t in state.tiles_held],
        "collections": [list(c) for c in state.collections],
        "distribution": {
            "area": state.dist_area,
            "stage": STAGE_NAMES[state.dist_stage],
            "marker": state.dist_marker,
            "space_cards": list(state.space_cards),
        },
        "events": [[kind, data] for kind, data in state.events],
    }


def read_state(s: GameState, data: Any, card_set: CardSet | None = None) -> None:
    """Fill the blank state ``s`` from ``data`` (see ``GameState.from_dict``), checking
    every field and then the rules' invariants."""
    from .invariants import InconsistentStateError, check_invariants

    # Fields are read in file order, so the first bad field is the one reported.
    reader = _Reader(data)
    cards = _read_card_set(reader, data, card_set)
    n = reader.get("num_players", int)
    try:
        check_num_players(n)
    except ValueError as err:
        raise StateFormatError(f"num_players: {err}") from None
    galleries = galleries_for(n)
    areas = galleries + 1
    numbers = {p.number for p in cards.paintings}

    s.cards = cards
    s.num_players, s.num_galleries, s.num_areas = n, galleries, areas
    s.zero_is_ten = reader.get("zero_is_ten", bool)
    s.phase = _read_name(reader, "phase", PHASE_NAMES)
    s.current_player = reader.seat("current_player", n)
    s.round = reader.int_in("round", 1, 10_000)
    s.turn = reader.int_in("turn", 0, 4 * n)
    s.round_starter = reader.seat("round_starter", n)
    s.start_player = reader.seat("start_player", n)
    s.position = reader.int_list("position", n, 0, areas - 1)
    s.hands = [
        reader.int_list(f"hands[{p}]", NUM_CARD_VALUES, 0, n, data["hands"][p])
        for p in range(reader.length("hands", n))
    ]
    s.moved = [
        reader.int_list(f"moved[{p}]", NUM_CARD_VALUES, 0, n, data["moved"][p])
        for p in range(reader.length("moved", n))
    ]
    s.bids = _read_bids(reader, data, n, areas)
    s.gallery_painting = reader.int_list("gallery_painting", areas, 0, max(numbers))
    s.painting_pile = reader.number_list("painting_pile", numbers, data.get("painting_pile"))
    s.tile_piles = [
        reader.number_list(f"tile_piles[{i}]", numbers, data["tile_piles"][i], PILE_SIZES[i])
        for i in range(reader.length("tile_piles", len(PILE_SIZES)))
    ]
    s.tiles_held = [
        reader.number_list(f"tiles_held[{p}]", numbers, data["tiles_held"][p])
        for p in range(reader.length("tiles_held", n))
    ]
    s.collections = [
        reader.number_list(f"collections[{p}]", numbers, data["collections"][p])
        for p in range(reader.length("collections", n))
    ]
    _read_distribution(s, _Reader(reader.get("distribution", dict), prefix="distribution."))
    s.events = _read_events(reader.any_list("events", data.get("events")))
    s._legal = None
    try:
        check_invariants(s)
    except InconsistentStateError as err:
        raise StateFormatError(f"inconsistent state: {err}") from None


def _read_card_set(reader: _Reader, data: Any, card_set: CardSet | None) -> CardSet:
    """Check the format and version, and that the file was saved with ``card_set``."""
    if reader.get("format", str) != FORMAT:
        raise StateFormatError(f"format: expected {FORMAT!r}, got {data.get('format')!r}")
    version = reader.get("version", int)
    if version != VERSION:
        raise StateFormatError(f"version: {version} is not supported (this engine reads {VERSION})")
    cards = card_set or default_card_set()
    saved_cards = reader.get("card_set", dict)
    if saved_cards.get("fingerprint") != cards.fingerprint:
        raise StateFormatError(
            f"card_set: the game was saved with card set {saved_cards.get('name')!r} "
            f"(fingerprint {saved_cards.get('fingerprint')!r}); pass that card set to load it "
            f"(given {cards.name!r}, fingerprint {cards.fingerprint!r})"
        )
    return cards


def _read_name(reader: _Reader, key: str, names: tuple[str, ...]) -> int:
    """The index of a field that must be one of ``names`` (a phase or a stage)."""
    value = reader.get(key, str)
    if value not in names:
        raise StateFormatError(f"{reader.prefix}{key}: {value!r} is not one of {list(names)}")
    return names.index(value)


def _read_bids(reader: _Reader, data: Any, n: int, areas: int) -> list[list[tuple[int, int]]]:
    """Each area's marker bar: (player, card value) pairs, players being seats."""
    all_bids = []
    for area in range(reader.length("bids", areas)):
        bids = reader.any_list(f"bids[{area}]", data["bids"][area])
        parsed = []
        for k, bid in enumerate(bids):
            pair = reader.int_list(f"bids[{area}][{k}]", 2, 0, max(n - 1, 8), bid)
            if pair[0] >= n:
                raise StateFormatError(f"bids[{area}][{k}]: player {pair[0]} is not in 0..{n - 1}")
            parsed.append((pair[0], pair[1]))
        all_bids.append(parsed)
    return all_bids


def _read_distribution(s: GameState, dist: _Reader) -> None:
    """Where the end-of-round distribution (R5) stands."""
    s.dist_area = dist.int_in("area", 0, s.num_areas)
    s.dist_stage = _read_name(dist, "stage", STAGE_NAMES)
    s.dist_marker = dist.int_in("marker", 0, 6)
    s.space_cards = dist.int_list("space_cards", NUM_CARD_VALUES, 0, s.num_players)


def _read_events(raw: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for i, item in enumerate(raw):
        if (
            not isinstance(item, list)
            or len(item) != 2
            or not isinstance(item[0], str)  # a list is not hashable: no set lookup
            or item[0] not in _EVENT_KINDS
            or not isinstance(item[1], dict)
        ):
            raise StateFormatError(
                f"events[{i}]: expected [kind, {{...}}] with kind in {sorted(_EVENT_KINDS)}"
            )
        if item[0] == "bid":
            for key in ("player", "area", "marker"):
                value = item[1].get(key)
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise StateFormatError(f"events[{i}]: a bid event needs an int {key!r}")
        events.append((item[0], item[1]))
    return events


class _Reader:
    """Typed access to a JSON object whose errors name the field."""

    def __init__(self, data: Any, prefix: str = "") -> None:
        if not isinstance(data, dict):
            raise StateFormatError(f"{prefix or 'state'}: expected a JSON object")
        self.data, self.prefix = data, prefix

    def get(self, key: str, kind: type) -> Any:
        if key not in self.data:
            raise StateFormatError(f"{self.prefix}{key}: missing")
        value = self.data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise StateFormatError(
                f"{self.prefix}{key}: expected {kind.__name__}, got {type(value).__name__}"
            )
        return value

    def int_in(self, key: str, low: int, high: int) -> int:
        value = self.get(key, int)
        if not low <= value <= high:
            raise StateFormatError(f"{self.prefix}{key}: {value} is not in {low}..{high}")
        return value

    def seat(self, key: str, n: int) -> int:
        return self.int_in(key, 0, n - 1)

    def length(self, key: str, expected: int) -> int:
        value = self.get(key, list)
        if len(value) != expected:
            raise StateFormatError(
                f"{self.prefix}{key}: expected {expected} entries, got {len(value)}"
            )
        return expected

    def any_list(self, name: str, value: Any) -> list[Any]:
        if not isinstance(value, list):
            raise StateFormatError(f"{self.prefix}{name}: expected a list")
        return value

    def int_list(self, name: str, length: int, low: int, high: int, value: Any = None) -> list[int]:
        value = self.data.get(name) if value is None else value
        if not isinstance(value, list) or len(value) != length:
            raise StateFormatError(f"{self.prefix}{name}: expected a list of {length} ints")
        for i, item in enumerate(value):
            if not isinstance(item, int) or isinstance(item, bool) or not low <= item <= high:
                raise StateFormatError(
                    f"{self.prefix}{name}[{i}]: {item!r} is not an int in {low}..{high}"
                )
        return list(value)

    def number_list(
        self, name: str, numbers: set[int], value: Any, max_len: int | None = None
    ) -> list[int]:
        value = self.any_list(name, value)
        if max_len is not None and len(value) > max_len:
            raise StateFormatError(f"{self.prefix}{name}: {len(value)} entries, at most {max_len}")
        for i, item in enumerate(value):
            if not isinstance(item, int) or isinstance(item, bool) or item not in numbers:
                raise StateFormatError(
                    f"{self.prefix}{name}[{i}]: {item!r} is not a painting number "
                    f"{min(numbers)}..{max(numbers)}"
                )
        return list(value)
