"""Golden playthroughs: for every registered game, seeded random games whose every decision
(acting seat, action, a hash of that seat's observation and of its legal actions), final
score and final state are pinned in the game's own folder, ``goldens/*.json`` beside its
``spec.py`` (``GameSpec.golden_dir``), by scripts/make_golden.py.

A failure names the first decision that differs: the rules, the data, the observation
encoding or the scoring changed for a fixed seed. If that is intended, regenerate the files
(``python scripts/make_golden.py --all``, with ``--import sealed_bids.spec`` for the test
game) and justify the change of golden files in the commit message.
"""

from __future__ import annotations

import json
import runpy
from pathlib import Path
from types import SimpleNamespace

import pytest
from conformance_helpers import ROOT, register_test_games

from art_gallery_env.core.registry import game_names, get_game

register_test_games()
GAMES = game_names()
make_golden = SimpleNamespace(**runpy.run_path(str(ROOT / "scripts" / "make_golden.py")))
FILES = make_golden.golden_files()


def game_of_file(path: Path) -> str:
    return stored(path)["game"]


REGENERATE = (
    "If this change is intended, regenerate with `python scripts/make_golden.py --all "
    "--import sealed_bids.spec` and justify the change of the goldens/*.json files in the "
    "commit message."
)


def stored(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_golden_playthroughs(game: str) -> None:
    mine = [path for path in FILES if path.parent == get_game(game).golden_dir()]
    assert mine, (
        f"{game} has no golden playthrough: write one with `python scripts/make_golden.py "
        f"--game {game} --players N --seed S` (and --import MODULE for a test game)"
    )
    for path in mine:
        assert path.stat().st_size < 40_000, f"{path.name} is too big"


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{game_of_file(p)}/{p.stem}")
def test_golden_playthrough_replays_identically(path: Path) -> None:
    record = stored(path)
    assert record["game"] in GAMES, f"{path}: no such game registered"
    assert make_golden.path_for(record) == path, "the name or folder is not the setup's game's"
    assert record["decisions"] == len(record["steps"])
    problems = make_golden.check_file(path)
    assert not problems, f"{record['game']}/{path.name}: {'; '.join(problems)}. {REGENERATE}"


@pytest.mark.parametrize("game", GAMES)
def test_the_script_writes_the_stored_file_from_its_command_line(game: str, tmp_path) -> None:
    """The smallest stored game of each game, from the command line as documented."""
    paths = [path for path in FILES if game_of_file(path) == game]
    if not paths:
        pytest.skip(f"{game} has no golden playthrough")
    path = min(paths, key=lambda p: stored(p)["decisions"])
    setup = stored(path)["setup"]
    argv = ["--game", game, "--players", str(setup["num_players"]), "--seed", str(setup["seed"])]
    for key, value in setup["variants"].items():
        argv += ["--variant", f"{key}={json.dumps(value)}"]
    assert make_golden.main([*argv, "--out", str(tmp_path)]) == 0
    written = tmp_path / game / path.name
    assert written.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
    assert make_golden.main([*argv, "--out", str(tmp_path), "--check"]) == 0
    written.write_text(written.read_text(encoding="utf-8").replace('"steps"', '"Steps"'))
    assert make_golden.main([*argv, "--out", str(tmp_path), "--check"]) == 1


def test_a_changed_decision_is_named() -> None:
    """The comparison reports the first decision that moved, with what moved."""
    path = FILES[0]
    record = stored(path)
    changed = json.loads(json.dumps(record))
    changed["steps"][5][2] = "0" * make_golden.HASH_HEX
    problems = make_golden.differences(changed, record)
    assert problems and problems[0].startswith("decision 5 ") and "observation hash" in problems[0]
    assert make_golden.differences(record, record) == []


def test_the_script_says_what_is_wrong_in_words(capsys) -> None:
    assert make_golden.main(["--game", "no_such_game"]) == 2
    assert "unknown game 'no_such_game'" in capsys.readouterr().err
    game = GAMES[0]
    assert make_golden.main(["--game", game, "--variant", "no_such_variant=1"]) == 2
    assert "no variant 'no_such_variant'" in capsys.readouterr().err
