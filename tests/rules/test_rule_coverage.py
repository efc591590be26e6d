"""Every rule ID of docs/rules.md has a scenario test here, and the stored states are current.

docs/rules.md is the rules as implemented, in the repository; it carries every ID of the
project's specification (RULES.md in the shared spec folder), which the second test
checks when that folder is beside the clone."""

from __future__ import annotations

from pathlib import Path

import pytest
from rule_id_helpers import rule_ids, rules_without_a_test, scenario_test_names

from art_gallery_env.games.art_gallery.rules.state import GameState

HERE = Path(__file__).parent
DOCS_RULES_MD = Path(__file__).parents[2] / "docs" / "rules.md"
SPEC_RULES_MD = Path(__file__).parents[3] / "shared" / "spec" / "RULES.md"


def test_every_rule_id_in_docs_rules_md_has_a_test_named_after_it():
    ids = rule_ids(DOCS_RULES_MD.read_text(encoding="utf-8"), "R")
    assert {"R1.1", "R4.6", "R8"} <= ids and len(ids) >= 30, sorted(ids)
    missing = rules_without_a_test(ids, scenario_test_names(HERE))
    assert missing == [], f"rule IDs without a test named after them: {missing}"


def test_docs_rules_md_carries_every_rule_id_of_the_spec():
    if not SPEC_RULES_MD.is_file():
        pytest.skip(f"{SPEC_RULES_MD} is absent (the shared/ spec is not beside this clone)")
    spec = rule_ids(SPEC_RULES_MD.read_text(encoding="utf-8"), "R")
    docs = rule_ids(DOCS_RULES_MD.read_text(encoding="utf-8"), "R")
    assert sorted(spec - docs) == []


def test_stored_states_are_what_their_builders_make(state_builders, stored_state_dict):
    stored = sorted(p.stem for p in (HERE / "states").glob("*.json"))
    assert stored == sorted(state_builders), "run: python tests/rules/conftest.py"
    for name, build in state_builders.items():
        from_file = GameState.from_dict(stored_state_dict(name))
        assert from_file.to_dict() == GameState.from_dict(build()).to_dict(), name
