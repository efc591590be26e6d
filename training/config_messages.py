"""How a config's problems read: each pydantic error as ``key.path: message`` in one line
(the value given, the accepted ones, the known keys of a section), and one error for them
all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args

from pydantic import BaseModel

from .config_checks import ConfigError
from .config_sections import EnvConfig, spec_or_none
from .config_types import one_line, short

# pydantic errors whose message states the accepted values but not the value given
_SAY_GOT = {
    "greater_than",
    "greater_than_equal",
    "less_than",
    "less_than_equal",
    "too_short",
    "too_long",
    "literal_error",
    "int_type",
    "float_type",
    "string_type",
    "bool_type",
    "list_type",
    "dict_type",
}


def pydantic_problems(error: Any, data: Any, root: type[BaseModel]) -> list[str]:
    """One pydantic error as ``key.path: message`` lines: one, or one per line of a model
    check's message (it names its keys itself, and may find several problems at once)."""
    loc = error["loc"]
    message = error["msg"].removeprefix("Value error, ")
    if error["type"] == "extra_forbidden":
        message = f"unknown key; known keys here: {_known_keys(root, loc[:-1], data)}"
    elif error["type"] in _SAY_GOT:
        message += f", got {short(error.get('input'))}"
    where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc)
    where = where.removeprefix(".")
    lines = [line for line in message.split("\n") if line.strip()] or [message]
    return [one_line(f"{where}: {line}" if where else line) for line in lines]


def problems_error(source: str, problems: list[str]) -> ConfigError:
    """One problem: one line. Several: a heading and one line each."""
    if len(problems) == 1:
        return ConfigError(f"{source}: {problems[0]}")
    lines = "\n".join(f"  {problem}" for problem in problems)
    return ConfigError(f"{source}: invalid config ({len(problems)} problems)\n{lines}")


def _known_keys(root: type[BaseModel], location: tuple[Any, ...], data: Any = None) -> str:
    """The keys of the section at ``location``; for ``env:`` also its game's variants
    (``data``: the config as read, to find the game)."""
    model = root
    section = data
    for part in location:
        field = model.model_fields.get(str(part))
        if field is None:
            break
        # a section such as ``warm_start: WarmStartConfig | None`` is a union with None
        sections = [
            t
            for t in (field.annotation, *get_args(field.annotation))
            if isinstance(t, type) and issubclass(t, BaseModel)
        ]
        if not sections:
            break
        model = sections[0]
        section = section.get(part) if isinstance(section, Mapping) else None
    keys = ", ".join(model.model_fields)
    if model is EnvConfig:
        spec = spec_or_none(section.get("game") if isinstance(section, Mapping) else None)
        if spec is not None:
            keys += f" (variants of {spec.title}: {', '.join(spec.variants) or 'none'})"
    return keys
