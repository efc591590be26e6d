"""docs/gallerist.md is part of the API: its observation and action tables must stay true."""

from __future__ import annotations

from pathlib import Path

from art_gallery_env.games.art_gallery.env.observation import observation_table_markdown
from art_gallery_env.games.gallerist.env.observation import FIELDS
from art_gallery_env.games.gallerist.rules.actions import (
    BONUS_BASE,
    CONTRACT_BASE,
    EASEL_BASE,
    MOVE_BASE,
    NUM_ACTIONS,
    SELL_BASE,
    USE_COMMISSION,
)

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "gallerist.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_observation_table_matches_the_layout() -> None:
    assert observation_table_markdown(FIELDS) in DOC, (
        "docs/gallerist.md's observation table is out of date; paste "
        "observation_table_markdown(FIELDS)"
    )


def test_action_table_names_every_range() -> None:
    assert NUM_ACTIONS == 115
    for start, end in (
        (CONTRACT_BASE, SELL_BASE - 1),
        (SELL_BASE, SELL_BASE + 11),
        (MOVE_BASE, BONUS_BASE - 1),
        (EASEL_BASE, USE_COMMISSION - 1),
        (USE_COMMISSION, NUM_ACTIONS - 1),
    ):
        assert f"| {start}–{end} |" in DOC


def test_readme_has_a_section_for_the_second_game() -> None:
    assert "## The second game: The Gallerist" in README
    assert "docs/gallerist.md" in README and "docs/gallerist_rules.md" in README


def test_the_rules_engine_has_no_rl_imports() -> None:
    """gallerist/rules is a pure engine: no numpy, gymnasium, pettingzoo or torch."""
    import ast

    forbidden = {"numpy", "gymnasium", "pettingzoo", "torch", "ray", "sb3_contrib"}
    for path in sorted((ROOT / "art_gallery_env" / "gallerist" / "rules").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            for name in names:
                assert name.split(".")[0] not in forbidden, f"{path.name} imports {name}"
