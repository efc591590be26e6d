"""core.narration.events_narrator: the describe_events every game's spec gives the tools."""

from __future__ import annotations

from types import SimpleNamespace

from art_gallery_env.core.narration import events_narrator

EVENTS = [("setup", {}), ("bid", {"player": 0}), ("bid", {"player": 1}), ("secret", {})]


def _visible(state, viewer: int):
    return [event for event in state.events if event[0] != "secret"]


def _describe(state, kind, data, names):
    if kind == "setup":
        return None  # not worth a line
    who = names[data["player"]] if names and "player" in data else str(data.get("player"))
    return f"{kind} {who}"


describe_events = events_narrator(_visible, _describe)
STATE = SimpleNamespace(events=EVENTS)


def test_every_event_from_start_with_the_silent_ones_left_out() -> None:
    assert describe_events(STATE, 0) == ["bid 0", "bid 1", "secret None"]
    assert describe_events(STATE, 2) == ["bid 1", "secret None"]


def test_a_viewer_sees_only_its_visible_events_with_the_seats_names() -> None:
    assert describe_events(STATE, 1, viewer=0, names=["Ann", "Bo"]) == ["bid Ann", "bid Bo"]
