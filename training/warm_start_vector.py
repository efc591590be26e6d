"""The warm start's teacher games on the game's compiled engine (``vector`` capability).

Why: cloning data for ``ppo_all`` (500 games at five table sizes, ~570k decisions) took
minutes of Python heuristic decisions; the compiled heuristic plays the same player
(``VectorGame.plays_compiled``: the same top-scoring set at every decision, exact ties
drawn from another stream) for all games at once, so the data costs seconds. The games
are dealt by the engine's own seeded streams, so they are other games than the Python
collector's for the same seed (the cache key records which collector made the data).

:func:`compiled_collect` returns ``None`` where it cannot stand in for the Python loop:
the game has no compiled engine, numba is missing, or the engine has no compiled twin of
the teacher.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from art_gallery_env.agents.registry import make_agent
from art_gallery_env.arena.evaluate import derive_seed
from art_gallery_env.core.registry import GameSpec

COLLECTOR = "vector"  # the cache key's name for data this module made


def compiled_engine(spec: GameSpec, teacher: str) -> tuple[Any, Any] | None:
    """(the engine module, the teacher agent) if the engine plays the teacher compiled."""
    if "vector" not in spec.capabilities:
        return None
    try:
        engine = spec.extension("vector")
    except ImportError:  # numba is not installed
        return None
    agent = make_agent(teacher, 0, game=spec.name)
    plays = getattr(engine.VectorGame, "plays_compiled", None)
    if plays is None or not plays(agent):
        return None
    return engine, agent


def compiled_collect(
    spec: GameSpec,
    teacher: str,
    sizes: Sequence[int],
    games: int,
    seed: int,
    reward_mode: str,
    variants: dict[str, Any],
    explore: float,
) -> dict[str, np.ndarray] | None:
    """What :func:`~.warm_start.collect` returns (no student), from ``games`` compiled
    games per table size, or ``None`` (module docstring)."""
    found = compiled_engine(spec, teacher)
    if found is None:
        return None
    engine, agent = found
    parts = []
    for n in sizes:
        game = engine.VectorGame(
            games,
            n,
            seed=derive_seed(seed, n, "compiled teacher"),
            auto_reset=False,
            reward_mode=reward_mode,
            **variants,
        )
        try:
            part = _play_table(game, agent, explore, np.random.default_rng(derive_seed(seed, n)))
        finally:
            game.close()
        part["game"] += games * len(parts)  # game ids unique across table sizes
        part["players"] = np.full(len(part["action"]), n, dtype=np.int64)
        parts.append(part)
    data = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
    data["student"] = np.zeros(len(data["action"]), dtype=bool)
    return data


def _play_table(game: Any, agent: Any, explore: float, rng: np.random.Generator) -> dict:
    """Every game of ``game`` to its end, the teacher in every seat, one row per decision
    (as the Python loop records them); with ``explore`` a seat plays a random legal
    action that often instead, still labelled with the teacher's choice."""
    obs, masks, actions, seats, game_ids = [], [], [], [], []
    final = np.zeros((game.num_envs, game.num_players), dtype=np.float32)
    slots = np.arange(game.num_envs)
    while not game.done.all():
        active = ~game.done
        mask = game.legal_mask(active=active)
        observation = game.observe(active=active)
        teacher = game.compiled_actions(agent, active)
        played = teacher.copy()
        if explore > 0:
            wander = active & (rng.random(game.num_envs) < explore)
            played[wander] = game.random_actions()[wander]
        rows = np.flatnonzero(active)
        obs.append(observation[rows].astype(np.float16))
        masks.append(mask[rows])
        actions.append(teacher[rows])
        seats.append(game.current_player[rows].copy())
        game_ids.append(slots[rows])
        rewards, dones = game.step(played, active=active)
        final[dones] = rewards[dones]
    seat = np.concatenate(seats)
    game_id = np.concatenate(game_ids)
    return {
        "obs": np.concatenate(obs),
        "mask": np.concatenate(masks).astype(bool),
        "action": np.concatenate(actions).astype(np.int64),
        "value": final[game_id, seat],
        "game": game_id.astype(np.int64),
    }
