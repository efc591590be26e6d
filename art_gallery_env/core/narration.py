"""A game's narration of its event log, one line an event, as a seat may know it
(``GameSpec.describe_events``).

Game-free: a game gives what a seat may see of its log and how one event reads;
:func:`events_narrator` makes the ``describe_events`` that the tools call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# (state, kind, data, names) -> the event's line, or None for an event not worth a line
DescribeEvent = Callable[[Any, str, dict[str, Any], "list[str] | None"], "str | None"]


def events_narrator(
    visible_events: Callable[[Any, int], list[tuple[str, dict[str, Any]]]],
    describe: DescribeEvent,
) -> Callable[..., list[str]]:
    """``describe_events(state, start, viewer=None, names=None)`` for a game whose seat
    ``viewer`` sees ``visible_events(state, viewer)`` of ``state.events`` and whose events
    read as ``describe(state, kind, data, names)``."""

    def describe_events(
        state: Any, start: int, viewer: int | None = None, names: list[str] | None = None
    ) -> list[str]:
        """Lines for ``state.events[start:]`` as ``viewer`` may see them (None:
        everything); ``names``: the seats' names (default P0, P1, ...)."""
        events = state.events if viewer is None else visible_events(state, viewer)
        lines = (describe(state, kind, data, names) for kind, data in events[start:])
        return [line for line in lines if line is not None]

    return describe_events
