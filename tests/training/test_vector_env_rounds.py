"""The self-play VecEnv's opponents played in the engine (``VectorGame.play_seats``) give
the same games as its round-by-round Python loop: every observation, mask, reward, info
and, at the end, every state array and random stream (the rollout's speed)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")
pytest.importorskip("numba", reason="the compiled engine needs the [fast] extra")

from test_vector_env import write_snapshot  # noqa: E402

from art_gallery_env.agents.policy_format import save_network_weights  # noqa: E402
from art_gallery_env.games.art_gallery.vector import VectorGame  # noqa: E402
from art_gallery_env.games.art_gallery.vector.kernels import _GOLDEN, NUM_HEURISTIC_PARAMS  # noqa: E402
from art_gallery_env.training.sb3_policy import build_network  # noqa: E402
from art_gallery_env.training.selfplay import OpponentPool  # noqa: E402
from art_gallery_env.training.vector_env import VectorSelfPlayEnv  # noqa: E402


@pytest.fixture(autouse=True)
def one_torch_thread():
    """The snapshots' forward passes on one thread (torch's OpenMP threads spin on a
    loaded machine: a small forward took 6 ms instead of 0.5 on two)."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def write_entity_snapshot(folder: Path) -> Path:
    """A small random entity network (the new stack's snapshots) in ``folder``."""
    import torch

    torch.manual_seed(0)
    net = build_network({"type": "entity", "hidden_sizes": [16], "token_dim": 8, "pointer_dim": 8})
    with torch.no_grad():  # logits far from ties: their argmax does not hang on rounding
        net.pi.weight.mul_(100.0)
    path = folder / "snap_0000000001.safetensors"
    return save_network_weights(net.export_tensors(), {**net.header(), "name": path.stem}, path)


def play(folder: Path, weights: dict, sizes: list[int], compiled: bool, steps: int) -> tuple:
    """Everything the env hands the learner over ``steps`` random learner steps, and its
    engines' state arrays at the end."""
    pool = OpponentPool(weights, folder, seed=3)
    env = VectorSelfPlayEnv(18, sizes, pool, reward_mode="score_margin", seed=7)
    env.compiled_rounds = compiled
    rng = np.random.default_rng(0)
    seen = [env.reset(), env.action_masks()]
    for _ in range(steps):
        masks = env.action_masks()
        obs, rewards, dones, infos = env.step(
            np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        )
        ends = [
            (k, info["terminal_observation"], info["won"], info["score"], info["learner_seat"])
            for k, info in enumerate(infos)
            if info
        ]
        seen += [obs, env.action_masks(), rewards, dones, ends]
    states = [np.array(field) for table in env.tables for field in table.game.state]
    kinds = sorted(set(env._agent_kind))
    env.close()
    return seen, states, kinds


def equal(a: object, b: object) -> bool:
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and np.array_equal(a, b)
    return a == b


@pytest.mark.parametrize(
    ("weights", "sizes"),
    [
        ({"self_play": 0.3, "heuristic": 0.7}, [2, 4, 6]),  # ppo_all's opponents
        ({"self_play": 1.0, "heuristic": 1.0, "random": 1.0}, [3, 5]),
    ],
)
def test_play_seats_gives_the_games_of_the_round_loop(
    tmp_path: Path, weights: dict, sizes: list[int]
) -> None:
    write_snapshot(tmp_path)  # an MLP snapshot
    write_entity_snapshot(tmp_path)
    fast, fast_states, kinds = play(tmp_path, weights, sizes, compiled=True, steps=80)
    slow, slow_states, _ = play(tmp_path, weights, sizes, compiled=False, steps=80)
    assert len(kinds) >= 2, "snapshots and the compiled heuristic both played"
    assert sum(len(x) for x in fast[6::5]) >= 10, "games ended (rewards, terminal infos)"
    assert equal(fast, slow)
    assert equal(fast_states, slow_states), "the same states and random streams"


def test_play_seats_stops_at_the_caller_and_counts_draws() -> None:
    """A seat the caller plays is not moved (its draw taken); random seats are."""
    game = VectorGame(4, 3, seed=1, auto_reset=False)
    kind = np.full((4, 3), VectorGame.SEAT_RANDOM, dtype=np.int64)
    kind[:, 2] = VectorGame.SEAT_CALLER
    decisions = np.zeros(4, dtype=np.int64)
    stop = np.zeros(4, dtype=np.int64)
    before = game.state.action_rng.copy()
    _, dones, need = game.play_seats(stop, kind, np.zeros_like(kind), np.zeros((0, 0)), decisions)
    current = game.current_player
    assert not dones.any()
    assert np.array_equal(need, current == 2)
    assert ((current == 0) | (current == 2)).all()
    assert (decisions >= need).all() and decisions.sum() > 0
    draws = game.state.action_rng - before
    assert np.array_equal(draws, decisions.astype(np.uint64) * _GOLDEN)
    with pytest.raises(ValueError, match="seat_params of compiled seats"):
        kind[:, 1] = VectorGame.SEAT_COMPILED
        params = np.zeros((1, NUM_HEURISTIC_PARAMS))
        game.play_seats(stop, kind, np.full_like(kind, 3), params, decisions)
