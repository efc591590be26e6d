"""A record over time, for the replay viewer's chart and its jumps by round and seat.

``GET /api/replays/{id}/timeline`` replays the record once and gives, after every number of
decisions, the round and each seat's running score (``score_breakdown()`` totals), who made
each decision, and each seat's value where the record holds an agent's insight: a
checkpoint's value estimate (``value``, if it has a value head) or a search's mean reward of
the action it chose (its estimated win chance). A replay shows everything to anyone (a
record opens only once its game is over, and a spectator sees all), so the timeline is the
spectator's. It names no game: any registered game's record has these.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from art_gallery_env.arena.records import initial_state

from .replays import RecordLibrary, seat_names


def insight_value(entry: dict[str, Any] | None, action: int) -> tuple[str, float] | None:
    """(kind, value) of a decision's insight: a policy's value estimate, or a search's mean
    reward of the chosen action; None where the insight has neither."""
    if not isinstance(entry, dict):
        return None
    if entry.get("kind") == "policy" and isinstance(entry.get("value"), int | float):
        return "value estimate", float(entry["value"])
    if entry.get("kind") == "search":
        for top in entry.get("top") or []:
            if top.get("action") == action and isinstance(top.get("q"), int | float):
                return "win chance (search)", float(top["q"])
    return None


def timeline(record: dict[str, Any]) -> dict[str, Any]:
    """The record's rounds, deciders, running scores and insight values (module doc)."""
    state = initial_state(record)
    actions = record["actions"]
    insight = record.get("insight") or [None] * len(actions)
    rounds, deciders = [state.round], []
    scores = [[row["total"] for row in state.score_breakdown()]]
    values = []
    for k, action in enumerate(actions):
        seat = state.current_player
        deciders.append(seat)
        found = insight_value(insight[k] if k < len(insight) else None, action)
        if found is not None:
            values.append({"step": k + 1, "seat": seat, "kind": found[0], "value": found[1]})
        state.apply(action)
        rounds.append(state.round)
        scores.append([row["total"] for row in state.score_breakdown()])
    return {
        "steps": len(actions),
        "players": record["setup"]["num_players"],
        "names": seat_names(record["agents"]),
        "rounds": rounds,
        "deciders": deciders,
        "scores": scores,
        "values": values,
    }


def timeline_routes(app: FastAPI, library: RecordLibrary) -> None:
    @app.get("/api/replays/{record_id}/timeline")
    def record_timeline(record_id: str) -> dict[str, Any]:
        return {"id": record_id, **timeline(library.get(record_id))}
