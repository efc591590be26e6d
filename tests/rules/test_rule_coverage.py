"""Every rule ID of RULES.md has a scenario test here, and the stored states are current."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from art_gallery_env.rules.state import GameState

HERE = Path(__file__).parent
RULES_MD = Path(__file__).parents[3] / "shared" / "spec" / "RULES.md"


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


def test_every_rule_id_in_RULES_md_has_a_test_named_after_it():
    if not RULES_MD.is_file():
        pytest.skip(f"{RULES_MD} is absent (the shared/ spec is not checked out beside the repo)")
    ids = _rule_ids(RULES_MD.read_text(encoding="utf-8"))
    assert {"R1.1", "R4.6", "R8"} <= ids and len(ids) >= 30, sorted(ids)
    names = _test_names()
    missing = []
    for rule in sorted(ids):
        pattern = re.compile(r"(?<![0-9A-Za-z])" + rule.replace(".", "_") + r"(?![0-9])")
        if not any(pattern.search(name) for name in names):
            missing.append(rule)
    assert missing == [], f"rule IDs without a test named after them: {missing}"


def test_stored_states_are_what_their_builders_make(state_builders, stored_state_dict):
    stored = sorted(p.stem for p in (HERE / "states").glob("*.json"))
    assert stored == sorted(state_builders), "run: python tests/rules/conftest.py"
    for name, build in state_builders.items():
        from_file = GameState.from_dict(stored_state_dict(name))
        assert from_file.to_dict() == GameState.from_dict(build()).to_dict(), name
