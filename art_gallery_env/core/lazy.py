"""Lazy package exports (PEP 562), so that importing a package loads only what is used:
``import art_gallery_env.rules`` must load no RL library, and a package's ``__init__``
re-exports names of modules that do."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str, exports: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's module-level ``__getattr__`` and ``__dir__``: ``exports`` maps each name
    to the module (relative to ``package``, e.g. ``".env.aec"``) it is imported from on first
    use; the value is then kept in the package's ``namespace``."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(namespace.get("__all__", ())) | set(exports))

    return __getattr__, __dir__
