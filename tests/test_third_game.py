"""A third game, registered from this test with no tool edited for it, plays through
every tool: evaluation, terminal play, replay, a few steps of training, ``gymnasium.make``,
the OpenSpiel bridge and the web app. The game, Sealed Bids, lives in
``tests/sealed_bids/``; ``docs/adding_a_game.md`` walks through it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import sealed_bids.spec  # noqa: F401 - registers the game

from art_gallery_env.cli import main
from art_gallery_env.core.registry import game_names, get_game
from art_gallery_env.core.scoring import final_rewards

GAME = "sealed_bids"


def test_the_game_is_registered_beside_the_shipped_ones() -> None:
    names = game_names()
    assert GAME in names and len(names) >= 3
    spec = get_game(GAME)
    assert spec.variants == {"double_last": False}
    assert not spec.has("vector") and not spec.has("web")


def test_eval_plays_a_seat_rotated_match_and_saves_records(tmp_path: Path, capsys) -> None:
    code = main(
        ["eval", "--game", GAME, "--players", "3", "--agents", "random", "ismcts:iters=20",
         "--games", "6", "--workers", "1", "--variant", "double_last=true", "--no-progress",
         "--out", str(tmp_path / "out"), "--save-games", str(tmp_path / "games")]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0 and "Sealed Bids" in out and "double_last" in out
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["game"] == GAME and results["config"]["variants"] == {"double_last": True}
    assert sum(a["seat_games"] for a in results["agents"]) == 18
    records = sorted((tmp_path / "games").glob("*.json"))
    assert len(records) == 6
    # replay: every record replays to its stored scores
    capsys.readouterr()
    assert main(["replay", str(records[0])]) == 0
    assert "bids a card face down" in capsys.readouterr().out


def test_eval_refuses_a_variant_the_game_lacks(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["eval", "--game", GAME, "--agents", "random", "--zero-is-ten"])
    err = capsys.readouterr().err
    assert "no variant 'zero_is_ten'" in err and "double_last" in err


def test_play_in_the_terminal_and_record(tmp_path: Path) -> None:
    from art_gallery_env.arena.terminal import run_play

    out = io.StringIO()
    answers = "bid 9\n" + "1\n" * 3 + "quit\n"  # a bad name, then the first choice each time
    code = run_play(
        players=2, seat=0, opponents="random", seed=4, game_name=GAME,
        record=str(tmp_path / "game.json"), stdin=io.StringIO(answers), stdout=out,
    )  # fmt: skip
    text = out.getvalue()
    assert code == 0 and "unknown action 'bid 9'" in text and "Final score" in text
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["game"] == GAME and len(record["actions"]) == 6


def test_a_few_steps_of_training(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    import yaml

    config = {
        "name": "tiny", "seed": 1, "total_steps": 128, "n_envs": 2, "vec_env": "dummy",
        "run_dir": str(tmp_path / "run"), "env": {"game": GAME, "num_players": 3,
        "variants": {"double_last": True}}, "network": {"hidden_sizes": [8]},
        "ppo": {"n_steps": 32, "batch_size": 32, "n_epochs": 1},
        "pool": {"snapshot_every_steps": 64, "self_play": 0.5, "random": 0.5, "heuristic": 0.0},
        "eval": {"every_steps": 64, "games": 2, "opponents": ["random"], "final_games": 2,
                 "final_workers": 1},
    }  # fmt: skip
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(config))
    assert main(["train", str(path), "--no-progress"]) == 0
    from art_gallery_env.agents.policy import load_policy

    assert load_policy(tmp_path / "run" / "best.safetensors").game == GAME


def test_gymnasium_make_gives_a_single_agent_env() -> None:
    import gymnasium

    from art_gallery_env.gym_envs import GYM_ENV_ID, register_envs

    register_envs()
    env = gymnasium.make(GYM_ENV_ID, game=GAME, num_players=3, opponents="random")
    obs, info = env.reset(seed=3)
    assert obs.shape == (get_game(GAME).observation_size,)
    done, steps = False, 0
    while not done:
        action = int(env.action_space.sample(env.unwrapped.action_masks().astype("int8")))
        obs, reward, terminated, truncated, info = env.step(action)
        done, steps = terminated or truncated, steps + 1
    assert terminated and steps == 3  # one bid per round, three rounds
    inner = env.unwrapped
    expected = final_rewards(inner.state.score_breakdown(), inner.reward_mode)[inner.learner]
    assert reward == pytest.approx(expected)


def test_the_openspiel_bridge() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from art_gallery_env.bridges.openspiel import openspiel_name, register_games

    assert openspiel_name(GAME) in register_games()
    game = pyspiel.load_game(openspiel_name(GAME), {"players": 3, "double_last": True})
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def test_the_web_app_plays_and_replays_it(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from art_gallery_env.web.app import create_app

    client = TestClient(create_app(tmp_path))
    games = {g["name"]: g for g in client.get("/api/setup").json()["games"]}
    assert games[GAME]["variants"] == {"double_last": False}
    body = {"game": GAME, "players": 2, "seat": 0, "opponents": ["random"], "seed": 1}
    view = client.post("/api/games", json=body).json()
    assert view["board"].startswith('<pre class="text-board">') and not view["drawn"]  # no web
    while not view["over"]:
        legal = [o["action"] for o in view["choices"]["options"] if o["legal"]]
        view = client.post(f"/api/games/{view['id']}/actions", json={"action": legal[0]}).json()
    record = client.get(f"/api/games/{view['id']}/record").json()
    assert record["game"] == GAME
    step = client.get(f"/api/replays/game-{view['id']}?step=1&viewer=0").json()
    assert step["step"] == 1
