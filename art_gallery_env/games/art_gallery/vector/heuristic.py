"""The compiled heuristic's parameters: :class:`~art_gallery_env.games.art_gallery.heuristic.
HeuristicParams` (version 2) or ``HeuristicV1Params`` as the float64 vector the kernels read.

The kernels (``kernels.heuristic_action``, ports of ``HeuristicPolicy.choose`` and
``HeuristicV1Policy.choose``) take every weight and every constant of the clock from this
vector at run time, not from module globals: numba's disk cache would not notice an edit to
the Python parameters' defaults or to :mod:`~art_gallery_env.games.art_gallery.clock`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..clock import (
    END_SOFTNESS,
    TILE_RATE_PRIOR,
    TILE_RATE_PRIOR_MANY,
    TILES_PER_SHOP_MARKER,
)
from ..heuristic import HeuristicAgent, HeuristicParams, HeuristicPolicy
from ..heuristic_v1 import HeuristicV1Params, HeuristicV1Policy
from .kernels import HEURISTIC_PARAM_NAMES, NUM_HEURISTIC_PARAMS


def param_vector(params: Any, num_players: int) -> np.ndarray:
    """The kernels' parameter vector for ``params`` (None: version 2's defaults) at a
    table of ``num_players``. Anything but the two parameter classes is refused."""
    if params is None:
        params = HeuristicParams()
    if isinstance(params, HeuristicParams):
        version = 2.0
    elif isinstance(params, HeuristicV1Params):
        version = 1.0
    else:
        raise TypeError(
            "the compiled heuristic plays HeuristicParams (version 2) or HeuristicV1Params, "
            f"got {type(params).__name__}"
        )
    values = {
        "version": version,
        "rate_prior": TILE_RATE_PRIOR.get(num_players, TILE_RATE_PRIOR_MANY),
        "marker_tiles": TILES_PER_SHOP_MARKER,
        "end_softness": END_SOFTNESS,
    }
    out = np.zeros(NUM_HEURISTIC_PARAMS, dtype=np.float64)
    for i, name in enumerate(HEURISTIC_PARAM_NAMES):
        out[i] = float(values[name] if name in values else getattr(params, name, 0.0))
    return out


def is_compiled_heuristic(agent: Any) -> bool:
    """Whether ``agent`` is a heuristic agent the kernels play exactly (its policy is
    ``HeuristicPolicy`` or ``HeuristicV1Policy`` with their own parameter class)."""
    if type(agent) is not HeuristicAgent:
        return False
    policy = getattr(agent, "policy", None)
    kind = type(policy)
    return (kind is HeuristicPolicy and type(policy.params) is HeuristicParams) or (
        kind is HeuristicV1Policy and type(policy.params) is HeuristicV1Params
    )
