"""Every rule ID of docs/gallerist_rules.md has a scenario test named after it."""

from __future__ import annotations

from pathlib import Path

from rule_id_helpers import names_rule, rule_ids, rules_without_a_test, scenario_test_names

HERE = Path(__file__).parent
RULES_MD = Path(__file__).parents[2] / "docs" / "gallerist_rules.md"


def test_every_rule_id_in_gallerist_rules_md_has_a_test_named_after_it():
    ids = rule_ids(RULES_MD.read_text(encoding="utf-8"), "G")
    assert {"G1.1", "G6.3", "G14", "G18", "G20.2"} <= ids and len(ids) >= 70, sorted(ids)
    missing = rules_without_a_test(ids, scenario_test_names(HERE))
    assert missing == [], f"rule IDs without a test named after them: {missing}"


def test_the_coverage_check_has_teeth():
    """A made-up rule ID would be reported missing; a section ID counts only without
    sub-rules."""
    assert rule_ids("G1.1 G1.2 G14 G99.9", "G") == {"G1.1", "G1.2", "G14", "G99.9"}
    assert rule_ids("G3 G3.1", "G") == {"G3.1"}
    assert not any(names_rule(n, "G99.9") for n in scenario_test_names(HERE))
    assert rules_without_a_test({"G99.9", "G1.1"}, ["test_G1_1_x", "test_G99_91_y"]) == ["G99.9"]
