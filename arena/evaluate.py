"""Seat-rotated, seeded, parallel matches between registry agents (``art-gallery eval``).

How a match is built:

* With K agent specs at a table of N seats, the base line-up fills the seats by cycling
  the specs (K == N: one seat each; K < N: ``ismcts heuristic`` at 4 seats is
  ismcts, heuristic, ismcts, heuristic). K > N is an error unless ``round_robin``: then
  each block of N games seats one N-subset of the specs (all subsets in a fixed shuffled
  order, again and again), so checkpoints of a run and fixed anchors are rated together
  (``art-gallery eval --agents RUN_DIR heuristic random``: :func:`expand_agent_specs`).
* Game ``g`` rotates the line-up by ``g mod N`` seats, and every other block of N games
  reverses it first, so over each N games every spec sits in every seat equally often and
  (for N >= 3) meets the others on both sides.
* Each game is a fresh ``raw_env`` reset with a seed derived from the master seed and ``g``;
  every seat's agent is ``reset`` with a seed derived from (master seed, g, seat). A game
  depends on nothing else, so results are identical for any ``--workers``; they are
  collected and processed in game order.

Statistics are per agent spec over its seat-games (a spec with two seats in a game counts
two seat-games): win share with shared wins counting 1/k (R7.5) and a 95 % Wilson score
interval, mean score with a 95 % normal-approximation interval, the mean score breakdown,
an OpenSkill Plackett-Luce rating from every game's ranking (R7.5 ranks, ties share a
rank), and the mean decision time.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
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

# The match's parts live in modules of their own; their names stay importable from here.
from .lineup import MAX_TABLES, agent_labels, derive_seed, game_seed, lineup, seat_seed
from .report import (
    SUMMARY_COLUMNS,
    format_table,
    print_table,
    result_paths,
    save_game_records,
    summary_columns,
    summary_row,
    write_results,
)
from .stats import Z95, AgentSummary, mean_ci, summarize, wilson_interval
from .stop import StopSignals

__all__ = [
    "MAX_TABLES",
    "SUMMARY_COLUMNS",
    "Z95",
    "AgentSummary",
    "GameTask",
    "MatchConfig",
    "MatchError",
    "MatchInterrupted",
    "MatchResult",
    "StopSignals",
    "agent_labels",
    "default_workers",
    "derive_seed",
    "expand_agent_specs",
    "format_table",
    "game_seed",
    "init_worker",
    "lineup",
    "make_tasks",
    "mean_ci",
    "play_game",
    "print_table",
    "result_paths",
    "run_games",
    "run_match",
    "save_game_records",
    "seat_seed",
    "summarize",
    "summary_columns",
    "summary_row",
    "unseen_table_notes",
    "wilson_interval",
    "write_results",
]


class MatchError(ValueError):
    """A match that cannot be set up; the message names the problem and the valid values."""


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM, where the caller maps it) stopped a match. ``results`` are the
    games finished by then, in game order; :func:`run_match` adds ``result``, the
    :class:`MatchResult` of those games (marked partial)."""

    def __init__(self, results: list[dict[str, Any]], signal_name: str = "SIGINT") -> None:
        super().__init__(signal_name)
        self.results = results
        self.signal_name = signal_name
        self.result: MatchResult | None = None


@dataclass(frozen=True)
class MatchConfig:
    num_players: int
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    variants: Mapping[str, Any] = field(default_factory=dict)  # the game's setup options
    workers: int = 1
    insight: bool = False  # keep each decision's Agent.explain() for the game records
    game: str | None = None  # a registered game's name; None: the default game
    round_robin: bool = False  # more specs than seats: tables of N-subsets (see above)

    def __post_init__(self) -> None:
        try:
            game = get_game(self.game)
            variants = game.check_variants(self.variants)
        except ValueError as err:
            raise MatchError(str(err)) from None
        # the resolved name and every variant's value, so tasks and records carry them
        object.__setattr__(self, "game", game.name)
        object.__setattr__(self, "variants", variants)
        self._check_players(game)
        self._check_agents(game)
        if self.games < 1:
            raise MatchError(f"games must be at least 1, got {self.games}")
        if self.workers < 1:
            raise MatchError(f"workers must be at least 1, got {self.workers}")

    def _check_players(self, game: GameSpec) -> None:
        n = self.num_players
        lo, hi = max(2, game.min_players), game.max_players  # a match ranks 2+ seats
        if isinstance(n, bool) or not isinstance(n, int) or not lo <= n <= hi:
            solo = (
                " (the solo game has no one to rank against: scripts/gallerist_measure.py "
                "measures its goal levels)"
                if n == 1 and game.min_players == 1
                else ""
            )
            raise MatchError(f"players must be in {lo}..{hi} for {game.title}, got {n!r}{solo}")

    def _check_agents(self, game: GameSpec) -> None:
        n, hi = self.num_players, game.max_players
        if not self.agents:
            raise MatchError("give at least one agent spec")
        if len(self.agents) > n and self.round_robin:
            if math.comb(len(self.agents), n) > MAX_TABLES:
                raise MatchError(
                    f"{len(self.agents)} agents at {n} seats make "
                    f"{math.comb(len(self.agents), n):,} different tables; a round robin "
                    f"takes at most {MAX_TABLES:,}: give fewer agents"
                )
        elif len(self.agents) > n:
            raise MatchError(
                f"{len(self.agents)} agents do not fit a table of {n} players: give at most "
                f"{n} agent specs (fewer specs than seats are cycled to fill the table), "
                f"raise --players (at most {hi}), or play a round robin (--round-robin)"
            )


def default_workers() -> int:
    return max(1, min(2, os.cpu_count() or 1))


CHECKPOINT_SUFFIX = ".safetensors"


def expand_agent_specs(specs: Sequence[str]) -> list[str]:
    """Agent specs with each folder replaced by the policy checkpoints in it: its own
    ``*.safetensors`` files and, for a training run's folder, those in ``pool/`` too (the
    snapshots), in name order, each file once (``best`` and ``latest`` are often one
    checkpoint). A folder without any raises :class:`MatchError` naming it."""
    out: list[str] = []
    seen: set[Path] = set()
    for spec in specs:
        folder = Path(spec)
        if not folder.is_dir():
            out.append(spec)
            continue
        files = sorted(folder.glob(f"*{CHECKPOINT_SUFFIX}"))
        if (folder / "pool").is_dir():
            files += sorted((folder / "pool").glob(f"*{CHECKPOINT_SUFFIX}"))
        found = 0
        for path in files:
            if path.name.startswith(".") or not path.is_file():
                continue  # a temp file, or a dangling link
            real = path.resolve()
            if real not in seen:
                seen.add(real)
                out.append(str(path))
                found += 1
        if not found:
            raise MatchError(
                f"{spec}: a folder given as an agent must hold policy checkpoints "
                f"(*{CHECKPOINT_SUFFIX}, or a training run folder with best/latest and pool/); "
                f"found none"
            )
    return out


def unseen_table_notes(config: MatchConfig) -> list[str]:
    """One line per checkpoint whose training run never played a table of this size (a
    solo policy at a 2-player table plays a game it never saw): its figures here say
    little about it."""
    notes = []
    for spec in dict.fromkeys(config.agents):
        agent = make_agent(spec, 0, game=config.game)
        sizes = getattr(agent, "trained_table_sizes", None)
        if sizes and config.num_players not in sizes:
            trained = " or ".join(str(n) for n in sizes)
            notes.append(
                f"{spec} was trained at tables of {trained} player(s) only; this match "
                f"seats {config.num_players}"
            )
    return notes


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


def make_tasks(config: MatchConfig) -> list[GameTask]:
    k, n = len(config.agents), config.num_players
    tasks = []
    for g in range(config.games):
        order = lineup(k, n, g)
        tasks.append(
            GameTask(
                index=g,
                seed=game_seed(config.seed, g),
                num_players=n,
                variants=config.variants,
                specs=tuple(config.agents[i] for i in order),
                agent_seeds=tuple(seat_seed(config.seed, g, s) for s in range(n)),
                insight=config.insight,
                game=config.game,
            )
        )
    return tasks


def run_games(
    config: MatchConfig, progress: Callable[[int], None] | None = None
) -> list[dict[str, Any]]:
    """Play every game of the match; results sorted by game index. Ctrl-C raises
    :class:`MatchInterrupted` with the games finished so far, at once: games in progress
    in worker processes are dropped with their workers."""
    tasks = make_tasks(config)
    results: list[dict[str, Any]] = []
    try:
        if config.workers == 1 or len(tasks) == 1:
            _AGENTS.clear()  # a checkpoint path may hold new weights since the last match
            for task in tasks:
                results.append(play_game(task))
                if progress:
                    progress(1)
        else:
            _run_in_workers(config, tasks, results, progress)
    except KeyboardInterrupt as err:
        results.sort(key=lambda r: r["index"])
        raise MatchInterrupted(results, _signal_name(err)) from None
    results.sort(key=lambda r: r["index"])
    return results


def _run_in_workers(
    config: MatchConfig,
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
                max_workers=config.workers, mp_context=context, initializer=init_worker
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


@dataclass
class MatchResult:
    config: MatchConfig
    summaries: list[AgentSummary]
    games: list[dict[str, Any]]
    wall_s: float

    @property
    def partial(self) -> bool:
        """Stopped before every planned game was played (Ctrl-C)."""
        return len(self.games) < self.config.games

    def to_json(self, include_actions: bool = False) -> dict[str, Any]:
        labels = agent_labels(self.config.agents)
        k, n = len(self.config.agents), self.config.num_players
        games = []
        for result in self.games:
            order = lineup(k, n, result["index"])
            item = {
                "index": result["index"],
                "seed": result["seed"],
                "agents": [labels[i] for i in order],
                "rounds": result["rounds"],
                "decisions": result["decisions"],
                "totals": [b["total"] for b in result["breakdown"]],
                "ranks": [b["rank"] for b in result["breakdown"]],
                "breakdown": result["breakdown"],
                "think_s": result["think_s"],
            }
            if include_actions:
                item["actions"] = result["actions"]
            games.append(item)
        return {
            "format": "art-gallery-env/eval",
            "version": 1,
            "game": self.config.game,
            "env_version": get_game(self.config.game).env_version,
            "config": {**asdict(self.config), "agents": list(self.config.agents)},
            "method": {
                "win_share": "shared wins count 1/k; 95% Wilson score interval",
                "score_ci": "95% normal approximation (mean +- 1.96 sd/sqrt(n))",
                "rating": "openskill PlackettLuce, per-game R7.5 ranks, ordinal = mu - 3 sigma",
                "unit": "seat-game (a spec seated twice in one game counts twice)",
            },
            "partial": self.partial,
            "games_planned": self.config.games,
            "games_played": len(self.games),
            "wall_s": self.wall_s,
            "agents": [asdict(s) for s in self.summaries],
            "games": games,
        }


def run_match(config: MatchConfig, *, progress: bool | None = None) -> MatchResult:
    """Play and summarise a match; ``progress`` None shows a bar only on a terminal."""
    from tqdm import tqdm

    start = time.perf_counter()
    disable = None if progress is None else not progress
    try:
        with tqdm(
            total=config.games, desc="games", unit="game", file=sys.stderr, disable=disable
        ) as bar:
            results = run_games(config, progress=bar.update)
    except MatchInterrupted as stop:
        summaries = summarize(config, stop.results)
        stop.result = MatchResult(config, summaries, stop.results, time.perf_counter() - start)
        raise
    summaries = summarize(config, results)
    return MatchResult(config, summaries, results, time.perf_counter() - start)
