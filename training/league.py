"""Who sits across the table in expert iteration's self-play (``exit.league``).

A network that only ever meets itself, or one teacher, learns that opponent's flaws. A
league mixes the opponents: each self-play game is drawn from the entries' weights,

- ``self_play``: the learner's search in every seat (every seat's decisions are rows);
- ``past_generations``: earlier generations' networks, played bare (argmax of the policy);
- ``agents``: fixed players by agent spec (``heuristic:v1``, ``ismcts:iters=400``, a
  checkpoint), each with its weight;
- ``drawn``: one agent whose numeric options are drawn afresh for every seat, uniformly
  from their ``ranges`` (heuristic variants: no two games meet the same parameters).

In a game that is not ``self_play`` the learner's search holds one seat (rotating with the
game's number) and every other seat is drawn independently from the non-self-play entries;
only the learner's seat gives rows. Every draw derives from (seed, generation, game), so a
generation's games are the same on a resume and for any number of workers.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from pydantic import Field, model_validator

from .config_types import Number, Strict

SELF_PLAY, PAST, DRAWN = "self_play", "past_generations", "drawn"


class DrawnAgentConfig(Strict):
    """An agent whose options ``ranges`` (name -> [low, high]) are drawn per seat."""

    weight: Number = Field(0.0, ge=0)
    agent: str = Field("heuristic", min_length=1)
    ranges: dict[str, list[Number]] = Field(default_factory=dict)  # name -> [low, high]

    @model_validator(mode="after")
    def _ordered(self) -> DrawnAgentConfig:
        for name, bounds in self.ranges.items():
            if len(bounds) != 2:
                raise ValueError(f"drawn.ranges.{name}: give [low, high], got {bounds}")
            low, high = bounds
            if not low <= high:
                raise ValueError(f"drawn.ranges.{name}: low {low} is above high {high}")
        if ":" in self.agent:
            raise ValueError(
                f"drawn.agent is an agent's name ({self.agent!r} has options): its options "
                "are drawn from drawn.ranges"
            )
        return self

    def spec(self, rng: np.random.Generator) -> str:
        """One draw: ``agent:name=value,...`` (``agent`` alone without ranges)."""
        items = [f"{k}={rng.uniform(lo, hi):.4g}" for k, (lo, hi) in sorted(self.ranges.items())]
        return f"{self.agent}:{','.join(items)}" if items else self.agent

    def middle(self) -> str:
        """The spec at every range's midpoint (what a config check builds once)."""
        items = [f"{k}={(lo + hi) / 2:.4g}" for k, (lo, hi) in sorted(self.ranges.items())]
        return f"{self.agent}:{','.join(items)}" if items else self.agent


class LeagueConfig(Strict):
    """The weights of the opponents expert iteration's self-play meets (module docstring).
    The default is plain self-play."""

    self_play: Number = Field(1.0, ge=0)
    past_generations: Number = Field(0.0, ge=0)
    agents: dict[str, Number] = Field(default_factory=dict)
    drawn: DrawnAgentConfig = Field(default_factory=DrawnAgentConfig)

    @model_validator(mode="after")
    def _some_weight(self) -> LeagueConfig:
        if any(w < 0 for w in self.agents.values()):
            raise ValueError("league.agents weights must be >= 0")
        if sum(self._weights().values()) <= 0:
            raise ValueError(
                "league weights self_play, past_generations, agents and drawn.weight must "
                "not all be 0"
            )
        return self

    def _weights(self) -> dict[str, float]:
        weights = {SELF_PLAY: self.self_play, PAST: self.past_generations, DRAWN: self.drawn.weight}
        weights.update(self.agents)
        return {k: float(w) for k, w in weights.items() if w > 0}

    def fixed_specs(self) -> list[str]:
        """The agent specs a config check must be able to build (the drawn one at its
        ranges' midpoints)."""
        specs = [k for k, w in self.agents.items() if w > 0]
        return specs + ([self.drawn.middle()] if self.drawn.weight > 0 else [])

    def seats(
        self,
        rng: np.random.Generator,
        num_players: int,
        game_index: int,
        past: list[Path],
    ) -> tuple[str | None, ...]:
        """One game's seats: None for the learner's search, else an opponent's spec.

        ``past`` lists the earlier generations' weight files (generation 0, the start,
        first); while it is empty the past entry is left out of the draw."""
        weights = self._weights()
        if not past:
            weights.pop(PAST, None)
        names = list(weights)
        if not names:  # only past generations, and none yet: the learner meets itself
            return (None,) * num_players
        p = np.asarray([weights[n] for n in names])
        if names[int(rng.choice(len(names), p=p / p.sum()))] == SELF_PLAY:
            return (None,) * num_players
        others = [n for n in names if n != SELF_PLAY]
        q = np.asarray([weights[n] for n in others])
        learner = game_index % num_players
        seats: list[str | None] = []
        for seat in range(num_players):
            if seat == learner:
                seats.append(None)
                continue
            entry = others[int(rng.choice(len(others), p=q / q.sum()))]
            if entry == PAST:
                seats.append(str(past[int(rng.integers(len(past)))]))
            elif entry == DRAWN:
                seats.append(self.drawn.spec(rng))
            else:
                seats.append(entry)
        return tuple(seats)
