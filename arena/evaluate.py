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

import csv
import functools
import hashlib
import io
import itertools
import math
import multiprocessing
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from art_gallery_env.agents.registry import make_agent
from art_gallery_env.core.registry import GameSpec, default_game, get_game
from art_gallery_env.files import atomic_write_json, atomic_write_text
from art_gallery_env.processes import (
    THREAD_COUNT_VARIABLES,
    StopSignal,
    StopSignalHandler,
    exit_with_parent,
    ignore_stop_signals,
    kill_processes,
    one_compute_thread_for_children,
    spawning_quietly,
    write_stderr,
)

from . import loop

Z95 = 1.959963984540054


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


# -- line-ups and seeds ----------------------------------------------------------------
def agent_labels(agents: Sequence[str]) -> list[str]:
    """One label per spec; a spec given twice gets '#2', '#3', ... so it is reported apart."""
    labels, seen = [], {}
    for spec in agents:
        seen[spec] = seen.get(spec, 0) + 1
        labels.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return labels


MAX_TABLES = 200_000  # N-subsets a round robin may cycle through


@functools.lru_cache(maxsize=8)
def _tables(num_agents: int, num_players: int) -> list[tuple[int, ...]]:
    """Every N-subset of the agents, in a fixed shuffled order (so a match shorter than
    all of them still seats every agent about equally often)."""
    tables = list(itertools.combinations(range(num_agents), num_players))
    random.Random(f"{num_agents}:{num_players}").shuffle(tables)
    return tables


def lineup(num_agents: int, num_players: int, game: int) -> list[int]:
    """Agent index per seat for game ``game`` (see the module docstring)."""
    if num_agents > num_players:  # a round robin: this block's subset, rotated below
        tables = _tables(num_agents, num_players)
        base = list(tables[(game // num_players) % len(tables)])
        reverse = (game // (num_players * len(tables))) % 2 == 1
    else:
        base = [seat % num_agents for seat in range(num_players)]
        reverse = (game // num_players) % 2 == 1
    if reverse:
        base.reverse()
    shift = game % num_players
    return base[-shift:] + base[:-shift] if shift else base


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the given parts (stable across processes and Python versions)."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def game_seed(master: int, game: int) -> int:
    return derive_seed("game", master, game)


def seat_seed(master: int, game: int, seat: int) -> int:
    return derive_seed("agent", master, game, seat)


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


# -- statistics --------------------------------------------------------------------------
def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (fractional successes allowed)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """Mean and half-width of its normal-approximation interval (0 for fewer than 2)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    mean = sum(values) / n
    if n < 2:
        return (mean, 0.0)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return (mean, z * math.sqrt(var / n))


@dataclass
class AgentSummary:
    agent: str
    spec: str
    seat_games: int = 0
    wins: float = 0.0
    win_share: float = 0.0
    win_ci_low: float = 0.0
    win_ci_high: float = 0.0
    mean_score: float = 0.0
    score_ci: float = 0.0
    mean_rank: float = 0.0
    # the game's score parts (Game.score_parts), e.g. rows, souvenirs, hand for Art Gallery
    mean_parts: dict[str, float] = field(default_factory=dict)
    rating_mu: float = 0.0
    rating_sigma: float = 0.0
    rating_ordinal: float = 0.0
    decisions: int = 0
    ms_per_decision: float = 0.0
    seat_counts: list[int] = field(default_factory=list)


def summarize(config: MatchConfig, results: list[dict[str, Any]]) -> list[AgentSummary]:
    from openskill.models import PlackettLuce

    n = config.num_players
    parts = get_game(config.game).score_parts
    labels = agent_labels(config.agents)
    summaries = {
        label: AgentSummary(agent=label, spec=spec, seat_counts=[0] * n)
        for label, spec in zip(labels, config.agents)
    }
    tally = _Tally(labels, parts)
    model = PlackettLuce()
    ratings = {label: model.rating(name=label) for label in labels}
    k = len(config.agents)
    for result in results:
        seat_labels = [labels[i] for i in lineup(k, n, result["index"])]
        tally.add_game(summaries, seat_labels, result)
        _rate_game(model, ratings, seat_labels, result["breakdown"])
    return [tally.finish(summaries[label], ratings[label]) for label in labels]


class _Tally:
    """Per-agent sums over the games of a match (scores, ranks, score parts, thinking)."""

    def __init__(self, labels: list[str], parts: tuple[tuple[str, str], ...]) -> None:
        self.parts = parts
        self.scores: dict[str, list[float]] = {label: [] for label in labels}
        self.sums: dict[str, dict[str, float]] = {label: {} for label in labels}
        self.think: dict[str, float] = {label: 0.0 for label in labels}

    def add_game(
        self, summaries: dict[str, AgentSummary], seat_labels: list[str], result: dict[str, Any]
    ) -> None:
        breakdown = result["breakdown"]
        num_winners = sum(1 for b in breakdown if b["rank"] == 1)
        for seat, (label, row) in enumerate(zip(seat_labels, breakdown)):
            s = summaries[label]
            s.seat_games += 1
            s.seat_counts[seat] += 1
            if row["rank"] == 1:
                s.wins += 1.0 / num_winners
            self.scores[label].append(row["total"])
            acc = self.sums[label]
            acc["rank"] = acc.get("rank", 0.0) + row["rank"]
            for key, column in self.parts:
                acc[column] = acc.get(column, 0.0) + row[key]
            s.decisions += result["decisions"][seat]
            self.think[label] += result["think_s"][seat]

    def finish(self, s: AgentSummary, rating: Any) -> AgentSummary:
        label = s.agent
        m = max(1, s.seat_games)
        s.win_share = s.wins / m
        s.win_ci_low, s.win_ci_high = wilson_interval(s.wins, s.seat_games)
        s.mean_score, s.score_ci = mean_ci(self.scores[label])
        acc = self.sums[label]
        s.mean_rank = acc.get("rank", 0.0) / m
        s.mean_parts = {column: acc.get(column, 0.0) / m for _, column in self.parts}
        s.rating_mu, s.rating_sigma, s.rating_ordinal = rating.mu, rating.sigma, rating.ordinal()
        s.ms_per_decision = 1000.0 * self.think[label] / max(1, s.decisions)
        return s


def _rate_game(
    model: Any, ratings: dict[str, Any], seat_labels: list[str], breakdown: list[dict[str, Any]]
) -> None:
    """OpenSkill: every seat is a one-player team; a spec seated twice gets the mean of its
    seats' updated ratings."""
    teams = [[model.rating(mu=ratings[lab].mu, sigma=ratings[lab].sigma)] for lab in seat_labels]
    rated = model.rate(teams, ranks=[row["rank"] for row in breakdown])
    updates: dict[str, list[Any]] = {}
    for lab, team in zip(seat_labels, rated):
        updates.setdefault(lab, []).append(team[0])
    for lab, new in updates.items():
        mu = sum(r.mu for r in new) / len(new)
        sigma = sum(r.sigma for r in new) / len(new)
        ratings[lab] = model.rating(mu=mu, sigma=sigma, name=lab)


# -- the whole match ---------------------------------------------------------------------
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


SUMMARY_COLUMNS = [
    "agent",
    "spec",
    "seat_games",
    "wins",
    "win_share",
    "win_ci_low",
    "win_ci_high",
    "mean_score",
    "score_ci",
    "mean_rank",
    # then mean_<part> for each of the game's score parts
    "rating_mu",
    "rating_sigma",
    "rating_ordinal",
    "decisions",
    "ms_per_decision",
]


def summary_columns(game: GameSpec) -> list[str]:
    """results.csv's columns: SUMMARY_COLUMNS with the game's score parts after mean_rank."""
    at = SUMMARY_COLUMNS.index("mean_rank") + 1
    parts = [f"mean_{column}" for _, column in game.score_parts]
    return SUMMARY_COLUMNS[:at] + parts + SUMMARY_COLUMNS[at:]


def summary_row(s: AgentSummary) -> dict[str, Any]:
    row = asdict(s)
    row.update({f"mean_{column}": value for column, value in row.pop("mean_parts").items()})
    return row


def result_paths(out_dir: str | Path, partial: bool = False) -> list[Path]:
    """results.json, results.csv and games.csv in ``out_dir``; a partial result (Ctrl-C)
    is written as results.partial.json etc., so it never passes for a complete one."""
    infix = ".partial" if partial else ""
    out = Path(out_dir)
    return [out / f"results{infix}.json", out / f"results{infix}.csv", out / f"games{infix}.csv"]


def write_results(result: MatchResult, out_dir: str | Path) -> list[Path]:
    """results.json (config, summary, every game), results.csv (one row per agent) and
    games.csv (one row per seat-game), each written atomically."""
    paths = result_paths(out_dir, result.partial)
    game = get_game(result.config.game)
    atomic_write_json(paths[0], result.to_json(), indent=1)
    summary = io.StringIO(newline="")
    writer = csv.DictWriter(summary, fieldnames=summary_columns(game), extrasaction="ignore")
    writer.writeheader()
    for s in result.summaries:
        writer.writerow(summary_row(s))
    atomic_write_text(paths[1], summary.getvalue())
    labels = agent_labels(result.config.agents)
    k, n = len(result.config.agents), result.config.num_players
    games = io.StringIO(newline="")
    writer = csv.writer(games)
    parts = game.score_parts
    writer.writerow(
        ["game", "seed", "seat", "agent", "total", "rank", *(c for _, c in parts), "decisions"]
    )
    for r in result.games:
        order = lineup(k, n, r["index"])
        for seat, b in enumerate(r["breakdown"]):
            writer.writerow(
                [r["index"], r["seed"], seat, labels[order[seat]], b["total"], b["rank"]]
                + [b[key] for key, _ in parts]
                + [r["decisions"][seat]]
            )
    atomic_write_text(paths[2], games.getvalue())
    return paths


def save_game_records(result: MatchResult, out_dir: str | Path) -> list[Path]:
    from .records import make_record, save_record

    out = Path(out_dir)
    width = max(4, len(str(result.config.games - 1)))
    paths = []
    for r in result.games:
        record = make_record(
            game=result.config.game,
            num_players=result.config.num_players,
            seed=r["seed"],
            variants=result.config.variants,
            agents=r["specs"],
            actions=r["actions"],
            breakdown=r["breakdown"],
            extra={"match_seed": result.config.seed, "game": r["index"]},
            insight=r.get("insight"),
        )
        paths.append(save_record(record, out / f"game_{r['index']:0{width}d}.json"))
    return paths


def format_table(result: MatchResult) -> Any:
    """A rich Table of the summary."""
    from rich.table import Table

    config = result.config
    n = config.num_players
    game = get_game(config.game)
    table = Table(
        title=(
            (
                f"PARTIAL: {len(result.games)} of {config.games} games"
                if result.partial
                else f"{config.games} games"
            )
            + (f" of {game.title}" if game.name != default_game().name else "")
            + f", {n} players, seed {config.seed}"
            + "".join(f", {key}" for key in game.active_variants(config.variants))
        ),
    )
    columns = [("agent", "left"), ("seats", "right"), ("win share [95% CI]", "right")]
    columns += [("score", "right"), *((column, "right") for _, column in game.score_parts)]
    columns += [("rank", "right"), ("rating", "right"), ("ms/dec", "right")]
    for name, justify in columns:
        table.add_column(name, justify=justify)
    for s in result.summaries:
        table.add_row(
            s.agent,
            str(s.seat_games),
            f"{100 * s.win_share:5.1f}% [{100 * s.win_ci_low:4.1f}, {100 * s.win_ci_high:4.1f}]",
            f"{s.mean_score:5.1f} ± {s.score_ci:3.1f}",
            *(f"{value:.1f}" for value in s.mean_parts.values()),
            f"{s.mean_rank:.2f}",
            f"{s.rating_mu:.1f}±{s.rating_sigma:.1f} ({s.rating_ordinal:.1f})",
            f"{s.ms_per_decision:.2f}",
        )
    return table


def print_table(result: MatchResult, file: Any = None) -> None:
    from rich.console import Console

    file = file or sys.stdout
    console = Console(file=file, highlight=False, width=None if file.isatty() else 150)
    console.print(format_table(result))
    n = result.config.num_players
    console.print(
        f"win share: shared wins count 1/k, 95% Wilson score interval; equal strength = "
        f"{100 / n:.1f}% per seat.\n"
        "score: mean ± 95% CI (normal approximation), then the mean points of the score's "
        "parts; rank: mean final rank.\n"
        "rating: OpenSkill Plackett-Luce mu±sigma (ordinal = mu - 3 sigma) from every game's "
        "ranking.\nUnit: seat-games (a spec seated twice in one game counts twice); "
        "ms/dec: mean time per decision."
    )
    total_decisions = sum(sum(r["decisions"]) for r in result.games)
    mean_rounds = sum(r["rounds"] for r in result.games) / max(1, len(result.games))
    console.print(
        f"{len(result.games)} games, {total_decisions} decisions, {mean_rounds:.2f} rounds per "
        f"game, {result.wall_s:.1f} s with {result.config.workers} worker(s)"
    )


# -- stopping ------------------------------------------------------------------------------
class StopSignals(StopSignalHandler):
    """SIGINT and SIGTERM of an ``eval`` command (``with StopSignals() as signals``).

    Inside ``signals.raising()`` (the games) the first signal raises KeyboardInterrupt
    with the signal's name, which stops the match with the games finished so far. Every
    other signal -- the second of two quick Ctrl-Cs, or one while the results are being
    written -- is only noted: the finished games are written whole, and the partial
    results count exactly the game records written. (Before, a second Ctrl-C 50 ms after
    the first wrote nothing, and one 0.3 s after it left results.partial.json counting
    633 games beside 84 records.) ``kill -9`` still stops it at once, and the files
    written are whole (atomic). Outside the main thread this does nothing; a signal
    ignored at the start (a background job's SIGINT) stays ignored."""

    def __init__(self) -> None:
        self.received: list[str] = []
        self._raise = False
        self._noted = False

    @contextmanager
    def raising(self) -> Iterator[None]:
        """A block that the first stop signal ends with KeyboardInterrupt."""
        self._raise = True
        try:
            yield
        finally:
            self._raise = False

    def _handle(self, signum: int, frame: Any) -> None:
        name = signal.Signals(signum).name
        self.received.append(name)
        if self._raise:
            self._raise = False  # from now on a signal waits until the files are written
            raise StopSignal(name)
        if not self._noted:
            self._noted = True
            write_stderr(f"\n{name}: writing the finished games first (a moment)\n")
