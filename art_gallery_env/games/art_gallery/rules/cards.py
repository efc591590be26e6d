"""Painting card data: schema, loading and validation (R1.1, R1.5).

The printed card data is not public, so the project ships its own set in
``art_gallery_env/games/art_gallery/data/paintings.json`` (see ``docs/cards.md``). Any other set in
the same
schema can be loaded instead; every field is checked on load so that a bad file fails
with the path of the bad field rather than somewhere in the engine.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from typing import Any

from art_gallery_env.core.data_checks import DataChecks, kind

SCHEMA_VERSION = 1
NUM_PAINTINGS = 48
NUM_ROWS = 4
MIN_SYMBOLS_PER_ROW = 2
MAX_SYMBOLS_PER_ROW = 4
MIN_VALUE = 1
MAX_VALUE = 3

_TOP_KEYS = ("schema_version", "name", "description", "rows", "paintings")
_ROW_KEYS = ("theme", "symbols")
_PAINTING_KEYS = ("number", "title", "artist", "year", "date", "rows")
_ENTRY_KEYS = ("symbol", "value")
_DEFAULT_NAME = "art_gallery_env/games/art_gallery/data/paintings.json"


class CardDataError(ValueError):
    """Card data that breaks the schema; the message starts with the bad field's path."""


@dataclass(frozen=True)
class Painting:
    """One painting card (R1.1): per row, ``(symbol index, value)`` or ``None`` if empty."""

    number: int
    title: str
    artist: str
    year: int
    date: str
    rows: tuple[tuple[int, int] | None, ...]


@dataclass(frozen=True)
class CardSet:
    """A validated set of 48 painting cards (R1.1, R1.5); build it with ``card_set_from_dict``."""

    name: str
    row_themes: tuple[str, ...]
    row_symbols: tuple[tuple[str, ...], ...]
    paintings: tuple[Painting, ...]
    fingerprint: str
    description: str = ""

    def painting(self, number: int) -> Painting:
        """The card numbered ``number`` (1..48); paintings are stored in number order."""
        if isinstance(number, bool) or not isinstance(number, int):
            raise CardDataError(f"painting number {number!r} is not an int in 1..{NUM_PAINTINGS}")
        if not 1 <= number <= len(self.paintings):
            raise CardDataError(f"painting number {number} is not in 1..{len(self.paintings)}")
        return self.paintings[number - 1]

    @cached_property
    def rows_by_number(self) -> tuple[tuple[tuple[int, int] | None, ...], ...]:
        """``rows_by_number[n]`` is painting n's rows (index 0 is empty): a flat table for
        the hot paths (scoring, observation, heuristic) that look rows up by number."""
        return ((),) + tuple(p.rows for p in self.paintings)

    def to_dict(self) -> dict[str, Any]:
        """The set in the JSON schema; ``card_set_from_dict(s.to_dict()) == s``."""
        return {
            "schema_version": SCHEMA_VERSION,
            "name": self.name,
            "description": self.description,
            "rows": [
                {"theme": theme, "symbols": list(symbols)}
                for theme, symbols in zip(self.row_themes, self.row_symbols, strict=True)
            ],
            "paintings": [
                {
                    "number": p.number,
                    "title": p.title,
                    "artist": p.artist,
                    "year": p.year,
                    "date": p.date,
                    "rows": [
                        None
                        if entry is None
                        else {"symbol": self.row_symbols[row][entry[0]], "value": entry[1]}
                        for row, entry in enumerate(p.rows)
                    ],
                }
                for p in self.paintings
            ],
        }


_check = DataChecks(CardDataError)  # the card data's checks


def _fingerprint(data: dict[str, Any]) -> str:
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def _parse_rows(data: Any) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    themes: list[str] = []
    symbols: list[tuple[str, ...]] = []
    for r, row in enumerate(_check.seq(data, "rows", NUM_ROWS, NUM_ROWS, "rows")):
        path = f"rows[{r}]"
        row = _check.obj(row, path, _ROW_KEYS)
        theme = _check.text(row["theme"], f"{path}.theme")
        if theme in themes:
            _check.fail(f"{path}.theme", f"duplicate theme {theme!r}")
        names = _check.seq(
            row["symbols"],
            f"{path}.symbols",
            MIN_SYMBOLS_PER_ROW,
            MAX_SYMBOLS_PER_ROW,
            "symbol names",
        )
        for s, name in enumerate(names):
            _check.text(name, f"{path}.symbols[{s}]")
            if name in names[:s]:
                _check.fail(f"{path}.symbols[{s}]", f"duplicate symbol {name!r}")
        themes.append(theme)
        symbols.append(tuple(names))
    return tuple(themes), tuple(symbols)


def _parse_painting(
    data: Any, path: str, themes: tuple[str, ...], row_symbols: tuple[tuple[str, ...], ...]
) -> Painting:
    data = _check.obj(data, path, _PAINTING_KEYS)
    number = _check.num(data["number"], f"{path}.number", 1, NUM_PAINTINGS)
    title = _check.text(data["title"], f"{path}.title")
    artist = _check.text(data["artist"], f"{path}.artist")
    year = _check.num(data["year"], f"{path}.year")
    date = _check.text(data["date"], f"{path}.date")
    entries: list[tuple[int, int] | None] = []
    raw_rows = _check.seq(
        data["rows"], f"{path}.rows", NUM_ROWS, NUM_ROWS, "row entries (null for an empty row)"
    )
    for r, entry in enumerate(raw_rows):
        if entry is None:
            entries.append(None)
            continue
        entry_path = f"{path}.rows[{r}]"
        entry = _check.obj(entry, entry_path, _ENTRY_KEYS)
        symbol = entry["symbol"]
        if symbol not in row_symbols[r]:
            legal = ", ".join(repr(s) for s in row_symbols[r])
            _check.fail(
                f"{entry_path}.symbol",
                f"{symbol!r} is not a symbol of row {r} {themes[r]!r} (expected one of {legal})",
            )
        value = _check.num(entry["value"], f"{entry_path}.value", MIN_VALUE, MAX_VALUE)
        entries.append((row_symbols[r].index(symbol), value))
    return Painting(number, title, artist, year, date, tuple(entries))


def card_set_from_dict(data: Any) -> CardSet:
    """Validate ``data`` against the schema and build the card set (R1.1, R1.5).

    Paintings may be listed in any order; the fingerprint hashes them in number order,
    so it identifies the cards, not the file layout.
    """
    data = _check.obj(data, "card data", _TOP_KEYS)
    version = data["schema_version"]
    if isinstance(version, bool) or version != SCHEMA_VERSION:
        _check.fail("schema_version", f"{version!r} is not supported (expected {SCHEMA_VERSION})")
    name = _check.text(data["name"], "name")
    description = data["description"]
    if not isinstance(description, str):
        _check.fail("description", f"expected a string; got {kind(description)}")
    themes, row_symbols = _parse_rows(data["rows"])
    raw = _check.seq(data["paintings"], "paintings", NUM_PAINTINGS, NUM_PAINTINGS, "paintings")
    seen: dict[int, int] = {}
    paintings = []
    for i, item in enumerate(raw):
        painting = _parse_painting(item, f"paintings[{i}]", themes, row_symbols)
        if painting.number in seen:
            _check.fail(
                f"paintings[{i}].number",
                f"{painting.number} is used twice (also paintings[{seen[painting.number]}]); "
                f"numbers must be unique in 1..{NUM_PAINTINGS}",
            )
        seen[painting.number] = i
        paintings.append(painting)
    order = sorted(range(len(raw)), key=lambda i: paintings[i].number)
    return CardSet(
        name=name,
        row_themes=themes,
        row_symbols=row_symbols,
        paintings=tuple(paintings[i] for i in order),
        fingerprint=_fingerprint({**data, "paintings": [raw[i] for i in order]}),
        description=description,
    )


def load_card_set(path: str | os.PathLike[str] | None = None) -> CardSet:
    """Load and validate a card set file; ``None`` loads the packaged default (R1.5)."""
    source = _DEFAULT_NAME if path is None else os.fspath(path)
    try:
        if path is None:
            package = resources.files("art_gallery_env.games.art_gallery")
            text = package.joinpath("data").joinpath("paintings.json").read_text(encoding="utf-8")
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise CardDataError(f"{source}: cannot read card data: {exc}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardDataError(
            f"{source}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from exc
    try:
        return card_set_from_dict(data)
    except CardDataError as exc:
        raise CardDataError(f"{source}: {exc}") from exc


@functools.lru_cache(maxsize=1)
def default_card_set() -> CardSet:
    """The packaged card set, parsed once: it is immutable and shared by every game."""
    return load_card_set(None)
