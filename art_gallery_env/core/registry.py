"""The registry of games: each game declares itself, the tools ask here.

A game is one folder inside ``art_gallery_env/games/`` whose ``spec.py`` builds a
:class:`GameSpec` and calls :func:`register_game` (as OpenSpiel's ``register_game``).
:func:`get_game` imports those spec modules on first use, and also the entry points of
the group ``art_gallery_env.games`` (a game installed from another distribution), so
no tool names a game: evaluation, records, replay, terminal and web play, the trainers
and the bridges read everything they need of a game from its spec.

A spec's ``capabilities`` say which optional tools a game supports (a compiled engine,
a browser view, ...); a tool that needs one a game lacks says so in words
(:meth:`GameSpec.require`).
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.metadata
import importlib.util
import math
import threading
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import check_action_id, check_num_players

ENTRY_POINT_GROUP = "art_gallery_env.games"

# What a capability lets a tool do (the words a tool prints when a game lacks one).
CAPABILITIES = {
    "vector": "a compiled batched engine (training with vec_env: vector)",
    "web": "a browser view (art-gallery serve)",
    "svg": "a drawn board (render_mode='svg' and 'rgb_array')",
    "openspiel": "an OpenSpiel game (the pyspiel bridge)",
    "warm_start": "a teacher to clone before PPO (warm_start:)",
    "rllib": "Ray RLlib training (algorithm: rllib_ppo)",
    "network": "tokens for a structured policy network (network: {type: entity})",
    "compiled_search": "a compiled ISMCTS (ismcts:engine=compiled)",
}


class UnknownGameError(ValueError):
    """A game name nobody registered; the message lists the registered ones."""


def _plain_fingerprint(name: str, num_actions: int, observation_size: int) -> str:
    """A layout id from the game's name and sizes (for a game that lists no fields)."""
    text = f"{name}:{observation_size}:{num_actions}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _cannot_load(name: str) -> Callable[[dict[str, Any]], Any]:
    def load(data: dict[str, Any]) -> Any:
        raise ValueError(f"{name} cannot read saved states: its spec gives no state_from_dict")

    return load


def _action_from_text(text: str, num_actions: int) -> int:
    """An action id typed as a number, else a ValueError naming the range."""
    try:
        return check_action_id(int(text.strip()), num_actions)
    except ValueError:
        raise ValueError(f"expected an action id in 0..{num_actions - 1}, got {text!r}") from None


def _is_package(module: str) -> bool:
    try:
        found = importlib.util.find_spec(module) if module else None
    except (ImportError, ValueError):  # __main__, or a module that is gone
        return False
    return found is not None and found.submodule_search_locations is not None


# The fields every game must give; every other field has a default (a game adds what its
# tools can use). docs/adding_a_game.md lists them; tests/conformance checks this tuple.
REQUIRED_FIELDS = (
    "name",
    "title",
    "min_players",
    "max_players",
    "num_actions",
    "observation_size",
    "new_game",
    "make_observer",
    "make_env",
)


def _plain_action_name(action: int) -> str:
    return str(action)


def _no_events(state: Any, start: int, viewer: int | None, names: list[str]) -> list[str]:
    return []


def _plain_text_board(state: Any, viewer: int | None) -> str:
    """The fallback text board: where the game stands, for a game without a text view."""
    if state.is_over:
        return f"round {state.round}: game over"
    return f"round {state.round}, phase {state.phase_name}: player {state.current_player} to act"


def _plain_breakdown(breakdown: list[dict[str, Any]]) -> str:
    """The fallback score table: each seat's total and rank."""
    return "\n".join(
        f"player {row['player']}: total {row['total']} (rank {row['rank']})" for row in breakdown
    )


@dataclass(frozen=True)
class GameSpec:
    """One game as every tool sees it: metadata, builders and what it supports.

    Callables keep the tools free of imports from a game's modules: a spec is built
    lazily by its game's ``spec.py`` and holds functions of that game. Only
    :data:`REQUIRED_FIELDS` must be given; the optional fields below are grouped by what
    they serve, and a ``None`` callable is filled in with its default when the spec is built
    (so a tool reads every field without checking for ``None`` unless it says so).
    """

    # -- required: what every tool needs ---------------------------------------------------
    name: str  # the id in records, configs, checkpoints and command lines
    title: str
    min_players: int
    max_players: int
    num_actions: int
    observation_size: int
    new_game: Callable[..., Any]  # (num_players, seed, **variants) -> state
    make_observer: Callable[[Any], Any]  # state -> its game's SeatObserver
    make_env: Callable[..., Any]  # (num_players=..., variants=..., **env options) -> raw AEC env

    # -- files: records, saved games, checkpoints ------------------------------------------
    # the AEC env's name and version, which records and checkpoints store ("" -> NAME_v0)
    env_version: str = ""
    state_type: type = object  # isinstance(state, state_type) finds a state's game
    # a saved state's dict -> state (None -> state_type.from_dict)
    state_from_dict: Callable[[dict[str, Any]], Any] | None = None
    # observation + action layout, stored in policy files (None -> from the name and sizes)
    layout_fingerprint: Callable[[], str] | None = None
    # state -> (data name, fingerprint) of the data it plays on (None -> (name, "none"))
    data_fingerprint: Callable[[Any], tuple[str, str]] | None = None
    default_data: Callable[[], tuple[str, str]] | None = None  # the shipped data's pair
    # the game of a record, checkpoint or config that names none (files from before 0.2)
    legacy_default: bool = False
    # earlier env versions whose records replay identically here (the rules and actions
    # did not change, only a default did); records of any other version are refused
    replays_versions: tuple[str, ...] = ()
    # the rules' checks of a state held in memory (one edited by hand, not read from JSON):
    # raises a ValueError naming the first bad field; None: the game has none
    check_state: Callable[[Any], None] | None = None
    # the game's package: its folder holds goldens/, the golden playthroughs
    # ("" -> the package of the module that defines make_env)
    package: str = ""

    # -- text: terminal play, replays, narration, the evaluation table ---------------------
    action_to_str: Callable[[int], str] | None = None  # None -> the id as text
    str_to_action: Callable[[str], int] | None = None  # None -> an id in 0..num_actions-1
    check_action_id: Callable[[object], int] | None = None  # a plain int id, else ValueError
    render_text: Callable[[Any, int | None], str] | None = None  # (state, viewer) -> board
    render_breakdown: Callable[[list[dict[str, Any]]], str] | None = None  # None -> totals
    describe_events: Callable[..., list[str]] | None = None  # (state, start, viewer, names)
    # how an action reads to a seat that did not take it, where the action itself is
    # hidden (Art Gallery's face-down bids); None: it reads as action_to_str says
    hidden_action_name: Callable[[int], str | None] = lambda action: None
    # what a legal choice does, in words, for the seat about to choose (terminal play)
    describe_choice: Callable[[Any, int, int], str] = lambda state, seat, action: ""
    # score parts averaged per agent by the evaluation: (breakdown key, column name)
    score_parts: tuple[tuple[str, str], ...] = ()

    # -- variants: setup options new_game takes, with their defaults -----------------------
    variants: Mapping[str, Any] = field(default_factory=dict)  # Art Gallery: zero_is_ten
    variants_of: Callable[[Any], dict[str, Any]] = lambda state: {}  # a state's variants

    # -- rewards ---------------------------------------------------------------------------
    # end-of-game rewards, one per seat, for each mode a trainer may ask for (what the
    # game's AEC env gives as its final rewards); the default mode comes first
    reward_modes: tuple[str, ...] = ("win", "score_margin")
    final_rewards: Callable[[list[dict[str, Any]], str], list[float]] | None = None
    # the modes at one table size, where they differ by size (a solo game ranks no seats):
    # num_players -> modes, the default first; None: reward_modes at every size
    reward_modes_at: Callable[[int], tuple[str, ...]] | None = None

    # -- observation -----------------------------------------------------------------------
    # an observation vector split into its named fields, in order, each with its shape
    # (a ValueError for a vector of another shape); the conformance suite checks it
    decode_observation: Callable[[Any], dict[str, Any]] | None = None
    # every element of an observation lies in [0, observation_high] (the high of the
    # observation Box): 1.0 for an encoding of one-hots and counts scaled to 0..1, else
    # the largest value the game's encoding can write, which its encoding derives
    observation_high: float = 1.0

    # -- agents and search -----------------------------------------------------------------
    # the game's own agents (its heuristic), name -> factory(seed=None, **string options);
    # versions: name -> (versions, latest) for agents that have versions
    agents: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    agent_versions: Mapping[str, tuple[tuple[str, ...], str]] = field(default_factory=dict)
    # rollout policies ISMCTS may use by name (it always offers "random"; the first listed
    # is its default, and "random": None lists the search's own uniform policy there):
    # name -> factory(params=None) -> object with choose(state, rng) -> action
    rollouts: Mapping[str, Callable[..., Any] | None] = field(default_factory=dict)
    # ISMCTS's value of a game its rollout stopped early: factory(scale=None) -> (state ->
    # one value in [0, 1] per seat); None: win shares at the end, else a logistic of each
    # seat's margin in score_breakdown()'s totals over ``scale``
    search_evaluator: Callable[..., Callable[[Any], list[float]]] | None = None

    # -- capabilities: the optional tools (CAPABILITIES) and where they live ---------------
    capabilities: frozenset[str] = frozenset()
    # the module of this game's optional tools, by capability ("vector": its compiled
    # engine's module, "web": its web views' module ...), imported only by that tool
    extensions: Mapping[str, str] = field(default_factory=dict)
    # the drawn board (capability "svg"): (state, viewer, mode) -> an SVG string for mode
    # "svg", an HxWx3 uint8 array for "rgb_array"; viewer None: everything (a spectator)
    render_frame: Callable[[Any, int | None, str], Any] | None = None
    # the game's Gymnasium ids: id -> {"kwargs": {...}, "entry_point": "module:Class"}
    # (without an entry point, the arena's single-agent env); its spec.py declares them as
    # the literal GYM_ENVS, which the registration reads without importing the game
    gym_envs: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """Fill in the defaults of the optional builders (see each field's comment)."""
        for key, value in self._defaults().items():
            if not getattr(self, key):
                object.__setattr__(self, key, value)

    def _defaults(self) -> dict[str, Any]:
        name, num_actions, size = self.name, self.num_actions, self.observation_size
        module = getattr(self.make_env, "__module__", None) or ""
        return {
            "env_version": f"{name}_v0",
            "state_from_dict": getattr(self.state_type, "from_dict", None) or _cannot_load(name),
            "layout_fingerprint": lambda: _plain_fingerprint(name, num_actions, size),
            "data_fingerprint": lambda state: (name, "none"),
            "default_data": lambda: (name, "none"),
            "package": module if _is_package(module) else module.rpartition(".")[0],
            "action_to_str": _plain_action_name,
            "str_to_action": lambda text: _action_from_text(text, num_actions),
            "check_action_id": lambda action: check_action_id(action, num_actions),
            "render_text": _plain_text_board,
            "render_breakdown": _plain_breakdown,
            "describe_events": _no_events,
        }

    def golden_dir(self) -> Path:
        """The folder of this game's golden playthroughs: ``goldens/`` in its package."""
        spec = importlib.util.find_spec(self.package) if self.package else None
        if spec is None or not spec.submodule_search_locations:
            raise UnknownGameError(f"{self.title}: its package {self.package!r} is not found")
        return Path(next(iter(spec.submodule_search_locations))) / "goldens"

    # -- checks every tool uses ----------------------------------------------------------
    def check_players(self, num_players: object) -> int:
        try:
            return check_num_players(num_players, self.min_players, self.max_players)
        except ValueError:
            raise ValueError(
                f"{self.title} is played by {self.min_players}..{self.max_players} players, "
                f"got {num_players!r}"
            ) from None

    def observation_box(self) -> Any:
        """The Gymnasium Box of an observation vector: float32, ``observation_size``
        elements in [0, ``observation_high``] (a finite bound, as Gymnasium asks)."""
        import numpy as np
        from gymnasium import spaces

        high = float(self.observation_high)
        if not math.isfinite(high) or high <= 0:
            raise ValueError(f"{self.name}: observation_high must be finite and > 0, got {high}")
        return spaces.Box(0.0, high, (self.observation_size,), np.float32)

    def reward_modes_for(self, num_players: int | None = None) -> tuple[str, ...]:
        """The reward modes at ``num_players`` (None: the game's multi-seat modes)."""
        if num_players is None or self.reward_modes_at is None:
            return tuple(self.reward_modes)
        return tuple(self.reward_modes_at(num_players))

    def check_reward_mode(self, reward_mode: object, num_players: int | None = None) -> str:
        modes = self.reward_modes_for(num_players)
        if reward_mode not in modes:
            at = ""
            if num_players is not None and self.reward_modes_at is not None:
                at = f" with {num_players} player{'' if num_players == 1 else 's'}"
            raise ValueError(
                f"reward_mode for {self.title} must be one of {list(modes)}{at}, "
                f"got {reward_mode!r}"
            )
        return reward_mode  # type: ignore[return-value]

    def check_variants(self, variants: Mapping[str, Any] | None) -> dict[str, Any]:
        """Every variant with its value (defaults filled in); an unknown name or a value of
        another type than its default is an error naming the game's variants."""
        variants = dict(variants or {})
        unknown = sorted(set(variants) - set(self.variants))
        if unknown:
            have = ", ".join(self.variants) or "none"
            raise ValueError(f"{self.title} has no variant {unknown[0]!r} (variants: {have})")
        full = dict(self.variants)
        for key, value in variants.items():
            default = self.variants[key]
            if type(value) is not type(default):
                raise ValueError(
                    f"variant {key!r} of {self.title} must be a {type(default).__name__} "
                    f"(default {default!r}), got {value!r}"
                )
            full[key] = value
        return full

    def active_variants(self, variants: Mapping[str, Any] | None) -> dict[str, Any]:
        """Only the variants that differ from their defaults (what records and labels show)."""
        full = self.check_variants(variants)
        return {k: v for k, v in full.items() if v != self.variants[k]}

    def setup(self, num_players: int, seed: int, variants: Mapping[str, Any] | None = None) -> Any:
        """A new game; a variant this game does not have is an error naming the ones it has."""
        return self.new_game(self.check_players(num_players), seed, **self.check_variants(variants))

    def has(self, capability: str) -> bool:
        return capability in self.capabilities

    def require(self, capability: str, tool: str) -> None:
        """A tool that needs ``capability`` stops with a sentence, not a traceback."""
        if capability not in self.capabilities:
            what = CAPABILITIES.get(capability, capability)
            others = [g for g in game_names() if get_game(g).has(capability)]
            raise ValueError(
                f"{tool} needs {what}, which {self.title} ({self.name!r}) does not have"
                + (f"; games that have it: {', '.join(others)}" if others else "")
            )

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """A spec pickles as its registered name: its builders are the game's functions (some
        of them lambdas, which do not pickle), and the process that unpickles it finds the
        same spec in its own registry. So agents that hold a spec (the searches) pickle."""
        return (get_game, (self.name,))

    def extension(self, capability: str) -> Any:
        """The module of this game's ``capability`` tool (after :meth:`require`)."""
        self.require(capability, capability)
        return importlib.import_module(self.extensions[capability])


_GAMES: dict[str, GameSpec] = {}
_LOCK = threading.RLock()
_discovered = False


def register_game(spec: GameSpec, *, replace: bool = False) -> GameSpec:
    """Add ``spec`` to the registry (a second spec of the same name needs ``replace``)."""
    if not isinstance(spec, GameSpec):
        raise TypeError(f"register_game takes a GameSpec, got {type(spec).__name__}")
    with _LOCK:
        if spec.name in _GAMES and not replace and _GAMES[spec.name] is not spec:
            raise ValueError(f"a game named {spec.name!r} is registered already")
        _GAMES[spec.name] = spec
    return spec


def unregister_game(name: str) -> None:
    """Remove a game (tests register throw-away games and take them out again)."""
    with _LOCK:
        _GAMES.pop(name, None)


def _builtin_spec_files() -> list[Path]:
    """``art_gallery_env/games/<game>/spec.py`` for every game folder that has one."""
    games = Path(__file__).resolve().parents[1] / "games"
    return sorted(
        path for path in games.glob("*/spec.py") if (path.parent / "__init__.py").exists()
    )


def _builtin_spec_modules() -> list[str]:
    """``art_gallery_env.games.<game>.spec`` for every game folder that has one."""
    return [f"art_gallery_env.games.{path.parent.name}.spec" for path in _builtin_spec_files()]


def _literal_gym_envs(path: Path) -> dict[str, dict[str, Any]]:
    """The ``GYM_ENVS = {...}`` literal of a spec file, read without running the file."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "GYM_ENVS" for t in node.targets
        ):
            return dict(ast.literal_eval(node.value))
    return {}


def declared_gym_envs() -> dict[str, dict[str, Any]]:
    """Every game's Gymnasium ids: the package's games' from their spec files, read without
    importing them (the registration runs while Gymnasium loads, where importing a game's
    engine would be slow and could meet a half-imported PettingZoo), then those of the
    games registered by now (one installed from another distribution, say)."""
    declared: dict[str, dict[str, Any]] = {}
    for path in _builtin_spec_files():
        declared.update(_literal_gym_envs(path))
    with _LOCK:
        for spec in _GAMES.values():
            declared.update({k: dict(v) for k, v in spec.gym_envs.items()})
    return declared


def _discover() -> None:
    global _discovered
    with _LOCK:
        if _discovered:
            return
        _discovered = True
        for module in _builtin_spec_modules():
            importlib.import_module(module)
        for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            _load_entry_point(entry)


def _load_entry_point(entry: importlib.metadata.EntryPoint) -> None:
    """Import one installed game's spec module; one that fails is a warning in one line,
    so that a broken plugin does not stop every tool (its own game is then unknown)."""
    try:
        entry.load()
    except Exception as err:  # noqa: BLE001 - any error of a third party's module
        where = getattr(entry.dist, "name", None) or "an installed distribution"
        warnings.warn(
            f"the game {entry.name!r} of {where} (entry point {entry.value!r} in "
            f"{ENTRY_POINT_GROUP}) did not load: {type(err).__name__}: {err}",
            stacklevel=3,
        )


def game_names() -> list[str]:
    """The registered games, the legacy default first, then by name."""
    _discover()
    return sorted(_GAMES, key=lambda name: (not _GAMES[name].legacy_default, name))


def get_game(name: str | None = None) -> GameSpec:
    """The game called ``name`` (None: the legacy default); an unknown name lists the games."""
    _discover()
    if name is None:
        return default_game()
    spec = _GAMES.get(name)
    if spec is None:
        raise UnknownGameError(f"unknown game {name!r}; games: {', '.join(game_names())}")
    return spec


def default_game() -> GameSpec:
    """The game of files that name none (written before games were named)."""
    _discover()
    for spec in _GAMES.values():
        if spec.legacy_default:
            return spec
    raise UnknownGameError("no game is registered as the default of unnamed files")


def game_of(state: Any) -> GameSpec:
    """The registered game whose engine ``state`` is."""
    _discover()
    for spec in _GAMES.values():
        if spec.state_type is not object and isinstance(state, spec.state_type):
            return spec
    raise UnknownGameError(
        f"{type(state).__name__} is no registered game's state; games: {', '.join(game_names())}"
    )
