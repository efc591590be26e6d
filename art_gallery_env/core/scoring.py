"""Final standings and rewards from a finished game's score breakdown.

Every game's ``score_breakdown()`` returns one dict per seat with at least ``player``,
``total`` and ``rank`` (1 = best, tied seats share a rank). The rewards every game offers
are computed here once; a game adds its own modes on top (see ``GameSpec.final_rewards``).
"""

from __future__ import annotations

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
