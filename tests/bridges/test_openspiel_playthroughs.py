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

import numpy as np
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


def fast_format_tensor(tensor: np.ndarray, tensor_name: str, max_cols: int = 120) -> list[str]:
    """OpenSpiel's ``generate_playthrough._format_tensor``, the same text in a fraction of the
    time. For a tensor of values other than 0 and 1 it writes ``str(round(v, 5))`` of every
    element, one numpy scalar at a time: 97% of a replay here (thousands of elements in each
    of ~1,500 tensors). This rounds the whole tensor at once and formats each distinct value
    (by its bits, so -0.0 and 0.0 stay apart) once; 0/1 tensors go to OpenSpiel's own code.
    test_fast_format_tensor_writes_what_openspiel_writes checks it against the original."""
    if tensor.shape in ((), (0,)) or tensor.ndim > 3 or not np.isin(tensor, (0, 1)).all():
        rounded = np.round(tensor.ravel(), 5)
        bits = rounded.view(f"u{rounded.itemsize}")
        _, first, index = np.unique(bits, return_index=True, return_inverse=True)
        texts = [str(rounded[i]) for i in first]
        return ["{} = [{}]".format(tensor_name, ", ".join([texts[i] for i in index.ravel()]))]
    return _OPENSPIEL_FORMAT_TENSOR(tensor, tensor_name, max_cols)


_OPENSPIEL_FORMAT_TENSOR = generate_playthrough._format_tensor


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


def test_fast_format_tensor_writes_what_openspiel_writes() -> None:
    """The replay's formatter (fast_format_tensor) gives OpenSpiel's text for the games' own
    observation tensors and for the values a rounding or a sort could get wrong."""
    register_games()
    tensors = []
    for game in SHIPPED:
        state = pyspiel.load_game(f"{openspiel_name(game)}(players={PLAYERS})").new_initial_state()
        rng = np.random.default_rng(SEED)
        while len(tensors) < 4 * (SHIPPED.index(game) + 1) and not state.is_terminal():
            if not state.is_chance_node():
                tensors.append(np.array(state.observation_tensor(), np.float32))
            state.apply_action(int(rng.choice(state.legal_actions())))
    odd = [-0.0, 0.0, 1.0, 2.0, np.nan, np.inf, -np.inf, 1e-5, 5e-6, -4.9e-6, 0.123455, 1 / 3]
    tensors += [np.array(odd, np.float32), np.array(odd), np.float32(0.25) * np.ones((2, 3, 4))]
    tensors += [np.array([1, 0, 1], np.float32), np.array([-7, 3, 1]), np.zeros(0, np.float32)]
    tensors += [np.array(3.5, np.float32), np.random.default_rng(0).normal(size=(3, 40)) * 1e6]
    assert any(not np.isin(t, (0, 1)).all() for t in tensors[:8])  # the slow path is tested
    for tensor in tensors:
        assert fast_format_tensor(tensor, "x") == _OPENSPIEL_FORMAT_TENSOR(tensor, "x")


@pytest.mark.slow
@pytest.mark.parametrize("game", SHIPPED)
def test_the_committed_playthrough_replays(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OpenSpiel's replay of the committed file gives the same text (every recorded state's
    strings and tensors are built again; with OpenSpiel's own tensor formatter 1-4 minutes
    each on a busy 2-core machine, with fast_format_tensor's same text a few seconds)."""
    monkeypatch.setattr(generate_playthrough, "_format_tensor", fast_format_tensor)
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
