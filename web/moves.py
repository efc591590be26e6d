"""Live games for the page: agents play off the request thread, the page sees each move.

The page's endpoints (``/api/live/...``, beside the plain API, which it leaves as it was):

=============================================  ==========================================
``POST /api/live/games``                       a new game (the body of ``POST /api/games``);
                                               answered before any agent decides
``GET  /api/live/games/{id}?after=N&wait=S``   the person's view; with ``after``, a long
                                               poll: answered as soon as the game has more
                                               than N decisions, when the agents stop, or
                                               after S seconds (then ``unchanged``)
``POST /api/live/games/{id}/actions``          the person's decision, applied, saved and
                                               answered at once; the agents then play
=============================================  ==========================================

**Off the request thread.** A request never runs an agent: the agents of a game play in a
thread of its own (:class:`LiveGames`, one per game at most), one decision after another
through :meth:`GameStore.advance`, which saves the game after each decision as before and
keeps its per-decision time limit. Any request that finds agents owed a turn (a new game,
the person's decision, a server restarted mid-turn) starts that thread, so a page never
waits on a thread that is gone.

**One move at a time.** After every saved decision of a game a page follows, the person's
view is built once (under the game's lock, from the seat's world: :mod:`.views`) and kept;
a long poll returns it without taking the lock, which an agent holds while it thinks. Each
view says who is thinking (``thinking``), what the last decision did as the person saw it
(``last_move``: its narration lines, for the page to highlight) and, when the agents
stopped on an error (an agent that failed or ran over the limit), ``agent_error``; a
request with ``retry=true`` lets them try again.
"""

import asyncio
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Body, FastAPI, Query, Request
from starlette.concurrency import run_in_threadpool

from .games import GameStore, WebError, WebGame, scrub
from .store import BoundedStore
from .views import game_view, seat_world

POLL_SECONDS = 0.02  # how often a waiting request looks for a new decision
MAX_WAIT_SECONDS = 30.0  # the longest long poll a request may ask for
log = logging.getLogger("art_gallery_env.web")


@dataclass
class _Live:
    """What the live endpoints keep of one followed game."""

    view: dict[str, Any] | None = None  # the person's view after ``decision`` decisions
    decision: int = -1
    events_after: dict[int, int] = field(default_factory=dict)  # decisions -> events then
    decided_at: dict[int, float] = field(default_factory=dict)  # decisions -> time.time()
    running: bool = False  # a thread is letting the agents play
    error: dict[str, Any] | None = None  # why the agents stopped: status, error, decision


class LiveStore(BoundedStore):
    """A :class:`BoundedStore` that tells its :class:`LiveGames` of every saved decision."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.live = LiveGames(self)  # before the saved games load: they may be archived
        super().__init__(*args, **kwargs)

    def save(self, game: WebGame) -> None:
        super().save(game)
        self.live.saved(game)

    def _busy(self, game: WebGame) -> bool:
        return self.live.running(game)

    def _forget(self, game: WebGame) -> None:
        self.live.forget(game)


class LiveGames:
    """The agents' threads and the kept views of the games that pages follow."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._games: dict[str, _Live] = {}
        self._lock = threading.Lock()

    def entry(self, game: WebGame) -> _Live:
        with self._lock:
            return self._games.setdefault(game.id, _Live())

    def running(self, game: WebGame) -> bool:
        """Whether a thread lets the agents of ``game`` play now."""
        with self._lock:
            live = self._games.get(game.id)
            return live is not None and live.running

    def forget(self, game: WebGame) -> None:
        """Drop the kept view of a game that left memory or was deleted."""
        with self._lock:
            self._games.pop(game.id, None)

    # -- after each decision -------------------------------------------------------------
    def saved(self, game: WebGame) -> None:
        """A decision was saved (called with ``game.lock`` held): note when, and build the
        person's view if a page follows the game."""
        live = self._games.get(game.id)
        if live is None:
            return
        n = len(game.actions)
        live.events_after[n] = len(game.state.events)
        live.decided_at[n] = time.time()
        self._keep_view(game, live)

    def _keep_view(self, game: WebGame, live: _Live) -> None:
        """Build and keep the person's view now (``game.lock`` held)."""
        view = game_view(game)
        view.update(self._extras(game, live))
        live.view, live.decision = view, len(game.actions)

    def _extras(self, game: WebGame, live: _Live) -> dict[str, Any]:
        """Who is thinking and what the last decision did, as the person may see it."""
        state, names = game.state, game.names
        thinking = None
        if not state.is_over and state.current_player != game.seat:
            seat = state.current_player
            thinking = {"seat": seat, "name": names[seat]}
        last = None
        if game.actions:
            i = len(game.actions) - 1
            start = self._events_before(game, live, i)
            world = seat_world(state, game.seat)
            lines = game.rules.describe_events(world, start, game.seat, names)
            seat = game.deciders[i]
            last = {"decision": i, "seat": seat, "name": names[seat], "lines": lines}
        return {"thinking": thinking, "last_move": last}

    def _events_before(self, game: WebGame, live: _Live, decision: int) -> int:
        """How many events the game had before decision ``decision`` (replayed from the
        seed when this server did not see it: after a restart)."""
        if decision not in live.events_after:
            state = game.rules.setup(game.num_players, game.seed, game.variants)
            live.events_after[0] = len(state.events)
            for k, action in enumerate(game.actions[:decision], start=1):
                state.apply(action)
                live.events_after[k] = len(state.events)
        return live.events_after[decision]

    # -- the agents' thread ----------------------------------------------------------------
    @staticmethod
    def _owed(game: WebGame) -> bool:
        """Whether agents are to decide now."""
        gone = game.deleted or game.paged_out
        return not gone and not game.state.is_over and not game.your_turn

    def ensure(self, game: WebGame, retry: bool = False) -> None:
        """Start the thread that lets the agents play, if they are owed a decision and no
        thread is at it; not after an error at this decision unless ``retry``."""
        live = self.entry(game)
        with self._lock:
            if live.running or not self._owed(game):
                return
            stopped = live.error is not None and live.error["decision"] == len(game.actions)
            if stopped and not retry:
                return
            live.error = None
            live.running = True
        name = f"agents of game {game.id}"
        threading.Thread(target=self._run, args=(game, live), name=name, daemon=True).start()

    def _run(self, game: WebGame, live: _Live) -> None:
        """Let the agents play until the person's turn, the end, or an error. The owed check
        and the end of ``running`` are one step under both locks, so a decision of the
        person made meanwhile always finds a thread that will play the agents' reply."""
        try:
            while True:
                with game.lock:
                    with self._lock:
                        if not self._owed(game):
                            live.running = False
                            return
                    if live.decision != len(game.actions):
                        self._keep_view(game, live)
                    self.store.advance(game)
        except WebError as err:
            self._stopped(game, live, err.status, err.message)
        except Exception as err:  # noqa: BLE001 - the page shows it; the log has the trace
            log.exception("the agents of game %s stopped", game.id)
            self._stopped(game, live, 500, f"internal server error ({type(err).__name__})")

    def _stopped(self, game: WebGame, live: _Live, status: int, message: str) -> None:
        with self._lock:
            live.running = False
            if status == 404:  # the game was deleted meanwhile
                self._games.pop(game.id, None)
                return
            live.error = {"status": status, "error": scrub(message), "decision": len(game.actions)}

    # -- answering -------------------------------------------------------------------------
    def view_now(self, game: WebGame) -> dict[str, Any]:
        """The person's view now (built under the game's lock if the kept one is old)."""
        live = self.entry(game)
        with game.lock:
            if live.view is None or live.decision != len(game.actions):
                self._keep_view(game, live)
            view = live.view
        return self.answer(game, live, view)

    def answer(self, game: WebGame, live: _Live, view: dict[str, Any] | None) -> dict[str, Any]:
        """``view`` with the agents' state now: playing, or stopped on an error. Both are
        read under the lock that the agents' thread sets them under: read one by one, a
        thread that stopped in between gave "not playing" without its error."""
        with self._lock:
            error, running = live.error, live.running
        if error is not None and error["decision"] != len(game.actions):
            error = None
        out = dict(view) if view is not None else {"id": game.id, "decision": len(game.actions)}
        out["agents_playing"] = running
        out["agent_error"] = None if error is None else {k: error[k] for k in ("status", "error")}
        return out

    async def wait(self, game: WebGame, after: int | None, wait: float) -> dict[str, Any]:
        """The person's view once the game has more than ``after`` decisions or its agents
        stopped; ``{"unchanged": true, ...}`` after ``wait`` seconds without either."""
        live = self.entry(game)
        deadline = time.monotonic() + wait
        last_resort = deadline + MAX_WAIT_SECONDS  # a kept view that never came: build one
        while True:
            n = len(game.actions)
            settled = after is None or n != after or not live.running
            if settled and live.view is not None and live.decision == n:
                return self.answer(game, live, live.view)
            if settled and (not live.running or time.monotonic() >= last_resort):
                return await run_in_threadpool(self.view_now, game)
            if not settled and time.monotonic() >= deadline:
                answer = self.answer(game, live, None)
                answer["unchanged"] = True
                return answer
            await asyncio.sleep(POLL_SECONDS)


def live_routes(app: FastAPI, store: LiveStore, new_game: type, action: type) -> None:
    """The page's endpoints (module doc); ``new_game``/``action``: the app's body models."""
    live = store.live

    @app.post("/api/live/games", status_code=201)
    def new(body: Annotated[new_game, Body()], request: Request) -> dict[str, Any]:  # type: ignore[valid-type]
        game = store.create_as_asked(body, request, play_agents=False)
        view = live.view_now(game)
        live.ensure(game)
        return {**view, "agents_playing": live.entry(game).running or view["agents_playing"]}

    @app.get("/api/live/games/{game_id}")
    async def follow(
        game_id: str,
        after: Annotated[int | None, Query(ge=0)] = None,
        wait: Annotated[float, Query(ge=0, le=MAX_WAIT_SECONDS)] = 0.0,
        retry: bool = False,
    ) -> dict[str, Any]:
        game = store.get(game_id)
        live.ensure(game, retry)
        return await live.wait(game, after, wait)

    @app.post("/api/live/games/{game_id}/actions")
    def act(game_id: str, body: Annotated[action, Body()]) -> dict[str, Any]:  # type: ignore[valid-type]
        game = store.get(game_id)
        stale_tab(game, body.decision)
        if not game.state.is_over and not game.your_turn:  # agents at it: no wait for the lock
            seat = game.state.current_player
            raise WebError(
                409,
                f"the agents are still playing (seat {seat} to decide); your decision comes "
                f"after theirs",
                decision=len(game.actions),
            )
        entry = live.entry(game)
        with game.lock:
            store.act(game, body.action, body.decision, play_agents=False)
            view = entry.view if entry.decision == len(game.actions) else None
            if view is None:  # pragma: no cover - the save after the decision kept it
                live._keep_view(game, entry)
                view = entry.view
        live.ensure(game)
        answer = live.answer(game, entry, view)
        answer["agents_playing"] = answer["agents_playing"] or LiveGames._owed(game)
        return answer


def stale_tab(game: WebGame, decision: int | None) -> None:
    """A decision made on a page that showed an older position of the game (another tab
    or window played on) is a 409 that says so, before any other check: ``moved_on`` true
    and ``decision``, the game's decision now, in the JSON."""
    n = len(game.actions)
    if decision is not None and decision != n:
        raise WebError(
            409,
            f"this game moved on in another tab: it is at decision {n}, this page showed "
            f"decision {decision} (reload the game)",
            decision=n,
            moved_on=True,
        )
