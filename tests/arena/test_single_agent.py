"""The registered Gymnasium env: ``gymnasium.make("art_gallery_env/ArtGallery-v0", ...)``.

It is the trainers' self-play env with fixed opponents (one class: ``SingleAgentEnv``),
passes Gymnasium's own ``check_env``, gives the mask in ``info`` and ``action_masks()``,
credits only the learner's seat, and is enough for a plain training loop.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import art_gallery_env
from art_gallery_env.agents.base import Agent
from art_gallery_env.arena.single_agent import SingleAgentEnv
from art_gallery_env.games.art_gallery.env.aec import final_rewards
from art_gallery_env.games.art_gallery.rules.game import IllegalActionError

ROOT = Path(__file__).resolve().parents[2]
CHECKPOINT = ROOT / "checkpoints" / "ppo_4p.safetensors"
ENV_ID = art_gallery_env.GYM_ENV_ID


def _check(env) -> None:
    """check_env, with its one expected warning (the observation Box is unbounded above,
    as in the AEC env: scores and chain sums have no fixed maximum) filtered out."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    problems = [
        str(w.message)
        for w in caught
        if "maximum value is infinity" not in str(w.message)
        and "different from the unwrapped" not in str(w.message)
    ]
    assert problems == []


def _play(env, rng: np.random.Generator, seed: int | None = None):
    obs, info = env.reset(seed=seed)
    steps, total = 0, 0.0
    while True:
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        assert np.array_equal(mask.astype(bool), env.unwrapped.action_masks())
        obs, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(mask)))
        assert obs in env.observation_space and not truncated
        total += reward
        steps += 1
        if terminated:
            return info, total, steps
        assert reward == 0.0


def test_registered_id_builds_the_one_single_agent_env_and_passes_check_env() -> None:
    env = gymnasium.make(ENV_ID, num_players=4, opponents=["heuristic", "random", str(CHECKPOINT)])
    assert type(env.unwrapped) is SingleAgentEnv
    from art_gallery_env.training.selfplay import SelfPlayEnv

    assert issubclass(SelfPlayEnv, SingleAgentEnv), "the trainers' env is the same class"
    _check(env.unwrapped)
    _check(env)
    names = [type(a).__name__ for a in env.unwrapped.opponent_source.agents]
    assert names == ["HeuristicAgent", "RandomAgent", "PolicyAgent"]


def test_make_imports_the_package_itself() -> None:
    """``module:id`` makes Gymnasium import the registering package (no import first)."""
    code = (
        "import gymnasium, sys\n"
        "assert 'art_gallery_env' not in sys.modules\n"
        "env = gymnasium.make('art_gallery_env:art_gallery_env/ArtGallery-v0', num_players=3)\n"
        "obs, info = env.reset(seed=0)\n"
        "print(obs.shape, int(info['action_mask'].sum()) > 0)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="/"
    )
    assert out.stdout.strip() == "(2221,) True"


@pytest.mark.parametrize("num_players", [2, 4])
def test_opponents_sit_after_the_learner_and_only_its_reward_is_credited(num_players) -> None:
    env = gymnasium.make(ENV_ID, num_players=num_players, opponents="random", reward_mode="win")
    rng = np.random.default_rng(1)
    seats, outcomes = [], set()
    for episode in range(2 * num_players):
        info, total, _ = _play(env, rng, seed=100 if episode == 0 else None)
        inner = env.unwrapped
        learner = info["learner_seat"]
        seats.append(learner)
        expected = final_rewards(inner.state.score_breakdown(), "win")[learner]
        assert total == expected
        assert info["won"] == (expected > 0)
        outcomes.add(expected)
        for k, seat in enumerate((learner + j) % num_players for j in range(1, num_players)):
            assert inner.opponents[seat] is inner.opponent_source.agents[k]
        assert not inner.action_masks().any() and not info["action_mask"].any()
    assert seats == [e % num_players for e in range(2 * num_players)], "the seat rotates"
    assert len(outcomes) > 1, "a random learner among random opponents wins and loses"


def test_fixed_learner_seat_and_seeded_episodes_repeat() -> None:
    env = gymnasium.make(ENV_ID, num_players=3, opponents="heuristic", learner_seat=2)
    first = _play(env, np.random.default_rng(5), seed=7)
    again = _play(env, np.random.default_rng(5), seed=7)
    assert first[0]["learner_seat"] == again[0]["learner_seat"] == 2
    assert first[0]["score"] == again[0]["score"] and first[2] == again[2]


def test_illegal_and_malformed_actions() -> None:
    env = gymnasium.make(ENV_ID, num_players=2)  # registered default: terminate
    obs, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] == illegal
    with pytest.raises(RuntimeError, match="call reset"):
        env.unwrapped.step(0)

    strict = SingleAgentEnv(2, "random", illegal_action="raise")  # the trainers' strict mode
    obs, info = strict.reset(seed=3)
    before = strict.state.to_dict()
    with pytest.raises(IllegalActionError, match="legal actions"):
        strict.step(illegal)
    assert strict.state.to_dict() == before, "a refused action changes nothing"
    for bad in (0.7, True, 47, -1, "3"):
        with pytest.raises(ValueError, match="0..46"):
            strict.step(bad)


def test_bad_arguments_name_the_choices() -> None:
    with pytest.raises(ValueError, match="need 3 opponents"):
        SingleAgentEnv(4, ["random", "random"])
    with pytest.raises(ValueError, match="learner_seat"):
        SingleAgentEnv(2, learner_seat=2)
    with pytest.raises(ValueError, match="reward_mode"):
        SingleAgentEnv(2, reward_mode="points")
    with pytest.raises(ValueError, match="unknown agent"):
        SingleAgentEnv(2, ["nobody"])
    with pytest.raises(TypeError, match="agent specs"):
        SingleAgentEnv(3, [1, 2])


def test_render_ansi_shows_the_learners_view() -> None:
    env = gymnasium.make(ENV_ID, num_players=2, render_mode="ansi", learner_seat=1)
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "Shop" in text


class _Recorder(Agent):
    name = "recorder"

    def __init__(self) -> None:
        self.seats: set[int] = set()

    def act(self, observation, action_mask, view=None) -> int:
        self.seats.add(view.player)
        return int(np.flatnonzero(action_mask)[0])


def test_agent_objects_are_accepted_as_opponents() -> None:
    recorder = _Recorder()
    env = SingleAgentEnv(2, [recorder], learner_seat=0)
    _play(env, np.random.default_rng(0), seed=0)
    assert recorder.seats == {1}


@pytest.mark.slow
def test_a_plain_masked_policy_gradient_loop_learns() -> None:
    """No SB3: the Gymnasium API plus info["action_mask"] is all a training loop needs.

    A linear softmax policy over the masked logits, trained by REINFORCE (batch-normalised
    returns) for 100 two-player episodes (~14,000 learner steps) against random opponents,
    must win clearly more of 60 held-out games than the untrained (uniform masked) policy.
    """
    env = gymnasium.make(ENV_ID, num_players=2, opponents="random")
    obs_size = env.observation_space.shape[0]
    weights = np.zeros((obs_size, env.action_space.n), np.float32)
    rng = np.random.default_rng(0)

    def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = np.where(mask > 0, obs @ weights, -np.inf)
        p = np.exp(logits - logits.max())
        return p / p.sum()

    obs, info = env.reset(seed=0)
    batch: list[tuple[np.ndarray, np.ndarray, float]] = []
    for _ in range(100):
        xs, grads = [], []
        while True:
            p = policy(obs, info["action_mask"])
            action = rng.choice(len(p), p=p)
            assert info["action_mask"][action] == 1
            grad = -p
            grad[action] += 1.0  # d log p(action) / d logits
            xs.append(obs)
            grads.append(grad)
            obs, reward, terminated, _, info = env.step(action)
            if terminated:
                break
        batch.append((np.stack(xs), np.stack(grads), reward))
        obs, info = env.reset()
        if len(batch) == 10:
            returns = np.array([r for *_, r in batch])
            advantages = (returns - returns.mean()) / (returns.std() + 1e-8)
            for (x, g, _), adv in zip(batch, advantages):
                weights += (2.0 / 1000) * adv * (x.T @ g).astype(np.float32)
            batch = []

    def wins(trained: bool) -> int:
        won = 0
        for game in range(60):
            obs, info = env.reset(seed=10_000 + game)
            play_rng = np.random.default_rng(game)
            while True:
                mask = info["action_mask"]
                p = policy(obs, mask) if trained else mask / mask.sum()
                obs, _, terminated, _, info = env.step(play_rng.choice(len(p), p=p))
                if terminated:
                    won += info["won"]
                    break
        return won

    untrained, trained = wins(False), wins(True)
    assert trained >= 42 and trained >= untrained + 10, (untrained, trained)
