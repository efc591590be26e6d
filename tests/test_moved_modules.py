"""The games moved under ``art_gallery_env.games``; the names of earlier releases stay.

``art_gallery_env.env()``/``raw_env`` and the engine's names are re-exports, the versioned
entry modules follow PettingZoo (``art_gallery_v1.env()``), and the old module paths
import as aliases of the new modules, with a DeprecationWarning.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import textwrap
import warnings

import pytest

import art_gallery_env
from art_gallery_env import compat


def run_fresh(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning:__main__", "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_the_versioned_entry_modules_make_each_game() -> None:
    from pettingzoo.test import api_test

    from art_gallery_env import art_gallery_v1, gallerist_v1

    assert art_gallery_v1.ENV_VERSION == "art_gallery_v1"
    assert gallerist_v1.ENV_VERSION == "gallerist_v1"
    for module in (art_gallery_v1, gallerist_v1):
        api_test(module.env(num_players=2), num_cycles=20)
    assert art_gallery_env.env is art_gallery_v1.env


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("art_gallery_env.rules.state", "art_gallery_env.games.art_gallery.rules.state"),
        ("art_gallery_env.env.aec", "art_gallery_env.games.art_gallery.env.aec"),
        ("art_gallery_env.art_gallery.spec", "art_gallery_env.games.art_gallery.spec"),
        ("art_gallery_env.gallerist.rules.state", "art_gallery_env.games.gallerist.rules.state"),
    ],
)
def test_an_old_module_path_is_the_new_module_with_a_warning(old: str, new: str) -> None:
    out = run_fresh(
        f"""
        import importlib, warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            old = importlib.import_module({old!r})
        new = importlib.import_module({new!r})
        import art_gallery_env
        print(old is new, old.__spec__.name, callable(art_gallery_env.env),
              any("moved to" in str(w.message) for w in caught))
        """
    )
    assert out == f"True {new} True True"


def test_an_old_pickle_loads_into_the_current_class() -> None:
    """A state pickled under the old module path (protocol 2 names classes as text)."""
    from art_gallery_env.games.art_gallery.rules.state import new_game

    state = new_game(2, seed=3)
    data = pickle.dumps(state, protocol=2).replace(
        b"art_gallery_env.games.art_gallery.rules.state", b"art_gallery_env.rules.state"
    )
    assert b"art_gallery_env.rules.state\n" in data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        loaded = pickle.loads(data)
    assert type(loaded) is type(state)
    assert loaded.to_dict() == state.to_dict()


def test_only_moved_names_are_aliased() -> None:
    assert compat.new_name("art_gallery_env.rules") == "art_gallery_env.games.art_gallery.rules"
    assert compat.new_name("art_gallery_env.gallerist.env.aec") == (
        "art_gallery_env.games.gallerist.env.aec"
    )
    assert compat.new_name("art_gallery_env.core.registry") is None
    assert compat.new_name("art_gallery_env.rulesx") is None
