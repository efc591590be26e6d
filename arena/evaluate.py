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

:func:`evaluate` is the few-line Python API over all of it (``from art_gallery_env.arena
import evaluate``; this module is callable): a match at two or more players, and at one
player a solo evaluation (:mod:`art_gallery_env.arena.solo`: score and goal levels). The
parts live in modules of their own: :mod:`.lineup` (seats and seeds), :mod:`.playing`
(games in worker processes), :mod:`.stats`, :mod:`.report` (files and the table) and
:mod:`.stop` (stop signals); their names stay importable from here.
"""

from __future__ import annotations

import math
import os
import sys
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from art_gallery_env.agents.registry import agent_spec_problem, make_agent
from art_gallery_env.core.registry import GameSpec, get_game

from .lineup import MAX_TABLES, agent_labels, derive_seed, game_seed, lineup, seat_seed
from .playing import (
    GameTask,
    MatchError,
    MatchInterrupted,
    init_worker,
    play_and_summarise,
    play_game,
    resolve_config,
    run_tasks,
)
from .report import (
    SUMMARY_COLUMNS,
    EvaluationResult,
    format_table,
    print_table,
    result_json,
    result_paths,
    save_game_records,
    summary_columns,
    summary_row,
    table_text,
    write_results,
)
from .solo import SoloConfig, SoloResult, run_solo
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
    "evaluate",
    "evaluation_config",
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
    "run_evaluation",
    "run_match",
    "run_tasks",
    "save_game_records",
    "seat_seed",
    "SoloConfig",
    "SoloResult",
    "summarize",
    "summary_columns",
    "summary_row",
    "table_text",
    "unseen_table_notes",
    "wilson_interval",
    "write_results",
]


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
        game = resolve_config(self)
        self._check_players(game)
        self._check_agents(game)

    def _check_players(self, game: GameSpec) -> None:
        n = self.num_players
        lo, hi = max(2, game.min_players), game.max_players  # a match ranks 2+ seats
        if isinstance(n, bool) or not isinstance(n, int) or not lo <= n <= hi:
            solo = (
                " (a solo game has no one to rank against: evaluate(..., players=1) from "
                "art_gallery_env.arena measures its score and goal levels)"
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
    return run_tasks(make_tasks(config), config.workers, progress)


@dataclass
class MatchResult(EvaluationResult[MatchConfig, AgentSummary]):
    """What :func:`run_match` returns (see :class:`.report.EvaluationResult`)."""

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
        method = {
            "win_share": "shared wins count 1/k; 95% Wilson score interval",
            "rating": "openskill PlackettLuce, per-game R7.5 ranks, ordinal = mu - 3 sigma",
            "unit": "seat-game (a spec seated twice in one game counts twice)",
        }
        head = result_json("eval", self, method)
        return {**head, "games_planned": self.config.games, "games": games}

    def table(self) -> str:
        """The summary table and its notes as text, as ``art-gallery eval`` prints them."""
        return table_text(self)

    def write(self, out_dir: str | Path) -> list[Path]:
        """results.json, results.csv and games.csv in ``out_dir`` (see :func:`write_results`)."""
        return write_results(self, out_dir)


def run_match(config: MatchConfig, *, progress: bool | None = None) -> MatchResult:
    """Play and summarise a match; ``progress`` None shows a bar only on a terminal."""

    def finish(results: list[dict[str, Any]], wall_s: float) -> MatchResult:
        return MatchResult(config, summarize(config, results), results, wall_s)

    return play_and_summarise(make_tasks(config), config.workers, progress, finish)


# -- the Python evaluation API ---------------------------------------------------------
def _print_note(note: str) -> None:
    print(f"note: {note}", file=sys.stderr)


def evaluate(
    agents: str | Path | Sequence[str | Path],
    *,
    game: str | None = None,
    players: int = 2,
    games: int = 100,
    seed: int = 0,
    variants: Mapping[str, Any] | None = None,
    workers: int = 1,
    round_robin: bool = False,
    insight: bool = False,
    progress: bool | None = False,
    notes: Callable[[str], None] | None = _print_note,
) -> MatchResult | SoloResult:
    """Play ``games`` games of ``agents`` and summarise them.

    ``agents``: agent specs (``"random"``, ``"heuristic"``, ``"ismcts:iterations=200"``),
    checkpoint paths, or folders of checkpoints (a training run folder rates all of its
    checkpoints in a round robin). ``game``: a registered game's name (None: the default
    game). ``players``: the table size; 1 plays each agent alone (a solo game). The result
    has ``.table()`` (text), ``.summaries``, ``.write(folder)`` (results.json/.csv) and
    ``.save_games(folder)`` (game records). Bad input raises :class:`MatchError` with one
    line naming the problem and the legal choices; Ctrl-C raises
    :class:`~art_gallery_env.arena.evaluate.MatchInterrupted` whose ``result`` holds the
    games finished by then. ``notes`` receives one line per remark worth reading (a folder
    expanded, a checkpoint trained at other table sizes); None drops them. It is
    :func:`evaluation_config` and then :func:`run_evaluation`, for a caller (such as a
    command line) with checks of its own between the two.
    """
    config = evaluation_config(
        agents, game=game, players=players, games=games, seed=seed, variants=variants,
        workers=workers, round_robin=round_robin, insight=insight, notes=notes,
    )  # fmt: skip
    return run_evaluation(config, progress=progress)


def evaluation_config(
    agents: str | Path | Sequence[str | Path],
    *,
    game: str | None = None,
    players: int = 2,
    games: int = 100,
    seed: int = 0,
    variants: Mapping[str, Any] | None = None,
    workers: int = 1,
    round_robin: bool = False,
    insight: bool = False,
    notes: Callable[[str], None] | None = _print_note,
) -> MatchConfig | SoloConfig:
    """The checked config of :func:`evaluate` (its arguments but ``progress``): a
    :class:`MatchConfig` or, at one player, a :class:`SoloConfig`; every agent spec is
    built once, so a bad one raises :class:`MatchError` before any game."""
    given = [str(agents)] if isinstance(agents, str | Path) else [str(a) for a in agents]
    specs = expand_agent_specs(given)
    expanded = specs != given
    if expanded and notes:
        notes(f"{len(specs)} agents: " + " ".join(specs))
    try:
        spec = get_game(game)
    except ValueError as err:
        raise MatchError(str(err)) from None
    for agent in dict.fromkeys(specs):  # first: a policy of another game names its --game
        problem = agent_spec_problem(agent, game=spec.name)
        if problem is not None:
            raise MatchError(f"bad agent spec {agent!r}: {problem}")
    _check_table_size(spec, players)
    common = dict(agents=tuple(specs), games=games, seed=seed, variants=dict(variants or {}))
    common.update(workers=workers, insight=insight, game=spec.name)
    config: MatchConfig | SoloConfig
    if players == 1:
        config = SoloConfig(**common)  # type: ignore[arg-type]
    else:
        # a folder of checkpoints rates them all: more agents than seats by design
        rr = round_robin or expanded
        config = MatchConfig(num_players=players, round_robin=rr, **common)  # type: ignore[arg-type]
    for note in unseen_table_notes(config) if notes else ():  # type: ignore[arg-type]
        notes(note)
    return config


def _check_table_size(game: GameSpec, players: Any) -> None:
    """``players`` must be one of the game's table sizes; 1 (a solo evaluation) is left to
    :class:`SoloConfig`, which names the sizes of a game without a solo game."""
    lo, hi = game.min_players, game.max_players
    if players == 1 and not isinstance(players, bool):
        return
    if isinstance(players, bool) or not isinstance(players, int) or not lo <= players <= hi:
        solo = " (1: each agent plays the solo game alone)" if lo == 1 else ""
        raise MatchError(f"players must be in {lo}..{hi} for {game.title}{solo}, got {players!r}")


def run_evaluation(
    config: MatchConfig | SoloConfig, *, progress: bool | None = False
) -> MatchResult | SoloResult:
    """Play a config of :func:`evaluation_config`: :func:`run_match` or :func:`run_solo`."""
    if isinstance(config, SoloConfig):
        return run_solo(config, progress=progress)
    return run_match(config, progress=progress)


class _CallableModule(types.ModuleType):
    """``from art_gallery_env.arena import evaluate`` gives this module (the package's
    submodule of that name wins over any function of the package), so calling the module
    runs :func:`evaluate`: the documented few-line API works while every name of this
    module stays importable."""

    def __call__(self, *args: Any, **kwargs: Any) -> MatchResult | SoloResult:
        return evaluate(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
