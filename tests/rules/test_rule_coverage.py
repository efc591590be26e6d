"""Every rule ID of docs/rules.md has a scenario test here, and the stored states are current.

docs/rules.md is the rules as implemented, in the repository; it carries every ID of the
project's specification (RULES.md in the shared spec folder), which the second test
checks when that folder is beside the clone."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from art_gallery_env.games.art_gallery.rules.state import GameState

HERE = Path(__file__).parent
DOCS_RULES_MD = Path(__file__).parents[2] / "docs" / "rules.md"
SPEC_RULES_MD = Path(__file__).parents[3] / "shared" / "spec" / "RULES.md"


def _rule_ids(text: str) -> set[str]:
    """IDs like R4.6, plus sections like R8 that have no numbered rules of their own."""
    found = {m.group(0) for m in re.finditer(r"\bR\d+(?:\.\d+)?\b", text)}
    return {i for i in found if not any(j.startswith(i + ".") for j in found)}


def _test_names() -> list[str]:
    names = []
    for path in sorted(HERE.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names += [
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
        ]
    return names


def test_every_rule_id_in_docs_rules_md_has_a_test_named_after_it():
    ids = _rule_ids(DOCS_RULES_MD.read_text(encoding="utf-8"))
    assert {"R1.1", "R4.6", "R8"} <= ids and len(ids) >= 30, sorted(ids)
    names = _test_names()
    missing = []
    for rule in sorted(ids):
        pattern = re.compile(r"(?<![0-9A-Za-z])" + rule.replace(".", "_") + r"(?![0-9])")
        if not any(pattern.search(name) for name in names):
            missing.append(rule)
    assert missing == [], f"rule IDs without a test named after them: {missing}"


def test_docs_rules_md_carries_every_rule_id_of_the_spec():
    if not SPEC_RULES_MD.is_file():
        pytest.skip(f"{SPEC_RULES_MD} is absent (the shared/ spec is not beside this clone)")
    spec = _rule_ids(SPEC_RULES_MD.read_text(encoding="utf-8"))
    docs = _rule_ids(DOCS_RULES_MD.read_text(encoding="utf-8"))
    assert sorted(spec - docs) == []


def test_stored_states_are_what_their_builders_make(state_builders, stored_state_dict):
    stored = sorted(p.stem for p in (HERE / "states").glob("*.json"))
    assert stored == sorted(state_builders), "run: python tests/rules/conftest.py"
    for name, build in state_builders.items():
        from_file = GameState.from_dict(stored_state_dict(name))
        assert from_file.to_dict() == GameState.from_dict(build()).to_dict(), name
