"""A :class:`~.games.GameStore` held within the server's :class:`~.limits.Limits`.

In memory: at most ``max_live_games`` unfinished games (``max_client_games`` of them
created by one client address) and the newest ``max_finished_games`` finished ones. On
disk: at most ``max_stored_games`` game files. A game leaves memory, and is never deleted
for it, when it is abandoned (no request and no decision for ``idle_seconds``) or when it
is a finished game past the newest ``max_finished_games``: its file, saved after every
decision, is moved unchanged (one rename) to ``archive/`` in the games folder, and a
request for the game moves it back (a finished game always can; an unfinished one if the
server has room). A new game past a bound is refused, with the bound named:

======================  ======  ======================================================
``max_stored_games``    507     the disk holds that many game files (archive included)
``max_live_games``      503     after the abandoned games left memory, still that many
``max_client_games``    429     that client address created that many unfinished ones
======================  ======  ======================================================

A client is told by its address: behind one address (every page of this machine, when the
server is bound to loopback) all pages are one client.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path
from typing import Any

from .games import (
    DECISION_SECONDS,
    GAME_ID,
    GameStore,
    SavedGameError,
    WebError,
    WebGame,
    _load_problem,
    load_game,
    quote,
)
from .limits import Limits

ARCHIVE = "archive"  # in the games folder: the games out of memory, files unchanged


def refuse(status: int, limit: str, value: float, message: str) -> WebError:
    """The error of a request past one of the server's :class:`~.limits.Limits`: it
    names the bound and its value (also as ``limit`` and ``value`` in the JSON)."""
    return WebError(
        status, f"{message} (this server's limit {limit}={value:g})", limit=limit, value=value
    )


class BoundedStore(GameStore):
    """The games of a server, in memory and on disk within ``limits`` (module doc)."""

    def __init__(
        self,
        folder: str | Path,
        checkpoints: str | Path | None = None,
        decision_seconds: float = DECISION_SECONDS,
        limits: Limits | None = None,
    ) -> None:
        self.limits = limits or Limits()
        self.archive = Path(folder) / ARCHIVE
        self._admit_lock = threading.Lock()  # one new game's checks at a time
        self._page_lock = threading.Lock()  # one game back from the archive at a time
        super().__init__(folder, checkpoints, decision_seconds)
        self.stored = _count(self.folder) + _count(self.archive)
        self.archived = 0  # games moved out of memory since the start

    def _load_saved(self, paths: list[Path]) -> None:
        """The newest games up to the memory bounds; older files go to the archive unread."""
        self.archive.mkdir(parents=True, exist_ok=True)
        caps = {False: self.limits.max_live_games, True: self.limits.max_finished_games}
        held = {False: 0, True: 0}
        for path in sorted(paths, key=_mtime, reverse=True):
            if all(held[k] >= caps[k] for k in caps):
                self._move(path, self.archive)
                continue
            game = self._load_file(path)
            if game is None:
                continue
            over = game.state.is_over
            if held[over] >= caps[over]:
                self._move(path, self.archive)
                continue
            held[over] += 1
            self._games[game.id] = game

    # -- access --------------------------------------------------------------------
    def get(self, game_id: str) -> WebGame:
        try:
            game = super().get(game_id)
        except WebError:
            game = self._page_in(game_id)  # or the 404
        game.seen = time.monotonic()
        return game

    def delete(self, game_id: str) -> WebGame:
        if game_id not in self._games:  # archived: back without a check of room, to go
            self._page_in(game_id, room=False)
        game = super().delete(game_id)
        with self._lock:
            self.stored -= 1
        self._forget(game)
        return game

    def held(self) -> dict[str, int]:
        """How many games are in memory (unfinished, finished) and on disk."""
        with self._lock:
            games = list(self._games.values())
        live = sum(not g.state.is_over for g in games)
        return {
            "live": live,
            "finished": len(games) - live,
            "stored": self.stored,
            "archived": self.archived,
        }

    # -- new games -------------------------------------------------------------------
    def _start(self, game: WebGame, play_agents: bool = True) -> WebGame:
        """Admit a new game within the limits (module doc), then start it."""
        game.seen = time.monotonic()
        with self._admit_lock:  # checked and counted in one step: concurrent creations
            self._admit(game.client)
            with self._lock:
                self._games[game.id] = game
                self.stored += 1
        return super()._start(game, play_agents)

    def _admit(self, client: str | None) -> None:
        """Refuse a new game past a bound, after the abandoned games left memory."""
        limits = self.limits
        if self.stored >= limits.max_stored_games:
            raise refuse(
                507,
                "max_stored_games",
                limits.max_stored_games,
                f"this server stores {self.stored} games, finished and unfinished, its most; "
                "delete games no longer wanted (DELETE /api/games/{id}) or move files out "
                "of its games folder",
            )
        self.expire()
        live = [g for g in self.games() if not g.state.is_over]
        if len(live) >= limits.max_live_games:
            raise refuse(
                503,
                "max_live_games",
                limits.max_live_games,
                f"this server is playing {len(live)} unfinished games, its most; try again "
                "later, or finish or delete a game",
            )
        mine = sum(g.client == client for g in live) if client is not None else 0
        if mine >= limits.max_client_games:
            raise refuse(
                429,
                "max_client_games",
                limits.max_client_games,
                f"you have {mine} unfinished games on this server, the most one client may "
                "have; finish or delete one (DELETE /api/games/{id}) first",
            )

    # -- out of memory and back ----------------------------------------------------------
    def expire(self, now: float | None = None) -> int:
        """Move the abandoned unfinished games (unseen for ``idle_seconds``) to the
        archive; returns how many moved."""
        now = time.monotonic() if now is None else now
        idle = self.limits.idle_seconds
        old = [g for g in self.games() if not g.state.is_over and now - g.seen >= idle]
        return sum(self._page_out(g) for g in old)

    def _trim_finished(self) -> None:
        """Move the finished games past the ``max_finished_games`` last asked for (or
        played) to the archive."""
        finished = sorted((g for g in self.games() if g.state.is_over), key=lambda g: -g.seen)
        for game in finished[self.limits.max_finished_games :]:
            self._page_out(game)

    def _page_out(self, game: WebGame) -> bool:
        """Move a game's file to the archive and forget it; not one in use (its lock
        held, an agent thinking in it): False then."""
        if not game.lock.acquire(blocking=False):
            return False
        try:
            if game.thought is not None or self._busy(game):
                return False
            with game.file_lock:
                if game.deleted:
                    return False
                game.paged_out = True
                self._move(self.folder / f"{game.id}.json", self.archive)
            with self._lock:
                self._games.pop(game.id, None)
                self.archived += 1
        finally:
            game.lock.release()
        self._forget(game)
        return True

    def _page_in(self, game_id: str, room: bool = True) -> WebGame:
        """The archived game ``game_id``, back in memory (a 404 if there is none); an
        unfinished one only if the server has room for it (unless not ``room``)."""
        path = self.archive / f"{game_id}.json"
        if not GAME_ID.match(game_id) or not path.is_file():
            raise WebError(404, f"no game {quote(game_id)} on this server")
        with self._page_lock:
            game = self._games.get(game_id)
            if game is not None:  # another request brought it back meanwhile
                return game
            try:
                game = load_game(path)
            except (SavedGameError, OSError, ValueError) as err:
                raise WebError(
                    422, f"game {game_id!r} is archived but does not load: {_load_problem(err)}"
                ) from None
            if room and not game.state.is_over:
                self.expire()
                live = sum(not g.state.is_over for g in self.games())
                if live >= self.limits.max_live_games:
                    raise refuse(
                        503,
                        "max_live_games",
                        self.limits.max_live_games,
                        f"game {game_id} is archived and this server is playing {live} "
                        "unfinished games, its most; try again later",
                    )
            os.replace(path, self.folder / path.name)
            game.seen = time.monotonic()
            with self._lock:
                self._games[game.id] = game
        if room and game.state.is_over:
            self._trim_finished()
        return game

    # -- hooks and guards --------------------------------------------------------------
    def _busy(self, game: WebGame) -> bool:
        """Whether something other than a request is at ``game`` (a subclass's agents)."""
        return False

    def _forget(self, game: WebGame) -> None:
        """Drop what is kept of a game that left memory or was deleted (subclasses)."""

    def act(self, game: WebGame, *args: Any, **kwargs: Any) -> None:
        _check_in_memory(game)
        super().act(game, *args, **kwargs)

    def advance(self, game: WebGame) -> None:
        _check_in_memory(game)
        super().advance(game)

    def save(self, game: WebGame) -> None:
        _check_in_memory(game)
        game.seen = time.monotonic()
        super().save(game)
        if game.state.is_over:
            self._trim_finished()

    @staticmethod
    def _move(path: Path, folder: Path) -> None:
        with contextlib.suppress(FileNotFoundError):  # a file never saved
            os.replace(path, folder / path.name)


def _check_in_memory(game: WebGame) -> None:
    """A request that found the game just before it moved to the archive reloads it."""
    if game.paged_out:
        raise WebError(
            409, f"game {game.id} was moved out of memory meanwhile; reload it", id=game.id
        )


def _count(folder: Path) -> int:
    return sum(1 for _ in folder.glob("*.json")) if folder.is_dir() else 0


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
