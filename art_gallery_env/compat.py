"""The module paths of releases before the games moved to ``art_gallery_env.games``.

``art_gallery_env.rules``, ``.env.*``, ``.vector``, ``.art_gallery`` and ``.gallerist``
still import, with a DeprecationWarning, as aliases of their new modules: the same module
objects, so classes compare equal and old pickles load. A meta-path finder does it (not
copies of the files), so the old names cost nothing until one is used.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Sequence
from importlib.abc import Loader
from importlib.machinery import ModuleSpec
from types import ModuleType

MOVED = {
    "art_gallery_env.rules": "art_gallery_env.games.art_gallery.rules",
    "art_gallery_env.vector": "art_gallery_env.games.art_gallery.vector",
    "art_gallery_env.art_gallery": "art_gallery_env.games.art_gallery",
    "art_gallery_env.gallerist": "art_gallery_env.games.gallerist",
    # only its submodules: ``art_gallery_env.env`` itself is the env() function
    "art_gallery_env.env": "art_gallery_env.games.art_gallery.env",
}


def new_name(old: str) -> str | None:
    """The current name of a module imported by its old path; None if it never moved."""
    for prefix, target in MOVED.items():
        if old == prefix or old.startswith(prefix + "."):
            return target + old[len(prefix) :]
    return None


class _AliasLoader(Loader):
    """Hands back the module under its new name, leaving its own spec in place."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.real: ModuleType | None = None

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} moved to {self.target}; the old name will be removed in a later release",
            DeprecationWarning,
            stacklevel=2,
        )
        self.real = importlib.import_module(self.target)
        self.real_spec = self.real.__spec__
        return self.real

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self.real_spec  # the import system set the alias's spec on it


class MovedModuleFinder:
    """A ``sys.meta_path`` finder for the names in :data:`MOVED` (first, so that a moved
    package's submodules are never loaded a second time under the old name)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        current = new_name(fullname)
        if current is None:
            return None
        return ModuleSpec(fullname, _AliasLoader(current), is_package=True)


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, MovedModuleFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedModuleFinder())
