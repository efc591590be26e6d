"""Lazy package exports (PEP 562): the engines load no RL library, the public names stay.

``import art_gallery_env.games.art_gallery.rules`` runs ``art_gallery_env/__init__.py`` first, so
the package
may import pettingzoo, gymnasium or torch only when an env name is asked for. Each check
of ``sys.modules`` runs in a fresh interpreter: this test process has them all loaded.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
from types import ModuleType

import pytest

import art_gallery_env
import art_gallery_env.games.gallerist

RL_LIBRARIES = ("pettingzoo", "gymnasium", "torch")
PACKAGES = (art_gallery_env, art_gallery_env.games.gallerist)


def run_fresh(code: str) -> str:
    """Run ``code`` in a new interpreter outside the repository; return its stdout."""
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        cwd="/",
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.mark.parametrize(
    "package",
    [
        "art_gallery_env",
        "art_gallery_env.games.art_gallery.rules",
        "art_gallery_env.games.gallerist.rules",
    ],
)
def test_the_engines_import_no_rl_library(package: str) -> None:
    """Every module of the engine packages (and the bare top package) imports none."""
    loaded = run_fresh(
        f"""
        import importlib, pkgutil, sys
        package = importlib.import_module({package!r})
        if {package!r} != "art_gallery_env":
            for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
                importlib.import_module(info.name)
        print(sorted(name for name in {RL_LIBRARIES!r} if name in sys.modules))
        """
    )
    assert loaded == "[]"


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_every_exported_name_resolves_to_its_module_object(package: ModuleType) -> None:
    exports = package._EXPORTS
    assert set(package.__all__) - set(exports) <= {"ENV_VERSION", "GYM_ENV_ID", "__version__"}
    for name in package.__all__:
        value = getattr(package, name)
        if name in exports:
            source = importlib.import_module(exports[name], package.__name__)
            expected = source if source.__name__.endswith("." + name) else getattr(source, name)
            assert value is expected, name
    assert set(package.__all__) <= set(dir(package))
    with pytest.raises(AttributeError, match="no_such_name"):
        package.no_such_name  # noqa: B018
    assert not hasattr(package, "no_such_name")


def test_from_imports_work_in_a_fresh_process() -> None:
    """``from pkg import *`` and the names one by one, in a process that loaded nothing."""
    out = run_fresh(
        """
        from art_gallery_env import env, raw_env, new_game, GameState, IllegalActionError
        from art_gallery_env import *
        import art_gallery_env
        assert all(name in globals() for name in art_gallery_env.__all__)
        state = new_game(2, seed=0)
        assert isinstance(state, GameState) and issubclass(IllegalActionError, Exception)
        game = env(num_players=2)
        game.reset(seed=0)
        from art_gallery_env.games.gallerist import *
        import art_gallery_env.games.gallerist as gallerist
        assert all(name in globals() for name in gallerist.__all__)
        print(type(game).__name__, art_gallery_env.__version__, ENV_VERSION)
        """
    )
    # env() returns the core's order-enforcing wrapper (PettingZoo's, keeping the contract)
    version = art_gallery_env.games.gallerist.ENV_VERSION
    assert out == f"OrderEnforcingAEC {art_gallery_env.__version__} {version}"


@pytest.mark.parametrize("package", ["art_gallery_env", "art_gallery_env.games.gallerist"])
def test_the_env_function_is_not_shadowed_by_the_env_subpackage(package: str) -> None:
    """Importing ``<package>.env.aec`` first binds the subpackage's name on first import;
    ``<package>.env`` must stay the env() function, as it was with eager imports."""
    out = run_fresh(
        f"""
        import importlib, types
        aec = importlib.import_module({package!r} + ".env.aec")
        package = importlib.import_module({package!r})
        from {package} import env
        assert env is aec.env and package.env is aec.env, env
        print(isinstance(env, types.FunctionType))
        """
    )
    assert out == "True"


@pytest.mark.parametrize(
    ("first", "gymnasium_before"),
    [
        ("import art_gallery_env", False),  # the user imports gymnasium afterwards
        ("import gymnasium, art_gallery_env", True),  # the order the docs show
        (
            "import art_gallery_env.games.art_gallery.rules; "
            "from art_gallery_env.games.art_gallery.env.aec import raw_env",
            True,
        ),
    ],
    ids=["package-then-gymnasium", "gymnasium-then-package", "via-pettingzoo"],
)
def test_the_gymnasium_id_is_registered_whatever_the_import_order(
    first: str, gymnasium_before: bool
) -> None:
    """Registered once gymnasium is imported, and the import hook gone, leaving a plain
    gymnasium module (its own loader)."""
    out = run_fresh(
        f"""
        import sys
        {first}
        before = "gymnasium" in sys.modules
        import gymnasium
        spec = gymnasium.spec("art_gallery_env/ArtGallery-v1")
        ours = [f for f in sys.meta_path if type(f).__module__ == "art_gallery_env.gym_envs"]
        assert ours == [], ours
        assert type(gymnasium.__loader__).__module__ != "art_gallery_env.gym_envs"
        assert gymnasium.__spec__.loader is gymnasium.__loader__
        print(before, spec.entry_point, spec.kwargs)
        """
    )
    assert out == (
        f"{gymnasium_before} art_gallery_env.arena.single_agent:SingleAgentEnv"
        " {'game': 'art_gallery'}"
    )


def test_registering_again_changes_nothing() -> None:
    import gymnasium

    spec = gymnasium.spec(art_gallery_env.GYM_ENV_ID)
    art_gallery_env.register_envs()
    from art_gallery_env.gym_envs import register_when_gymnasium_loads

    register_when_gymnasium_loads()
    assert gymnasium.spec(art_gallery_env.GYM_ENV_ID) is spec


def test_an_availability_check_does_not_use_up_the_registration() -> None:
    """``find_spec("gymnasium")`` without importing it leaves the hook for the real import."""
    out = run_fresh(
        """
        import importlib.util, sys
        import art_gallery_env
        assert importlib.util.find_spec("gymnasium") is not None
        assert "gymnasium" not in sys.modules
        import gymnasium
        print(art_gallery_env.GYM_ENV_ID in gymnasium.registry)
        """
    )
    assert out == "True"


def test_make_works_after_importing_the_package_before_gymnasium() -> None:
    out = run_fresh(
        """
        import sys
        import art_gallery_env
        assert "gymnasium" not in sys.modules
        import gymnasium
        env = gymnasium.make("art_gallery_env/ArtGallery-v0", num_players=2)
        obs, info = env.reset(seed=0)
        print(obs.shape == env.observation_space.shape, int(info["action_mask"].sum()) > 0)
        """
    )
    assert out == "True True"
