"""A plain Stable-Baselines3 MaskablePPO zip (``model.save`` of a model built on
``gymnasium.make(...)``, no metadata JSON beside it) plays in every tool: its game is the
registered game whose observation size and action count SB3 saved; a zip whose sizes name
no game, or more than one, is refused with what to do."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
import gymnasium as gym  # noqa: E402
import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402

import art_gallery_env  # noqa: E402
from art_gallery_env.agents import run_checkpoint  # noqa: E402
from art_gallery_env.agents.policy import CheckpointError, PolicyAgent, load_policy  # noqa: E402
from art_gallery_env.agents.registry import agent_spec_problem, make_agent  # noqa: E402
from art_gallery_env.cli import main  # noqa: E402
from art_gallery_env.core.registry import get_game  # noqa: E402
from art_gallery_env.gym_envs import GYM_ENV_ID as ENV_ID  # noqa: E402

art_gallery_env.register_envs()
SMALL = {"net_arch": [32, 16]}  # the default MlpPolicy is 64x64; small keeps the files small


def _save(env: gym.Env, path: Path, **policy_kwargs) -> Path:
    model = MaskablePPO("MlpPolicy", env, n_steps=64, seed=0, policy_kwargs=policy_kwargs)
    model.save(path)
    return path.with_suffix(".zip")


@pytest.fixture(scope="module")
def zips(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("plain")
    return {
        "art_gallery": _save(gym.make(ENV_ID), folder / "model", **SMALL),
        "gallerist": _save(gym.make(ENV_ID, game="gallerist"), folder / "gallerist", **SMALL),
    }


class _OddSizes(gym.Env):
    """An env with sizes no registered game has."""

    observation_space = gym.spaces.Box(0.0, 1.0, (5,), np.float32)
    action_space = gym.spaces.Discrete(3)

    def reset(self, *, seed=None, options=None):
        return np.zeros(5, np.float32), {}

    def step(self, action):
        return np.zeros(5, np.float32), 0.0, True, False, {}

    def action_masks(self) -> np.ndarray:
        return np.ones(3, bool)


def test_the_sizes_come_from_the_zip_without_unpickling(zips, monkeypatch) -> None:
    import pickle

    monkeypatch.setattr(pickle, "loads", lambda *a, **k: pytest.fail("unpickled"))
    for game, path in zips.items():
        spec = get_game(game)
        assert run_checkpoint.sb3_zip_sizes(path) == (spec.observation_size, spec.num_actions)
        assert run_checkpoint.plain_zip_game(path) == game


def test_a_plain_zip_plays_as_the_model_does(zips) -> None:
    """Same logits and value as SB3's own network, for real observations."""
    model = MaskablePPO.load(zips["art_gallery"], device="cpu")
    policy = load_policy(zips["art_gallery"])
    assert policy.game == "art_gallery" and policy.meta["hidden_sizes"] == [32, 16]
    env = gym.make(ENV_ID)
    obs, _ = env.reset(seed=3)
    with torch.no_grad():
        tensor = torch.as_tensor(obs[None])
        logits = model.policy.get_distribution(tensor).distribution.logits.numpy()[0]
        value = float(model.policy.predict_values(tensor)[0, 0])
    expected = logits - logits.max()
    got = policy.logits(obs) - policy.logits(obs).max()
    np.testing.assert_allclose(got, expected, atol=1e-4)
    assert policy.value(obs) == pytest.approx(value, abs=1e-5)


def test_a_plain_zip_is_an_agent_of_its_own_game_only(zips) -> None:
    agent = make_agent(str(zips["gallerist"]), seed=0, game="gallerist")
    assert isinstance(agent, PolicyAgent) and agent.policy.game == "gallerist"
    problem = agent_spec_problem(str(zips["gallerist"]), game="art_gallery")
    assert problem is not None and "'gallerist', not 'art_gallery'" in problem


def test_sizes_of_no_game_are_refused_naming_each_games_sizes(tmp_path: Path) -> None:
    path = _save(_OddSizes(), tmp_path / "odd", **SMALL)
    with pytest.raises(CheckpointError) as err:
        load_policy(path)
    message = str(err.value)
    assert "observation size 5 and 3 actions" in message
    for game in ("art_gallery", "gallerist"):
        spec = get_game(game)
        assert f"{game} {spec.observation_size} / {spec.num_actions}" in message
    assert "\n" not in message


def test_a_zip_that_is_no_sb3_zip_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "notes.zip"
    bad.write_bytes(b"not a zip at all")
    problem = agent_spec_problem(str(bad))
    assert problem is not None and "not a readable Stable-Baselines3 zip" in problem
    assert "Traceback" not in problem


def test_another_activation_is_refused_not_misread(tmp_path: Path) -> None:
    path = _save(gym.make(ENV_ID), tmp_path / "elu", net_arch=[8], activation_fn=torch.nn.ELU)
    with pytest.raises(CheckpointError, match="ELU layer"):
        load_policy(path)


def test_a_size_tie_is_refused_with_the_one_command(zips, tmp_path, monkeypatch) -> None:
    """Two games with the same sizes: the zip names neither, so the refusal gives the
    command that writes its metadata; after it every tool reads that metadata."""
    sizes = run_checkpoint.sb3_zip_sizes(zips["art_gallery"])
    monkeypatch.setattr(run_checkpoint, "_game_sizes", lambda name: sizes)
    path = tmp_path / "tied.zip"
    path.write_bytes(zips["art_gallery"].read_bytes())
    with pytest.raises(CheckpointError) as err:
        load_policy(path)
    command = f"python -m art_gallery_env.agents.run_checkpoint {path} --game NAME"
    assert command in str(err.value) and "art_gallery, gallerist" in str(err.value)
    assert run_checkpoint.plain_zip_game(path, game="art_gallery") == "art_gallery"
    monkeypatch.undo()

    assert run_checkpoint.main([str(path), "--game", "art_gallery"]) == 0
    meta = json.loads(path.with_suffix(".json").read_text())
    assert meta["game"] == "art_gallery" and meta["source"] == run_checkpoint.PLAIN_SOURCE
    assert run_checkpoint.read_checkpoint_meta(path) == meta  # the trained-checkpoint path
    assert load_policy(path).game == "art_gallery"
    with pytest.raises(SystemExit):  # written once; a second time is refused in one line
        run_checkpoint.main([str(path), "--game", "art_gallery"])


def test_the_command_refuses_a_game_whose_sizes_differ(zips, tmp_path, capsys) -> None:
    path = tmp_path / "g.zip"
    path.write_bytes(zips["gallerist"].read_bytes())
    with pytest.raises(SystemExit):
        run_checkpoint.main([str(path), "--game", "art_gallery"])
    assert "are not art_gallery's" in capsys.readouterr().err
    assert not path.with_suffix(".json").exists()


@pytest.mark.parametrize("game", ["art_gallery", "gallerist"])
def test_export_prints_the_policys_own_sizes(zips, game, tmp_path, capsys) -> None:
    """``art-gallery export`` of a plain zip; the sizes are its game's (the
    Gallerist's policy was described with Art Gallery's 2221 / 47)."""
    pytest.importorskip("onnx")
    out = tmp_path / f"{game}.onnx"
    assert main(["export", str(zips[game]), "--onnx", str(out)]) == 0
    spec = get_game(game)
    printed = capsys.readouterr().out
    assert f"a policy for {game}" in printed
    assert f"observation [N, {spec.observation_size}]" in printed
    assert f"action_mask [N, {spec.num_actions}]" in printed and out.is_file()


def test_eval_and_play_take_a_plain_zip(zips, monkeypatch, capsys, tmp_path) -> None:
    path = str(zips["art_gallery"])
    code = main(
        ["eval", "--players", "2", "--agents", path, "random", "--games", "2", "--workers", "1",
         "--no-progress", "--out", str(tmp_path / "out")]
    )  # fmt: skip
    assert code == 0 and "2 games" in capsys.readouterr().out
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert sum(a["seat_games"] for a in results["agents"]) == 4
    assert any(path in json.dumps(a) for a in results["agents"])
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    assert main(["play", "--players", "2", "--seed", "1", "--opponents", path]) == 0
    assert "Final score:" in capsys.readouterr().out


def test_serve_lists_a_plain_zip_under_its_game(zips, tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from art_gallery_env.web.app import create_app

    folder = tmp_path / "checkpoints"
    folder.mkdir()
    for game, path in zips.items():
        (folder / f"{game}.zip").write_bytes(path.read_bytes())
    (folder / "broken.zip").write_bytes(b"nothing")
    client = TestClient(create_app(tmp_path / "data", checkpoints=folder))
    games = {g["name"]: g for g in client.get("/api/setup").json()["games"]}
    for game in zips:
        listed = [Path(c["spec"]).name for c in games[game]["checkpoints"]]
        assert listed == [f"{game}.zip"], (game, listed)
        spec = games[game]["checkpoints"][0]["spec"]
        body = {"game": game, "players": 2, "seat": 0, "opponents": [spec], "seed": 1}
        response = client.post("/api/games", json=body)
        assert response.status_code == 201, response.text[:300]
        assert response.json()["agents"][1] == spec


def test_export_of_a_gallerist_safetensors_prints_its_sizes(tmp_path, capsys) -> None:
    """The weights-only file of a Gallerist policy (as checkpoints/gallerist_2p)
    is exported with the Gallerist's sizes, not Art Gallery's 2221 / 47."""
    pytest.importorskip("onnx")
    from art_gallery_env.agents.policy_format import export_torch_mlp

    spec = get_game("gallerist")
    torch.manual_seed(0)
    nn = torch.nn
    net = nn.Sequential(
        nn.Linear(spec.observation_size, 8), nn.Tanh(), nn.Linear(8, spec.num_actions)
    )
    path = export_torch_mlp(net, tmp_path / "g.safetensors", extra_meta={"game": "gallerist"})
    assert main(["export", str(path), "--onnx", str(tmp_path / "g.onnx")]) == 0
    printed = capsys.readouterr().out
    assert f"observation [N, {spec.observation_size}]" in printed and "2221" not in printed
    assert f"output masked_logits [N, {spec.num_actions}]" in printed
