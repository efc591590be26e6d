"""Self-play as a single-agent gymnasium env for sb3-contrib's MaskablePPO.

The learner controls one seat per episode (the seat rotates every episode); the other
seats are played inside the env by opponents drawn from a pool (frozen snapshots of the
learner, the heuristic, random). Only the learner's decisions are steps, and the reward is
the learner seat's own final reward. This avoids the two traps of the SB3 connect-four
tutorial pattern: crediting rewards from the wrong seat and letting the policy act for
every seat. The env itself is :class:`~art_gallery_env.arena.single_agent.SingleAgentEnv`,
the one registered with Gymnasium; this module adds the pool.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym

from art_gallery_env.agents.base import Agent
from art_gallery_env.agents.policy_format import CheckpointError
from art_gallery_env.agents.registry import agent_spec_problem, make_agent
from art_gallery_env.arena.single_agent import SingleAgentEnv

SNAPSHOT_SUFFIX = ".safetensors"


class OpponentPool:
    """Draws one opponent per seat and episode: a learner snapshot, or a fixed agent by its
    spec ("heuristic", "random", "ismcts:iters=400", a checkpoint's path, ...).

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
        game: str | None = None,
    ) -> None:
        # an entry weighted 0 is switched off (a config's way to drop a default opponent,
        # as a game without a heuristic does), so only the drawn ones must be agents
        for kind in {k for k, w in weights.items() if w > 0} - {"self_play"}:
            problem = agent_spec_problem(kind, game) if isinstance(kind, str) else "not a str"
            if problem is not None:
                raise ValueError(
                    f"pool entry {kind!r} is neither self_play nor an agent spec: {problem}"
                )
        self.weights = dict(weights)
        self.game = game  # the snapshots and agents are this game's (None: the default)
        self.snapshot_dir = Path(snapshot_dir) if snapshot_dir else None
        self.max_snapshots = max_snapshots
        self.rescan_every = rescan_every
        self._rng = random.Random(seed)
        self._episodes = 0
        self._snapshots: list[Path] = []
        self._loaded: dict[Path, Agent] = {}
        self._fixed: dict[str, Agent] = {}

    def reseed(self, seed: int) -> None:
        """Restart the draws (``SingleAgentEnv.reset(seed=...)`` calls this)."""
        self._rng = random.Random(seed)

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
                    self._loaded[path] = make_agent(str(path), None, game=self.game)
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
            self._fixed[kind] = make_agent(kind, self._rng.randrange(2**31), game=self.game)
        return self._fixed[kind]


class SelfPlayEnv(SingleAgentEnv):
    """The trainers' env: :class:`~art_gallery_env.arena.single_agent.SingleAgentEnv` (one
    learner seat, opponents move inside ``step``) with its opponents drawn from a pool."""

    def __init__(
        self, num_players: int | list[int] = 2, pool: OpponentPool | None = None, **kwargs: Any
    ) -> None:
        game = kwargs.get("game")
        kwargs.setdefault("illegal_action", "raise")  # a masking bug fails loudly in training
        pool = pool or OpponentPool({"random": 1.0}, seed=kwargs.get("seed"), game=game)
        super().__init__(num_players, pool, **kwargs)
        self.pool = pool


def make_selfplay_env_fn(
    num_players: int | list[int],
    pool_factory: Callable[[int], OpponentPool],
    seed: int,
    index: int,
    **env_kwargs: Any,
) -> Callable[[], gym.Env]:
    """A picklable factory for SubprocVecEnv workers (each with its own pool and seed)."""

    def build() -> gym.Env:
        return SelfPlayEnv(num_players, pool_factory(seed + index), seed=seed + index, **env_kwargs)

    return build
