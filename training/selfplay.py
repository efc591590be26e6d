"""Self-play as a single-agent gymnasium env for sb3-contrib's MaskablePPO.

The learner controls one seat per episode (the seat rotates every episode); the other
seats are played inside the env by opponents drawn from a pool (frozen snapshots of the
learner, the heuristic, random). Only the learner's decisions are steps, and the reward is
the learner seat's own final reward. This avoids the two traps of the SB3 connect-four
tutorial pattern: crediting rewards from the wrong seat and letting the policy act for
every seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from art_gallery_env.agents.base import Agent
from art_gallery_env.agents.policy_format import CheckpointError
from art_gallery_env.agents.registry import make_agent
from art_gallery_env.arena.loop import play
from art_gallery_env.env.aec import final_rewards
from art_gallery_env.env.observation import OBSERVATION_SIZE
from art_gallery_env.env.seat import SeatObserver
from art_gallery_env.rules.actions import NUM_ACTIONS, check_action_id
from art_gallery_env.rules.cards import default_card_set
from art_gallery_env.rules.state import GameState, new_game

SNAPSHOT_SUFFIX = ".safetensors"


class OpponentPool:
    """Draws one opponent per seat and episode: a learner snapshot, heuristic or random.

    Snapshots are weights-only files in ``snapshot_dir`` that the trainer writes; workers
    rescan the folder now and then, so subprocess envs see new snapshots without IPC.
    """

    def __init__(
        self,
        weights: dict[str, float],
        snapshot_dir: str | Path | None = None,
        max_snapshots: int = 10,
        seed: int | None = None,
        rescan_every: int = 20,
    ) -> None:
        unknown = set(weights) - {"self_play", "heuristic", "random"}
        if unknown:
            raise ValueError(
                f"unknown pool entries {sorted(unknown)}; use self_play, heuristic, random"
            )
        self.weights = dict(weights)
        self.snapshot_dir = Path(snapshot_dir) if snapshot_dir else None
        self.max_snapshots = max_snapshots
        self.rescan_every = rescan_every
        self._rng = random.Random(seed)
        self._episodes = 0
        self._snapshots: list[Path] = []
        self._loaded: dict[Path, Agent] = {}
        self._fixed: dict[str, Agent] = {}

    def _rescan(self) -> None:
        if self.snapshot_dir is None or not self.snapshot_dir.is_dir():
            return
        files = sorted(self.snapshot_dir.glob(f"*{SNAPSHOT_SUFFIX}"))
        self._snapshots = files[-self.max_snapshots :]
        for stale in set(self._loaded) - set(self._snapshots):
            del self._loaded[stale]

    def sample(self, count: int) -> list[Agent]:
        """``count`` opponents for one episode."""
        if self._episodes % self.rescan_every == 0:
            self._rescan()
        self._episodes += 1
        kinds = [k for k, w in self.weights.items() if w > 0]
        if not self._snapshots and "self_play" in kinds and len(kinds) > 1:
            kinds.remove("self_play")  # no snapshot yet: fall back to the other kinds
        chances = [self.weights[k] for k in kinds]
        return [self._agent(self._rng.choices(kinds, chances)[0]) for _ in range(count)]

    def _agent(self, kind: str) -> Agent:
        while kind == "self_play" and self._snapshots:
            path = self._rng.choice(self._snapshots)
            if path not in self._loaded:
                try:
                    self._loaded[path] = make_agent(str(path))
                except CheckpointError:
                    if path.exists():
                        raise
                    # The trainer pruned it since the last scan (pool.max_snapshots).
                    self._rescan()
                    self._snapshots = [p for p in self._snapshots if p != path]
                    continue
            return self._loaded[path]
        if kind == "self_play":
            kind = "random"  # only self-play configured and no snapshot yet
        if kind not in self._fixed:
            self._fixed[kind] = make_agent(kind, seed=self._rng.randrange(2**31))
        return self._fixed[kind]


class SelfPlayEnv(gym.Env):
    """One learner seat of Art Gallery; opponents move inside ``step``."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        num_players: int = 2,
        pool: OpponentPool | None = None,
        *,
        zero_is_ten: bool = False,
        reward_mode: str = "score_margin",
        seed: int | None = None,
        learner_seat: int | None = None,
    ) -> None:
        super().__init__()
        self.num_players = num_players
        self.pool = pool or OpponentPool({"random": 1.0}, seed=seed)
        self.zero_is_ten = zero_is_ten
        self.reward_mode = reward_mode
        self.fixed_learner_seat = learner_seat
        self.observation_space = gym.spaces.Box(0.0, np.inf, (OBSERVATION_SIZE,), np.float32)
        self.action_space = gym.spaces.Discrete(NUM_ACTIONS)
        self._seats = SeatObserver(default_card_set())
        self._seed_rng = random.Random(seed)
        self._episode = 0
        self.state: GameState | None = None
        self.learner = 0
        self.opponents: dict[int, Agent] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seed_rng = random.Random(seed)
        game_seed = self._seed_rng.getrandbits(63)
        self.learner = (
            self._episode % self.num_players
            if self.fixed_learner_seat is None
            else self.fixed_learner_seat
        )
        self._episode += 1
        seats = [s for s in range(self.num_players) if s != self.learner]
        self.opponents = dict(zip(seats, self.pool.sample(len(seats))))
        for k, agent in enumerate(self.opponents.values()):
            agent.reset(game_seed + k)
        self.state = new_game(self.num_players, game_seed, zero_is_ten=self.zero_is_ten)
        self._seats.reset()
        self._play_opponents()
        return self._observe(), {"learner_seat": self.learner}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.state is None:
            raise RuntimeError("call reset() before step(): the env has no game yet")
        self.state.apply(check_action_id(action))  # 0.7 is not silently action 0
        self._play_opponents()
        if not self.state.is_over:
            return self._observe(), 0.0, False, False, {}
        breakdown = self.state.score_breakdown()
        reward = final_rewards(breakdown, self.reward_mode)[self.learner]
        info = {
            "learner_seat": self.learner,
            "score": breakdown[self.learner],
            "won": breakdown[self.learner]["rank"] == 1,
            "opponents": [type(a).__name__ for a in self.opponents.values()],
        }
        return self._observe(), float(reward), True, False, info

    def action_masks(self) -> np.ndarray:
        """MaskablePPO reads this: the learner's legal actions (all False once over)."""
        return self._seats.action_mask(self.state, self.learner).astype(bool)

    def _observe(self) -> np.ndarray:
        return self._seats.observation(self.state, self.learner)

    def _play_opponents(self) -> None:
        """The other seats move until it is the learner's turn or the game is over."""
        learner = self.learner
        play(
            self.state,
            self.opponents,
            self._seats,
            stop=lambda state: state.current_player == learner,
        )


def make_selfplay_env_fn(
    num_players: int,
    pool_factory: Callable[[int], OpponentPool],
    seed: int,
    index: int,
    **env_kwargs: Any,
) -> Callable[[], gym.Env]:
    """A picklable factory for SubprocVecEnv workers (each with its own pool and seed)."""

    def build() -> gym.Env:
        return SelfPlayEnv(num_players, pool_factory(seed + index), seed=seed + index, **env_kwargs)

    return build
