"""OpenSpiel playthroughs of the shipped games, committed and replayed the way OpenSpiel's own
``integration_tests/playthrough_test.py`` replays ``integration_tests/playthroughs/``:
``generate_playthrough.replay(file)`` plays the file's recorded actions again and the new
text must equal the file, line by line. A playthrough records every observation string and
tensor, information state, legal action and return along one seeded random game, so any
change of the game or the bridge shows up here as the first line that differs.

The files are gzipped (the tensors make them 1.5-2.6 MB of text, 70-150 kB packed). After a
deliberate change of a game or of its bridge, write them again with::

    python tests/bridges/test_openspiel_playthroughs.py [GAME ...]

and read the diff (``zdiff``) before committing it.
"""

from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
from absl import flags  # noqa: E402 - absl comes with open_spiel
from open_spiel.python.algorithms import generate_playthrough  # noqa: E402

from art_gallery_env.bridges.openspiel import openspiel_name, register_games  # noqa: E402

FOLDER = Path(__file__).parent / "playthroughs"
SEED = 7  # the random actions of the recorded game
PLAYERS = 2
# The games this package ships (a test may register more, e.g. tests/test_third_game.py).
SHIPPED = ("art_gallery", "gallerist")
REGENERATE = "python tests/bridges/test_openspiel_playthroughs.py"


def _parse_flags() -> None:
    """``generate_playthrough`` reads an absl flag (``--playthough_use_action_ids``, default
    true) that only a parsed flag set gives; pytest parses none, so take the defaults."""
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()


def playthrough_path(game: str) -> Path:
    return FOLDER / f"{openspiel_name(game)}.txt.gz"


def write_playthrough(game: str) -> Path:
    """Play one seeded random game of ``game`` through OpenSpiel and write the playthrough."""
    _parse_flags()
    register_games()
    text = generate_playthrough.playthrough(
        f"{openspiel_name(game)}(players={PLAYERS})", action_sequence=None, seed=SEED
    )
    path = playthrough_path(game)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))  # the same bytes each time
    return path


def test_every_shipped_game_has_a_committed_playthrough() -> None:
    """As OpenSpiel's test_all_games_tested: each file names its game, and none is missing."""
    registered = set(register_games())
    for game in SHIPPED:
        assert openspiel_name(game) in registered
        with gzip.open(playthrough_path(game), "rt", encoding="utf-8") as handle:
            head = handle.read(4000)
        short = re.search(r'^GameType\.short_name = "(.*)"$', head, re.MULTILINE)
        assert short is not None and short[1] == openspiel_name(game), f"{game}: {REGENERATE}"
        assert f"game: {openspiel_name(game)}(players={PLAYERS})" in head


@pytest.mark.slow
@pytest.mark.parametrize("game", SHIPPED)
def test_the_committed_playthrough_replays(game: str, tmp_path: Path) -> None:
    """OpenSpiel's replay of the committed file gives the same text (1-2 minutes each on a
    busy 2-core machine: every recorded state's strings and tensors are built again)."""
    _parse_flags()
    register_games()
    plain = tmp_path / f"{openspiel_name(game)}.txt"
    plain.write_bytes(gzip.decompress(playthrough_path(game).read_bytes()))
    expected, actual = generate_playthrough.replay(str(plain))
    for number, (want, got) in enumerate(zip(expected.split("\n"), actual.split("\n")), 1):
        assert got == want, (
            f"line {number} of {playthrough_path(game).name} differs: the game or its bridge "
            f"changed; if on purpose, write it again with {REGENERATE} {game}"
        )
    assert actual == expected


if __name__ == "__main__":
    for name in sys.argv[1:] or SHIPPED:
        print(f"wrote {write_playthrough(name)}")
