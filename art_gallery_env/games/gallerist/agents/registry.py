"""The Gallerist's own players, as its spec hands them to the game-free tools.

- :func:`make_heuristic`: the ``heuristic`` agent (``heuristic:lookahead=0,solo_tile=12``:
  any :class:`~.heuristic.HeuristicParams` weight), built by
  :func:`art_gallery_env.agents.registry.make_agent` with ``game="gallerist"``, which also
  serves the generic ``random``, ``ismcts`` and policy checkpoints;
- :data:`ROLLOUTS`: the rollout policies ISMCTS may play (``rollout=random``, the search's
  own and the default, or ``rollout=heuristic``);
- :func:`search_evaluator`: ISMCTS's value of a game its rollout stopped early.

Options arrive as strings (``key=value`` of an agent spec); they are converted and checked
here, and errors name the valid choices.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from art_gallery_env.core.scoring import margin_values, win_shares

from ..rules.state import GameState
from .heuristic import GalleristHeuristicAgent, HeuristicParams, HeuristicPolicy, evaluate

# The spread of a money margin (ISMCTS's evaluator): a heuristic game's winner ends some
# 20-40 money ahead.
DEFAULT_SCALE = 10.0


def make_heuristic(seed: int | None = None, **options: str) -> GalleristHeuristicAgent:
    """Options: any :class:`HeuristicParams` weight, e.g. ``heuristic:lookahead=0``."""
    valid = HeuristicParams.names()
    values: dict[str, float] = {}
    for key, value in options.items():
        if key not in valid:
            raise ValueError(
                f"unknown option {key!r} for agent 'heuristic'; valid options: {', '.join(valid)}"
            )
        try:
            values[key] = float(value)
        except ValueError:
            raise ValueError(f"option {key}={value!r} must be a number") from None
    return GalleristHeuristicAgent(seed=seed, params=HeuristicParams().with_options(**values))


def _heuristic_rollout(params: HeuristicParams | None = None) -> HeuristicPolicy:
    """``rollout=heuristic``: the greedy evaluation player (with ``params`` if given)."""
    if params is not None and not isinstance(params, HeuristicParams):
        raise ValueError(
            f"rollout=heuristic needs the Gallerist's HeuristicParams, got {type(params).__name__}"
        )
    return HeuristicPolicy(params)


# name -> factory(params=None) of an object with choose(state, rng) -> action. The search's
# own uniform rollout ("random": None) is the default: the heuristic tries every legal action
# with its sub-decisions, some 7 ms a decision, so 100 iterations of heuristic rollouts to
# the round's end cost about 3 s a decision (random ones about 0.2 s).
ROLLOUTS: dict[str, Callable[..., Any] | None] = {"random": None, "heuristic": _heuristic_rollout}


class Evaluator:
    """Per-seat values in [0, 1]: win shares at the game's end, else
    ``sigmoid((own - best rival) / scale)`` of :func:`~.heuristic.evaluate`'s estimate of the
    money each seat ends with (alone: of its own estimate)."""

    def __init__(self, scale: float = DEFAULT_SCALE, params: HeuristicParams | None = None):
        self.scale = scale
        self.params = params or HeuristicParams()

    def __call__(self, state: GameState) -> list[float]:
        if state.is_over and not state.solo:
            return win_shares(state.score_breakdown())
        values = [evaluate(state, p, self.params) for p in range(state.num_players)]
        return margin_values(values, self.scale)


def search_evaluator(scale: float | None = None) -> Evaluator:
    """The evaluator ISMCTS uses for the Gallerist (``scale`` None: :data:`DEFAULT_SCALE`)."""
    return Evaluator(DEFAULT_SCALE if scale is None else scale)
