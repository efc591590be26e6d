"""The compiled self-play VecEnv (``vec_env: vector``) against the Python engine: every
learner step is replayed in Python with the same opponents."""

from __future__ import annotations

import os
import random
import signal
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")
pytest.importorskip("numba", reason="the compiled engine needs the [fast] extra")

from art_gallery_env.agents.policy import PolicyAgent, save_policy_weights  # noqa: E402
from art_gallery_env.agents.policy_format import load_weights  # noqa: E402
from art_gallery_env.agents.run_checkpoint import read_checkpoint_meta  # noqa: E402
from art_gallery_env.games.art_gallery.env.aec import final_rewards  # noqa: E402
from art_gallery_env.games.art_gallery.env.observation import OBSERVATION_SIZE  # noqa: E402
from art_gallery_env.games.art_gallery.env.seat import SeatObserver  # noqa: E402
from art_gallery_env.games.art_gallery.heuristic import HeuristicAgent, HeuristicPolicy  # noqa: E402
from art_gallery_env.games.art_gallery.rules.actions import NUM_ACTIONS  # noqa: E402
from art_gallery_env.games.art_gallery.rules.cards import default_card_set  # noqa: E402
from art_gallery_env.games.art_gallery.vector.differential import comparable  # noqa: E402
from art_gallery_env.games.art_gallery.vector.heuristic_differential import python_top  # noqa: E402
from art_gallery_env.training.config import ConfigError  # noqa: E402
from art_gallery_env.training.interrupt import TrainingInterrupted  # noqa: E402
from art_gallery_env.training.run_folder import verify_checkpoint  # noqa: E402
from art_gallery_env.training.sb3_trainer import train  # noqa: E402
from art_gallery_env.training.selfplay import OpponentPool  # noqa: E402
from art_gallery_env.training.vector_env import (  # noqa: E402
    COMPILED,
    VectorSelfPlayEnv,
    split_slots,
)


def write_snapshot(folder: Path, seed: int = 0) -> Path:
    """A random 16-unit policy in ``folder`` (what the trainer's pool snapshots look like)."""
    rng = np.random.default_rng(seed)
    weights = {
        "layers.0.weight": rng.normal(size=(16, OBSERVATION_SIZE)).astype(np.float32),
        "layers.0.bias": rng.normal(size=16).astype(np.float32),
        "layers.1.weight": rng.normal(size=(NUM_ACTIONS, 16)).astype(np.float32),
        "layers.1.bias": rng.normal(size=NUM_ACTIONS).astype(np.float32),
    }
    folder.mkdir(parents=True, exist_ok=True)
    meta = {"hidden_sizes": [16], "activation": "tanh"}
    return save_policy_weights(weights, meta, folder / "snap_0000000000.safetensors")


def table_of(env: VectorSelfPlayEnv, row: int):
    for table in env.tables:
        if table.rows.start <= row < table.rows.stop:
            return table, row - table.rows.start
    raise IndexError(row)


@pytest.mark.parametrize(("players", "reward_mode"), [(2, "win"), (3, "score_margin")])
def test_every_step_matches_the_python_engine_with_a_snapshot_opponent(
    tmp_path: Path, players: int, reward_mode: str
) -> None:
    """Masks and observations are the learner seat's, opponents play until it is the
    learner's turn again (their batched choices are PolicyAgent's on each game alone),
    the reward at the end is the game's result for the learner, and a finished game hands
    back its terminal observation and is replaced by a new one with the next seat."""
    snapshot = write_snapshot(tmp_path / "pool")
    pool = OpponentPool({"self_play": 1.0}, tmp_path / "pool", seed=0)
    env = VectorSelfPlayEnv(6, players, pool, reward_mode=reward_mode, seed=5)
    opponent = PolicyAgent(snapshot)
    seats = SeatObserver(default_card_set())
    rng = np.random.default_rng(1)

    obs = env.reset()
    assert list(env._batched), "the snapshot is played batched, not game by game"
    ends = 0
    for _ in range(400):
        masks = np.stack(env.env_method("action_masks"))
        states = []
        for row in range(env.num_envs):
            table, i = table_of(env, row)
            state = table.game.to_state(i)
            learner = int(table.learner[i])
            assert state.current_player == learner, "the learner sees only its own turns"
            np.testing.assert_array_equal(obs[row], seats.observation(state, learner))
            np.testing.assert_array_equal(masks[row], seats.action_mask(state, learner) == 1)
            states.append((state, learner))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = env.step(actions)
        for row, (state, learner) in enumerate(states):
            state.apply(int(actions[row]))
            while not state.is_over and state.current_player != learner:
                seat = state.current_player
                state.apply(opponent.act(*seats.inputs(state, seat)))
            table, i = table_of(env, row)
            if not state.is_over:
                assert not dones[row] and rewards[row] == 0.0
                assert comparable(table.game.to_state(i)) == comparable(state)
                continue
            ends += 1
            breakdown = state.score_breakdown()
            assert dones[row]
            assert rewards[row] == pytest.approx(final_rewards(breakdown, reward_mode)[learner])
            assert infos[row]["won"] == (breakdown[learner]["rank"] == 1)
            assert infos[row]["learner_seat"] == learner
            terminal = infos[row]["terminal_observation"]
            np.testing.assert_array_equal(terminal, seats.observation(state, learner))
            assert table.learner[i] == (learner + 1) % players, "the seat rotates"
            assert table.game.to_state(i).round == 1  # the new game waits for the learner
    assert ends >= 6


def test_heuristic_and_random_opponents_play_full_games(tmp_path: Path) -> None:
    pool = OpponentPool({"heuristic": 1.0, "random": 1.0}, seed=0)
    env = VectorSelfPlayEnv(4, [2, 4], pool, player_weights=[1, 1], seed=2)
    assert [t.game.num_players for t in env.tables] == [2, 4]
    rng = np.random.default_rng(0)
    env.reset()
    assert any(isinstance(a, HeuristicAgent) for a in env._agents)
    ends = 0
    for _ in range(300):
        masks = env.action_masks()
        _, _, dones, infos = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        ends += int(dones.sum())
        for table in env.tables:
            assert np.array_equal(table.game.current_player, table.learner)
    assert ends >= 4
    assert {info["table_size"] for info in infos if info} <= {2, 4}


def test_heuristic_opponents_are_compiled_and_play_heuristic_moves(monkeypatch) -> None:
    """The heuristic moves all its games through the engine's compiled twin (never the
    Python path), and every move it makes is one the Python heuristic would make there."""
    pool = OpponentPool({"heuristic": 1.0}, seed=0)
    env = VectorSelfPlayEnv(4, 3, pool, seed=3)
    env.compiled_rounds = False  # every move through game.step (play_seats gives the same
    # games in fewer calls: tests/training/test_vector_env_rounds.py)
    table = env.tables[0]
    game, real_step, seen = table.game, table.game.step, []

    def recording_step(actions, active=None):
        rows = np.ones(game.num_envs, bool) if active is None else np.asarray(active)
        for i in np.flatnonzero(rows):
            seen.append((game.to_state(int(i)), int(table.learner[i]), int(actions[i])))
        return real_step(actions, active)

    def no_python(*args):
        raise AssertionError("the heuristic was played game by game in Python")

    monkeypatch.setattr(game, "step", recording_step)
    monkeypatch.setattr(env, "_choose", no_python)
    env.reset()
    assert env._agent_kind == [COMPILED]
    rng = np.random.default_rng(0)
    for _ in range(40):
        env.step(np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks()]))
    moves = [(state, a) for state, learner, a in seen if state.current_player != learner]
    assert len(moves) > 150
    policy, tie_rng = HeuristicPolicy(), random.Random(0)
    for state, action in moves:
        assert action in python_top(policy, state, tie_rng)[1]


def test_variants_reach_the_compiled_engine() -> None:
    """The env passes the game's variants (checked by its spec) to its engine by name."""
    env = VectorSelfPlayEnv(2, 3, variants={"zero_is_ten": True}, seed=0)
    assert [t.game.zero_is_ten for t in env.tables] == [True]
    env.close()
    assert VectorSelfPlayEnv(2, 3, seed=0).tables[0].game.zero_is_ten is False  # the default
    with pytest.raises(ValueError, match="Art Gallery has no variant 'zero_is_tn'"):
        VectorSelfPlayEnv(2, 3, variants={"zero_is_tn": True})
    with pytest.raises(ValueError, match="VectorSelfPlayEnv needs a compiled batched engine"):
        VectorSelfPlayEnv(2, 3, game="gallerist")


def test_the_same_seed_gives_the_same_games(tmp_path: Path) -> None:
    def play(seed: int) -> list[np.ndarray]:
        pool = OpponentPool({"heuristic": 1.0, "random": 1.0}, seed=0)
        env = VectorSelfPlayEnv(3, 2, pool, seed=seed)
        out = [env.reset()]
        for _ in range(60):
            masks = env.action_masks()
            out.append(env.step(np.argmax(masks, axis=1))[0])
        return out

    first, again, other = play(1), play(1), play(2)
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other))


def test_slots_are_split_by_table_weights() -> None:
    assert split_slots(10, [2, 4], [1, 1]) == {2: 5, 4: 5}
    assert split_slots(10, [2, 3, 4], [3, 2, 0]) == {2: 6, 3: 4}
    assert split_slots(3, [2, 3, 4], [100, 1, 1]) == {2: 1, 3: 1, 4: 1}
    assert sum(split_slots(64, [2, 3, 4, 5, 6], [5, 1, 1, 1, 1]).values()) == 64
    with pytest.raises(ValueError, match="at least one env slot"):
        split_slots(1, [2, 4], [1, 1])


def test_an_illegal_learner_action_raises_and_changes_nothing() -> None:
    env = VectorSelfPlayEnv(2, 2, seed=0)
    obs = env.reset()
    masks = env.action_masks()
    actions = np.argmax(masks, axis=1)
    actions[1] = int(np.flatnonzero(~masks[1])[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(actions)
    np.testing.assert_array_equal(env.action_masks(), masks)
    np.testing.assert_array_equal(env.tables[0].game.observe(env.tables[0].learner), obs)


def test_training_with_the_vector_env_saves_evaluates_and_resumes(tmp_path, tiny_config) -> None:
    run = tmp_path / "run"
    config = tiny_config(run, 256, vec_env="vector", n_envs=8, ppo={"n_steps": 16})
    train(config, progress_bar=False)
    meta = verify_checkpoint(run / "latest.json")
    assert meta["steps"] == 256 and "random" in meta["eval"]["results"]
    assert list((run / "pool").glob("snap_*.safetensors"))
    again = tmp_path / "again"
    train(
        tiny_config(again, 256, vec_env="vector", n_envs=8, ppo={"n_steps": 16}), progress_bar=False
    )
    same = load_weights(run / "latest.safetensors").layers
    for (w, b), (w2, b2) in zip(same, load_weights(again / "latest.safetensors").layers):
        assert np.array_equal(w, w2) and np.array_equal(b, b2), "same seed, same weights"
    train(
        tiny_config(run, 384, vec_env="vector", n_envs=8, ppo={"n_steps": 16}),
        resume=run,
        progress_bar=False,
    )
    assert verify_checkpoint(run / "latest.json")["steps"] == 384


def test_a_signal_during_vector_training_saves_latest(tmp_path, tiny_config, monkeypatch) -> None:
    run = tmp_path / "run"
    calls = [0]
    original = VectorSelfPlayEnv.step_wait

    def step_wait(self):
        calls[0] += 1
        if calls[0] == 20:
            os.kill(os.getpid(), signal.SIGINT)
        return original(self)

    monkeypatch.setattr(VectorSelfPlayEnv, "step_wait", step_wait)
    with pytest.raises(BaseException) as info:
        train(
            tiny_config(run, 10_000, vec_env="vector", n_envs=4, eval={"every_steps": 5_000}),
            progress_bar=False,
        )
    assert isinstance(info.value, TrainingInterrupted), repr(info.value)
    assert verify_checkpoint(run / "latest.json")["steps"] == info.value.steps == 80


def test_vector_without_numba_is_a_config_error(tmp_path, tiny_config, monkeypatch) -> None:
    monkeypatch.setitem(
        sys.modules, "art_gallery_env.games.art_gallery.vector", None
    )  # as without numba
    with pytest.raises(ConfigError, match=r"vec_env: vector needs numba.*\[fast\]"):
        train(tiny_config(tmp_path / "run", 256, vec_env="vector"), progress_bar=False)
    assert not (tmp_path / "run").exists(), "nothing is written before the check"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"vec_env": "vector", "env": {"game": "gallerist"}},
            r"vec_env: vector needs a compiled batched engine .*, which The Gallerist "
            r"\('gallerist'\) does not have; games that have it: art_gallery",
        ),
    ],
)
def test_env_choices_the_vec_env_cannot_play_are_config_errors(
    tmp_path, tiny_config, changes, message
) -> None:
    with pytest.raises(ConfigError, match=message):
        train(tiny_config(tmp_path / "run", 256, **changes), progress_bar=False)
    assert not (tmp_path / "run").exists()


@pytest.mark.slow
def test_mixed_table_sizes_train_on_the_vector_env_and_evaluate_at_each(
    tmp_path, tiny_config
) -> None:
    config = tiny_config(tmp_path / "run", 256, vec_env="vector", env={"num_players": [2, 4]})
    train(config, progress_bar=False)
    results = read_checkpoint_meta(tmp_path / "run" / "latest.zip")["eval"]["results"]
    assert {entry["num_players"] for entry in results.values()} == {2, 4}
