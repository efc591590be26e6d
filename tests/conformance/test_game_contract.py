"""The GameSpec contract and where games come from.

A game gives :data:`REQUIRED_FIELDS` and nothing else if it likes (every other field has a
default); a game is found in the package, through the entry point group
``art_gallery_env.games`` of an installed distribution, or, for the tests, in a package
folder ``tests/<name>/`` with a ``spec.py``.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conformance_helpers import ROOT, TESTS_DIR, discover_test_games, register_test_games

from art_gallery_env.core import registry
from art_gallery_env.core.registry import (
    CAPABILITIES,
    REQUIRED_FIELDS,
    GameSpec,
    game_names,
    get_game,
)

register_test_games()


def test_only_the_required_fields_have_no_default() -> None:
    no_default = [
        f.name
        for f in dataclasses.fields(GameSpec)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]
    assert tuple(no_default) == REQUIRED_FIELDS
    assert len(REQUIRED_FIELDS) <= 9


def _smallest(**extra) -> GameSpec:
    """A spec with the required fields only, on Sealed Bids' builders."""
    full = get_game("sealed_bids")
    return GameSpec(**{**{key: getattr(full, key) for key in REQUIRED_FIELDS}, **extra})


def test_a_spec_of_only_the_required_fields_gets_working_defaults() -> None:
    spec = _smallest(name="tiny")
    assert spec.env_version == "tiny_v0" and spec.package == "sealed_bids"
    assert spec.check_action_id(3) == 3
    with pytest.raises(ValueError, match="0..4"):
        spec.check_action_id(5)
    assert spec.str_to_action(" 2 ") == 2 and spec.action_to_str(2) == "2"
    with pytest.raises(ValueError, match="0..4, got 'x'"):
        spec.str_to_action("x")
    state = spec.setup(2, 1)
    assert "player 0 to act" in spec.render_text(state, None)
    assert spec.describe_events(state, 0, None, ["a", "b"]) == []
    assert spec.render_breakdown([{"player": 0, "total": 3, "rank": 1}]) == (
        "player 0: total 3 (rank 1)"
    )
    assert spec.data_fingerprint(state) == ("tiny", "none") == spec.default_data()
    assert len(spec.layout_fingerprint()) == 16
    with pytest.raises(ValueError, match="cannot read saved states"):
        spec.state_from_dict({})
    typed = _smallest(name="tiny", state_type=type(state))
    assert typed.state_from_dict(state.to_dict()).to_dict() == state.to_dict()


def test_a_given_field_is_kept_and_replace_keeps_the_rest() -> None:
    spec = _smallest(name="tiny", env_version="tiny_v3", action_to_str=lambda a: f"card {a}")
    assert spec.env_version == "tiny_v3" and spec.action_to_str(1) == "card 1"
    other = dataclasses.replace(spec, capabilities=frozenset({"web"}))
    assert other.env_version == "tiny_v3" and other.has("web") and not spec.has("web")


def test_every_capability_says_what_it_enables_in_the_guide() -> None:
    guide = (ROOT / "docs" / "adding_a_game.md").read_text(encoding="utf-8")
    for capability in CAPABILITIES:
        assert f"| `{capability}` |" in guide, capability
    for name in REQUIRED_FIELDS:
        assert f"`{name}`" in guide, name


def test_every_game_keeps_its_golden_playthroughs_in_its_own_folder() -> None:
    for name in game_names():
        folder = get_game(name).golden_dir()
        assert folder.name == "goldens" and list(folder.glob("*.json")), name
    assert get_game("sealed_bids").golden_dir() == TESTS_DIR / "sealed_bids" / "goldens"


def test_test_games_are_found_by_their_folder(tmp_path: Path) -> None:
    assert "sealed_bids.spec" in discover_test_games()
    for name, files in (("dice", ("__init__.py", "spec.py")), ("notes", ("spec.py",))):
        (tmp_path / name).mkdir()
        for file in files:
            (tmp_path / name / file).write_text("")
    (tmp_path / "helpers.py").write_text("")
    assert discover_test_games(tmp_path) == ["dice.spec"]  # a package with a spec.py


GAME_MODULE = """
import dataclasses
import sealed_bids.spec
from art_gallery_env.core.registry import register_game

register_game(dataclasses.replace(sealed_bids.spec.SPEC, name="plugin_bids"))
"""


def _install_fake_distribution(site: Path, entry_value: str) -> None:
    """A distribution as pip leaves it: a .dist-info folder with its entry points."""
    info = site / "plugin_bids-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: plugin-bids\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        f"[{registry.ENTRY_POINT_GROUP}]\nplugin_bids = {entry_value}\n"
    )
    (site / "plugin_bids_game.py").write_text(GAME_MODULE)


def _python(code: str, site: Path) -> subprocess.CompletedProcess[str]:
    path = f"{site}{':'}{TESTS_DIR}"
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env={"PYTHONPATH": path, "PATH": "/usr/bin:/bin", "PYTHONWARNINGS": "default"},
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def test_an_installed_distribution_registers_through_its_entry_point(tmp_path: Path) -> None:
    _install_fake_distribution(tmp_path, "plugin_bids_game")
    done = _python(
        "from art_gallery_env.core.registry import game_names\nprint(game_names())", tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "'plugin_bids'" in done.stdout and "'art_gallery'" in done.stdout


def test_an_entry_point_that_fails_is_one_warning_and_the_rest_work(tmp_path: Path) -> None:
    _install_fake_distribution(tmp_path, "no_such_module_here")
    done = _python(
        "from art_gallery_env.core.registry import game_names\nprint(game_names())", tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "'art_gallery'" in done.stdout and "plugin_bids" not in done.stdout
    (line,) = [line for line in done.stderr.splitlines() if "did not load" in line]
    assert "'plugin_bids' of plugin-bids" in line and "no_such_module_here" in line
