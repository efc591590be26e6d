"""``configs/any_game.yaml`` trains any game that has only the basic tools: the test game
Sealed Bids (no optional tools at all) and a shipped game, a few hundred steps each, with
the game chosen by an ``env.game`` override as the command line's would be."""

from __future__ import annotations

from pathlib import Path

import pytest
import sealed_bids.spec  # noqa: F401 - registers the test game

from art_gallery_env.core.registry import get_game
from art_gallery_env.training.config import ConfigError, config_from_dict, load_config

ANY_GAME = Path(__file__).resolve().parents[2] / "configs" / "any_game.yaml"
TINY = {  # the file's run, cut to seconds
    "total_steps": 256,
    "n_envs": 2,
    "network.hidden_sizes": [16],
    "ppo.n_steps": 64,
    "ppo.batch_size": 64,
    "ppo.n_epochs": 1,
    "pool.snapshot_every_steps": 128,
    "eval.every_steps": 128,
    "eval.games": 2,
    "eval.final_games": 2,
}


def test_the_file_needs_no_capability_of_its_game() -> None:
    config = load_config(ANY_GAME, {"env.game": "sealed_bids"})
    assert config.env.game == "sealed_bids" and not get_game("sealed_bids").capabilities
    assert config.network.type == "mlp" and config.vec_env == "dummy"
    assert config.eval.opponents == ["random"] and config.pool.heuristic == 0


def test_a_game_override_is_checked_as_if_written_in_the_file() -> None:
    with pytest.raises(ConfigError, match=r"env\.game: unknown game 'chess'; games: .*sealed_bids"):
        load_config(ANY_GAME, {"env.game": "chess"})


def test_a_heuristic_in_the_pool_of_a_game_without_one_is_refused() -> None:
    with pytest.raises(ConfigError) as err:
        load_config(ANY_GAME, {"env.game": "sealed_bids", "pool.heuristic": 0.5})
    assert "pool.heuristic: unknown agent 'heuristic' for Sealed Bids" in str(err.value)
    assert str(err.value).endswith("or set pool.heuristic: 0")


def test_train_game_on_the_command_line_is_the_override(tmp_path: Path, capsys) -> None:
    from art_gallery_env.cli import main

    with pytest.raises(SystemExit):
        main(["train", str(ANY_GAME), "--game", "chess", "--run-dir", str(tmp_path / "r")])
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()
    from art_gallery_env.cli import build_parser
    from art_gallery_env.cli.train import resume_command

    args = build_parser().parse_args(["train", str(ANY_GAME), "--game", "sealed_bids"])
    assert args.game == "sealed_bids"  # and a stopped run resumes the same game:
    assert resume_command(args, "runs/x")[3:] == ["--game", "sealed_bids", "--resume", "runs/x"]


@pytest.mark.slow  # trains two tiny runs (seconds each)
@pytest.mark.parametrize("game", ["sealed_bids", "art_gallery"])
def test_any_game_yaml_trains_the_game(tmp_path: Path, game: str) -> None:
    pytest.importorskip("sb3_contrib")
    import yaml

    from art_gallery_env.agents.policy import load_policy
    from art_gallery_env.training.entry import train

    data = yaml.safe_load(ANY_GAME.read_text())
    overrides = {**TINY, "env.game": game, "run_dir": str(tmp_path / "run")}
    run = train(config_from_dict(data, str(ANY_GAME), overrides), progress_bar=False)
    assert load_policy(run / "best.safetensors").game == game
    evaluations = (run / "eval.csv").read_text().splitlines()
    assert len(evaluations) >= 3, evaluations  # the header, step 128 and step 256
    assert all(row.split(",")[1] == "random" for row in evaluations[1:]), evaluations
