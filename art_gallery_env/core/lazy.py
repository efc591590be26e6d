"""Lazy package exports (PEP 562), so that importing a package loads only what is used:
``import art_gallery_env.games.art_gallery.rules`` must load no RL library, and a package's
``__init__``
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
    use, or to a submodule of the same name (``"art_gallery_v1": ".art_gallery_v1"``), which
    is the value itself; the value is then kept in the package's ``namespace``."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        source = importlib.import_module(module, package)
        is_submodule = source.__name__.rpartition(".")[2] == name
        value = source if is_submodule else getattr(source, name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(namespace.get("__all__", ())) | set(exports))

    return __getattr__, __dir__
