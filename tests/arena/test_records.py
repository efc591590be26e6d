"""Game records: round trip, replay to the same scores, validation, the replay command."""

from __future__ import annotations

import copy
import io
import json
import random

import pytest

from art_gallery_env import new_game
from art_gallery_env.arena.records import (
    RECORD_FORMAT,
    RecordFormatError,
    load_record,
    make_record,
    replay_record,
    save_record,
    validate_record,
)
from art_gallery_env.arena.replay import run_replay
from art_gallery_env.cli import main
from art_gallery_env.games.art_gallery.env.narration import describe_events


def _random_record(num_players: int = 3, seed: int = 9, zero_is_ten: bool = False) -> dict:
    state = new_game(num_players, seed, zero_is_ten=zero_is_ten)
    rng = random.Random(seed)
    actions = []
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        actions.append(action)
        state.apply(action)
    return make_record(
        num_players=num_players,
        seed=seed,
        variants={"zero_is_ten": zero_is_ten},
        agents=["random"] * num_players,
        actions=actions,
        breakdown=state.score_breakdown(),
    )


@pytest.mark.parametrize("players,zero_is_ten", [(2, False), (4, True), (6, False)])
def test_round_trip_replays_to_the_same_final_scores(tmp_path, players, zero_is_ten):
    record = _random_record(players, seed=players, zero_is_ten=zero_is_ten)
    path = save_record(record, tmp_path / "sub" / "game.json")
    loaded = load_record(path)
    assert loaded == json.loads(json.dumps(record))
    assert loaded["format"] == RECORD_FORMAT
    final = replay_record(loaded)
    assert final.is_over
    assert final.score_breakdown() == record["breakdown"]


def test_a_version_1_record_keeps_its_variants_beside_the_setup(tmp_path):
    """Records written before variants were a dict (version 1) kept each variant as a key
    of ``setup``, and wrote ``zero_is_ten: false`` even for the Gallerist: both still replay."""
    record = _random_record(4, seed=4, zero_is_ten=True)
    old = copy.deepcopy(record)
    old["version"] = 1
    old["setup"] = {"num_players": 4, "seed": 4, "zero_is_ten": True}
    final = replay_record(validate_record(old))
    assert final.zero_is_ten and final.score_breakdown() == record["breakdown"]
    old["setup"]["zero_is_ten"] = False  # the variant read from the setup, not a default
    assert not replay_record(validate_record(old)).zero_is_ten


@pytest.mark.parametrize(
    "mutate,field",
    [
        (lambda r: r.pop("actions"), "actions: missing"),
        (lambda r: r.__setitem__("format", "other"), "format"),
        (lambda r: r.__setitem__("version", 99), "version"),
        (lambda r: r["setup"].__setitem__("num_players", 9), "setup.num_players"),
        (lambda r: r["setup"].__setitem__("seed", "x"), "setup.seed"),
        (lambda r: r["setup"].__setitem__("variants", []), "setup.variants"),
        (lambda r: r["setup"]["variants"].__setitem__("zero", True), "no variant 'zero'"),
        (lambda r: r["setup"]["variants"].__setitem__("zero_is_ten", 1), "must be a bool"),
        (lambda r: r.__setitem__("agents", ["random"]), "agents"),
        (lambda r: r["actions"].__setitem__(3, 99), "actions[3]"),
        (lambda r: r["actions"].__setitem__(0, "move"), "actions[0]"),
        (lambda r: r["card_set"].__setitem__("fingerprint", "0000"), "card_set"),
        (lambda r: r.__setitem__("breakdown", [{"total": 1}]), "breakdown"),
    ],
)
def test_corrupted_record_is_rejected_naming_the_field(mutate, field):
    record = copy.deepcopy(_random_record())
    mutate(record)
    with pytest.raises(RecordFormatError) as exc:
        validate_record(record)
    assert field in str(exc.value)


def test_illegal_or_extra_actions_are_reported_by_index():
    record = _random_record()
    bad = copy.deepcopy(record)
    legal_first = new_game(3, record["setup"]["seed"]).legal_actions()
    bad["actions"][0] = next(a for a in range(47) if a not in legal_first)
    with pytest.raises(RecordFormatError, match=r"actions\[0\].*not legal"):
        replay_record(bad)
    extra = copy.deepcopy(record)
    extra["actions"].append(18)
    with pytest.raises(RecordFormatError, match="already over"):
        replay_record(extra)


def test_load_record_names_the_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    with pytest.raises(RecordFormatError, match="broken.json: not valid JSON"):
        load_record(path)
    with pytest.raises(RecordFormatError, match="cannot read"):
        load_record(tmp_path / "missing.json")


def test_replay_command_prints_game_and_confirms_scores(tmp_path, capsys):
    record = _random_record(2, seed=4)
    path = save_record(record, tmp_path / "g.json")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "[1] round 1, " in out
    assert "round 2 begins" in out
    assert "player | rows" in out
    assert "Replayed scores match the stored ones" in out


def test_replay_viewer_hides_others_bids_and_step_without_tty(tmp_path, capsys):
    record = _random_record(3, seed=6)
    path = save_record(record, tmp_path / "g.json")
    out = io.StringIO()
    assert run_replay(str(path), viewer=1, step=True, out=out, stdin=io.StringIO("")) == 0
    text = out.getvalue()
    assert "bids a face-down card" in text and "view of player 1" in text
    assert text.count("Art Gallery | round") >= len(record["actions"])  # board every step


def test_replay_reports_mismatch_and_bad_input(tmp_path, capsys):
    record = _random_record(2, seed=4)
    record["breakdown"][0]["total"] += 1
    path = save_record(record, tmp_path / "g.json")
    assert main(["replay", str(path)]) == 1
    assert "MISMATCH" in capsys.readouterr().out
    assert main(["replay", str(path), "--viewer", "5"]) == 2
    assert "0..1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["replay", str(path), "--viewer", "nobody"])
    assert "'all' or a seat" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text(json.dumps({**record, "format": "x"}))
    assert main(["replay", str(tmp_path / "bad.json")]) == 2
    assert "format" in capsys.readouterr().err


def test_describe_events_narrates_every_kind():
    record = _random_record(2, seed=1)
    final = replay_record(record)
    text = "\n".join(describe_events(final, 0))
    for phrase in ("round 1 begins", "face up, moves", "bids card", "start card goes to",
                   "reveals its bids", "wins #", "picks card", "game over"):  # fmt: skip
        assert phrase in text


@pytest.mark.parametrize("keep", [0, 10, -1])
def test_truncated_record_is_reported_incomplete_not_mismatch(tmp_path, capsys, keep):
    """A record whose actions stop before the game ends, but which
    stores final scores, is an incomplete record (exit status 2), not a mismatch."""
    record = _random_record(2, seed=4)
    record["actions"] = record["actions"][:keep]
    path = save_record(record, tmp_path / "g.json")
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert "MISMATCH" not in captured.out + captured.err
    assert "incomplete record" in captured.err
    assert f"{len(record['actions'])} decisions" in captured.err


def test_record_of_an_unfinished_game_replays_without_error(tmp_path, capsys):
    """A record saved without final scores (breakdown null) is not incomplete."""
    record = _random_record(2, seed=4)
    record["actions"] = record["actions"][:10]
    record["breakdown"] = None
    path = save_record(record, tmp_path / "g.json")
    assert main(["replay", str(path)]) == 0
    assert "ends before the game is over" in capsys.readouterr().out
