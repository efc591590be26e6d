"""The Gallerist's older golden playthroughs, tests/gallerist/golden/*.json, one per table
size: seeded games played through the AEC env, with their actions, final score and rewards,
one hash over every observation of every agent at every step and the final state. They are
kept as they were; the conformance suite's playthroughs are in the game's folder
(art_gallery_env/games/gallerist/goldens/).

A failure means the game now behaves differently for a fixed seed and fixed actions (its
rules, data, observation encoding or scoring). If that is intended, regenerate them with
``python scripts/make_golden.py --legacy tests/gallerist/golden/*.json --game gallerist``
and justify the change of golden files in the commit message.
"""

from __future__ import annotations

import json
import runpy
from pathlib import Path
from types import SimpleNamespace

import pytest

from art_gallery_env.core.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((ROOT / "tests" / "gallerist" / "golden").glob("*.json"))
make_golden = SimpleNamespace(**runpy.run_path(str(ROOT / "scripts" / "make_golden.py")))


def test_one_older_golden_file_per_table_size() -> None:
    names = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in GOLDEN}
    assert set(names) == {"solo_seed11", "p2_seed101", "p3_seed404", "p4_seed202"}
    assert sorted(r["setup"]["num_players"] for r in names.values()) == [1, 2, 3, 4]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_the_older_file_is_what_its_actions_give_today(path: Path) -> None:
    problems = make_golden.check_legacy_file(get_game("gallerist"), path)
    assert not problems, f"{path.name}: {'; '.join(problems)}. See this module's docstring."
