"""Card data: the packaged set and the validator (R1.1, R1.5)."""

from __future__ import annotations

import ast
import copy
import json
import re
import sys
from pathlib import Path

import pytest

from art_gallery_env.games.art_gallery.rules import cards
from art_gallery_env.games.art_gallery.rules.cards import (
    MAX_SYMBOLS_PER_ROW,
    NUM_PAINTINGS,
    NUM_ROWS,
    CardDataError,
    card_set_from_dict,
    default_card_set,
    load_card_set,
)

# Pinned on purpose: saved games store it (serialize.py), so a data edit must be deliberate.
DEFAULT_FINGERPRINT = "e73e1988ad9f8f00"

# The English rulebook's Glossary, entries 1-25 (entry 25 has no title there).
GLOSSARY = [
    ("The Birth of Venus", "Sandro Botticelli"),
    ("Portrait of Giovanna Tornabuoni", "Domenico Ghirlandaio"),
    ("Young Hare", "Albrecht Dürer"),
    ("Great Piece of Turf", "Albrecht Dürer"),
    ("Mona Lisa", "Leonardo Da Vinci"),
    ("Madonna of the Goldfinch", "Raphael"),
    ("Battle of Alexander", "Albrecht Altdorfer"),
    ("Portrait of Henry VIII", "Hans Holbein the Younger"),
    ("Summer", "Giuseppe Arcimboldo"),
    ("The Tower of Babel", "Pieter Bruegel the Elder"),
    ("The Hunters in the Snow", "Pieter Bruegel the Elder"),
    ("Bacchus", "Michelangelo Merisi da Caravaggio"),
    ("Christ in the Storm on the Sea of Galilee", "Rembrandt van Rijn"),
    ("Las Meninas", "Diego Velázquez"),
    ("Girl with a Pearl Earring", "Jan Vermeer"),
    ("The Art of Painting", "Jan Vermeer"),
    ("Pierrot, called Gilles", "Antoine Watteau"),
    ("Mezzetino", "Antoine Watteau"),
    ("The Chocolate Girl", "Jean-Étienne Liotard"),
    ("The Swing", "Jean-Honoré Fragonard"),
    ("The Parasol", "Francisco de Goya"),
    ("Fisherman at Sea", "Joseph Turner"),
    ("The Monk by the Sea", "Caspar David Friedrich"),
    ("Chalk Cliffs on Rügen", "Caspar David Friedrich"),
    ("Wanderer above the Sea of Fog", "Caspar David Friedrich"),
]


@pytest.fixture
def data() -> dict:
    """A fresh, mutable copy of the packaged data."""
    return copy.deepcopy(default_card_set().to_dict())


def test_R1_1_default_set_has_48_paintings_numbered_1_to_48():
    card_set = default_card_set()
    assert [p.number for p in card_set.paintings] == list(range(1, NUM_PAINTINGS + 1))
    assert all(card_set.painting(n).number == n for n in range(1, NUM_PAINTINGS + 1))


def test_R1_1_every_card_has_four_rows_of_legal_entries():
    card_set = default_card_set()
    assert len(card_set.row_themes) == len(card_set.row_symbols) == NUM_ROWS
    assert all(2 <= len(symbols) <= MAX_SYMBOLS_PER_ROW for symbols in card_set.row_symbols)
    for p in card_set.paintings:
        assert len(p.rows) == NUM_ROWS
        filled = [entry for entry in p.rows if entry is not None]
        assert 1 <= len(filled) <= NUM_ROWS, p.title
        for row, entry in enumerate(p.rows):
            if entry is not None:
                assert 0 <= entry[0] < len(card_set.row_symbols[row])
                assert entry[1] in (1, 2, 3)


@pytest.mark.parametrize("number", range(1, 26))
def test_R1_5_paintings_1_to_25_follow_the_rulebook_glossary(number):
    painting = default_card_set().painting(number)
    assert (painting.title, painting.artist) == GLOSSARY[number - 1]


@pytest.mark.parametrize(
    ("number", "title", "artist", "year", "date"),
    [
        (1, "The Birth of Venus", "Sandro Botticelli", 1485, "c. 1485/86"),
        (3, "Young Hare", "Albrecht Dürer", 1502, "1502"),
        (14, "Las Meninas", "Diego Velázquez", 1656, "1656"),
        (25, "Wanderer above the Sea of Fog", "Caspar David Friedrich", 1818, "c. 1818"),
    ],
)
def test_R1_5_glossary_entries_exact(number, title, artist, year, date):
    painting = default_card_set().painting(number)
    assert (painting.title, painting.artist, painting.year, painting.date) == (
        title,
        artist,
        year,
        date,
    )


def test_R1_5_years_never_decrease_and_match_the_date():
    paintings = default_card_set().paintings
    years = [p.year for p in paintings]
    assert years == sorted(years)
    for p in paintings:
        assert p.year == int(re.search(r"\d{4}", p.date).group()), p.date


@pytest.mark.parametrize(
    ("title", "artist"),
    [
        ("Le Déjeuner sur l'herbe", "Édouard Manet"),
        ("The Poor Poet", "Carl Spitzweg"),
        ("The Starry Night", "Vincent van Gogh"),
        ("Blue Horse I", "Franz Marc"),
        ("The Scream", "Edvard Munch"),
    ],
)
def test_R1_5_required_later_works_are_in_26_to_48(title, artist):
    matches = [p for p in default_card_set().paintings if p.title == title]
    assert len(matches) == 1
    assert matches[0].artist == artist
    assert 26 <= matches[0].number <= 48


@pytest.mark.parametrize(
    "artist",
    [
        "Claude Monet",
        "Pierre-Auguste Renoir",
        "Edgar Degas",
        "Paul Gauguin",
        "August Macke",
        "Wassily Kandinsky",
    ],
)
def test_R1_5_required_artists_are_in_26_to_48(artist):
    assert any(p.artist == artist for p in default_card_set().paintings[25:])


def test_R7_1_every_symbol_is_on_at_least_three_cards():
    card_set = default_card_set()
    for row, symbols in enumerate(card_set.row_symbols):
        for index, symbol in enumerate(symbols):
            count = sum(
                p.rows[row] is not None and p.rows[row][0] == index for p in card_set.paintings
            )
            assert count >= 3, (card_set.row_themes[row], symbol, count)


def test_R1_5_to_dict_round_trips(data):
    card_set = default_card_set()
    assert card_set_from_dict(data) == card_set
    assert card_set_from_dict(card_set.to_dict()).to_dict() == card_set.to_dict()


def test_R1_5_packaged_file_is_the_canonical_form():
    text = (Path(cards.__file__).parents[1] / "data" / "paintings.json").read_text("utf-8")
    assert json.loads(text) == default_card_set().to_dict()


def test_R1_5_fingerprint_is_stable(data):
    assert default_card_set().fingerprint == DEFAULT_FINGERPRINT
    data["paintings"].reverse()  # order of the file is not part of the identity
    assert card_set_from_dict(data).fingerprint == DEFAULT_FINGERPRINT
    data["paintings"][0]["rows"][0] = None
    assert card_set_from_dict(data).fingerprint != DEFAULT_FINGERPRINT


def test_R1_5_default_card_set_is_cached():
    assert default_card_set() is default_card_set()


def test_R1_5_load_card_set_reads_another_file(tmp_path, data):
    data["name"] = "printed"
    data["paintings"][0]["rows"][1] = {"symbol": "bird", "value": 3}
    path = tmp_path / "printed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    card_set = load_card_set(path)
    assert card_set.name == "printed"
    assert card_set.painting(1).rows[1] == (card_set.row_symbols[1].index("bird"), 3)
    assert load_card_set(str(path)) == card_set


@pytest.mark.parametrize("number", [0, 49, -1])
def test_R1_1_painting_lookup_names_the_valid_range(number):
    with pytest.raises(CardDataError, match=rf"painting number {number} is not in 1\.\.48"):
        default_card_set().painting(number)


def _set(path: str, value):
    """A mutation setting the item at a dotted path such as ``paintings.3.year``."""

    def mutate(data):
        *parents, last = path.split(".")
        target = data
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return mutate


def _drop_last_painting(data):
    data["paintings"].pop()


def _duplicate_number(data):
    data["paintings"][7]["number"] = 3


def _drop_row(data):
    data["rows"].pop()


def _unknown_top_key(data):
    data["colour"] = "blue"


def _unknown_painting_key(data):
    data["paintings"][4]["museum"] = "Louvre"


def _missing_key(data):
    del data["paintings"][2]["artist"]


def _duplicate_symbol(data):
    data["rows"][1]["symbols"] = ["bird", "bird", "horse"]


def _five_symbols(data):
    data["rows"][2]["symbols"] = ["flora", "mountain", "sky", "water", "fire"]


def _three_row_entries(data):
    data["paintings"][0]["rows"].pop()


MALFORMED = [
    ("schema_version_2", _set("schema_version", 2), r"^schema_version: 2 is not supported"),
    ("47_paintings", _drop_last_painting, r"^paintings: expected 48 paintings; got 47"),
    (
        "duplicate_number",
        _duplicate_number,
        r"^paintings\[7\]\.number: 3 is used twice \(also paintings\[2\]\)",
    ),
    ("number_49", _set("paintings.0.number", 49), r"^paintings\[0\]\.number: 49 is not in 1\.\.48"),
    (
        "unknown_symbol",
        _set("paintings.2.rows.1", {"symbol": "cat", "value": 1}),
        r"^paintings\[2\]\.rows\[1\]\.symbol: 'cat' is not a symbol of row 1 'animals' "
        r"\(expected one of 'bird', 'horse', 'mammal'\)",
    ),
    (
        "symbol_of_other_row",
        _set("paintings.2.rows.0", {"symbol": "bird", "value": 1}),
        r"^paintings\[2\]\.rows\[0\]\.symbol: 'bird' is not a symbol of row 0",
    ),
    (
        "value_0",
        _set("paintings.12.rows.0.value", 0),
        r"^paintings\[12\]\.rows\[0\]\.value: 0 is not in 1\.\.3",
    ),
    (
        "value_4",
        _set("paintings.12.rows.0.value", 4),
        r"^paintings\[12\]\.rows\[0\]\.value: 4 is not in 1\.\.3",
    ),
    (
        "value_bool",
        _set("paintings.12.rows.0.value", True),
        r"^paintings\[12\]\.rows\[0\]\.value: expected an int; got bool",
    ),
    ("3_rows", _drop_row, r"^rows: expected 4 rows; got 3"),
    ("3_row_entries", _three_row_entries, r"^paintings\[0\]\.rows: expected 4 row entries"),
    ("duplicate_symbol", _duplicate_symbol, r"^rows\[1\]\.symbols\[1\]: duplicate symbol 'bird'"),
    ("5_symbols", _five_symbols, r"^rows\[2\]\.symbols: expected 2\.\.4 symbol names; got 5"),
    ("unknown_top_key", _unknown_top_key, r"^card data: unknown key 'colour' \(allowed: "),
    ("unknown_painting_key", _unknown_painting_key, r"^paintings\[4\]: unknown key 'museum'"),
    ("missing_key", _missing_key, r"^paintings\[2\]: missing key 'artist'"),
    (
        "year_str",
        _set("paintings.3.year", "1503"),
        r"^paintings\[3\]\.year: expected an int; got str '1503'",
    ),
    ("year_float", _set("paintings.3.year", 1503.0), r"^paintings\[3\]\.year: expected an int"),
    (
        "empty_title",
        _set("paintings.5.title", " "),
        r"^paintings\[5\]\.title: expected a non-empty string",
    ),
    (
        "rows_not_list",
        _set("paintings.5.rows", "woman"),
        r"^paintings\[5\]\.rows: expected a list of row entries",
    ),
]


@pytest.mark.parametrize(
    ("mutate", "message"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED]
)
def test_R1_5_malformed_data_is_rejected_naming_the_field(data, mutate, message):
    mutate(data)
    with pytest.raises(CardDataError, match=message):
        card_set_from_dict(data)


def test_R1_5_top_level_must_be_an_object():
    with pytest.raises(CardDataError, match=r"^card data: expected an object .* got list"):
        card_set_from_dict([])


def test_R1_5_file_errors_name_the_file_and_the_field(tmp_path, data):
    data["paintings"][12]["rows"][0]["value"] = 5
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CardDataError, match=r"bad\.json: paintings\[12\]\.rows\[0\]\.value: 5"):
        load_card_set(path)


def test_R1_5_missing_file_is_a_card_data_error(tmp_path):
    with pytest.raises(CardDataError, match=r"nope\.json: cannot read card data"):
        load_card_set(tmp_path / "nope.json")


def test_R1_5_invalid_json_is_a_card_data_error(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"schema_version": 1,\n  "name": }', encoding="utf-8")
    with pytest.raises(CardDataError, match=r"broken\.json: invalid JSON at line 2 column"):
        load_card_set(path)


def test_card_data_error_is_a_value_error():
    assert issubclass(CardDataError, ValueError)


def _top_level_imports(path: str) -> set[str]:
    tree = ast.parse(Path(path).read_text("utf-8"))
    return {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
    }


def test_cards_module_imports_only_the_standard_library():
    """The card data loads with the standard library alone; the shared data checks it uses
    (core.data_checks) are held to the same."""
    from art_gallery_env.core import data_checks

    imported = _top_level_imports(cards.__file__) - {"art_gallery_env.core.data_checks"}
    imported |= _top_level_imports(data_checks.__file__)
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    assert {name.split(".")[0] for name in imported} <= stdlib
