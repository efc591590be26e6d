"""A match's statistics per agent spec: win share with a Wilson interval, mean score with
a normal-approximation interval, the score's parts, ranks, OpenSkill ratings, thinking
time."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from art_gallery_env.core.registry import get_game

from .lineup import agent_labels, lineup

if TYPE_CHECKING:
    from .evaluate import MatchConfig

Z95 = 1.959963984540054


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
