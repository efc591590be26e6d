"""The evaluation of a solo run (``env.num_players: 1``): the policy plays the game alone.

A match ranks its seats, so a one-player game has no win share to select ``best`` on.
Instead each evaluation plays ``games`` solo games of the policy and counts the games that
*reach the goal*: those whose reward in the game's default solo mode (its first mode at
one player, ``GameSpec.reward_modes_for(1)[0]``) is above 0. For the Gallerist that mode
is ``level``: the games that reach Apprentice or better. The result has the keys of a
match's (``win_share`` is that share, with its Wilson interval; ``mean_score`` the
breakdown's mean total), under the one key :data:`SOLO_KEY`, so the checkpoint selection,
``eval.csv`` and the results table stay as they are. ``mean_reward`` is the mean reward
in the config's own ``env.reward_mode``.

Game ``g`` of an evaluation with ``seed`` is set up with ``derive_seed(seed, "solo", g)``
and the agent reset with ``derive_seed(seed, "solo", g, "agent")``: the same games for
every checkpoint of a run, and for any other agent measured with the same seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from art_gallery_env.agents.registry import make_agent
from art_gallery_env.arena.evaluate import derive_seed, mean_ci, wilson_interval
from art_gallery_env.arena.loop import play_game
from art_gallery_env.core.registry import get_game
from art_gallery_env.core.scoring import final_rewards

from .config import TrainConfig

SOLO_KEY = "solo"


def play_solo(
    spec: str,
    game: str,
    seed: int,
    index: int,
    reward_mode: str,
    variants: Mapping[str, Any] | None = None,
) -> dict[str, float]:
    """Solo game ``index`` of ``spec`` (an agent spec or a checkpoint path): whether it
    reached the goal, its reward in ``reward_mode`` and its breakdown's total."""
    rules = get_game(game)
    agent = make_agent(spec, derive_seed(seed, "solo", index, "seat"), game=rules.name)
    agent.reset(derive_seed(seed, "solo", index, "agent"))
    state = rules.setup(1, derive_seed(seed, "solo", index), variants)
    breakdown = play_game(state, [agent], rules.make_observer(state)).breakdown
    rewards = rules.final_rewards or final_rewards
    goal = rewards(breakdown, rules.reward_modes_for(1)[0])[0]
    return {
        "goal": float(goal > 0),
        "reward": float(rewards(breakdown, reward_mode)[0]),
        "score": float(breakdown[0]["total"]),
    }


def _play(job: tuple[Any, ...]) -> dict[str, float]:
    return play_solo(*job)


def solo_results(
    spec: str,
    game: str,
    games: int,
    seed: int,
    reward_mode: str,
    variants: Mapping[str, Any] | None = None,
    workers: int = 1,
) -> dict[str, float]:
    """``games`` solo games of ``spec``: the goal share (``win_share``, with its 95% Wilson
    interval), the mean reward and the mean score (the numbers do not depend on
    ``workers``)."""
    jobs = [(spec, game, seed, g, reward_mode, dict(variants or {})) for g in range(games)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            rows = list(pool.map(_play, jobs, chunksize=max(1, games // (4 * workers))))
    else:
        rows = [_play(job) for job in jobs]
    reached = sum(r["goal"] for r in rows)
    low, high = wilson_interval(reached, games)
    return {
        "win_share": reached / games,
        "win_ci_low": low,
        "win_ci_high": high,
        "goals": int(reached),
        "mean_reward": mean_ci([r["reward"] for r in rows])[0],
        "mean_score": mean_ci([r["score"] for r in rows])[0],
        "games": games,
        "num_players": 1,
    }


def evaluate_solo_policy(
    weights: Path, config: TrainConfig, games: int, workers: int, seed: int
) -> dict[str, dict[str, float]]:
    """A solo run's evaluation of ``weights``: ``{SOLO_KEY: solo_results(...)}``."""
    env = config.env
    return {
        SOLO_KEY: solo_results(
            str(weights), env.game, games, seed, env.reward_mode, env.variants, workers
        )
    }
