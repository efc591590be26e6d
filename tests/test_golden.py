"""Art Gallery's older golden playthroughs, tests/golden/*.json: seeded games played
through the AEC env, whose actions, final score and rewards, one hash over every
observation of every agent at every step and the final state are pinned. They are kept as
they were (they guard the rules); the conformance suite's playthroughs of every game are in
the game's own folder, e.g. art_gallery_env/games/art_gallery/goldens/
(tests/conformance/test_golden_playthroughs.py).

A failure means the game now behaves differently for a fixed seed and fixed actions: the
rules, the observation encoding or the scoring changed. If that is intended, regenerate the
files with ``python scripts/make_golden.py --legacy tests/golden/*.json --game art_gallery``
and justify the change of golden files in the commit message.
"""

from __future__ import annotations

import json
import runpy
from pathlib import Path
from types import SimpleNamespace

import pytest

from art_gallery_env.core.registry import get_game

ROOT = Path(__file__).resolve().parent.parent
make_golden = SimpleNamespace(**runpy.run_path(str(ROOT / "scripts" / "make_golden.py")))
FILES = sorted((ROOT / "tests" / "golden").glob("*.json"))
NAMES = {"p2_seed101", "p3_seed404_zero_is_ten", "p4_seed202_zero_is_ten", "p6_seed303"}


def test_the_older_golden_files_are_all_there() -> None:
    assert {path.stem for path in FILES} == NAMES
    setups = [json.loads(path.read_text(encoding="utf-8"))["setup"] for path in FILES]
    assert {s["num_players"] for s in setups} >= {2, 4, 6}
    assert {s["zero_is_ten"] for s in setups} == {False, True}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_older_golden_playthrough_replays_identically(path: Path) -> None:
    """The stored actions replayed through the env give the stored file byte for byte, and
    they are random.Random(seed)'s picks among the bare engine's legal actions."""
    problems = make_golden.check_legacy_file(get_game("art_gallery"), path)
    assert not problems, f"{path.name}: {'; '.join(problems)}. See this module's docstring."
