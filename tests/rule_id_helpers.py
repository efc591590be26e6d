"""Shared by the rule coverage tests (tests/rules/ and tests/gallerist/): the rule IDs of a
rules document and the test names of a folder that should carry them."""

from __future__ import annotations

import ast
import re
from pathlib import Path


def rule_ids(text: str, letter: str) -> set[str]:
    """IDs like R4.6 (``letter`` R), plus sections like R8 that have no numbered rules of
    their own."""
    found = {m.group(0) for m in re.finditer(rf"\b{letter}\d+(?:\.\d+)?\b", text)}
    return {i for i in found if not any(j.startswith(i + ".") for j in found)}


def scenario_test_names(folder: Path) -> list[str]:
    """The names of the test functions in ``folder``'s test modules."""
    names = []
    for path in sorted(folder.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names += [
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
        ]
    return names


def names_rule(name: str, rule: str) -> bool:
    """Whether a test name carries ``rule`` (G6.3 as ``G6_3``, not as part of G6_31)."""
    pattern = re.compile(r"(?<![0-9A-Za-z])" + rule.replace(".", "_") + r"(?![0-9])")
    return pattern.search(name) is not None


def rules_without_a_test(ids: set[str], names: list[str]) -> list[str]:
    """The rule IDs (in numeric order) that no test name carries."""
    ordered = sorted(ids, key=lambda r: [int(x) for x in r[1:].split(".")])
    return [rule for rule in ordered if not any(names_rule(name, rule) for name in names)]
