"""The shared tools serve the Gallerist through the registry: a rated
match, game records and their replay, terminal play, and policies that name their game."""

from __future__ import annotations

import io
import json
import re
import sys
from functools import partial
from pathlib import Path

import pytest

from art_gallery_env.agents.policy import CheckpointError, PolicyAgent
from art_gallery_env.agents.registry import make_agent
from art_gallery_env.arena.evaluate import MatchConfig, run_match, save_game_records
from art_gallery_env.arena.records import load_record, replay_record
from art_gallery_env.arena.replay import run_replay
from art_gallery_env.arena.single_agent import SingleAgentEnv
from art_gallery_env.arena.terminal import (
    PlaySession,
    PlaySetupError,
    load_play_game,
    new_play_game,
    run_play,
)
from art_gallery_env.cli import main
from art_gallery_env.core.registry import get_game
from art_gallery_env.games.gallerist.rules.actions import action_to_str, str_to_action

REPO = Path(__file__).resolve().parents[2]
art_gallery_agent = make_agent  # the default game's
gallerist_agent = partial(make_agent, game="gallerist")
ART_GALLERY_POLICY = REPO / "checkpoints" / "quick.safetensors"


@pytest.fixture(scope="module")
def match():
    """4 seat-rotated games, heuristic against random, with ratings."""
    config = MatchConfig(
        num_players=2, agents=("heuristic", "random"), games=4, seed=3, workers=1, game="gallerist"
    )
    return run_match(config, progress=False)


def test_rated_match_of_heuristic_against_random(match) -> None:
    heuristic, rnd = match.summaries
    assert (heuristic.spec, rnd.spec) == ("heuristic", "random")
    assert heuristic.seat_games == rnd.seat_games == 4
    assert heuristic.win_share > rnd.win_share
    assert heuristic.rating_mu > rnd.rating_mu  # ratings come from the games' G16 ranks
    assert heuristic.mean_score > rnd.mean_score
    # the per-part means are the Gallerist's parts, not Art Gallery's rows and souvenirs
    assert set(heuristic.mean_parts) == {"money", "exhibition", "reputation", "auction"}
    # seats rotate: each spec sat in both seats
    assert sorted(g["specs"][0] for g in match.games) == ["heuristic"] * 2 + ["random"] * 2


def test_records_round_trip_and_replay(match, tmp_path: Path) -> None:
    paths = save_game_records(match, tmp_path)
    assert len(paths) == 4
    record = load_record(paths[0])
    assert record["game"] == "gallerist" and record["env_version"] == "gallerist_v1"
    final = replay_record(record)
    assert final.is_over
    stored = [b["total"] for b in match.games[0]["breakdown"]]
    assert [b["total"] for b in final.score_breakdown()] == stored

    out = io.StringIO()
    assert run_replay(str(paths[0]), out=out) == 0
    text = out.getvalue()
    assert "The Gallerist, 2 players" in text
    assert re.search(r"\[1\] round 1, P[01] \((heuristic|random)\): start \w+\n", text)
    assert "The Gallerist | round 1" in text  # the Gallerist's board, not Art Gallery's
    assert "player | money | majorities" in text
    assert "Replayed scores match the stored ones" in text
    assert "zero_is_ten" not in text  # no Art Gallery variant in the header


def test_replay_viewer_and_game_option(match, tmp_path: Path, capsys) -> None:
    path = save_game_records(match, tmp_path)[1]
    out = io.StringIO()
    assert run_replay(str(path), viewer=1, step=True, out=out, stdin=io.StringIO("")) == 0
    text = out.getvalue()
    assert "view of player 1" in text
    decisions = len(load_record(path)["actions"])
    assert text.count("The Gallerist | round") >= decisions  # the board after every step
    assert main(["replay", str(path), "--game", "gallerist"]) == 0
    capsys.readouterr()
    assert main(["replay", str(path), "--game", "art_gallery"]) == 2
    err = capsys.readouterr().err
    assert "a record of The Gallerist (game 'gallerist'), not of --game art_gallery" in err


def test_cli_eval_writes_gallerist_records(tmp_path: Path, capsys) -> None:
    argv = ["eval", "--game", "gallerist", "--agents", "random", "--games", "2"]
    argv += ["--workers", "1", "--no-progress", "--save-games", str(tmp_path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "money" in out and "exhibition" in out
    records = sorted(tmp_path.glob("game_*.json"))
    assert len(records) == 2
    assert json.loads(records[0].read_text())["game"] == "gallerist"


def test_eval_notes_a_checkpoint_seated_at_a_table_size_it_never_trained_at(capsys) -> None:
    solo = REPO / "checkpoints" / "gallerist_solo.safetensors"  # its run: 1 player
    two = REPO / "checkpoints" / "gallerist_2p.safetensors"
    argv = ["eval", "--game", "gallerist", "--agents", str(solo), str(two), "--games", "1"]
    assert main([*argv, "--workers", "1", "--no-progress"]) == 0
    notes = [line for line in capsys.readouterr().err.splitlines() if line.startswith("note:")]
    assert notes == [f"note: {solo} was trained at tables of 1 player(s) only; this match seats 2"]


# -- terminal play ------------------------------------------------------------------------
def test_terminal_human_bad_entry_then_legal_choice(tmp_path: Path) -> None:
    """A typed unknown name, a number out of range and an illegal name are refused with
    the reason and the legal choices again; a name as listed is taken."""
    seat = get_game("gallerist").setup(2, 5).current_player  # the first to choose a start
    game = new_play_game(2, seat, "random", seed=5, game="gallerist")
    first_legal = game.state.legal_actions()
    out = io.StringIO()
    script = "nonsense\n99\ncolony buy\n" + action_to_str(first_legal[-1]) + "\nquit\n"
    session = PlaySession(game, stdin=io.StringIO(script), stdout=out)
    assert session.run() == 0
    text = out.getvalue()
    assert "The Gallerist, 2 players, seed 5" in text
    assert "Not accepted: unknown action 'nonsense'" in text
    assert "Not accepted: 99 is not a choice number (1..4)" in text
    assert "Not accepted: 'colony buy' is not legal now" in text
    assert text.count("Your decision (start) - legal choices:") >= 4  # after every refusal
    for i, action in enumerate(first_legal, 1):
        assert f"{i:>3}) {action_to_str(action)}" in text
    assert game.actions[0] == first_legal[-1]  # the refused entries changed nothing


def test_parse_choice_by_number_name_and_illegal_name() -> None:
    rules = get_game("gallerist")
    legal = [str_to_action("start sales"), str_to_action("start media")]
    assert PlaySession.parse_choice("2", legal, rules) == (legal[1], "")
    assert PlaySession.parse_choice("Start Sales", legal, rules) == (legal[0], "")
    action, reason = PlaySession.parse_choice("colony buy", legal, rules)
    assert action is None and reason == "'colony buy' is not legal now"
    action, reason = PlaySession.parse_choice("bid 4", legal, rules)  # Art Gallery's name
    assert action is None and "unknown action 'bid 4'" in reason


def test_full_game_record_and_save_resume(monkeypatch, capsys, tmp_path: Path) -> None:
    save, record = tmp_path / "saved.json", tmp_path / "game.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"1\n1\n1\nsave {save}\nquit\n"))
    assert main(["play", "--game", "gallerist", "--seed", "2", "--opponents", "heuristic"]) == 0
    assert f"Game saved to {save}" in capsys.readouterr().out
    saved = json.loads(save.read_text())
    assert saved["game"] == "gallerist" and saved["agents"] == ["human", "heuristic"]
    assert saved["state"]["format"] == "art-gallery-env/gallerist-state"
    assert load_play_game(save).state.to_dict() == saved["state"]

    with pytest.raises(PlaySetupError, match="a saved game of The Gallerist"):
        run_play(resume=str(save), game_name="art_gallery", stdin=io.StringIO(""))
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 600))
    assert main(["play", "--resume", str(save), "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "Final score:" in out and "player | money" in out
    data = load_record(record)
    assert data["game"] == "gallerist"
    assert data["actions"][: len(saved["actions"])] == saved["actions"]
    final = replay_record(data)
    assert [b["total"] for b in final.score_breakdown()] == [b["total"] for b in data["breakdown"]]


# -- policies name their game ---------------------------------------------------------------
def test_another_games_policy_is_refused_with_both_names() -> None:
    with pytest.raises(CheckpointError, match="game 'art_gallery', not 'gallerist'"):
        PolicyAgent(ART_GALLERY_POLICY, game="gallerist")
    with pytest.raises(CheckpointError, match="not 'gallerist'"):
        gallerist_agent(str(ART_GALLERY_POLICY))


def test_cli_refuses_an_art_gallery_policy_for_the_gallerist(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["eval", "--game", "gallerist", "--agents", str(ART_GALLERY_POLICY), "random"])
    err = capsys.readouterr().err
    assert "not 'gallerist'" in err and "--agents" in err


# -- the single-agent env -----------------------------------------------------------------
def test_single_agent_env_plays_the_gallerist() -> None:
    rules = get_game("gallerist")
    env = SingleAgentEnv(2, "heuristic", game="gallerist", seed=4, reward_mode="money")
    assert env.observation_space.shape == (rules.observation_size,)
    assert env.action_space.n == rules.num_actions
    obs, info = env.reset()
    assert obs.shape == (rules.observation_size,)
    done, reward, steps = False, 0.0, 0
    while not done:
        legal = info["action_mask"].nonzero()[0]
        obs, reward, done, _, info = env.step(int(legal[0]))
        steps += 1
    assert steps > 10 and info["score"]["total"] == pytest.approx(reward * 100)
    with pytest.raises(ValueError, match="0..114"):
        env.reset()
        env.step(115)
    with pytest.raises(ValueError, match=r"reward_mode for The Gallerist must be one of"):
        SingleAgentEnv(2, game="gallerist", reward_mode="level")
    with pytest.raises(ValueError, match="1..4 players, got 5"):
        SingleAgentEnv(5, game="gallerist")
    solo = SingleAgentEnv(1, game="gallerist", seed=2)  # the solo game: the same env
    assert solo.reward_mode == "level" and solo.reset()[1]["learner_seat"] == 0
    assert solo.opponents == {} and solo.state.num_players == 1
    with pytest.raises(ValueError, match="no variant 'zero_is_ten'"):
        SingleAgentEnv(2, game="gallerist", variants={"zero_is_ten": True})
    with pytest.raises(ValueError, match="unknown agent 'bidder' for The Gallerist"):
        SingleAgentEnv(2, "bidder", game="gallerist")
    # Art Gallery's registry still builds Art Gallery's agents for the default game
    opponent = SingleAgentEnv(2, "ismcts").opponent_source.agents[0]
    assert type(opponent) is type(art_gallery_agent("ismcts"))


def test_committed_gallerist_policy_plays_legal_games() -> None:
    """checkpoints/gallerist_2p (configs/gallerist_2p.yaml) is a Gallerist policy that
    the shared loop plays; Art Gallery's registry refuses it."""
    from art_gallery_env.arena.loop import play_game

    path = REPO / "checkpoints" / "gallerist_2p.safetensors"
    meta = json.loads(path.with_suffix(".json").read_text())
    assert meta["game"] == "gallerist" and meta["config"]["env"]["game"] == "gallerist"
    game = get_game("gallerist")
    state = game.setup(2, 21)
    agents = [gallerist_agent(str(path), 0), gallerist_agent("random", 1)]
    result = play_game(state, agents, game.make_observer(state))
    assert state.is_over and len(result.actions) > 50
    with pytest.raises(CheckpointError, match="not 'art_gallery'"):
        art_gallery_agent(str(path))
