"""The SB3 trainer trains a Gallerist policy through the same code (``env.game``), and a
config names the game it trains, with clear errors for a game, table size or variant
that does not fit."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")

from training_helpers import tiny_config_dict, train_cli_refusal  # noqa: E402

from art_gallery_env.agents.policy import CheckpointError, PolicyAgent, load_policy  # noqa: E402
from art_gallery_env.agents.registry import make_agent  # noqa: E402
from art_gallery_env.agents.run_checkpoint import read_checkpoint_meta  # noqa: E402
from art_gallery_env.arena.loop import play_game  # noqa: E402
from art_gallery_env.core.registry import get_game  # noqa: E402
from art_gallery_env.training.config import ConfigError, config_from_dict, load_config  # noqa: E402
from art_gallery_env.training.sb3_trainer import train  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
LEGACY_POLICY = REPO / "tests" / "legacy" / "best.safetensors"


def gallerist_agent(spec: str, seed: int | None = None):
    return make_agent(spec, seed, game="gallerist")


RLLIB_MISSING = (
    "algorithm: rllib_ppo needs Ray RLlib training (algorithm: rllib_ppo), which The Gallerist "
    "('gallerist') does not have; games that have it: art_gallery"
)


def _config(run_dir: Path, **changes):
    return config_from_dict(tiny_config_dict(run_dir, 256, env={"game": "gallerist"}, **changes))


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("gallerist_run")
    train(_config(folder, eval={"final_games": 2}), progress_bar=False)
    return folder


def test_training_writes_gallerist_checkpoints_and_snapshots(run_dir: Path) -> None:
    meta = read_checkpoint_meta(run_dir / "latest.zip")
    assert meta["game"] == "gallerist" and meta["env_version"] == "gallerist_v1"
    assert meta["config"]["env"]["game"] == "gallerist"
    assert "random" in meta["eval"]["results"]
    assert load_policy(run_dir / "best.safetensors").game == "gallerist"
    snapshots = list((run_dir / "pool").glob("snap_*.safetensors"))
    assert snapshots and all(load_policy(p).game == "gallerist" for p in snapshots)
    final = json.loads((run_dir / "best.json").read_text())["final_eval"]
    assert final["random"]["games"] == 2


def test_trained_policy_plays_legal_gallerist_games(run_dir: Path) -> None:
    game = get_game("gallerist")
    for name in ("latest.safetensors", "latest.zip"):
        agent = gallerist_agent(str(run_dir / name), 0)
        state = game.setup(2, 11)
        result = play_game(state, [agent, gallerist_agent("random", 1)], game.make_observer(state))
        assert state.is_over and len(result.actions) > 50  # the loop raises on an illegal one


def test_a_gallerist_policy_is_refused_for_art_gallery(run_dir: Path) -> None:
    with pytest.raises(CheckpointError, match="game 'gallerist', not 'art_gallery'"):
        make_agent(str(run_dir / "best.safetensors"))
    with pytest.raises(CheckpointError, match="not 'art_gallery'"):
        PolicyAgent(run_dir / "latest.zip", game="art_gallery")


def test_resume_keeps_training_the_gallerist(run_dir: Path, tmp_path: Path) -> None:
    config = _config(run_dir).model_copy(update={"total_steps": 384})
    train(config, resume=run_dir, progress_bar=False)
    meta = read_checkpoint_meta(run_dir / "latest.zip")
    assert meta["steps"] >= 384 and meta["game"] == "gallerist"


# -- config validation --------------------------------------------------------------------
@pytest.mark.parametrize(
    "changes,expected",
    [
        (
            {"env": {"game": "chess"}},
            ["env.game", "unknown game", "art_gallery, gallerist"],
        ),
        ({"env": {"game": "gallerist", "num_players": 5}}, ["Gallerist trains at 2..4", "got 5"]),
        (  # another game's variant is no key of this game's env section
            {"env": {"game": "gallerist", "zero_is_ten": True}},
            ["env.zero_is_ten: unknown key", "(variants of The Gallerist: none)"],
        ),
        (
            {"env": {"game": "gallerist", "variants": {"zero_is_ten": True}}},
            ["env: The Gallerist has no variant 'zero_is_ten' (variants: none)"],
        ),
        (
            {"env": {"game": "gallerist"}, "eval": {"opponents": ["heurstic"]}},
            ["eval.opponents[0]", "unknown agent 'heurstic' for The Gallerist"],
        ),
        (  # another game's policy cannot be a Gallerist opponent
            {"env": {"game": "gallerist"}, "eval": {"opponents": [str(LEGACY_POLICY)]}},
            ["eval.opponents[0]", "a policy for the game 'art_gallery', not 'gallerist'"],
        ),
        (  # a tool the game lacks: its capabilities say so, in one sentence
            {"env": {"game": "gallerist"}, "algorithm": "rllib_ppo", "n_envs": 2},
            [RLLIB_MISSING],
        ),
        (
            {"env": {"game": "gallerist"}, "vec_env": "vector"},
            ["vec_env: vector needs a compiled batched engine", "games that have it: art_gallery"],
        ),
    ],
)
def test_config_env_game_is_validated(tmp_path: Path, changes, expected) -> None:
    data = tiny_config_dict(tmp_path, 256, **changes)
    with pytest.raises(ConfigError) as err:
        config_from_dict(data, "cfg.yaml")
    for text in expected:
        assert text in str(err.value), str(err.value)


def test_config_game_defaults_to_art_gallery_and_the_quick_config_trains_the_gallerist() -> None:
    assert config_from_dict(tiny_config_dict(Path("x"), 8)).env.game == "art_gallery"
    quick = load_config(REPO / "configs" / "gallerist_quick.yaml")
    assert quick.env.game == "gallerist" and quick.env.num_players == 2
    assert quick.algorithm == "maskable_ppo"


def test_the_gallerist_configs_warm_start_from_its_heuristic() -> None:
    """checkpoints/gallerist_2p starts as a clone of the Gallerist heuristic."""
    from art_gallery_env.training.warm_start import collect

    config = load_config(REPO / "configs" / "gallerist_2p.yaml")
    assert config.env.game == "gallerist" and config.warm_start is not None
    assert config.warm_start.teacher == "heuristic" and config.pool.heuristic > 0.5
    data = collect("heuristic", [2], 1, seed=4, game="gallerist")
    spec = get_game("gallerist")
    state = spec.setup(2, 4)
    observer, seat = spec.make_observer(state), state.current_player
    sizes = (observer.observation(state, seat).size, observer.action_mask(state, seat).size)
    assert (data["obs"].shape[1], data["mask"].shape[1]) == sizes
    assert data["mask"][np.arange(len(data["action"])), data["action"]].all()  # legal labels
    assert len(set(data["value"].tolist())) == 2  # each seat's own final reward


def test_the_cli_prints_a_missing_capability_in_one_line_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = train_cli_refusal(tmp_path, capsys, "algorithm: rllib_ppo\nenv: {game: gallerist}\n")
    assert [line for line in err.splitlines() if RLLIB_MISSING in line], err
