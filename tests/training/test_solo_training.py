"""``art-gallery train`` trains a game's one-player (solo) game where the game has one:
the solo reward, no opponent pool, an evaluation that counts the games
reaching the goal, and the run folder, resume and stop-signal guarantees of every run."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")

from training_helpers import merge_config, small_run_dict, train_cli_refusal  # noqa: E402

from art_gallery_env.agents.registry import make_agent  # noqa: E402
from art_gallery_env.agents.run_checkpoint import read_checkpoint_meta  # noqa: E402
from art_gallery_env.arena.loop import play_game  # noqa: E402
from art_gallery_env.core.registry import get_game  # noqa: E402
from art_gallery_env.training.config import ConfigError, config_from_dict, load_config  # noqa: E402
from art_gallery_env.training.interrupt import TrainingInterrupted  # noqa: E402
from art_gallery_env.training.run_folder import verify_checkpoint  # noqa: E402
from art_gallery_env.training.sb3_trainer import train  # noqa: E402
from art_gallery_env.training.selection import selection_score  # noqa: E402
from art_gallery_env.training.selfplay import SelfPlayEnv  # noqa: E402
from art_gallery_env.training.solo import SOLO_KEY, solo_results  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
GAME = "gallerist"  # the registered game with a solo game (min_players 1)


def solo_dict(run_dir: Path, total_steps: int, **changes: Any) -> dict[str, Any]:
    """A one-player run with an 8-unit network and an evaluation of 2 games every 128 steps."""
    base = small_run_dict("solo_tiny", run_dir, total_steps, n_envs=1) | {
        "env": {"game": GAME, "num_players": 1},
        "eval": {"every_steps": 128, "games": 2, "final_games": 2, "final_workers": 1},
    }
    return merge_config(base, changes)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("solo_run")
    train(config_from_dict(solo_dict(folder, 256)), progress_bar=False)
    return folder


@pytest.mark.slow  # the module's tiny run: ~11 s on a loaded machine
def test_a_solo_run_trains_evaluates_alone_and_keeps_no_pool(run_dir: Path) -> None:
    meta = read_checkpoint_meta(run_dir / "latest.zip")
    assert meta["game"] == GAME and meta["steps"] >= 256
    assert meta["config"]["env"]["num_players"] == 1
    # the game's own solo default reward, not the multi-seat default score_margin
    assert meta["config"]["env"]["reward_mode"] == get_game(GAME).reward_modes_for(1)[0]
    results = meta["eval"]["results"]
    assert list(results) == [SOLO_KEY]
    solo = results[SOLO_KEY]
    assert solo["num_players"] == 1 and solo["games"] == 2
    assert solo["win_share"] == solo["goals"] / 2
    assert meta["eval"]["selection"] == solo["win_share"]
    assert not list((run_dir / "pool").glob("*.safetensors"))  # no opponents, no snapshots
    rows = (run_dir / "eval.csv").read_text().splitlines()
    assert rows[0].startswith("steps,opponent") and rows[1].split(",")[:2] == ["128", SOLO_KEY]
    final = json.loads((run_dir / "best.json").read_text())["final_eval"]
    assert final[SOLO_KEY]["games"] == 2


@pytest.mark.slow
def test_the_solo_policy_plays_a_legal_solo_game(run_dir: Path) -> None:
    game = get_game(GAME)
    agent = make_agent(str(run_dir / "best.safetensors"), 0, game=GAME)
    state = game.setup(1, 7)
    result = play_game(state, [agent], game.make_observer(state))
    assert state.is_over and len(result.actions) > 20  # the loop raises on an illegal one


@pytest.mark.slow
def test_resume_continues_the_solo_run(run_dir: Path) -> None:
    config = config_from_dict(solo_dict(run_dir, 384))
    train(config, resume=run_dir, progress_bar=False)
    meta = read_checkpoint_meta(run_dir / "latest.zip")
    assert meta["steps"] >= 384 and list(meta["eval"]["results"]) == [SOLO_KEY]
    steps = [int(r.split(",")[0]) for r in (run_dir / "eval.csv").read_text().splitlines()[1:]]
    assert steps == sorted(steps) and steps[-1] >= 384  # the log continued, not restarted


def test_sigterm_saves_latest_of_a_solo_run(tmp_path: Path, monkeypatch) -> None:
    run, calls, original = tmp_path / "run", [0], SelfPlayEnv.step

    def step(self, action):
        calls[0] += 1
        if calls[0] == 100:
            os.kill(os.getpid(), signal.SIGTERM)
        return original(self, action)

    monkeypatch.setattr(SelfPlayEnv, "step", step)
    with pytest.raises(BaseException) as info:
        train(config_from_dict(solo_dict(run, 10_000)), progress_bar=False)
    assert isinstance(info.value, TrainingInterrupted), repr(info.value)
    meta = verify_checkpoint(run / "latest.json")
    assert meta["steps"] == info.value.steps and meta["interrupted"] is True


def test_solo_results_do_not_depend_on_the_workers() -> None:
    one = solo_results("random", GAME, 2, 5, "money", workers=1)
    two = solo_results("random", GAME, 2, 5, "money", workers=2)
    assert one == two and one["num_players"] == 1 and one["mean_reward"] > 0
    assert one["mean_reward"] == pytest.approx(one["mean_score"] / 100)  # money / 100


def test_best_is_chosen_on_the_goal_share() -> None:
    config = config_from_dict(solo_dict(Path("x"), 8))
    results = {SOLO_KEY: {"win_share": 0.25}}
    assert selection_score(results, config) == 0.25


def test_the_solo_config_loads() -> None:
    config = load_config(REPO / "configs" / "gallerist_solo.yaml")
    assert config.env.solo and config.env.reward_mode in get_game(GAME).reward_modes_for(1)
    assert config.warm_start is not None and config.warm_start.teacher == "heuristic"
    assert config.torch_threads == 1  # one torch thread per process on 2-core machines


def test_the_solo_finetune_config_fits_the_critic_on_the_policys_own_games() -> None:
    """configs/gallerist_solo_finetune.yaml trains the committed solo policy further; the
    critic's first targets are that policy's returns (the heuristic's made it worse)."""
    config = load_config(REPO / "configs" / "gallerist_solo_finetune.yaml")
    ws = config.warm_start
    assert config.env.solo and ws is not None and ws.init is not None
    assert ws.teacher == ws.init and (REPO / ws.init).is_file()
    assert config.vec_env == "dummy" and config.torch_threads == 1


def test_the_committed_solo_checkpoint_plays_solo_games() -> None:
    """checkpoints/gallerist_solo is a solo policy of the Gallerist's
    current layout, and its metadata says it was trained alone."""
    path = REPO / "checkpoints" / "gallerist_solo.safetensors"
    meta = json.loads(path.with_suffix(".json").read_text())
    assert meta["game"] == GAME and meta["config"]["env"]["num_players"] == 1
    results = solo_results(str(path), GAME, games=2, seed=5, reward_mode="goals")
    assert results["games"] == 2 and results["mean_score"] > 0
    assert 0.0 < results["mean_reward"] < 4.0  # goals: level + a share, below 4


def test_every_solo_reward_mode_validates_and_level_stays_the_default(tmp_path: Path) -> None:
    modes = get_game(GAME).reward_modes_for(1)
    assert modes[0] == "level" and "goals" in modes  # the evaluation counts goals by modes[0]
    assert config_from_dict(solo_dict(tmp_path, 256)).env.reward_mode == "level"
    for mode in modes:
        config = config_from_dict(solo_dict(tmp_path, 256, env={"reward_mode": mode}))
        assert config.env.solo and config.env.reward_mode == mode


# -- bad configs: one line each, naming the legal choices -------------------------------
@pytest.mark.parametrize(
    "changes,expected",
    [
        (
            {"env": {"reward_mode": "win"}},
            "env: reward_mode for The Gallerist must be one of ['level', 'money', 'goals'] with 1 "
            "player, got 'win'",
        ),
        (
            {"env": {"num_players": [1, 2]}},
            "env: num_players: the solo game trains alone (its reward modes ['level', "
            "'money', 'goals'] rank no seats), not mixed with [1, 2]",
        ),
        (
            {"env": {"num_players": 5}},
            "env: num_players: The Gallerist trains at 2..4 players, or 1 alone (its solo "
            "game), got 5",
        ),
        (
            {"env": {"game": "art_gallery", "reward_mode": "win"}},
            "env: num_players: Art Gallery trains at 2..",
        ),
        ({"pool": {"heuristic": 1.0}}, "pool: the solo game has no opponents"),
        ({"eval": {"opponents": ["heuristic"]}}, "leave eval.opponents out"),
        (
            {"algorithm": "expert_iteration"},
            "env.num_players 1 (the solo game) trains with algorithm: maskable_ppo, got "
            "expert_iteration",
        ),
    ],
)
def test_a_bad_solo_config_is_one_line(tmp_path: Path, changes, expected) -> None:
    with pytest.raises(ConfigError) as err:
        config_from_dict(solo_dict(tmp_path, 256, **changes), "cfg.yaml")
    text = str(err.value)
    assert "\n" not in text and expected in text, text


def test_the_cli_refuses_a_bad_solo_config_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = f"env: {{game: {GAME}, num_players: 1, reward_mode: score_margin}}\n"
    err = train_cli_refusal(tmp_path, capsys, text)
    lines = [
        line for line in err.splitlines() if "must be one of ['level', 'money', 'goals']" in line
    ]
    assert lines, err
