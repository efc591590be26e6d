"""The Gymnasium registration: ``gymnasium.make("art_gallery_env/ArtGallery-v1", ...)``.

The ids come from the registry: each game's ``spec.py`` declares its own as the literal
``GYM_ENVS`` (:func:`art_gallery_env.core.registry.declared_gym_envs` reads it without
importing the game), so this module names no game. Today: ``ArtGallery-v1`` (and the old
``ArtGallery-v0``), ``Gallerist-v0`` and ``GalleristSolo-v0``, all under the namespace
``art_gallery_env/``. An id without an entry point of its own makes the arena's
single-agent env (:mod:`art_gallery_env.arena.single_agent`), whose defaults are the AEC
env's: ``illegal_action="terminate"`` (so unmasked algorithms and ``check_env`` can step
random actions) and the game's own reward mode.

Gymnasium 1.x finds third-party envs only once the package that registers them is imported:
it dropped 0.x's ``gymnasium.envs`` entry-point plugins (1.2 reads no entry points at all),
so an entry point in pyproject would be dead configuration. ``import art_gallery_env``
therefore arranges the registration, but without importing Gymnasium itself (the engine,
``art_gallery_env.games.art_gallery.rules``, must load no RL library):
:func:`register_when_gymnasium_loads`
registers at once when Gymnasium is already imported, and otherwise right after its import
finishes, whichever order a program imports the two in.
``gymnasium.make("art_gallery_env:art_gallery_env/ArtGallery-v1")`` imports the package
itself. The entry points are strings, so registering imports nothing above this layer: the
env classes load at the first ``make``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import TYPE_CHECKING

from .core.registry import declared_gym_envs

if TYPE_CHECKING:
    from importlib.abc import Loader

GYM_ENV_ID = "art_gallery_env/ArtGallery-v1"
"""The default game's latest id (the README's)."""
GYM_ENTRY_POINT = "art_gallery_env.arena.single_agent:SingleAgentEnv"
"""The env of an id that names no entry point of its own."""


def register_envs() -> None:
    """Register every game's ids (once; calling again changes nothing, and registers the
    ids of games registered since)."""
    import gymnasium

    for env_id, declared in declared_gym_envs().items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point=declared.get("entry_point", GYM_ENTRY_POINT),
                kwargs=dict(declared.get("kwargs", {})),
            )


def register_when_gymnasium_loads() -> None:
    """Register now if Gymnasium is imported, else as soon as it is (importing nothing)."""
    if "gymnasium" in sys.modules:
        register_envs()
    elif not any(isinstance(finder, _AfterGymnasiumImport) for finder in sys.meta_path):
        sys.meta_path.insert(0, _AfterGymnasiumImport())


class _AfterGymnasiumImport:
    """A meta-path finder that hands back Gymnasium's own spec with its loader wrapped, so
    :func:`register_envs` runs once ``gymnasium/__init__`` has run (the chained-loader
    pattern of post-import hooks). It leaves ``sys.meta_path`` after that one import; a mere
    ``importlib.util.find_spec("gymnasium")`` (an availability check) does not use it up."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        spec = _find_with_other_finders(self, fullname, path, target)
        if spec is not None and spec.loader is not None:
            spec.loader = _RegisteringLoader(spec.loader, self)  # type: ignore[assignment]
        return spec


def _find_with_other_finders(
    hook: object, fullname: str, path: Sequence[str] | None, target: ModuleType | None
) -> ModuleSpec | None:
    for finder in list(sys.meta_path):
        find_spec = getattr(finder, "find_spec", None)
        if finder is hook or find_spec is None:
            continue
        spec = find_spec(fullname, path, target)
        if spec is not None:
            return spec
    return None


class _RegisteringLoader:
    """Gymnasium's loader, plus the registration after the module has run."""

    def __init__(self, loader: Loader, hook: _AfterGymnasiumImport) -> None:
        self._loader = loader
        self._hook = hook

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        module.__loader__ = self._loader  # the module looks as if imported plainly
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        if self._hook in sys.meta_path:
            sys.meta_path.remove(self._hook)
        register_envs()

    def __getattr__(self, name: str) -> object:
        """The rest of the loader's interface (``get_resource_reader``, ``is_package``...)."""
        loader = self.__dict__.get("_loader")
        if loader is None:  # not yet set (copy, pickle): no recursion through _loader
            raise AttributeError(name)
        return getattr(loader, name)
