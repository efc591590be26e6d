"""Final standings and rewards from a finished game's score breakdown.

Every game's ``score_breakdown()`` returns one dict per seat with at least ``player``,
``total`` and ``rank`` (1 = best, tied seats share a rank). The rewards every game offers
are computed here once; a game adds its own modes on top (see ``GameSpec.final_rewards``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

REWARD_MODES = ("win", "score_margin")
SCORE_MARGIN_SCALE = 10.0


def winners(breakdown: list[dict[str, Any]]) -> list[int]:
    """The seats sharing rank 1."""
    return [row["player"] for row in breakdown if row["rank"] == 1]


def win_shares(breakdown: list[dict[str, Any]]) -> list[float]:
    """A share per seat: 1/k for each of k tied winners, 0 for the others."""
    top = winners(breakdown)
    return [1.0 / len(top) if row["player"] in top else 0.0 for row in breakdown]


def final_rewards(breakdown: list[dict[str, Any]], reward_mode: str) -> list[float]:
    """``win``: a sole winner +1, k tied winners 1/k each, everyone else -1.
    ``score_margin``: (own total - best other total) / 10 (with one seat: own total / 10)."""
    if reward_mode == "win":
        top = winners(breakdown)
        return [1.0 / len(top) if b["player"] in top else -1.0 for b in breakdown]
    if reward_mode != "score_margin":
        raise ValueError(f"reward_mode must be one of {list(REWARD_MODES)}, got {reward_mode!r}")
    totals = [b["total"] for b in breakdown]
    return [
        (t - max(totals[:i] + totals[i + 1 :], default=0)) / SCORE_MARGIN_SCALE
        for i, t in enumerate(totals)
    ]


def margin_values(values: Sequence[float], scale: float) -> list[float]:
    """Per seat ``sigmoid((own value - best rival's value) / scale)`` (one seat: its own
    value): 0.5 when level, towards 1 ahead and 0 behind (exactly 0 far behind, where the
    exponential would overflow). The search agents' estimate of an unfinished game."""
    out = []
    for p, value in enumerate(values):
        rival = max((v for q, v in enumerate(values) if q != p), default=0.0)
        x = (value - rival) / scale
        out.append(1.0 / (1.0 + math.exp(-x)) if x > -30 else 0.0)
    return out
