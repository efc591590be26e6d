"""Game records the replay viewer can open: the server's finished games, the records in a
folder given on the command line (``art-gallery eval --save-games DIR``) and uploads.

A record id names its source: ``game-<id>`` (a game of this server, once it is over: before
that its seed would reveal every hidden card), ``file-<name>`` (a ``.json`` file in the
records folder, looked up by listing the folder, never by joining a path from the request)
and ``upload-<hash>`` (an uploaded record, kept in the server's data folder under its
content hash). Every record is validated and replayed before it is shown. A record of any
registered game opens here (its game's web view draws it, :mod:`.views`).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from art_gallery_env.arena.records import (
    RecordFormatError,
    initial_state,
    load_record,
    record_game,
    replay_record,
)
from art_gallery_env.arena.terminal import HUMAN
from art_gallery_env.files import atomic_write_json

from .games import GameStore, WebError, short_spec

NAME = re.compile(r"^[A-Za-z0-9_.-]{1,120}$")
MAX_UPLOAD_BYTES = 5_000_000
MAX_UPLOADS = 1000


def seat_names(agents: list[str]) -> list[str]:
    return [
        f"P{p} {'human' if spec == HUMAN else short_spec(spec)}" for p, spec in enumerate(agents)
    ]


class RecordLibrary:
    def __init__(
        self,
        games: GameStore,
        uploads: str | Path,
        folder: str | Path | None,
        max_uploads: int = MAX_UPLOADS,
        max_upload_bytes: int = MAX_UPLOAD_BYTES,
    ) -> None:
        self.games = games
        self.max_uploads = max_uploads  # records kept in ``uploads``: a new one past it is a 507
        self.max_upload_bytes = max_upload_bytes
        self.uploads = Path(uploads)
        self.uploads.mkdir(parents=True, exist_ok=True)
        self.folder = Path(folder) if folder else None
        # path -> ((mtime, size), record or the error): a folder of many records is read
        # and replayed once, not at every listing and step
        self._cache: dict[Path, tuple[tuple[int, int], dict[str, Any] | str]] = {}

    def _read(self, path: Path) -> dict[str, Any] | str:
        """The checked record of a file (its actions replayed), or why it is not one."""
        stat = path.stat()
        key = (stat.st_mtime_ns, stat.st_size)
        cached = self._cache.get(path)
        if cached is None or cached[0] != key:
            try:
                record: dict[str, Any] | str = rescored(load_record(path))
            except RecordFormatError as err:
                record = str(err)
            cached = self._cache[path] = (key, record)
        return cached[1]

    # -- listing ---------------------------------------------------------------------------
    def list(self) -> list[dict[str, Any]]:
        out = []
        for game in self.games.games():
            if game.state.is_over:
                out.append(_summary(f"game-{game.id}", "this server", game.record()))
        for source, folder, prefix in (
            ("records folder", self.folder, "file"),
            ("uploaded", self.uploads, "upload"),
        ):
            for path in self._files(folder):
                record = self._read(path)
                if isinstance(record, dict):  # a broken file is left out; opening it says why
                    out.append(_summary(f"{prefix}-{path.stem}", source, record, path.name))
        return out

    @staticmethod
    def _files(folder: Path | None) -> list[Path]:
        if folder is None or not folder.is_dir():
            return []
        return sorted(p for p in folder.glob("*.json") if NAME.match(p.stem))

    # -- opening -----------------------------------------------------------------------------
    def get(self, record_id: str) -> dict[str, Any]:
        """A validated record whose actions replay legally; 404/409/422 otherwise."""
        prefix, _, name = record_id.partition("-")
        if prefix == "game":
            game = self.games.get(name)
            with game.lock:
                if not game.state.is_over:
                    raise WebError(
                        409,
                        f"game {name!r} is still being played; its record (with the seed, "
                        f"which reveals every hidden card) opens once it is over",
                    )
                return game.record()
        folder = {"file": self.folder, "upload": self.uploads}.get(prefix)
        path = None
        if folder is not None and NAME.match(name):
            path = next((p for p in self._files(folder) if p.stem == name), None)
        if path is None:
            raise WebError(404, f"no record {record_id!r} on this server")
        record = self._read(path)
        if isinstance(record, str):
            raise WebError(422, f"record {record_id!r}: {record}")
        return record

    def upload(self, body: bytes) -> dict[str, Any]:
        """Store an uploaded record (checked first, its scores recomputed from its actions:
        an upload's own are never shown); returns its id, and ``rescored`` when the
        record's scores were not its actions'."""
        if len(body) > self.max_upload_bytes:
            raise WebError(
                413,
                f"request body too large: {len(body)} bytes, a record is at most "
                f"{self.max_upload_bytes} bytes (this server's limit max_upload_bytes)",
            )
        try:
            data = json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise WebError(400, f"malformed JSON: {err}") from None
        except RecursionError:
            raise WebError(
                400, "malformed JSON: nested too deeply to be a game record (or not JSON)"
            ) from None
        try:
            claimed = data.get("breakdown") if isinstance(data, dict) else None
            data = rescored(data)
        except RecordFormatError as err:
            raise WebError(422, f"not a replayable game record: {err}") from None
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
        name = hashlib.sha256(text.encode()).hexdigest()[:16]
        self._check_room(name)
        atomic_write_json(self.uploads / f"{name}.json", data, separators=(",", ":"))
        return {"id": f"upload-{name}", "rescored": claimed != data["breakdown"]}

    def _check_room(self, name: str) -> None:
        """A new upload past ``max_uploads`` records is a 507 (the same record again is not
        new: it replaces its own file)."""
        if (self.uploads / f"{name}.json").exists():
            return
        held = sum(1 for _ in self.uploads.glob("*.json"))
        if held >= self.max_uploads:
            raise WebError(
                507,
                f"this server stores {held} uploaded records, its most; remove some from its "
                f"uploads folder (this server's limit max_uploads={self.max_uploads})",
                limit="max_uploads",
                value=self.max_uploads,
            )


def rescored(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` (validated and replayed: :class:`RecordFormatError` if it does not
    replay) with its ``breakdown`` the one its actions give: the final state's scores, or
    None for an unfinished game. A record's own scores are never trusted."""
    state = replay_record(record)
    breakdown = state.score_breakdown() if state.is_over else None
    return {**record, "breakdown": json.loads(json.dumps(breakdown))}  # as a file holds it


def states_at(record: dict[str, Any], step: int) -> tuple[Any, Any | None]:
    """(state after ``step`` actions, state before the last of them or None at step 0)."""
    state = initial_state(record)
    actions = record["actions"][:step]
    for action in actions[:-1]:
        state.apply(action)
    if not actions:
        return state, None
    before = state.clone()
    state.apply(actions[-1])
    return state, before


def _summary(
    record_id: str, source: str, record: dict[str, Any], file: str | None = None
) -> dict[str, Any]:
    breakdown = record.get("breakdown")
    spec = record_game(record)
    return {
        "id": record_id,
        "game": spec.name,
        "title": spec.title,
        "source": source,
        "file": file,
        "players": record["setup"]["num_players"],
        "agents": record["agents"],
        "names": seat_names(record["agents"]),
        "decisions": len(record["actions"]),
        "totals": None if breakdown is None else [row["total"] for row in breakdown],
        "insight": any(entry is not None for entry in record.get("insight") or []),
    }
