"""The web app: a JSON API over :mod:`.games` and :mod:`.replays`, and the page that uses it.

Endpoints (every error is JSON ``{"error": "..."}`` naming the problem, with a 4xx status,
or 5xx for an agent that fails or runs out of time and for a fault of the server; a
refused request changes nothing; POST bodies are read only as ``application/json``):

=========================================  ==============================================
``GET  /``                                 the page (plain HTML, JS and CSS in ``static/``)
``GET  /api/setup``                        every game: table sizes, variants, agents and
                                           checkpoints to offer
``GET  /api/games``                        the server's games
``POST /api/games``                        a new game: ``{game?, players, seat, opponents,
                                           seed?, variants?}``
``GET  /api/games/{id}``                   the person's view (board, choices, what happened)
``DELETE /api/games/{id}``                 delete a game (at once, even while an agent thinks)
``POST /api/games/{id}/actions``           ``{action, decision?}``: the person's decision
``GET  /api/games/{id}/log``               every event so far, as the person's seat saw it
``GET  /api/games/{id}/insight``           every agent insight the person may see now
``GET  /api/games/{id}/record``            the game record, once the game is over
``GET  /api/replays``                      records to replay
``POST /api/replays``                      upload a record (the JSON body)
``GET  /api/replays/{id}?step=&viewer=``   one step of a record, as a seat or spectator saw it
=========================================  ==============================================

Every registered game is served (:func:`~art_gallery_env.core.registry.game_names`); what
the page shows of one comes from its spec and its web view (:mod:`.views`), so no game is
named here. Requests are handled in FastAPI's thread pool; each game has a lock, so one
game's decisions are applied one at a time while other games go on. An agent thinks in a
thread of its own for at most ``decision_seconds``, so no decision holds a game's lock
longer, and a deletion does not wait for it.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from art_gallery_env.agents.policy_format import METADATA_KEY
from art_gallery_env.agents.registry import agent_names
from art_gallery_env.arena.records import record_game
from art_gallery_env.core.registry import GameSpec, default_game, game_names, get_game

from .games import DECISION_SECONDS, GameStore, WebError, clip, quote, scrub
from .limits import Limits
from .moves import LiveStore, live_routes
from .replays import RecordLibrary, seat_names, states_at
from .timeline import timeline_routes
from .views import (
    game_log,
    game_summary,
    game_view,
    released_insight,
    replay_step,
    web_of,
)

STATIC = Path(str(resources.files(__package__) / "static"))
AGENT_CHOICES = [  # offered for every game that has the agent, in this order
    ("random", "random: uniformly random legal moves"),
    ("heuristic", "heuristic: rule-based"),
    ("ismcts:iters=50", "ismcts:iters=50: quick search"),
    ("ismcts", "ismcts: search, 400 iterations (slower)"),
]
NOT_OFFERED = {"policy", "search"}  # need a FILE (path=, ckpt=): the checkpoints are offered
CHECKPOINT_SUFFIXES = (".safetensors", ".zip")
MAX_HEADER_BYTES = 1_000_000  # a safetensors header larger than this is not read for its game
PARSE_ERROR = "There was an error parsing the body"  # FastAPI's words for a JSON it failed
NOT_JSON = (  # ... which is a body that json.loads cannot read (too deep: RecursionError)
    "malformed JSON: the body is not JSON this server reads (nested too deeply, or not JSON at all)"
)
MIN_PLAYERS = min(get_game(name).min_players for name in game_names())
MAX_PLAYERS = max(get_game(name).max_players for name in game_names())


class NewGame(BaseModel):
    """``game``: a registered game (default: the default game); ``opponents``: one agent
    spec per other seat, in seat order, or one for all; ``variants``: the game's variants
    by name (unnamed ones keep their defaults)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    game: str | None = None
    players: int = Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)
    seat: int = 0
    opponents: list[str] = Field(default_factory=list, max_length=MAX_PLAYERS)
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    variants: dict[str, Any] | None = None

    @model_validator(mode="before")
    @classmethod
    def _top_level_variants(cls, data: Any) -> Any:
        """A variant given as a top-level key (``{"players": 4, "<variant>": true}``, the
        body before ``variants`` existed) folds into ``variants``; other unknown keys stay
        errors."""
        if not isinstance(data, dict):
            return data
        spec = _named_game(data.get("game"))
        if spec is None:  # a bad game name: the endpoint says so
            return data
        fields = cls.model_fields
        legacy = {k: v for k, v in data.items() if k in spec.variants and k not in fields}
        variants = data.get("variants")
        if not legacy or not isinstance(variants, dict | None):
            return data
        rest = {k: v for k, v in data.items() if k not in legacy}
        return {**rest, "variants": {**legacy, **(variants or {})}}


def _named_game(name: Any) -> GameSpec | None:
    """The registered game ``name`` names (None: the default game), or None if none."""
    if name is not None and not isinstance(name, str):
        return None
    try:
        return get_game(name)
    except ValueError:
        return None


class Action(BaseModel):
    """``action``: an action id or its name (``action_to_str``); ``decision``: the number
    of decisions the page saw, so a repeated click is refused, not applied twice."""

    model_config = ConfigDict(strict=True, extra="forbid")
    action: int | str
    decision: int | None = None


def create_app(
    data: str | Path,
    *,
    checkpoints: str | Path | None = None,
    records: str | Path | None = None,
    allowed_hosts: list[str] | None = None,
    decision_seconds: float = DECISION_SECONDS,
    limits: Limits | None = None,
) -> FastAPI:
    """The app; ``data`` holds ``games/`` and ``uploads/``. ``allowed_hosts`` (the Host
    headers accepted; None: any) keeps pages of other sites from reaching a local server
    through DNS rebinding. An agent's decision holds its game at most
    ``decision_seconds`` (a search is told to stop after half of it). ``limits``: the
    server's bounds on games, uploads and request bodies (:class:`~.limits.Limits`)."""
    data = Path(data)
    limits = limits or Limits()
    checkpoint_folder = Path(checkpoints) if checkpoints else None
    store = LiveStore(  # a bounded GameStore whose agents may also play off the request thread
        data / "games",
        checkpoints=checkpoint_folder,
        decision_seconds=decision_seconds,
        limits=limits,
    )
    library = RecordLibrary(
        store, data / "uploads", records, limits.max_uploads, limits.max_upload_bytes
    )
    app = FastAPI(title="Art Gallery", docs_url="/api/docs", redoc_url=None)
    app.state.store = store
    app.state.library = library
    app.add_middleware(BodyLimit, limits=limits)
    if allowed_hosts is not None:
        app.add_middleware(HostCheck, hosts=allowed_hosts)
    app.add_middleware(GZipMiddleware, minimum_size=2000)
    _error_handlers(app)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/api/setup")
    def setup() -> dict[str, Any]:
        checkpoints = _checkpoints(checkpoint_folder)
        games = [_game_setup(get_game(name), checkpoints) for name in game_names()]
        default = next(g for g in games if g["name"] == default_game().name)
        return {  # the default game's set-up at the top level too (the page before games)
            "games": games,
            "default_game": default["name"],
            "players": default["players"],
            "agents": default["agents"],
            "agent_names": default["agent_names"],
            "checkpoints": checkpoints,
            "colours": default["colours"],
            "skipped_games": store.skipped,
        }

    _game_routes(app, store)
    live_routes(app, store, NewGame, Action)  # the page's: agents off the request thread
    _replay_routes(app, library)
    timeline_routes(app, library)  # the replay's chart and its jumps by round and seat
    return app


def _game_routes(app: FastAPI, store: GameStore) -> None:
    @app.get("/api/games")
    def list_games() -> list[dict[str, Any]]:
        return [game_summary(game) for game in store.games()]

    @app.post("/api/games", status_code=201)
    def new_game(body: NewGame, request: Request) -> dict[str, Any]:
        game = store.create_as_asked(body, request)
        with game.lock:
            return game_view(game)

    @app.get("/api/games/{game_id}")
    def get_game(game_id: str) -> dict[str, Any]:
        game = store.get(game_id)
        with game.lock:
            store.advance(game)  # after a restart, agents owed a decision play first
            return game_view(game)

    @app.post("/api/games/{game_id}/actions")
    def act(game_id: str, body: Annotated[Action, Body()]) -> dict[str, Any]:
        game = store.get(game_id)
        with game.lock:
            store.act(game, body.action, body.decision)
            return game_view(game)

    @app.delete("/api/games/{game_id}")
    async def delete_game(game_id: str) -> dict[str, Any]:
        # on the event loop, not in the thread pool, which thinking agents may fill
        return {"id": store.delete(game_id).id, "deleted": True}

    @app.get("/api/games/{game_id}/log")
    def log(game_id: str) -> dict[str, Any]:
        game = store.get(game_id)
        with game.lock:
            return {"id": game.id, "lines": game_log(game)}

    @app.get("/api/games/{game_id}/insight")
    def insight(game_id: str) -> dict[str, Any]:
        game = store.get(game_id)
        with game.lock:
            return {"id": game.id, "insight": released_insight(game)}


def _replay_routes(app: FastAPI, library: RecordLibrary) -> None:
    @app.get("/api/games/{game_id}/record")
    def record(game_id: str) -> dict[str, Any]:
        return library.get(f"game-{library.games.get(game_id).id}")

    @app.get("/api/replays")
    def replays() -> list[dict[str, Any]]:
        return library.list()

    @app.post("/api/replays", status_code=201)
    async def upload(request: Request) -> dict[str, Any]:
        problem = _not_json(request)
        if problem is not None:  # a page of another site can send text/plain without asking
            raise WebError(415, problem)
        return library.upload(await request.body())

    @app.get("/api/replays/{record_id}")
    def replay(
        record_id: str,
        step: Annotated[int, Query(ge=0)] = 0,
        viewer: Annotated[str, Query(pattern=r"^(all|\d+)$")] = "all",
    ) -> dict[str, Any]:
        record = library.get(record_id)
        n, steps = record["setup"]["num_players"], len(record["actions"])
        seat = None if viewer == "all" else int(viewer)
        if seat is not None and not 0 <= seat < n:
            raise WebError(422, f"viewer: must be 'all' or a seat in 0..{n - 1}, got {seat}")
        if step > steps:
            raise WebError(422, f"step: must be in 0..{steps}, got {step}")
        names = seat_names(record["agents"])
        spec = record_game(record)
        view = replay_step(spec, record, states_at(record, step), step, seat, names)
        view.update(
            {
                "id": record_id,
                "players": n,
                "agents": record["agents"],
                "names": names,
                "has_insight": any(e is not None for e in record.get("insight") or []),
            }
        )
        return view


def _game_setup(spec: GameSpec, checkpoints: list[dict[str, Any]]) -> dict[str, Any]:
    """What the set-up form offers for one game."""
    web = web_of(spec)
    names = agent_names(spec.name)
    agents = [
        {"spec": agent, "label": label}
        for agent, label in AGENT_CHOICES
        if agent.partition(":")[0] in names
    ]
    offered = {a["spec"].partition(":")[0] for a in agents} | NOT_OFFERED
    agents += [{"spec": name, "label": name} for name in names if name not in offered]
    labels = web.variant_labels
    return {
        "name": spec.name,
        "title": spec.title,
        "players": list(range(spec.min_players, spec.max_players + 1)),
        "variants": dict(spec.variants),  # name -> default
        "variant_fields": [  # how the form asks for each
            {
                "name": name,
                "default": default,
                "type": type(default).__name__,
                "label": labels.get(name, f"Variant: {name.replace('_', ' ')}"),
            }
            for name, default in spec.variants.items()
        ],
        "agents": agents,
        "agent_names": names,
        "checkpoints": [c for c in checkpoints if c["game"] == spec.name],
        "colours": web.colours,
        "strength": web.strength,  # measured strength of the offered opponents, strongest first
        "drawn_board": web.drawn,
        "board_note": None
        if web.drawn
        else f"{spec.title} has no drawn board here: the board is shown as text.",
    }


def _checkpoints(folder: Path | None) -> list[dict[str, Any]]:
    """Checkpoint files in ``folder`` as agent specs (their path) with a label and the game
    they play (a checkpoint of a game nobody registered is left out)."""
    if folder is None or not folder.is_dir():
        return []
    found = []
    registered = set(game_names())
    for path in sorted(folder.iterdir()):
        if path.suffix in CHECKPOINT_SUFFIXES and path.is_file():
            label = f"checkpoint {path.name}"
            meta = _training_meta(path.with_suffix(".json"))
            game = _checkpoint_game(path, meta)
            if game not in registered:
                continue
            players = _trained_players(meta)
            if players:
                label += f" (trained at {players} players)"
            found.append({"spec": str(path), "label": label, "game": game})
    return found


def _checkpoint_game(path: Path, meta: dict[str, Any]) -> str:
    """The game a checkpoint plays: its training metadata's, else its policy header's,
    else (files from before games were named) the default game."""
    game = meta.get("game")
    if game is None:
        env = meta.get("config", {}).get("env") if isinstance(meta.get("config"), dict) else None
        game = env.get("game") if isinstance(env, dict) else None
    if game is None and path.suffix == ".safetensors":
        game = _header_game(path)
    if game is None and path.suffix == ".zip" and not meta:
        game = _plain_zip_game(path)
    return game if isinstance(game, str) else default_game().name


def _plain_zip_game(path: Path) -> str:
    """The game of an SB3 zip without metadata, by the sizes SB3 saved (read without
    unpickling); a name no game has (so the list leaves it out) if they name none."""
    from art_gallery_env.agents.run_checkpoint import plain_zip_game

    try:
        return plain_zip_game(path)
    except ValueError:  # CheckpointError: no game, several, or not an SB3 zip
        return "(unplayable)"


def _header_game(path: Path) -> str | None:
    """The ``game`` of a safetensors policy header, read without loading the weights."""
    try:
        with path.open("rb") as handle:
            size = int.from_bytes(handle.read(8), "little")
            if not 0 < size <= MAX_HEADER_BYTES:
                return None
            header = json.loads(handle.read(size))
        meta = json.loads(header["__metadata__"][METADATA_KEY])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return meta.get("game") if isinstance(meta, dict) else None


def _training_meta(path: Path) -> dict[str, Any]:
    """The training metadata beside a checkpoint ({} if there is none or it is unreadable)."""
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}


def _trained_players(meta: dict[str, Any]) -> str | None:
    """The table size(s) in a checkpoint's training metadata ("2" or "2-6" for a policy
    trained on mixed tables), if it names them."""
    try:
        players = meta["config"]["env"]["num_players"]
    except (KeyError, TypeError):
        return None
    if isinstance(players, int) and not isinstance(players, bool):
        return str(players)
    if isinstance(players, list) and players and all(type(n) is int for n in players):
        sizes = sorted(set(players))
        if len(sizes) >= 3 and sizes == list(range(sizes[0], sizes[-1] + 1)):
            return f"{sizes[0]}-{sizes[-1]}"
        return ", ".join(map(str, sizes))
    return None


def _error_handlers(app: FastAPI) -> None:
    """Every error is JSON ``{"error": ...}``, quoting at most ``QUOTE_CHARS`` of any input
    (:func:`~.games.scrub`); an unexpected exception is a JSON 500 that names no detail
    (its text could hold what a seat may not see: the server's log has it)."""

    @app.exception_handler(WebError)
    async def web_error(request: Request, err: WebError) -> JSONResponse:
        return JSONResponse({"error": scrub(err.message), **err.extra}, status_code=err.status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, err: StarletteHTTPException) -> JSONResponse:
        message = "no such page or API endpoint" if err.status_code == 404 else str(err.detail)
        if err.status_code == 400 and message == PARSE_ERROR:  # json.loads's RecursionError
            message = NOT_JSON
        return JSONResponse(
            {
                "error": scrub(f"{message}: {request.method} {clip(request.url.path)}"),
                **getattr(err, "extra", {}),
            },
            status_code=err.status_code,
            headers=getattr(err, "headers", None),
        )

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, err: RequestValidationError) -> JSONResponse:
        not_json = _not_json(request) if request.method == "POST" else None
        if not_json is not None:
            return JSONResponse({"error": not_json}, status_code=415)
        problems = []
        status = 422
        for e in err.errors():
            if e.get("type") == "json_invalid":
                status = 400
                problems.append(f"malformed JSON: {e.get('ctx', {}).get('error', e['msg'])}")
                continue
            where = ".".join(clip(str(part)) for part in e.get("loc", ()) if part != "body")
            problems.append(f"{where or 'body'}: {e['msg']}")
        return JSONResponse({"error": scrub("; ".join(problems))}, status_code=status)

    @app.exception_handler(Exception)
    async def crash(request: Request, err: Exception) -> JSONResponse:
        # Starlette re-raises it after this answer, so uvicorn logs the traceback
        return JSONResponse(
            {
                "error": f"internal server error ({type(err).__name__}) in {request.method} "
                f"{clip(request.url.path)}; the server's log has the details"
            },
            status_code=500,
        )


def _not_json(request: Request) -> str | None:
    """Why a request's body is refused as not JSON, or None. Only ``application/json``
    is read: a page of another site may send a ``text/plain`` (or form) body without
    asking, but a JSON one only after a CORS preflight, which this server never allows."""
    content_type = request.headers.get("content-type", "")
    if content_type.partition(";")[0].strip().lower() == "application/json":
        return None
    shown = quote(content_type) if content_type else "none"
    return f"the body must be sent as Content-Type: application/json (got {shown})"


class HostCheck:
    """Answers a request whose ``Host`` is not one of ``hosts`` with a JSON 400 (Starlette's
    ``TrustedHostMiddleware`` answers in plain text, and every error here is JSON)."""

    def __init__(self, app: ASGIApp, hosts: list[str]) -> None:
        self.app = app
        self.hosts = {host.lower() for host in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = Headers(scope=scope).get("host", "")
        if host_name(host) in self.hosts:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        message = (
            f"Host header {quote(host)} is not one this server answers to "
            f"({', '.join(sorted(self.hosts))}): it is bound to a loopback address"
        )
        await JSONResponse({"error": message}, status_code=400)(scope, receive, send)


def host_name(host: str) -> str:
    """The name of a ``Host`` header without its port: ``127.0.0.1:8000`` -> ``127.0.0.1``,
    ``[::1]:8000`` -> ``::1``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.partition(":")[0]


class BodyLimit:
    """Answers a request whose body is over its limit with a JSON 413 naming the limit,
    before anything reads it: ``max_upload_bytes`` for an uploaded record,
    ``max_body_bytes`` for any other body (a game or a decision is a few hundred bytes)."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    def _limit(self, scope: Scope) -> tuple[str, int]:
        if scope["path"].rstrip("/") == "/api/replays":
            return "max_upload_bytes", self.limits.max_upload_bytes
        return "max_body_bytes", self.limits.max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        name, limit = self._limit(scope)
        length = Headers(scope=scope).get("content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            await self._refuse(scope, send, name, limit, f"{int(length)} bytes")
            return
        seen = 0

        async def counted() -> Any:  # a body sent without a length (chunked): counted
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:  # FastAPI passes an HTTPException on: the handler answers it
                raise BodyTooLarge(name, limit, f"over {limit} bytes")
            return message

        await self.app(scope, counted, send)

    @staticmethod
    async def _refuse(scope: Scope, send: Send, name: str, limit: int, size: str) -> None:
        err = BodyTooLarge(name, limit, size)
        body = {"error": err.detail, **err.extra}
        await JSONResponse(body, status_code=413)(scope, _no_body, send)


class BodyTooLarge(StarletteHTTPException):
    """A body over its limit (:class:`BodyLimit`): a 413 that names the limit."""

    def __init__(self, name: str, limit: int, size: str) -> None:
        super().__init__(
            413,
            f"request body too large: {size}, at most {limit} bytes here (this server's "
            f"limit {name}={limit})",
        )
        self.extra = {"limit": name, "value": limit}


async def _no_body() -> dict[str, Any]:
    return {"type": "http.request", "body": b"", "more_body": False}
