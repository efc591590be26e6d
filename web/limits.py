"""The web server's bounds: how many games it holds in memory and on disk, per server and
per client, how long an abandoned game stays in memory, and how large a request may be.

Every bound has a default here and a keyword of :func:`~.app.create_app` (``limits=``);
a request past one is refused with a JSON error that names it (``limit`` and ``value``
beside ``error``), and nothing already stored is touched by the refusal. No bound ever
deletes a game: a game that leaves memory (abandoned, or an old finished one) is moved,
file unchanged, to the games folder's ``archive/``, and its link opens it again.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass(frozen=True)
class Limits:
    """The bounds of one server (see ``docs/web.md``, "Server limits")."""

    max_live_games: int = 100  # unfinished games in memory, the whole server
    max_client_games: int = 20  # unfinished games in memory created by one client address
    max_finished_games: int = 200  # finished games in memory (older ones: archive/)
    max_stored_games: int = 5000  # game files on disk, archive/ included
    max_uploads: int = 1000  # uploaded records on disk
    idle_seconds: float = 6 * 3600.0  # an unfinished game unseen this long leaves memory
    max_body_bytes: int = 64_000  # a request body (uploads: max_upload_bytes)
    max_upload_bytes: int = 5_000_000  # an uploaded record

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            kind = float if f.name == "idle_seconds" else int
            ok = isinstance(value, int | float) if kind is float else type(value) is int
            if not ok or not 0 < value < float("inf"):
                raise ValueError(
                    f"{f.name} must be {'a number' if kind is float else 'an integer'} > 0, "
                    f"got {value!r} (the server's limits: {', '.join(self.names())})"
                )

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)
