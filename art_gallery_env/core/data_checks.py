"""Checks of a parsed JSON data file (a game's card set, its component data).

A game makes one ``DataChecks(error)`` with its own error class (such as
``CardDataError``). Each check returns the value when it is what was asked for, else
raises that error with one line: ``path: what was expected; what was given`` and, for an
object's keys, the legal ones. Game-free.
"""

from __future__ import annotations

from typing import Any, NoReturn


def kind(value: Any) -> str:
    """A JSON value's kind as a message names it (``null``, ``str``, ``list``...)."""
    return "null" if value is None else type(value).__name__


class DataChecks:
    """The checks of one game's data files, raising ``error``."""

    def __init__(self, error: type[Exception]) -> None:
        self.error = error

    def fail(self, path: str, message: str) -> NoReturn:
        raise self.error(f"{path}: {message}")

    def obj(
        self, value: Any, path: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()
    ) -> dict[str, Any]:
        """An object with every one of ``keys`` and nothing but them and ``optional``: a
        typo in a key must not pass silently."""
        if not isinstance(value, dict):
            self.fail(path, f"expected an object with keys {', '.join(keys)}; got {kind(value)}")
        missing = [key for key in keys if key not in value]
        if missing:
            self.fail(path, f"missing key {missing[0]!r} (required: {', '.join(keys)})")
        unknown = sorted(str(key) for key in value if key not in keys and key not in optional)
        if unknown:
            allowed = ", ".join(keys + optional)
            self.fail(path, f"unknown key {unknown[0]!r} (allowed: {allowed})")
        return value

    def seq(self, value: Any, path: str, lo: int, hi: int, what: str = "entries") -> list[Any]:
        """A list of ``lo`` to ``hi`` entries (``what`` names them in the message)."""
        if not isinstance(value, list):
            self.fail(path, f"expected a list of {what}; got {kind(value)}")
        if not lo <= len(value) <= hi:
            expected = str(lo) if lo == hi else f"{lo}..{hi}"
            self.fail(path, f"expected {expected} {what}; got {len(value)}")
        return value

    def num(self, value: Any, path: str, lo: int | None = None, hi: int | None = None) -> int:
        """A whole number (not a bool, not a float), in ``lo..hi`` when both are given."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"expected an int; got {kind(value)} {value!r}")
        if lo is not None and hi is not None and not lo <= value <= hi:
            self.fail(path, f"{value} is not in {lo}..{hi}")
        return value

    def text(self, value: Any, path: str) -> str:
        """A string with more than white space in it."""
        if not isinstance(value, str) or not value.strip():
            self.fail(path, f"expected a non-empty string; got {kind(value)} {value!r}")
        return value
