"""The value types of the training config's fields: numbers as YAML writes them
(``3e-4``, ``1e5``), counts, seeds and table sizes, and the strict base model every
section is (unknown keys and wrong types refused). Also the two ways a problem's value is
quoted in one line (:func:`short`, :func:`one_line`).
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict

from . import config_checks as checks


class Strict(BaseModel):
    """A config section: unknown keys and values of another type are refused."""

    model_config = ConfigDict(extra="forbid", strict=True)


def _number_from_text(value: Any) -> Any:
    """'3e-4' -> 0.0003: YAML 1.1 reads a float without a dot as a string. Infinity and
    NaN (``.inf``, ``.nan``) are refused here, before the field's range: NaN compares
    false with every bound, and infinity passes a lower one."""
    if not isinstance(value, str):
        return checks.finite_number(value)
    try:
        number = float(value.strip())
    except ValueError:
        raise ValueError(f"{value!r} is not a number") from None
    if not math.isfinite(number):
        raise ValueError(f"{value!r} is not a finite number")
    return number


def count_from_text(value: Any) -> Any:
    """'1e5' or 100000.0 -> 100000; 2.5 is refused (a count is a whole number)."""
    if isinstance(value, str):
        text = value.strip()
        try:
            return int(text.replace("_", ""))
        except ValueError:
            pass
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a whole number") from None
    if isinstance(value, float):
        if not value.is_integer():  # also NaN and infinity
            raise ValueError(f"{value!r} is not a whole number")
        return int(value)
    return value


Number = Annotated[float, BeforeValidator(_number_from_text)]
Count = Annotated[int, BeforeValidator(count_from_text), AfterValidator(checks.bounded_count)]
Seed = Annotated[int, BeforeValidator(count_from_text), AfterValidator(checks.checked_seed)]


def table_sizes_from_text(value: Any) -> Any:
    """One table size or a non-empty list of distinct ones; counts as for Count (the
    game's own range is checked once the game is known)."""
    sizes = value if isinstance(value, list) else [value]
    checked = []
    for size in sizes:
        size = count_from_text(size)
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(
                f"table sizes must be whole numbers of players (one, or a list of them), "
                f"got {value!r}"
            )
        checked.append(size)
    if isinstance(value, list) and (not checked or len(set(checked)) != len(checked)):
        raise ValueError(f"a list of table sizes must be non-empty and distinct, got {value!r}")
    return checked if isinstance(value, list) else checked[0]


def count_or_none(value: Any) -> int | None:
    """A count as :func:`count_from_text` reads it, or None where it reads none."""
    try:
        return count_from_text(value)
    except ValueError:
        return None


def short(value: Any, limit: int = 60) -> str:
    """``value``'s repr, cut to ``limit`` characters (a line names a value, not a dump)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def one_line(text: str) -> str:
    """``text`` with its line breaks and runs of spaces as single spaces."""
    return " ".join(str(text).split())
