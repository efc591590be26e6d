"""The data-file checks both games' loaders share (core.data_checks): the value back when
it fits, else the caller's error class with one line naming the path, what was expected
and the legal keys."""

from __future__ import annotations

import pytest

from art_gallery_env.core.data_checks import DataChecks
from art_gallery_env.games.art_gallery.rules.cards import CardDataError
from art_gallery_env.games.gallerist.rules.data import GameDataError


class DataError(ValueError):
    pass


check = DataChecks(DataError)


def test_fitting_values_come_back_unchanged() -> None:
    obj = {"a": 1, "b": 2}
    assert check.obj(obj, "x", ("a",), ("b",)) is obj
    assert check.seq([1, 2], "x", 1, 3) == [1, 2]
    assert check.num(5, "x", 0, 5) == 5
    assert check.num(-7, "x") == -7  # no range given: any whole number
    assert check.text("Mona", "x") == "Mona"


@pytest.mark.parametrize(
    ("misfit", "message"),
    [
        (lambda: check.obj([], "top", ("a", "b")),
         "top: expected an object with keys a, b; got list"),
        (lambda: check.obj({"a": 1}, "top", ("a", "b")),
         "top: missing key 'b' (required: a, b)"),
        (lambda: check.obj({"a": 1, "c": 2}, "top", ("a",), ("b",)),
         "top: unknown key 'c' (allowed: a, b)"),
        (lambda: check.seq(None, "rows", 1, 2, "rows"),
         "rows: expected a list of rows; got null"),
        (lambda: check.seq([1, 2, 3], "rows", 4, 4),
         "rows: expected 4 entries; got 3"),
        (lambda: check.seq([], "rows", 1, 5),
         "rows: expected 1..5 entries; got 0"),
        (lambda: check.num(True, "n", 0, 9), "n: expected an int; got bool True"),
        (lambda: check.num(2.0, "n"), "n: expected an int; got float 2.0"),
        (lambda: check.num(10, "n", 0, 9), "n: 10 is not in 0..9"),
        (lambda: check.text("  ", "name"),
         "name: expected a non-empty string; got str '  '"),
    ],
)  # fmt: skip
def test_a_misfit_raises_the_callers_error_with_one_line(misfit, message: str) -> None:
    with pytest.raises(DataError) as raised:
        misfit()
    assert str(raised.value) == message


def test_each_game_raises_its_own_error_class_through_the_shared_checks() -> None:
    from art_gallery_env.games.art_gallery.rules import cards
    from art_gallery_env.games.gallerist.rules import data

    with pytest.raises(CardDataError, match=r"^p: unknown key 'z' \(allowed: a\)$"):
        cards._check.obj({"a": 1, "z": 2}, "p", ("a",))
    with pytest.raises(GameDataError, match=r"^p\.amount: 60 is not in 0\.\.50$"):
        data._check.num(60, "p.amount", 0, 50)
