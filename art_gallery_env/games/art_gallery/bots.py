"""Art Gallery's own players, as its spec hands them to the game-free tools.

- :func:`make_heuristic`: the ``heuristic`` agent (``heuristic``, ``heuristic:v1``,
  ``heuristic:card_cost=0.4``), built by :func:`art_gallery_env.agents.registry.make_agent`;
- :data:`ROLLOUTS`: the rollout policies ISMCTS may play (``rollout=heuristic``,
  ``rollout=heuristic:v1``; ``random`` is the search's own);
- :func:`~.search.search_evaluator`: the value of a game a rollout stopped early.

Options arrive as strings (``key=value`` of an agent spec); the factories convert and
check them and name the valid ones in their errors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .heuristic import HEURISTIC_VERSIONS, LATEST_HEURISTIC, HeuristicAgent, heuristic_policy
from .heuristic_v1 import BidParams, HeuristicV1Params, HeuristicV1Policy
from .search import search_evaluator

__all__ = [
    "HEURISTIC_VERSIONS",
    "LATEST_HEURISTIC",
    "ROLLOUTS",
    "make_heuristic",
    "search_evaluator",
]


def _weight(key: str, value: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise ValueError(f"option {key}={value!r} must be a number") from None


def make_heuristic(
    seed: int | None = None, version: str | None = None, **options: str
) -> HeuristicAgent:
    """Options: any weight of the version's parameters (:class:`~.heuristic.HeuristicParams`,
    :class:`~.heuristic_v1.HeuristicV1Params` for ``v1``), e.g. ``heuristic:card_cost=0.4``."""
    version = version or LATEST_HEURISTIC
    params_class = HEURISTIC_VERSIONS[version]
    label = "heuristic" if version == LATEST_HEURISTIC else f"heuristic:{version}"
    valid = params_class.names()
    bad = sorted(set(options) - set(valid))
    if bad:
        raise ValueError(
            f"unknown option {bad[0]!r} for agent {label!r}; valid options: {', '.join(valid)}"
        )
    params = params_class().with_options(**{k: _weight(k, v) for k, v in options.items()})
    return HeuristicAgent(seed=seed, params=params)


def _latest_rollout(params: BidParams | None = None) -> HeuristicV1Policy:
    """``rollout=heuristic``: the latest version, or the version ``params`` belong to."""
    return heuristic_policy(params)


def _v1_rollout(params: BidParams | None = None) -> HeuristicV1Policy:
    """``rollout=heuristic:v1``: version 1, with ``params`` (HeuristicV1Params) if given."""
    params = params or HeuristicV1Params()
    if not isinstance(params, HeuristicV1Params):
        raise ValueError(
            f"rollout=heuristic:v1 needs HeuristicV1Params, got {type(params).__name__}"
        )
    return heuristic_policy(params)


# name -> factory(params=None) of an object with choose(state, rng) -> action; the first
# is the search's default rollout.
ROLLOUTS: dict[str, Callable[..., Any]] = {
    "heuristic": _latest_rollout,
    "heuristic:v1": _v1_rollout,
}
