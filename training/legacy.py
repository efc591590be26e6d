"""Loading pickles written before the one-package layout.

Until version 0.1 the project installed the top-level packages ``agents`` and
``training``; RLlib algorithm checkpoints pickle class and function references by module
name (``training.rllib_module.MaskedPPOTorchRLModule``, ``training.rllib_trainer.
league_policy_mapping``). :func:`legacy_module_names` makes those names importable for the
duration of a load, without installing a top-level ``agents`` or ``training`` for good.
Records, ``.safetensors`` weights and SB3 zips name no project module and need nothing.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

MOVED = {  # old module -> where it lives now
    "agents": "art_gallery_env.agents",
    "training": "art_gallery_env.training",
    "training.cli": "art_gallery_env.cli",
    "training.evaluate": "art_gallery_env.arena.evaluate",
    "training.records": "art_gallery_env.arena.records",
    "training.play": "art_gallery_env.arena.terminal",
}


def new_name(old: str) -> str | None:
    """The current module of an old module name (None if it is not an old name)."""
    if old in MOVED:
        return MOVED[old]
    top, _, rest = old.partition(".")
    if top in MOVED and rest:
        return f"{MOVED[top]}.{rest}"
    return None


class _LegacyFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Resolves an old name to the module now holding the code (the same module object)."""

    def find_spec(self, fullname: str, path: object = None, target: object = None):
        if new_name(fullname) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(new_name(spec.name))

    def exec_module(self, module: ModuleType) -> None:
        """The module was imported under its current name already."""


@contextmanager
def legacy_module_names() -> Iterator[None]:
    """Within the block, ``training.*`` and ``agents.*`` import the current modules."""
    finder = _LegacyFinder()
    sys.meta_path.insert(0, finder)  # before PathFinder, which would load a second copy
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for name in [n for n in sys.modules if new_name(n) is not None]:
            del sys.modules[name]
