"""Golden playthroughs of the Gallerist: seeded games whose actions, final scores, every
observation (hashed) and final state are pinned in tests/gallerist/golden/*.json (written by
scripts/make_gallerist_golden.py).

A failure means the environment now behaves differently for a fixed seed and fixed actions:
the rules, the data, the observation encoding or the scoring changed. If that is intended,
regenerate the files and justify the change of golden files in the commit message.
"""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest

from art_gallery_env.gallerist import new_game

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
REGENERATE = (
    "If this change is intended, regenerate the golden files with "
    "`python scripts/make_gallerist_golden.py` and justify the change of "
    "tests/gallerist/golden/*.json in the commit message."
)


def load_script():
    spec = importlib.util.spec_from_file_location(
        "make_gallerist_golden", ROOT / "scripts" / "make_gallerist_golden.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_golden = load_script()
FILES = sorted(GOLDEN_DIR.glob("*.json"))


def test_golden_files_exist_for_every_table_size() -> None:
    names = {path.stem for path in FILES}
    assert names == {game["name"] for game in make_golden.GAMES}, REGENERATE
    counts = {json.loads(p.read_text(encoding="utf-8"))["setup"]["num_players"] for p in FILES}
    assert counts == {1, 2, 3, 4}
    for path in FILES:
        assert path.stat().st_size < 40_000, f"{path.name} is too big"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_playthrough_replays_identically(path: Path) -> None:
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert stored["format"] == make_golden.FORMAT and stored["version"] == make_golden.VERSION
    setup = stored["setup"]
    try:
        replayed = make_golden.play(**setup, actions=stored["actions"])
    except make_golden.GoldenReplayError as err:
        pytest.fail(f"{path.name}: {err}. {REGENERATE}")
    for key in (
        "data_fingerprint",
        "decisions",
        "rounds",
        "final_breakdown",
        "final_rewards",
        "observation_sha256",
        "final_state_sha256",
    ):
        assert replayed[key] == stored[key], (
            f"{path.name}: {key} changed from {stored[key]!r} to {replayed[key]!r}. {REGENERATE}"
        )
    assert make_golden.render(replayed) == path.read_text(encoding="utf-8"), REGENERATE


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_actions_are_the_seeded_random_choices_of_the_bare_engine(path: Path) -> None:
    stored = json.loads(path.read_text(encoding="utf-8"))
    setup = stored["setup"]
    state = new_game(setup["num_players"], setup["seed"])
    rng = random.Random(setup["seed"])
    for i, action in enumerate(stored["actions"]):
        assert not state.is_over, f"{path.name}: the game ended before decision {i}. {REGENERATE}"
        assert rng.choice(state.legal_actions()) == action, f"decision {i} differs. {REGENERATE}"
        state.apply(action)
    assert state.is_over, REGENERATE
    assert state.score_breakdown() == stored["final_breakdown"], REGENERATE
