"""Behaviour cloning warm start: the teacher's dataset, the masked cross-entropy, and
that cloning raises agreement with the teacher on held-out games."""

from __future__ import annotations

import json

import numpy as np
import pytest
from training_helpers import tiny_config_dict

from art_gallery_env.games.art_gallery.env.observation import OBSERVATION_SIZE
from art_gallery_env.games.art_gallery.rules.actions import NUM_ACTIONS
from art_gallery_env.training import warm_start
from art_gallery_env.training.config import WarmStartConfig, config_from_dict


def test_dataset_rows_are_legal_teacher_decisions():
    data = warm_start.collect("heuristic", [2, 3], games=2, seed=1)
    rows = len(data["action"])
    assert data["obs"].shape == (rows, OBSERVATION_SIZE)
    assert data["obs"].dtype == np.float16
    assert data["mask"].shape == (rows, NUM_ACTIONS)
    assert data["mask"][np.arange(rows), data["action"]].all()  # every action was legal
    assert set(np.unique(data["game"])) == {0, 1, 2, 3}
    assert set(np.unique(data["players"])) == {2, 3}
    assert data["value"].shape == (rows,)
    assert np.abs(data["value"]).max() > 0  # score margins, not all zero
    again = warm_start.collect("heuristic", [2, 3], games=2, seed=1)
    assert np.array_equal(again["action"], data["action"])  # seeded


def test_explore_leaves_the_teacher_path_but_keeps_its_labels():
    plain = warm_start.collect("heuristic", [2], games=2, seed=1)
    noisy = warm_start.collect("heuristic", [2], games=2, seed=1, explore=0.5)
    rows = len(noisy["action"])
    assert noisy["mask"][np.arange(rows), noisy["action"]].all()  # labels still legal
    assert rows != len(plain["action"]) or not np.array_equal(noisy["obs"], plain["obs"])


@pytest.fixture
def one_thread():
    """One torch thread (as the trainer sets): many threads on a busy 2-core machine
    turn a second of training into minutes."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _policy(hidden: int = 32):
    from art_gallery_env.training.sb3_trainer import new_mlp_model

    return new_mlp_model([hidden])  # seeds torch itself (seed 0)


def test_cloning_raises_held_out_agreement_with_the_teacher(one_thread):
    data = warm_start.collect("heuristic", [2], games=12, seed=0)
    ws = WarmStartConfig(bc_games=12, epochs=8, batch_size=64, learning_rate=3e-3, holdout=0.25)
    model = _policy()
    train, held = warm_start.split(data, ws.holdout)
    assert set(np.unique(held["game"])).isdisjoint(np.unique(train["game"]))
    stats = warm_start.clone(model.policy, data, ws)
    assert stats["rows"] == len(train["action"])
    assert stats["agreement_after"] == pytest.approx(warm_start.agreement(model.policy, held))
    assert stats["agreement_after"] > stats["agreement_before"] + 0.2
    assert stats["agreement_after"] > 0.6


def test_dataset_is_cached_in_the_run_folder(tmp_path, monkeypatch):
    config = config_from_dict(
        tiny_config_dict(tmp_path, 64, warm_start={"bc_games": 1}, env={"num_players": [2]})
    )
    first = warm_start.load_or_collect(tmp_path, config)
    path = tmp_path / warm_start.FOLDER / warm_start.DATA_FILE
    assert path.is_file()

    def fail(*args, **kwargs):
        raise AssertionError("collected again")

    monkeypatch.setattr(warm_start, "collect", fail)
    monkeypatch.setattr(warm_start, "compiled_collect", fail)
    second = warm_start.load_or_collect(tmp_path, config)
    assert np.array_equal(first["obs"], second["obs"])
    other = config.model_copy(update={"seed": 99})  # other settings: not reused
    with pytest.raises(AssertionError, match="collected again"):
        warm_start.load_or_collect(tmp_path, other)


def test_a_cache_written_before_variants_is_reused(tmp_path, monkeypatch):
    """A cache from before games were named keys its variants as keys of their own (as
    configs did) and names no game: it is the default game's, and is reused."""
    config = config_from_dict(
        tiny_config_dict(tmp_path, 64, warm_start={"bc_games": 1}, env={"num_players": [2]})
    )
    data = warm_start.load_or_collect(tmp_path, config)
    key = warm_start.cache_key(config)
    old_key = {k: v for k, v in key.items() if k not in ("game", "variants", "collector")}
    old_key.update(key["variants"])  # {"teacher": ..., "zero_is_ten": False, ...}
    path = tmp_path / warm_start.FOLDER / warm_start.DATA_FILE

    def write(stored_key: dict) -> None:
        np.savez(path, key=np.asarray(json.dumps(stored_key)), **data)

    def fail(*args, **kwargs):
        raise AssertionError("collected again")

    write(old_key)
    monkeypatch.setattr(warm_start, "collect", fail)
    monkeypatch.setattr(warm_start, "compiled_collect", fail)
    assert np.array_equal(warm_start.load_or_collect(tmp_path, config)["obs"], data["obs"])
    for changed in ({"zero_is_ten": True}, {"game": "gallerist"}, {"zero_is_tn": False}):
        write({**old_key, **changed})  # another variant, another game, an unreadable key
        with pytest.raises(AssertionError, match="collected again"):
            warm_start.load_or_collect(tmp_path, config)


def test_a_warm_started_run_saves_and_evaluates_step_zero(tmp_path):
    from art_gallery_env.training.sb3_trainer import train

    data = tiny_config_dict(
        tmp_path / "run",
        64,
        env={"num_players": [2, 3]},
        warm_start={"bc_games": 1, "epochs": 1},
        eval={"every_steps": 1000},
    )
    run_dir = train(config_from_dict(data), progress_bar=False)
    steps = [line.split(",")[0] for line in (run_dir / "eval.csv").read_text().splitlines()[1:]]
    assert steps[:2] == ["0", "0"]  # both table sizes evaluated at step 0
    assert (run_dir / warm_start.FOLDER / warm_start.DATA_FILE).is_file()
    latest = json.loads((run_dir / "latest.json").read_text())
    assert latest["steps"] >= 64
    assert set(latest["eval"]["results"]) == {"random@2p", "random@3p"}


class _FirstLegal:
    """A student that plays the first legal action and remembers what it played."""

    def __init__(self) -> None:
        self.played: list[int] = []

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation, action_mask, view=None) -> int:
        self.played.append(int(np.flatnonzero(action_mask)[0]))
        return self.played[-1]


def test_dagger_games_label_the_students_own_decisions_with_the_teacher():
    student = _FirstLegal()
    data = warm_start.collect("heuristic", [2, 3], games=2, seed=1, student=student)
    mine = data["student"]
    assert mine.sum() == len(student.played) > 0  # one seat per game is the student's
    assert not mine.all()  # the other seats are the teacher's
    rows = len(data["action"])
    assert data["mask"][np.arange(rows), data["action"]].all()
    labels = data["action"][mine]
    assert not np.array_equal(labels, np.asarray(student.played))  # the teacher's labels
    teacher_only = warm_start.collect("heuristic", [2, 3], games=2, seed=1)
    assert not teacher_only["student"].any()
    assert len(teacher_only["action"]) != rows or not np.array_equal(
        teacher_only["obs"], data["obs"]
    )  # the student's play led the games elsewhere


def test_dagger_rounds_add_the_clones_games_to_the_data(tmp_path, one_thread, monkeypatch):
    splits = []  # (training games, held-out games) of every cloning pass
    real_clone = warm_start.clone

    def recording_clone(policy, data, ws, seed=0, epochs=None, held_out=None, critic_only=False):
        if held_out is None:
            train, held = warm_start.split(data, ws.holdout, seed)
        else:
            train, held = data, held_out
        splits.append((set(train["game"].tolist()), set(held["game"].tolist())))
        return real_clone(policy, data, ws, seed, epochs, held_out, critic_only)

    monkeypatch.setattr(warm_start, "clone", recording_clone)
    config = config_from_dict(
        tiny_config_dict(
            tmp_path,
            64,
            env={"num_players": [2]},
            network={"hidden_sizes": [32]},
            warm_start={
                "bc_games": 4,
                "epochs": 1,
                "holdout": 0.25,
                "dagger_rounds": 2,
                "dagger_games": 4,
            },
        )
    )
    stats = warm_start.warm_start(_policy(), tmp_path, config)
    first, *rounds = [stats, *stats["dagger"]]
    assert len(rounds) == 2
    assert first["rows"] < rounds[0]["rows"] < rounds[1]["rows"]  # the data grows
    for r in rounds:
        assert 0.0 <= r["agreement_on_own_states"] <= 1.0
    json.dumps(stats)  # goes into the step-0 checkpoint's metadata
    (train0, held0), *later = splits
    for train, held in later:  # held-out games stay held out; new games join both sides
        assert held0 < held and train0 < train and not train & held


def test_a_start_that_fails_while_cloning_keeps_the_teachers_data_for_the_next(
    tmp_path, monkeypatch
):
    from art_gallery_env.training.sb3_trainer import train

    run = tmp_path / "run"
    data = tiny_config_dict(
        run, 64, env={"num_players": [2]}, warm_start={"bc_games": 1, "epochs": 1}
    )

    def broken_clone(*args, **kwargs):
        raise RuntimeError("cloning failed")

    monkeypatch.setattr(warm_start, "clone", broken_clone)
    with pytest.raises(RuntimeError, match="cloning failed"):
        train(config_from_dict(data), progress_bar=False)
    assert sorted(p.name for p in run.iterdir()) == [warm_start.FOLDER]  # only the cache
    assert (run / warm_start.FOLDER / warm_start.DATA_FILE).is_file()

    monkeypatch.undo()

    def fail(*args, **kwargs):
        raise AssertionError("collected again")

    monkeypatch.setattr(warm_start, "collect", fail)
    train(config_from_dict(data), progress_bar=False)  # same command: accepted, cache reused
    assert (run / "latest.json").is_file()


def _actor_and_critic(model) -> tuple[list[np.ndarray], list[np.ndarray]]:
    policy = model.policy
    actor = [*policy.mlp_extractor.policy_net.parameters(), *policy.action_net.parameters()]
    critic = warm_start._critic_parameters(policy)
    return [p.detach().numpy().copy() for p in actor], [p.detach().numpy().copy() for p in critic]


def test_init_starts_from_the_checkpoints_actor_and_trains_only_the_critic(tmp_path, one_thread):
    from art_gallery_env.agents.model_policy import export_model_weights
    from art_gallery_env.training.sb3_trainer import new_mlp_model

    trained = new_mlp_model([32], seed=11)
    path = export_model_weights(trained, tmp_path / "trained.safetensors", {"name": "t"})
    config = config_from_dict(
        tiny_config_dict(
            tmp_path / "run",
            64,
            network={"hidden_sizes": [32]},
            warm_start={"bc_games": 2, "epochs": 2, "init": str(path)},
        )
    )
    model = _policy()  # seed 0: other weights than the checkpoint's
    critic_before = _actor_and_critic(model)[1]
    stats = warm_start.warm_start(model, tmp_path / "run", config)
    actor, critic = _actor_and_critic(model)
    for mine, theirs in zip(actor, _actor_and_critic(trained)[0], strict=True):
        np.testing.assert_array_equal(mine, theirs)  # loaded, then left alone
    assert any(not np.array_equal(a, b) for a, b in zip(critic, critic_before, strict=True))
    assert stats["agreement_after"] == stats["agreement_before"]  # the actor did not train


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"network": {"hidden_sizes": [16]}}, "hidden_sizes [32] (network: says [16])"),
        ({"warm_start": {"dagger_rounds": 1}}, "has no DAgger rounds; use 0"),
        ({"warm_start": {"init": "missing.safetensors"}}, "no such checkpoint file"),
        ({"env": {"game": "gallerist"}}, "a policy for the game 'art_gallery', not 'gallerist'"),
    ],
)
def test_a_bad_init_is_refused_in_one_line_when_the_config_loads(tmp_path, changes, message):
    from art_gallery_env.agents.model_policy import export_model_weights
    from art_gallery_env.training.config import ConfigError
    from art_gallery_env.training.sb3_trainer import new_mlp_model

    path = export_model_weights(new_mlp_model([32]), tmp_path / "p.safetensors", {"name": "p"})
    data = tiny_config_dict(
        tmp_path / "run", 64, network={"hidden_sizes": [32]}, warm_start={"init": str(path)}
    )
    for key, value in changes.items():
        data[key] = {**data.get(key, {}), **value}
    with pytest.raises(ConfigError, match="warm_start") as err:
        config_from_dict(data)
    assert message in str(err.value)
    assert "\n" not in str(err.value)
