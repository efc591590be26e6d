"""Games on the web server: a person at one seat, registry agents at the others.

Each game is one JSON file in the server's games folder, written atomically
(:func:`~art_gallery_env.files.atomic_write_json`) after every decision, the person's and
every agent's. The actions and the seed are the truth: loading a file replays them on a new
game (the engine is deterministic), so a server killed at any moment restarts with every
game at its last saved decision. The engine state is stored too, for other readers.

Any registered game plays here: a game is set up, observed, played by agents and parsed
through its :class:`~art_gallery_env.core.registry.GameSpec` (``get_game(game.game)``), so
this module names no game. Agents play through :func:`art_gallery_env.arena.loop.play`
until it is the person's turn.
Before each of its decisions an agent is reset with a seed derived from the game's seed,
its seat and the decision's index, so a decision depends only on what the seat knows and
that seed: a restarted server, which builds the agents afresh, continues identically.

A saved game is version 2 (``game`` and ``variants``); version 1 files, from before games
were named, are the default game's, their variant flags top-level keys (read too).
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from art_gallery_env.agents.base import Agent
from art_gallery_env.agents.registry import (
    CHECKPOINT_SUFFIXES,
    agent_names,
    cap_search_seconds,
    checkpoint_spec,
    make_agent,
    parse_spec,
)
from art_gallery_env.agents.registry import search_seconds as search_seconds_of
from art_gallery_env.arena.evaluate import derive_seed
from art_gallery_env.arena.loop import AgentError, Decision, play
from art_gallery_env.arena.records import make_record
from art_gallery_env.arena.terminal import HUMAN
from art_gallery_env.core.errors import IllegalActionError
from art_gallery_env.core.registry import GameSpec, default_game, get_game
from art_gallery_env.files import atomic_write_json

GAME_FORMAT = "art-gallery-env/web-game"
GAME_VERSION = 2
READ_VERSIONS = (1, 2)  # 1: before games were named (the default game, variants top-level)
GAME_ID = re.compile(r"^[0-9a-f]{16}$")
DECISION_SECONDS = 30.0  # an agent's decision holds its game (and the request) at most this
SEARCH_SHARE = 0.5  # a search agent is told to stop after this share of it, to finish in time
POLL_SECONDS = 0.05  # how soon a wait for an agent notices that its game was deleted
QUOTE_CHARS = 200  # an error quotes at most this much of any one input
MAX_ERROR_CHARS = 4000  # and is at most this long, whatever it quotes
_OVER = QUOTE_CHARS + 1


def _quoted(end: str) -> re.Pattern[str]:
    """A quoted string (repr's escapes too) of over QUOTE_CHARS, ending in ``end``."""
    body = rf"(?:[^{{q}}\\\n]|\\.){{{{{_OVER},}}}}"
    return re.compile("|".join(f"{q}{body.format(q=q)}(?:{q}{end})" for q in ("'", '"')))


_LONG_QUOTE = _quoted("")
_LONG_QUOTE_CUT = _quoted("|$")  # or one that the cut of a long message left open
_LONG_WORD = re.compile(rf"\S{{{_OVER + 10},}}")  # past a quote cut to QUOTE_CHARS
log = logging.getLogger("art_gallery_env.web")


def quote(value: Any) -> str:
    """``repr`` of a request's input for an error: at most :data:`QUOTE_CHARS` characters
    of it (a 1 MB spec must not come back as a 2 MB error)."""
    text = value if isinstance(value, str) else str(value)
    if len(text) <= QUOTE_CHARS:
        return repr(text)
    return f"{text[:QUOTE_CHARS]!r}... ({len(text)} characters)"


def clip(text: str) -> str:
    """``text`` (a request's path, say) cut to :data:`QUOTE_CHARS` characters for an error."""
    return text if len(text) <= QUOTE_CHARS else f"{text[:QUOTE_CHARS]}... ({len(text)} characters)"


def scrub(message: str) -> str:
    """An error message with every quoted string and every unbroken run of characters
    longer than :data:`QUOTE_CHARS` cut to that, and the whole cut to
    :data:`MAX_ERROR_CHARS`: messages of the engine, the registry or pydantic may quote a
    request's input whole."""
    quoted = _LONG_QUOTE
    if len(message) > 4 * MAX_ERROR_CHARS:  # what is cut below need not be searched
        message, quoted = message[: 4 * MAX_ERROR_CHARS], _LONG_QUOTE_CUT
    message = quoted.sub(lambda m: m.group()[:_OVER] + m.group()[0] + "...", message)
    message = _LONG_WORD.sub(lambda m: m.group()[:QUOTE_CHARS] + "...", message)
    if len(message) > MAX_ERROR_CHARS:
        message = message[:MAX_ERROR_CHARS] + "..."
    return message


class WebError(Exception):
    """A request the server refuses; ``status`` is the HTTP status, ``extra`` more JSON."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def agent_seed(game_seed: int, seat: int, decision: int) -> int:
    """The seed an agent is reset with before decision number ``decision`` of a game."""
    return derive_seed("web", game_seed, seat, decision)


def short_spec(spec: str) -> str:
    """A seat label for a spec: the spec with its options (``ismcts:iters=100``: two
    settings of one agent read apart), a checkpoint by its file name without folder and
    suffix, options kept (``ppo_2p``, ``ppo_2p:greedy=true``)."""
    name = spec.replace("\\", "/").rsplit("/", 1)[-1]
    for suffix in (".safetensors", ".zip", ".onnx"):
        if suffix in name:
            stem, _, rest = name.partition(suffix)
            return stem + rest
    return name


@dataclass
class WebGame:
    """One game: which game, the engine state, who sits where, and every decision so far."""

    id: str
    seat: int  # the person's seat
    agents: list[str]  # per seat; HUMAN at ``seat``
    seed: int
    game: str  # a registered game's name
    variants: dict[str, Any]  # every variant of the game with its value
    state: Any
    actions: list[int] = field(default_factory=list)
    deciders: list[int] = field(default_factory=list)  # the seat that made each decision
    rounds: list[int] = field(default_factory=list)  # the round each decision was made in
    insight: list[dict[str, Any] | None] = field(default_factory=list)  # Agent.explain()
    seen_events: int = 0  # events before the person's last decision ("since your last")
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    bots: dict[int, Agent] = field(default_factory=dict, repr=False, compare=False)
    observer: Any = field(default=None, repr=False, compare=False)
    # the file's lock (held only to write or delete it, never while an agent thinks), and
    # whether the game was deleted: a decision under way then ends and is not saved
    file_lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    deleted: bool = field(default=False, repr=False, compare=False)
    thought: Any = field(default=None, repr=False, compare=False)  # an agent's, under way
    client: str | None = field(default=None, repr=False, compare=False)  # who created it
    seen: float = field(default_factory=time.monotonic, repr=False, compare=False)  # asked
    # moved to the archive (out of memory): a request holding it reloads it instead
    paged_out: bool = field(default=False, repr=False, compare=False)

    @property
    def rules(self) -> GameSpec:
        return get_game(self.game)

    @property
    def num_players(self) -> int:
        return self.state.num_players

    @property
    def names(self) -> list[str]:
        return [
            f"You (P{p})" if p == self.seat else f"P{p} {short_spec(spec)}"
            for p, spec in enumerate(self.agents)
        ]

    @property
    def your_turn(self) -> bool:
        return not self.state.is_over and self.state.current_player == self.seat

    def to_json(self) -> dict[str, Any]:
        return {
            "format": GAME_FORMAT,
            "version": GAME_VERSION,
            "id": self.id,
            "seat": self.seat,
            "agents": self.agents,
            "seed": self.seed,
            "game": self.game,
            "variants": self.variants,
            "created": self.created,
            "updated": self.updated,
            "actions": self.actions,
            "deciders": self.deciders,
            "rounds": self.rounds,
            "insight": self.insight,
            "seen_events": self.seen_events,
            "state": self.state.to_dict(),
        }

    def record(self) -> dict[str, Any]:
        """The game record (``art-gallery replay`` reads it) with the agents' insight."""
        over = self.state.is_over
        name, fingerprint = self.rules.data_fingerprint(self.state)
        return make_record(
            num_players=self.num_players,
            seed=self.seed,
            variants=self.variants,
            agents=self.agents,
            actions=self.actions,
            breakdown=self.state.score_breakdown() if over else None,
            card_set=SimpleNamespace(name=name, fingerprint=fingerprint),
            extra={"web_game": self.id, "human_seat": self.seat},
            insight=self.insight,
            game=self.game,
        )


def parse_action(action: int | str, game: WebGame) -> int:
    """The action id of a request's ``action`` (an id or a name such as ``"bid 4"``)."""
    spec = game.rules
    try:
        if isinstance(action, str):
            return spec.str_to_action(action)
        return spec.check_action_id(action)
    except ValueError as err:
        raise WebError(422, f"action: {err}", legal=legal_list(game)) from None


def legal_list(game: WebGame) -> list[dict[str, Any]]:
    """The legal actions now, each with its name (an error about an action lists them)."""
    spec = game.rules
    return [{"action": a, "label": spec.action_to_str(a)} for a in game.state.legal_actions()]


class GameStore:
    """The server's games in memory and on disk (``folder/<id>.json``)."""

    def __init__(
        self,
        folder: str | Path,
        checkpoints: str | Path | None = None,
        decision_seconds: float = DECISION_SECONDS,
    ) -> None:
        if not 0 < decision_seconds < float("inf"):
            raise ValueError(f"decision_seconds must be a number > 0, got {decision_seconds!r}")
        self.folder = Path(folder)
        self.checkpoints = Path(checkpoints) if checkpoints else None  # the offered ones
        self.decision_seconds = decision_seconds  # an agent's decision waits at most this
        self.search_seconds = decision_seconds * SEARCH_SHARE  # a search stops after this
        self.folder.mkdir(parents=True, exist_ok=True)
        self._games: dict[str, WebGame] = {}
        self._lock = threading.Lock()
        self.skipped: list[str] = []  # files that could not be loaded, with the reason
        self._load_saved(sorted(self.folder.glob("*.json")))

    def _load_saved(self, paths: list[Path]) -> None:
        """Load the saved games at start (a damaged file is skipped, with the reason)."""
        for path in paths:
            game = self._load_file(path)
            if game is not None:
                self._games[game.id] = game

    def _load_file(self, path: Path) -> WebGame | None:
        try:
            return load_game(path)
        except Exception as err:  # noqa: BLE001 - one damaged file must not stop the server
            self.skipped.append(f"{clip(path.name)}: {_load_problem(err)}")
            log.warning("skipping saved game %s: %r", path, err)
            return None

    # -- access --------------------------------------------------------------------
    def get(self, game_id: str) -> WebGame:
        game = self._games.get(game_id) if GAME_ID.match(game_id) else None
        if game is None:
            raise WebError(404, f"no game {quote(game_id)} on this server")
        return game

    def delete(self, game_id: str) -> WebGame:
        """Forget a game and delete its file, without waiting for an agent that is
        thinking in it: that decision ends unsaved (the request that asked for it gets a
        404) and the game's file is never written again."""
        game = self.get(game_id)
        with self._lock:
            self._games.pop(game.id, None)
        with game.file_lock:
            game.deleted = True
            (self.folder / f"{game.id}.json").unlink(missing_ok=True)
        return game

    def games(self) -> list[WebGame]:
        with self._lock:
            return sorted(self._games.values(), key=lambda g: g.updated, reverse=True)

    # -- creating and playing ----------------------------------------------------------
    def create_as_asked(self, body: Any, request: Any, *, play_agents: bool = True) -> WebGame:
        """:meth:`create` with the fields of a new-game request ``body`` (the app's
        ``NewGame``), for the client of ``request`` (its address counts against the cap)."""
        client = request.client.host if request.client else None
        fields = (body.players, body.seat, body.opponents, body.seed, body.variants, body.game)
        return self.create(*fields, play_agents=play_agents, client=client)

    def create(
        self,
        num_players: int,
        seat: int,
        opponents: Sequence[str],
        seed: int | None = None,
        variants: Mapping[str, Any] | None = None,
        game: str | None = None,
        *,
        play_agents: bool = True,
        client: str | None = None,
    ) -> WebGame:
        """A new game of ``game`` (None: the default game) with the person at ``seat``, for
        ``client`` (its address, which a bounded store counts); agents play until it is
        their turn (``play_agents=False``: not here, the caller lets them play elsewhere,
        see :mod:`.moves`)."""
        spec, variants = _check_game(game, variants)
        if not spec.min_players <= num_players <= spec.max_players:
            raise WebError(
                422,
                f"players: {spec.title} is played by {spec.min_players}..{spec.max_players} "
                f"players, got {num_players}",
            )
        if not 0 <= seat < num_players:
            raise WebError(422, f"seat: must be in 0..{num_players - 1}, got {seat}")
        agents = _seat_agents(num_players, seat, opponents)
        for p, agent in enumerate(agents):
            if p != seat:
                _check_spec(agent, spec.name, self.checkpoints, self.search_seconds)
        if seed is None:
            seed = secrets.randbits(63)
        state = spec.setup(num_players, seed, variants)
        game_ = WebGame(secrets.token_hex(8), seat, agents, seed, spec.name, variants, state)
        game_.client = client
        return self._start(game_, play_agents)

    def _start(self, game: WebGame, play_agents: bool = True) -> WebGame:
        """Keep a new game, save it and let the agents play until the person's turn."""
        with game.lock:
            self.save(game)
            with self._lock:
                self._games[game.id] = game
            if play_agents:
                self.advance(game)
        return game

    def act(
        self,
        game: WebGame,
        action: int | str,
        decision: int | None = None,
        *,
        play_agents: bool = True,
    ) -> None:
        """Apply the person's ``action`` (checked against the legal ones) and let the
        agents play until the person's next turn (``play_agents=False``: not here, and an
        action while agents are owed a turn is a 409). Call with ``game.lock`` held."""
        if decision is not None and decision != len(game.actions):
            raise WebError(
                409,
                f"decision: this game is at decision {len(game.actions)}, the request was "
                f"made at decision {decision} (reload the game)",
                decision=len(game.actions),
            )
        if play_agents:
            self.advance(game)  # agents owed a turn after a restart play first
        if game.state.is_over:
            raise WebError(409, "the game is over; no more actions")
        if not game.your_turn:  # only without play_agents: advance() stops at the person's turn
            raise WebError(
                409,
                f"it is seat {game.state.current_player}'s turn, not yours",
                decision=len(game.actions),
            )
        action_id = parse_action(action, game)
        if action_id not in game.state.legal_actions():
            name, legal = game.rules.action_to_str(action_id), legal_list(game)
            raise WebError(
                422,
                f"action: {name} ({action_id}) is not legal now; legal: "
                + ", ".join(f"{a['label']} ({a['action']})" for a in legal),
                legal=legal,
            )
        seen = len(game.state.events)
        before = game.state.round
        game.state.apply(action_id)  # legal: checked above, so this cannot raise
        _remember(game, game.seat, action_id, before, None)
        game.seen_events = seen
        self.save(game)
        if play_agents:
            self.advance(game)

    def advance(self, game: WebGame) -> None:
        """Let the agents decide until it is the person's turn or the game is over,
        saving after each decision. Call with ``game.lock`` held."""
        state = game.state
        if game.observer is None:
            game.observer = game.rules.make_observer(state)
        while not state.is_over and state.current_player != game.seat:
            _check_not_deleted(game)
            seat = state.current_player
            before = state.round
            bot, action = self._think(game, seat)

            def remember(
                decision: Decision, seat: int = seat, bot: Agent = bot, before: int = before
            ) -> None:
                _remember(game, seat, decision.action, before, bot.explain())

            try:  # the loop checks the action against the mask and applies it
                play(
                    state,
                    {seat: _Decided(bot, action)},
                    game.observer,
                    max_decisions=1,
                    on_decision=remember,
                )
            except AgentError as err:
                raise WebError(500, f"the agent at seat {seat} failed: {err}") from err
            self.save(game)
        _check_not_deleted(game)

    def _think(self, game: WebGame, seat: int) -> tuple[Agent, Any]:
        """The agent at ``seat`` and its action at this decision, computed in a thread of
        its own on a copy of the state and waited for at most ``decision_seconds``, so
        that the game's lock is never held longer; a deletion of the game ends the wait at
        once. An agent too slow for the limit makes the request a 503 and keeps thinking:
        the next request waits for the same thought (one thread per game at most)."""
        thought = game.thought
        if thought is None or thought.decision != len(game.actions):
            bot = self._bot(game, seat)
            bot.reset(agent_seed(game.seed, seat, len(game.actions)))
            inputs = game.observer.inputs(game.state.clone(), seat)
            thought = game.thought = _Thought(len(game.actions), bot)
            thought.start(inputs, name=f"agent {game.id} seat {seat}")
        deadline = time.monotonic() + self.decision_seconds
        while not thought.done.wait(max(0.0, min(POLL_SECONDS, deadline - time.monotonic()))):
            _check_not_deleted(game)
            if time.monotonic() >= deadline:
                raise WebError(
                    503,
                    f"the agent at seat {seat} ({short_spec(game.agents[seat])}) did not "
                    f"decide within this server's limit of {self.decision_seconds:g} s per "
                    f"decision; the game waits at decision {len(game.actions)} (reload to "
                    f"wait for it again, or delete the game)",
                    decision=len(game.actions),
                    id=game.id,
                )
        game.thought = None
        if thought.error is not None:
            err = thought.error
            raise WebError(
                500,
                f"the agent at seat {seat} failed: {thought.bot!r} raised "
                f"{type(err).__name__}: {err}",
            ) from err
        return thought.bot, thought.action

    def _bot(self, game: WebGame, seat: int) -> Agent:
        bot = game.bots.get(seat)
        if bot is None:
            try:
                bot = make_agent(game.agents[seat], seed=0, game=game.game)
            except Exception as err:  # noqa: BLE001 - a saved spec this version refuses
                raise WebError(500, f"the agent at seat {seat} cannot be built: {err}") from None
            cap_search_seconds(bot, self.search_seconds)
            game.bots[seat] = bot
        return bot

    def save(self, game: WebGame) -> None:
        """Write the game's file (atomically), unless the game was deleted meanwhile."""
        game.updated = time.time()
        data = game.to_json()
        with game.file_lock:
            if game.deleted:
                return
            atomic_write_json(self.folder / f"{game.id}.json", data, separators=(",", ":"))


class _Thought:
    """An agent's decision under way in a thread of its own (:meth:`GameStore._think`)."""

    def __init__(self, decision: int, bot: Agent) -> None:
        self.decision = decision  # the index of the decision it is for
        self.bot = bot
        self.done = threading.Event()
        self.action: Any = None
        self.error: Exception | None = None

    def start(self, inputs: Any, name: str) -> None:
        def decide() -> None:
            try:
                self.action = self.bot.act(*inputs)
            except Exception as err:  # noqa: BLE001 - reported by the waiting request
                self.error = err
            finally:
                self.done.set()

        threading.Thread(target=decide, name=name, daemon=True).start()


class _Decided(Agent):
    """The action an agent chose in its own thread (:meth:`GameStore._think`), played
    through the game loop, which checks it against the mask; named as the agent."""

    def __init__(self, bot: Agent, action: Any) -> None:
        self.bot = bot
        self.action = action
        self.name = bot.name

    def act(self, observation: Any, action_mask: Any, view: Any = None) -> Any:
        return self.action

    def __repr__(self) -> str:
        return repr(self.bot)


def _check_not_deleted(game: WebGame) -> None:
    if game.deleted:
        raise WebError(404, f"no game {game.id!r} on this server (it was deleted)")


def _load_problem(err: Exception) -> str:
    """Why a saved game was skipped, as anyone may read it: :class:`SavedGameError`'s own
    words, the position of a JSON error, else only the kind of fault."""
    if isinstance(err, SavedGameError):
        return scrub(str(err))
    if isinstance(err, json.JSONDecodeError):
        return f"not JSON ({err.msg} at line {err.lineno} column {err.colno})"
    if isinstance(err, UnicodeDecodeError):
        return f"not UTF-8 text (byte {err.start})"
    if isinstance(err, OSError):
        return f"cannot be read ({err.strerror or type(err).__name__})"
    return f"not a saved game ({type(err).__name__})"


def _remember(
    game: WebGame, seat: int, action: int, round_: int, insight: dict[str, Any] | None
) -> None:
    game.actions.append(action)
    game.deciders.append(seat)
    game.rounds.append(round_)
    game.insight.append(insight)


def _check_game(
    game: str | None, variants: Mapping[str, Any] | None
) -> tuple[GameSpec, dict[str, Any]]:
    """The registered game and its full variants; a bad name or variant is a 422 that
    names the legal choices."""
    try:
        spec = get_game(game)
    except ValueError as err:
        raise WebError(422, f"game: {err}") from None
    try:
        return spec, spec.check_variants(variants)
    except ValueError as err:
        message = f"variants: {err}"
        if "(variants:" not in message:  # a bad value: name the variants and their defaults
            have = ", ".join(f"{k} (default {v!r})" for k, v in spec.variants.items())
            message += f"; variants of {spec.title}: {have}"
        raise WebError(422, message, variants=dict(spec.variants)) from None


def _seat_agents(num_players: int, seat: int, opponents: Sequence[str]) -> list[str]:
    """Per seat: ``opponents`` in seat order (one spec for all is repeated), HUMAN at
    ``seat``. A game of one player has no opponents."""
    specs = [s.strip() for s in opponents]
    if len(specs) == 1:
        specs *= num_players - 1
    if len(specs) != num_players - 1 or not all(specs):
        raise WebError(
            422,
            f"opponents: {num_players} players need {num_players - 1} agent specs "
            f"(one per other seat) or one for all, got {len(specs)}",
        )
    return specs[:seat] + [HUMAN] + specs[seat:]


def _check_spec(spec: str, game: str, offered: Path | None, search_seconds: float) -> None:
    """A spec that does not build an agent is a 422. One that names a file (a checkpoint
    path, ``policy:path=``) or no agent gets one message whatever the file is (missing,
    unreadable, not a checkpoint), so a request cannot learn which files exist; only a
    file of the offered checkpoints folder (listed by /api/setup anyway) is explained."""
    if spec == HUMAN:
        raise WebError(422, "opponents: 'human' plays only at your own seat")
    try:
        agent = make_agent(spec, seed=0, game=game)
    except Exception as err:  # noqa: BLE001 - any construction failure is a bad spec
        if _about_a_file(spec, game, offered):
            names = ", ".join(agent_names(game))
            raise WebError(
                422,
                f"opponents: bad agent spec {quote(spec)}: unknown agent or checkpoint file "
                f"(known agents: {names}; checkpoints: those /api/setup lists, or the path "
                f"of a checkpoint file of this game)",
            ) from None
        raise WebError(422, f"opponents: bad agent spec {quote(spec)}: {err}") from None
    seconds = search_seconds_of(agent)
    if seconds is not None and seconds > search_seconds:
        raise WebError(
            422,
            f"opponents: bad agent spec {quote(spec)}: seconds={seconds:g} is over this "
            f"server's limit of {search_seconds:g} s of search per decision",
        )


FILE_OPTIONS = {"policy": "path", "search": "ckpt"}  # agents' options that name a file


def _about_a_file(spec: str, game: str, offered: Path | None) -> bool:
    """Whether an error about ``spec`` could tell something about a file that is not one
    of the ``offered`` checkpoints: a spec that is no agent's name, or one that names a
    file (a checkpoint path, ``policy:path=FILE``)."""
    try:
        checkpoint = checkpoint_spec(spec)
    except ValueError:  # bad options after a path that exists
        return True
    if checkpoint is not None:
        return not _offered(Path(checkpoint[0]), offered)
    try:
        name, options = parse_spec(spec)
    except ValueError:  # a bad option of an agent (no file): explained, if it is an agent
        name, options = spec.partition(":")[0].strip(), {}
    if name not in agent_names(game):
        return True
    path = options.get(FILE_OPTIONS.get(name, ""))
    return path is not None and not _offered(Path(path), offered)


def _offered(path: Path, folder: Path | None) -> bool:
    """Whether ``path`` is a checkpoint file of the offered checkpoints ``folder``."""
    if folder is None:
        return False
    try:
        return (
            path.suffix in CHECKPOINT_SUFFIXES
            and path.is_file()
            and path.resolve().parent == folder.resolve()
        )
    except OSError:
        return False


class SavedGameError(ValueError):
    """Why a saved game does not load, in words that show nothing a seat may not know (no
    action, seed or legal action of the file: the page shows the message to anyone)."""


def load_game(path: str | Path) -> WebGame:
    """Read a saved game and replay its actions (the truth) on a new game; a damaged file
    raises :class:`SavedGameError` (or OSError, ValueError from reading it)."""
    path = Path(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != GAME_FORMAT:
        raise SavedGameError(f"format: expected {GAME_FORMAT!r}")
    if data.get("version") not in READ_VERSIONS:
        versions = ", ".join(map(str, READ_VERSIONS))
        raise SavedGameError(f"version: {quote(data.get('version'))} is not one of {versions}")
    try:
        return _load_checked(path, data)
    except SavedGameError:
        raise
    except KeyError as err:
        raise SavedGameError(f"missing field {quote(err.args[0])}") from err
    except Exception as err:  # noqa: BLE001 - any other fault: its text may hold the seed
        raise SavedGameError(f"a field has the wrong type or value ({type(err).__name__})") from err


def _load_checked(path: Path, data: dict[str, Any]) -> WebGame:
    game_id, seat, agents = data["id"], data["seat"], data["agents"]
    if not isinstance(game_id, str) or not GAME_ID.match(game_id) or path.stem != game_id:
        raise SavedGameError(f"id: {quote(game_id)} is not a game id matching the file name")
    if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
        raise SavedGameError("agents: expected a list of agent specs")
    spec, variants = saved_game(data)
    if not isinstance(seat, int) or not 0 <= seat < len(agents) or agents[seat] != HUMAN:
        raise SavedGameError(f"seat/agents: expected {HUMAN!r} at seat {quote(seat)}")
    seed = data["seed"]
    if type(seed) is not int or not 0 <= seed < 2**63:
        raise SavedGameError("seed: expected an int in 0..2**63-1")
    state = spec.setup(len(agents), seed, variants)
    actions = data["actions"]
    _replay(state, actions)
    lengths = {len(actions), len(data["deciders"]), len(data["rounds"]), len(data["insight"])}
    if len(lengths) != 1:
        raise SavedGameError("actions, deciders, rounds and insight differ in length")
    return WebGame(
        id=game_id,
        seat=seat,
        agents=list(agents),
        seed=data["seed"],
        game=spec.name,
        variants=variants,
        state=state,
        actions=list(actions),
        deciders=list(data["deciders"]),
        rounds=list(data["rounds"]),
        insight=list(data["insight"]),
        seen_events=int(data["seen_events"]),
        created=float(data["created"]),
        updated=float(data["updated"]),
    )


def _replay(state: Any, actions: Any) -> None:
    """Apply a saved game's actions; one that does not apply is named by its index only
    (the engine's message names the action and the seat's legal ones: private)."""
    for i, action in enumerate(actions):
        try:
            state.apply(action)
        except (IllegalActionError, ValueError, TypeError):
            raise SavedGameError(
                f"actions[{i}]: not a legal action where it is applied (the file is damaged "
                f"or was edited)"
            ) from None


def saved_game(data: dict[str, Any]) -> tuple[GameSpec, dict[str, Any]]:
    """The game and the full variants of a saved game. Version 1 named no game (the
    default game's) and kept each variant as a top-level key: the keys that are the
    default game's variant names are its variants."""
    if data["version"] == 1:
        spec = default_game()
        variants = {key: data[key] for key in spec.variants if key in data}
    else:
        name, variants = data["game"], data["variants"]
        if not isinstance(name, str) or not isinstance(variants, dict):
            raise SavedGameError("game/variants: expected a game name and a dict of variants")
        try:
            spec = get_game(name)
        except ValueError as err:  # names the registered games
            raise SavedGameError(f"game: {err}") from None
    try:
        return spec, spec.check_variants(variants)
    except ValueError as err:  # names the game's variants
        raise SavedGameError(f"variants: {err}") from None
