"""art-gallery play driven by a scripted stdin: bad input, a full game, save and resume."""

from __future__ import annotations

import io
import json
import sys

import pytest

from art_gallery_env.arena.records import load_record, replay_record
from art_gallery_env.arena.terminal import PlaySession, load_play_game, parse_opponents
from art_gallery_env.cli import main

# Each prompt gets: nonsense (unknown name), 99 (bad number), then the first legal choice.
BAD_THEN_FIRST = "nonsense\n99\n1\n"


def _play(monkeypatch, capsys, argv: list[str], stdin: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_scripted_game_finishes_with_bad_input_mixed_in(monkeypatch, capsys, tmp_path):
    record = tmp_path / "game.json"
    code, out, _ = _play(
        monkeypatch,
        capsys,
        [
            "--players",
            "3",
            "--seat",
            "1",
            "--seed",
            "3",
            "--opponents",
            "random,random",
            "--record",
            str(record),
        ],  # fmt: skip
        BAD_THEN_FIRST * 400 + "bid 99\npick 3 now\n" + "1\n" * 400,
    )
    assert code == 0, out
    assert "Not accepted: unknown action 'nonsense'" in out
    assert "Not accepted: 99 is not a choice number (1.." in out
    assert "Your decision (move) - legal choices:" in out
    assert "  1) move 0 cw" in out
    assert "bids a face-down card" in out  # opponents' bids without their value
    assert "Final score:" in out and "player | rows" in out
    assert "You " in out.splitlines()[-2] or "You " in out
    data = load_record(record)
    assert data["agents"] == ["random", "human", "random"]
    final = replay_record(data)
    assert [b["total"] for b in final.score_breakdown()] == [b["total"] for b in data["breakdown"]]


def test_choice_by_name_and_illegal_name(monkeypatch, capsys):
    # Seat 0 with start player chosen by seed; answer by names; 'move 0 cw' is always legal
    # as a first move; 'bid 9' is no action at all; 'pick 3' is not legal while moving.
    session_out = io.StringIO()
    from art_gallery_env.arena.terminal import new_play_game

    game = new_play_game(2, 0, "random", seed=1)
    session = PlaySession(game, stdin=io.StringIO("pick 3\nbid 9\n\nmove 0 cw\nquit\n"),
                          stdout=session_out)  # fmt: skip
    assert session.run() == 0
    text = session_out.getvalue()
    assert "'pick 3' is not legal now" in text
    assert "unknown action 'bid 9'" in text
    assert "empty input" in text
    assert "Quitting." in text
    assert game.actions and 0 in game.actions  # move 0 cw was applied


def test_parse_choice():
    legal = [18, 20, 22]
    assert PlaySession.parse_choice("2", legal) == (20, "")
    assert PlaySession.parse_choice("Bid 4", legal) == (22, "")
    assert PlaySession.parse_choice("0", legal)[0] is None
    assert "not legal" in PlaySession.parse_choice("bid 1", legal)[1]


def test_eof_exits_with_a_clear_message(monkeypatch, capsys):
    code, out, _ = _play(monkeypatch, capsys, ["--seed", "2"], "nonsense\n")
    assert code == 1
    assert "End of input (EOF)" in out


def test_save_and_resume(monkeypatch, capsys, tmp_path):
    save = tmp_path / "saved.json"
    code, out, _ = _play(
        monkeypatch, capsys, ["--players", "2", "--seed", "8"], f"1\n1\n1\nsave {save}\nquit\n"
    )
    assert code == 0
    assert f"Game saved to {save}" in out
    saved = json.loads(save.read_text())
    assert saved["format"] == "art-gallery-env/play-save"
    assert saved["state"]["format"] == "art-gallery-env/state"
    assert saved["agents"] == ["human", "random"] and saved["seat"] == 0
    game = load_play_game(save)
    assert game.actions == saved["actions"] and len(game.actions) >= 3
    assert game.state.to_dict() == saved["state"]

    record = tmp_path / "resumed.json"
    code, out, _ = _play(
        monkeypatch, capsys, ["--resume", str(save), "--record", str(record)], "1\n" * 500
    )
    assert code == 0, out
    assert "Final score:" in out
    data = load_record(record)
    assert data["actions"][: len(saved["actions"])] == saved["actions"]
    final = replay_record(data)
    assert [b["total"] for b in final.score_breakdown()] == [b["total"] for b in data["breakdown"]]


def test_quit_saves_to_the_save_option(monkeypatch, capsys, tmp_path):
    save = tmp_path / "auto.json"
    code, out, _ = _play(monkeypatch, capsys, ["--seed", "4", "--save", str(save)], "save\nquit\n")
    assert code == 0
    assert save.exists() and out.count("Game saved to") == 2


def test_bad_save_file_is_rejected(monkeypatch, capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "art-gallery-env/play-save", "version": 1,
                               "state": {"format": "nope"}}))  # fmt: skip
    with pytest.raises(SystemExit) as exc:
        _play(monkeypatch, capsys, ["--resume", str(bad)], "")
    assert exc.value.code == 2
    assert "state.format" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv,expected",
    [
        (["--players", "3", "--opponents", "random,random,random"], ["need 2 opponent"]),
        (["--players", "2", "--seat", "2"], ["--seat", "0..1"]),
        (["--players", "8"], ["--players", "Art Gallery", "2..6"]),
        (["--opponents", "nosuch"], ["nosuch", "known agents", "random"]),
        (["--game", "gallerist", "--players", "5"], ["--players", "The Gallerist", "1..4"]),
        (["--game", "gallerist", "--players", "1"], ["--players", "at least 2"]),
        (["--game", "gallerist", "--zero-is-ten"], ["no variant 'zero_is_ten'", "none"]),
        (["--game", "gallerist", "--opponents", "ismctz"], ["ismctz", "heuristic, ismcts"]),
        (["--game", "go"], ["--game", "art_gallery", "gallerist"]),
    ],
)
def test_bad_play_arguments(argv, expected, monkeypatch, capsys):
    with pytest.raises(SystemExit) as exc:
        _play(monkeypatch, capsys, argv, "")
    assert exc.value.code == 2
    err = capsys.readouterr().err
    for word in expected:
        assert word in err, err


def test_parse_opponents():
    assert parse_opponents("random", 4, 2) == ["random", "random", "human", "random"]
    assert parse_opponents("a, b", 3, 0) == ["human", "a", "b"]
    two = "ismcts:iters=5,rollout=random,search:ckpt=x.safetensors,iters=9"
    assert parse_opponents(two, 3, 1) == [
        "ismcts:iters=5,rollout=random",
        "human",
        "search:ckpt=x.safetensors,iters=9",
    ]
    assert parse_opponents("heuristic,ismcts:iters=5", 3, 0)[1:] == ["heuristic", "ismcts:iters=5"]


class _CtrlCWhenDone(io.StringIO):
    """Scripted input, then Ctrl-C at the next prompt."""

    def readline(self, *args):
        line = super().readline(*args)
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_keeps_the_game_in_the_save_file(monkeypatch, capsys, tmp_path):
    save = tmp_path / "auto.json"
    monkeypatch.setattr(sys, "stdin", _CtrlCWhenDone("1\n1\n1\n"))
    assert main(["play", "--seed", "4", "--save", str(save)]) == 130
    assert f"Game saved to {save}" in capsys.readouterr().out
    assert len(load_play_game(save).actions) >= 3
