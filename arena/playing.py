"""Playing a match's games: one seeded game per task, in this process or in worker
processes that leave Ctrl-C to their parent. A game depends only on its task, so results
are identical for any number of workers."""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from art_gallery_env.agents.registry import make_agent
from art_gallery_env.core.registry import GameSpec, get_game
from art_gallery_env.processes import (
    THREAD_COUNT_VARIABLES,
    exit_with_parent,
    ignore_stop_signals,
    kill_processes,
    one_compute_thread_for_children,
    spawning_quietly,
)

from . import loop


class MatchError(ValueError):
    """A match that cannot be set up; the message names the problem and the valid values."""


def resolve_config(config: Any) -> GameSpec:
    """Check a match's or solo evaluation's frozen ``config`` (game, variants, games,
    workers) and store the resolved game name and every variant's value in it, so tasks
    and records carry them; returns the game."""
    try:
        game = get_game(config.game)
        variants = game.check_variants(config.variants)
    except ValueError as err:
        raise MatchError(str(err)) from None
    object.__setattr__(config, "game", game.name)
    object.__setattr__(config, "variants", variants)
    if config.games < 1:
        raise MatchError(f"games must be at least 1, got {config.games}")
    if config.workers < 1:
        raise MatchError(f"workers must be at least 1, got {config.workers}")
    return game


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM, where the caller maps it) stopped a match. ``results`` are the
    games finished by then, in game order; :func:`run_match` adds ``result``, the
    result of those games (marked partial)."""

    def __init__(self, results: list[dict[str, Any]], signal_name: str = "SIGINT") -> None:
        super().__init__(signal_name)
        self.results = results
        self.signal_name = signal_name
        self.result: Any = None  # MatchResult or SoloResult


# -- playing one game (in a worker or in this process) -------------------------------------
@dataclass(frozen=True)
class GameTask:
    index: int
    seed: int
    num_players: int
    variants: Mapping[str, Any]
    specs: tuple[str, ...]  # per seat
    agent_seeds: tuple[int, ...]  # per seat
    insight: bool = False
    game: str | None = None


_AGENTS: dict[tuple[str, str, int], Any] = {}
_OBSERVERS: dict[tuple[str, str], Any] = {}


def _agent(game: GameSpec, spec: str, seat: int) -> Any:
    """One agent object per (game, spec, seat) in each process, reset before every game."""
    key = (game.name, spec, seat)
    if key not in _AGENTS:
        _AGENTS[key] = make_agent(spec, 0, game=game.name)
    return _AGENTS[key]


def _observer(game: GameSpec, state: Any) -> Any:
    """One seat observer per game and component data in each process."""
    key = (game.name, game.data_fingerprint(state)[1])
    if key not in _OBSERVERS:
        _OBSERVERS[key] = game.make_observer(state)
    return _OBSERVERS[key]


def play_game(task: GameTask) -> dict[str, Any]:
    """Play one game; returns its result (JSON-ready)."""
    game = get_game(task.game)
    state = game.setup(task.num_players, task.seed, task.variants)
    observer = _observer(game, state)
    observer.reset()
    players = [_agent(game, spec, seat) for seat, spec in enumerate(task.specs)]
    for agent, seed in zip(players, task.agent_seeds):
        agent.reset(seed)
    insight: list[dict[str, Any] | None] = []

    def explain(decision: loop.Decision) -> None:
        insight.append(players[decision.seat].explain())

    try:
        result = loop.play_game(
            state, players, observer, on_decision=explain if task.insight else None
        )
    except loop.AgentError as err:
        raise RuntimeError(
            f"game {task.index} (seed {task.seed}): agent {task.specs[err.seat]!r}: {err}"
        ) from err
    out = {
        "index": task.index,
        "seed": task.seed,
        "specs": list(task.specs),
        "rounds": result.rounds,
        "actions": result.actions,
        "breakdown": result.breakdown,
        "decisions": result.decisions,
        "think_s": result.think_s,
    }
    if task.insight:
        out["insight"] = insight
    return out


def init_worker() -> None:
    """One compute thread per evaluation worker: the workers already fill the cores, and
    two threads per process collapse under contention on small machines. Set here, in
    each worker, never in the caller (an in-process evaluation must not change the
    trainer's own thread count). The worker leaves Ctrl-C and SIGTERM to the caller,
    which stops it, and exits by itself if the caller dies."""
    ignore_stop_signals()
    exit_with_parent()
    for name in THREAD_COUNT_VARIABLES:
        os.environ[name] = "1"  # for libraries loaded from now on
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)


def _play_chunk(tasks: list[GameTask]) -> list[dict[str, Any]]:
    return [play_game(task) for task in tasks]


def run_tasks(
    tasks: list[GameTask], workers: int, progress: Callable[[int], None] | None = None
) -> list[dict[str, Any]]:
    """Play the given games in ``workers`` processes (1: here); results sorted by game
    index, and Ctrl-C raises :class:`MatchInterrupted` as :func:`run_games` says. The
    solo evaluation plays its games through this too."""
    results: list[dict[str, Any]] = []
    try:
        if workers == 1 or len(tasks) == 1:
            _AGENTS.clear()  # a checkpoint path may hold new weights since the last match
            for task in tasks:
                results.append(play_game(task))
                if progress:
                    progress(1)
        else:
            _run_in_workers_again_once(workers, tasks, results, progress)
    except KeyboardInterrupt as err:
        results.sort(key=lambda r: r["index"])
        raise MatchInterrupted(results, _signal_name(err)) from None
    results.sort(key=lambda r: r["index"])
    return results


def _run_in_workers_again_once(
    workers: int,
    tasks: list[GameTask],
    results: list[dict[str, Any]],
    progress: Callable[[int], None] | None,
) -> None:
    """:func:`_run_in_workers`, and if a worker dies (killed, out of memory) the games not
    finished yet once more in new workers: each game is seeded, so the results are those
    of an unbroken run. A second death is a :class:`MatchError` in one line."""
    for attempt in (1, 2):
        done = {r["index"] for r in results}
        left = [task for task in tasks if task.index not in done]
        try:
            _run_in_workers(workers, left, results, progress)
            return
        except BrokenProcessPool:
            finished = len(results)
            if attempt == 2:
                raise MatchError(
                    f"a worker process died again ({finished} of {len(tasks)} games finished); "
                    "the match stops (a worker killed from outside or out of memory: try "
                    "fewer --workers)"
                ) from None
            print(
                f"warning: a worker process died; {finished} of {len(tasks)} games finished, "
                f"the other {len(tasks) - finished} are played again in new workers (each "
                "game is seeded: the results are those of an unbroken run)",
                file=sys.stderr,
            )


def play_and_summarise(
    tasks: list[GameTask],
    workers: int,
    progress: bool | None,
    finish: Callable[[list[dict[str, Any]], float], Any],
) -> Any:
    """Play ``tasks`` under a progress bar (``progress`` None: only on a terminal) and
    return ``finish(results, wall_s)``. Ctrl-C raises :class:`MatchInterrupted` whose
    ``result`` is ``finish`` of the games finished by then."""
    from tqdm import tqdm

    start = time.perf_counter()
    disable = None if progress is None else not progress
    try:
        with tqdm(
            total=len(tasks), desc="games", unit="game", file=sys.stderr, disable=disable
        ) as bar:
            results = run_tasks(tasks, workers, progress=bar.update)
    except MatchInterrupted as stop:
        stop.result = finish(stop.results, time.perf_counter() - start)
        raise
    return finish(results, time.perf_counter() - start)


def _run_in_workers(
    workers: int,
    tasks: list[GameTask],
    results: list[dict[str, Any]],
    progress: Callable[[int], None] | None,
) -> None:
    # One game per task: the overhead (about a millisecond) is small next to a game, and
    # the progress bar moves with every game even for slow search agents.
    chunks = [[task] for task in tasks]
    # spawn: workers import what they need; no inherited torch/OpenMP state from a fork.
    context = multiprocessing.get_context("spawn")
    pool = None
    try:
        with spawning_quietly(), one_compute_thread_for_children():  # Ctrl-C: raised at the end
            pool = ProcessPoolExecutor(
                max_workers=workers, mp_context=context, initializer=init_worker
            )
            futures = [pool.submit(_play_chunk, c) for c in chunks]
        for future in as_completed(futures):
            part = future.result()
            results.extend(part)
            if progress:
                progress(len(part))
    except BaseException:
        if pool is not None:
            # Not pool.shutdown(wait=True): that waits for the games in progress.
            kill_processes(list(getattr(pool, "_processes", {}).values()))
            pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def _signal_name(err: KeyboardInterrupt) -> str:
    name = err.args[0] if err.args else None
    return name if isinstance(name, str) and name.startswith("SIG") else "SIGINT"
