"""The evaluation of agents at a one-player table (a solo game): each agent plays the same
seeded games alone, and there is no one to rank against.

Per agent it reports the mean score with a 95 % normal-approximation interval, the mean
score parts, the share of games that *reach the goal* (the reward in the game's first solo
reward mode is above 0) and, where the game's breakdown row names a goal level
(``goal_level``: 0 = none, 1 = the first level, ...; ``goal_name``: its name), how often
each highest level was reached and the share of games at or above each level, each share
with a 95 % Wilson interval.

Game ``g`` is set up with ``derive_seed(seed, "solo", g)`` and the agent reset with
``derive_seed(seed, "solo", g, "agent")``: the seeds of a training run's solo evaluation,
so the same seed gives the same games for every agent and every checkpoint.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from art_gallery_env.core.registry import GameSpec, get_game
from art_gallery_env.core.scoring import final_rewards
from art_gallery_env.files import atomic_write_json, atomic_write_text

from .lineup import agent_labels, derive_seed
from .playing import GameTask, MatchError, play_and_summarise, resolve_config
from .report import EvaluationResult, result_json, result_paths
from .stats import mean_ci, wilson_interval


@dataclass(frozen=True)
class SoloConfig:
    """A solo evaluation: ``games`` one-player games of each agent spec, on the same seeds."""

    agents: tuple[str, ...]
    games: int
    seed: int = 0
    variants: Mapping[str, Any] = field(default_factory=dict)
    workers: int = 1
    insight: bool = False
    game: str | None = None

    def __post_init__(self) -> None:
        game = resolve_config(self)
        if game.min_players > 1:
            raise MatchError(
                f"{game.title} has no solo game: players must be in "
                f"{game.min_players}..{game.max_players}, got 1"
            )
        if not self.agents:
            raise MatchError("give at least one agent spec")

    @property
    def num_players(self) -> int:
        """Always 1 (the game records and the unseen-table notes read it)."""
        return 1


@dataclass
class LevelShare:
    """The games that reached goal level ``level`` or a higher one."""

    level: int
    name: str
    games: int
    share: float
    ci_low: float
    ci_high: float


@dataclass
class SoloSummary:
    agent: str
    spec: str
    games: int = 0
    goals: int = 0  # games whose reward in the game's first solo mode is above 0
    goal_share: float = 0.0
    goal_ci_low: float = 0.0
    goal_ci_high: float = 0.0
    mean_score: float = 0.0
    score_ci: float = 0.0
    mean_parts: dict[str, float] = field(default_factory=dict)
    level_counts: dict[int, int] = field(default_factory=dict)  # highest level -> games
    at_least: list[LevelShare] = field(default_factory=list)  # level 1, 2, ...
    decisions: int = 0
    ms_per_decision: float = 0.0


def solo_tasks(config: SoloConfig) -> list[GameTask]:
    """Agent ``a``'s game ``g`` is task ``a * games + g``; every agent gets the same seeds."""
    return [
        GameTask(
            index=a * config.games + g,
            seed=derive_seed(config.seed, "solo", g),
            num_players=1,
            variants=config.variants,
            specs=(spec,),
            agent_seeds=(derive_seed(config.seed, "solo", g, "agent"),),
            insight=config.insight,
            game=config.game,
        )
        for a, spec in enumerate(config.agents)
        for g in range(config.games)
    ]


def level_names(results: list[dict[str, Any]]) -> dict[int, str]:
    """Level number -> name for every level up to the highest reached in ``results``
    (a level no game reached, below the highest, is named by its number)."""
    names: dict[int, str] = {}
    for r in results:
        row = r["breakdown"][0]
        if "goal_level" in row:
            names[int(row["goal_level"])] = str(row.get("goal_name", row["goal_level"]))
    top = max(names, default=0)
    return {k: names.get(k, f"level {k}") for k in range(1, top + 1)}


def summarize_solo(config: SoloConfig, results: list[dict[str, Any]]) -> list[SoloSummary]:
    game = get_game(config.game)
    rewards = game.final_rewards or final_rewards
    mode = game.reward_modes_for(1)[0]
    names = level_names(results)
    out = []
    for a, (label, spec) in enumerate(zip(agent_labels(config.agents), config.agents)):
        rows = [r for r in results if r["index"] // config.games == a]
        out.append(_summary(game, label, spec, rows, rewards, mode, names))
    return out


def _summary(
    game: GameSpec,
    label: str,
    spec: str,
    rows: list[dict[str, Any]],
    rewards: Any,
    mode: str,
    names: dict[int, str],
) -> SoloSummary:
    n = len(rows)
    breakdowns = [r["breakdown"][0] for r in rows]
    s = SoloSummary(agent=label, spec=spec, games=n)
    s.goals = sum(1 for r in rows if rewards(r["breakdown"], mode)[0] > 0)
    s.goal_share = s.goals / max(1, n)
    s.goal_ci_low, s.goal_ci_high = wilson_interval(s.goals, n)
    s.mean_score, s.score_ci = mean_ci([float(b["total"]) for b in breakdowns])
    s.mean_parts = {
        column: sum(b[key] for b in breakdowns) / max(1, n) for key, column in game.score_parts
    }
    levels = [int(b["goal_level"]) for b in breakdowns if "goal_level" in b]
    for level in levels:
        s.level_counts[level] = s.level_counts.get(level, 0) + 1
    for level, name in names.items():
        reached = sum(1 for x in levels if x >= level)
        low, high = wilson_interval(reached, n)
        s.at_least.append(LevelShare(level, name, reached, reached / max(1, n), low, high))
    s.decisions = sum(r["decisions"][0] for r in rows)
    s.ms_per_decision = 1000.0 * sum(r["think_s"][0] for r in rows) / max(1, s.decisions)
    return s


@dataclass
class SoloResult(EvaluationResult[SoloConfig, SoloSummary]):
    """What :func:`run_solo` returns (see :class:`.report.EvaluationResult`)."""

    @property
    def planned(self) -> int:
        """The games the evaluation was to play (``games`` per agent)."""
        return self.config.games * len(self.config.agents)

    def to_json(self) -> dict[str, Any]:
        method = {
            "goal_share": "reward above 0 in the game's first solo reward mode; 95% Wilson",
            "at_least": "games whose highest goal level is this one or higher; 95% Wilson",
        }
        keys = ("index", "seed", "specs", "rounds", "decisions", "breakdown")
        games = [{k: r[k] for k in keys} for r in self.games]
        return {**result_json("eval-solo", self, method), "games": games}

    def table(self) -> str:
        """The summary as text, as ``print`` shows it."""
        return solo_table_text(self)

    def write(self, out_dir: str | Path) -> list[Path]:
        """results.json and results.csv in ``out_dir`` (``.partial`` ones after Ctrl-C)."""
        return write_solo_results(self, out_dir)


def run_solo(config: SoloConfig, *, progress: bool | None = None) -> SoloResult:
    """Play and summarise a solo evaluation; ``progress`` None shows a bar only on a
    terminal. Ctrl-C raises :class:`MatchInterrupted` whose ``result`` is the partial
    :class:`SoloResult`."""

    def finish(results: list[dict[str, Any]], wall_s: float) -> SoloResult:
        return SoloResult(config, summarize_solo(config, results), results, wall_s)

    return play_and_summarise(solo_tasks(config), config.workers, progress, finish)


def format_solo_table(result: SoloResult) -> Any:
    """A rich Table of the summary: one row per agent."""
    from rich.table import Table

    config = result.config
    game = get_game(config.game)
    title = (
        f"{'PARTIAL: ' if result.partial else ''}{len(result.games)} solo games of {game.title}"
        f", seed {config.seed}" + "".join(f", {k}" for k in game.active_variants(config.variants))
    )
    table = Table(title=title)
    levels = _levels(result)
    columns = ["agent", "games", "score", *(column for _, column in game.score_parts)]
    columns += ["goal [95% CI]", *(f">= {lv.name} [95% CI]" for lv in levels), "ms/dec"]
    table.add_column(columns[0], overflow="fold")
    for name in columns[1:]:
        table.add_column(name, justify="right")
    for s in result.summaries:
        table.add_row(
            s.agent,
            str(s.games),
            f"{s.mean_score:5.1f} ± {s.score_ci:3.1f}",
            *(f"{value:.1f}" for value in s.mean_parts.values()),
            _share(s.goal_share, s.goal_ci_low, s.goal_ci_high),
            *(_share(lv.share, lv.ci_low, lv.ci_high) for lv in s.at_least),
            f"{s.ms_per_decision:.2f}",
        )
    return table


def _levels(result: SoloResult) -> list[LevelShare]:
    """The goal levels of the table (the same for every agent of a result)."""
    return result.summaries[0].at_least if result.summaries else []


def _share(share: float, low: float, high: float) -> str:
    return f"{100 * share:5.1f}% [{100 * low:4.1f}, {100 * high:4.1f}]"


def solo_table_text(result: SoloResult) -> str:
    from rich.console import Console

    out = io.StringIO()
    console = Console(file=out, highlight=False, width=150)
    console.print(format_solo_table(result))
    names = {0: "none", **{lv.level: lv.name for lv in _levels(result)}}
    for s in result.summaries:
        if s.level_counts:
            counts = ", ".join(
                f"{names.get(k, k)} {s.level_counts[k]}" for k in sorted(s.level_counts)
            )
            console.print(f"{s.agent}: highest goal level reached: {counts}")
    console.print(
        "score: mean ± 95% CI (normal approximation), then the mean points of the score's "
        "parts.\ngoal: games whose reward in the game's solo mode is above 0; >= LEVEL: "
        "games whose highest goal level is LEVEL or higher; 95% Wilson score intervals."
    )
    console.print(
        f"{len(result.games)} games, {result.wall_s:.1f} s with {result.config.workers} worker(s)"
    )
    return out.getvalue()


SOLO_COLUMNS = ["agent", "spec", "games", "goals", "goal_share", "goal_ci_low", "goal_ci_high"]
SOLO_COLUMNS += ["mean_score", "score_ci", "decisions", "ms_per_decision"]


def write_solo_results(result: SoloResult, out_dir: str | Path) -> list[Path]:
    """results.json (config, summary, every game) and results.csv (one row per agent, with
    ``at_least_<level>`` share columns), each written atomically."""
    import csv

    json_path, csv_path = result_paths(out_dir, result.partial)[:2]
    atomic_write_json(json_path, result.to_json(), indent=1)
    levels = _levels(result)
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow(SOLO_COLUMNS + [f"at_least_{lv.level}" for lv in levels])
    for s in result.summaries:
        row = asdict(s)
        writer.writerow([row[c] for c in SOLO_COLUMNS] + [lv.share for lv in s.at_least])
    atomic_write_text(csv_path, buffer.getvalue())
    return [json_path, csv_path]
