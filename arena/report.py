"""A match's result as files (results.json, results.csv, games.csv, game records) and as a
table on the terminal."""

from __future__ import annotations

import csv
import io
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from art_gallery_env.core.registry import GameSpec, default_game, get_game
from art_gallery_env.files import atomic_write_json, atomic_write_text

from .lineup import agent_labels, lineup
from .stats import AgentSummary

if TYPE_CHECKING:
    from .evaluate import MatchResult

C = TypeVar("C")
S = TypeVar("S")


@dataclass
class EvaluationResult(Generic[C, S]):
    """What a match or a solo evaluation returns: its config, one summary per agent, every
    game's result (in game order) and the wall time."""

    config: C
    summaries: list[S]
    games: list[dict[str, Any]]
    wall_s: float

    @property
    def planned(self) -> int:
        """The games it was to play."""
        return self.config.games  # type: ignore[attr-defined]

    @property
    def partial(self) -> bool:
        """Stopped before every planned game was played (Ctrl-C)."""
        return len(self.games) < self.planned

    def save_games(self, out_dir: str | Path) -> list[Path]:
        """One game record per game, for replay and the web viewer."""
        return save_game_records(self, out_dir)  # type: ignore[arg-type]


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


SCORE_CI_METHOD = "95% normal approximation (mean +- 1.96 sd/sqrt(n))"


def result_json(kind: str, result: Any, method: dict[str, str]) -> dict[str, Any]:
    """What a results.json of ``kind`` (``eval``, ``eval-solo``) opens with: the game, its
    env version, the config, the method, whether the result is partial, and the summaries."""
    config = result.config
    return {
        "format": f"art-gallery-env/{kind}",
        "version": 1,
        "game": config.game,
        "env_version": get_game(config.game).env_version,
        "config": {**asdict(config), "agents": list(config.agents)},
        "method": {**method, "score_ci": SCORE_CI_METHOD},
        "partial": result.partial,
        "games_played": len(result.games),
        "wall_s": result.wall_s,
        "agents": [asdict(s) for s in result.summaries],
    }


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
    for name, justify in columns:  # a long checkpoint path wraps rather than loses its end
        table.add_column(name, justify=justify, overflow="fold" if name == "agent" else "ellipsis")
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


def table_text(result: MatchResult) -> str:
    """What :func:`print_table` prints, as a string (150 columns wide)."""
    out = io.StringIO()
    print_table(result, out)
    return out.getvalue()


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
