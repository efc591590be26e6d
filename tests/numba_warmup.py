"""Share the compiled engine's first compile between the suite's worker processes.

On a fresh clone numba's disk cache is empty, and each pytest-xdist worker compiled every
kernel itself when its first test needed it (ISMCTS's iterations alone take about a
minute): two workers, two minutes of the same compile. Here each worker, before its first
test, warms the kernels group by group, each group under a file lock, starting at a
different group: the other worker meanwhile compiles another group, and a group already
compiled is loaded from the disk cache in a second. Outside xdist, or without numba,
nothing happens (the kernels compile when first used, as before).
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def _search_iterations() -> None:
    """ISMCTS over the compiled engine (kernels.ismcts_iterations)."""
    _act("ismcts:iters=8")


def _rollout_sweeps() -> None:
    """The rollout algorithm over the heuristic (kernels.rollout_sweeps)."""
    _act("ismcts:topk=3,iters=8")


def _batched_engine() -> None:
    """Deal, masks, observations, steps, scores, the compiled heuristic and play-outs."""
    from art_gallery_env.games.art_gallery.vector import VectorGame

    game = VectorGame(num_envs=2, num_players=2, seed=0)
    game.legal_mask()
    game.observe()
    game.step(game.heuristic_actions())
    game.step(game.random_actions())
    game.scores()
    game.play_out(policy="heuristic")
    game.reset(seed=1)
    game.play_out(policy="random")


def _self_play_seats() -> None:
    """A self-play env's opponents, all seats in one call (kernels.play_seats)."""
    import numpy as np

    from art_gallery_env.games.art_gallery.vector import VectorGame

    game = VectorGame(num_envs=2, num_players=2, seed=0)
    seats = np.full((2, 2), VectorGame.SEAT_RANDOM, np.int64)
    no_params = np.zeros((0, 0))
    game.play_seats(np.ones(2, np.int64), seats, seats * 0, no_params, np.zeros(2, np.int64))


def _act(spec: str) -> None:
    """One decision of agent ``spec`` with a choice, at the first turn of a 2-player game."""
    import numpy as np

    from art_gallery_env.agents.registry import make_agent
    from art_gallery_env.games.art_gallery.env.observation import ObservationEncoder
    from art_gallery_env.games.art_gallery.rules.actions import NUM_ACTIONS
    from art_gallery_env.games.art_gallery.rules.hidden import PlayerView
    from art_gallery_env.games.art_gallery.rules.state import new_game

    state = new_game(2, 0)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    me = state.current_player
    mask = np.zeros(NUM_ACTIONS, np.int8)
    mask[state.legal_actions()] = 1
    obs = ObservationEncoder(state.cards).encode(state, me)
    make_agent(spec, 0).act(obs, mask, PlayerView(state, me))


# in an order where the halves compile in about the same time (about 80 + 30 s and 60 + 45 s
# on one idle core), so that two workers, starting at either half, finish together
GROUPS: tuple[Callable[[], None], ...] = (
    _search_iterations,
    _rollout_sweeps,
    _self_play_seats,
    _batched_engine,
)


def warm_up(worker: str, workers: int, folder: Path | None = None) -> None:
    """Warm every group, worker ``gw<i>`` of ``workers`` starting at its share of the
    groups, each group under its lock."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return
    index = int(worker.removeprefix("gw") or 0) if worker.startswith("gw") else 0
    start = index * len(GROUPS) // max(1, workers) % len(GROUPS)
    folder = folder or Path(tempfile.gettempdir())
    order = GROUPS[start:] + GROUPS[:start]
    for group in order:
        lock = folder / f"art-gallery-env-warmup-{_key()}-{group.__name__}.lock"
        with lock.open("w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            group()


def _key() -> str:
    """One lock set per checkout, so that two checkouts' suites do not wait for each other."""
    import hashlib

    here = str(Path(__file__).resolve().parents[1])
    return hashlib.sha1(f"{here}{os.getuid()}".encode()).hexdigest()[:12]
