"""Every rule ID of docs/gallerist_rules.md has a scenario test named after it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).parent
RULES_MD = Path(__file__).parents[2] / "docs" / "gallerist_rules.md"


def rule_ids(text: str) -> set[str]:
    """IDs like G6.3, plus sections like G14 that have no numbered rules of their own."""
    found = {m.group(0) for m in re.finditer(r"\bG\d+(?:\.\d+)?\b", text)}
    return {i for i in found if not any(j.startswith(i + ".") for j in found)}


def _test_function_names() -> list[str]:
    names = []
    for path in sorted(HERE.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names += [
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
        ]
    return names


def test_every_rule_id_in_gallerist_rules_md_has_a_test_named_after_it():
    ids = rule_ids(RULES_MD.read_text(encoding="utf-8"))
    assert {"G1.1", "G6.3", "G14", "G18", "G20.2"} <= ids and len(ids) >= 70, sorted(ids)
    names = _test_function_names()
    missing = []
    for rule in sorted(ids, key=lambda r: [int(x) for x in r[1:].split(".")]):
        pattern = re.compile(r"(?<![0-9A-Za-z])" + rule.replace(".", "_") + r"(?![0-9])")
        if not any(pattern.search(name) for name in names):
            missing.append(rule)
    assert missing == [], f"rule IDs without a test named after them: {missing}"


def test_the_coverage_check_has_teeth():
    """A made-up rule ID would be reported missing; a section ID counts only without
    sub-rules."""
    assert rule_ids("G1.1 G1.2 G14 G99.9") == {"G1.1", "G1.2", "G14", "G99.9"}
    assert rule_ids("G3 G3.1") == {"G3.1"}
    assert not any(re.search(r"(?<![0-9A-Za-z])G99_9(?![0-9])", n) for n in _test_function_names())
