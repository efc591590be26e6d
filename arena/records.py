"""Game records: everything needed to replay one game exactly, as JSON.

A record holds the setup (players, seed, the game's variants), the agent spec per seat,


(:func:`replay_record` checks every action is legal on the way). ``art-gallery replay``
prints one (:mod:`.replay`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from art_gallery_env import __version__
from art_gallery_env.core.errors import IllegalActionError
from art_gallery_env.core.registry import GameSpec, default_game, get_game
from art_gallery_env.files import atomic_write_text

RECORD_FORMAT = "art-gallery-env/record"
RECORD_VERSION = 2
"""Version 2 keeps the setup's variants as ``setup.variants`` (a dict); version 1 (read
too) kept each variant as a key of ``setup`` itself, and named no game before the second."""
READ_VERSIONS = (1, 2)


class RecordFormatError(ValueError):
    """A record that cannot be loaded or replayed; the message names the bad field."""


# -- building and saving ---------------------------------------------------------------
def make_record(
    *,
    num_players: int,
    seed: int,
    variants: dict[str, Any] | None = None,
    agents: list[str],
    actions: Iterable[int],
    breakdown: list[dict[str, Any]] | None,
    card_set: Any = None,
    extra: dict[str, Any] | None = None,
    insight: list[dict[str, Any] | None] | None = None,
    game: str | None = None,
) -> dict[str, Any]:
    """A record dict (JSON-ready). ``breakdown`` is None for an unfinished game.
    ``insight`` (optional, one entry per action: the acting agent's ``explain()`` or
    None) is what a checkpoint or search agent showed at each decision. ``card_set`` is
    the game's component data (with ``name`` and ``fingerprint``) when it is not the
    shipped one; ``game`` None is the default game."""
    rules = get_game(game)
    name, fingerprint = (
        (card_set.name, card_set.fingerprint) if card_set is not None else rules.default_data()
    )
    setup = {"num_players": num_players, "seed": seed, "variants": rules.check_variants(variants)}
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": rules.name,
        "env_version": rules.env_version,
        "package_version": __version__,
        "card_set": {"name": name, "fingerprint": fingerprint},
        "setup": setup,
        "agents": list(agents),
        "actions": [int(a) for a in actions],
        "breakdown": breakdown,
    }
    if extra:
        record["extra"] = extra
    if insight is not None:
        record["insight"] = list(insight)
    return record


def save_record(record: dict[str, Any], path: str | Path) -> Path:
    """Write a record atomically (a kill never leaves half a record)."""
    return atomic_write_text(path, json.dumps(record, separators=(",", ":")) + "\n")


def load_record(path: str | Path) -> dict[str, Any]:
    """Read and validate a record file; errors name the file and the bad field."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise RecordFormatError(f"{path}: cannot read: {err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise RecordFormatError(
            f"{path}: not UTF-8 text ({err.reason} at byte {err.start}), so not a game record"
        ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordFormatError(f"{path}: not valid JSON: {err}") from None
    try:
        return validate_record(data)
    except RecordFormatError as err:
        raise RecordFormatError(f"{path}: {err}") from None


def _field(where: dict, key: str, kind: type | tuple[type, ...], prefix: str = "") -> Any:
    """``where[key]``, checked to be of ``kind`` (bools are not ints here)."""
    if key not in where:
        raise RecordFormatError(f"{prefix}{key}: missing")
    value = where[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise RecordFormatError(f"{prefix}{key}: expected {names}, got {type(value).__name__}")
    return value


def validate_record(data: Any, card_set: Any = None) -> dict[str, Any]:
    """Check the shape of a record (not yet that its actions are legal: see replay)."""
    if not isinstance(data, dict):
        raise RecordFormatError("record: expected a JSON object")
    game = record_game(data)
    _validate_header(data, game, card_set)
    n = _validate_setup(_field(data, "setup", dict), game)
    agents = _field(data, "agents", list)
    if len(agents) != n or not all(isinstance(a, str) for a in agents):
        raise RecordFormatError(f"agents: expected a list of {n} agent specs (strings)")
    actions = _field(data, "actions", list)
    _validate_actions(actions, game.num_actions)
    _validate_breakdown(data.get("breakdown"), n)
    _validate_insight(data.get("insight"), len(actions))
    return data


def record_game(data: dict[str, Any]) -> GameSpec:
    """The game a record was played in (records before the second game name none)."""
    name = data.get("game")
    if name is None:
        return default_game()
    if not isinstance(name, str):
        raise RecordFormatError(f"game: expected a string, got {type(name).__name__}")
    try:
        return get_game(name)
    except ValueError as err:
        raise RecordFormatError(f"game: {err}") from None


def record_variants(setup: dict[str, Any], game: GameSpec) -> dict[str, Any]:
    """The setup's variants, every one with its value: ``setup.variants`` (version 2), or
    for a version 1 record its variant keys beside ``num_players`` and ``seed`` (a false
    flag of a variant the game does not have, as version 1 wrote for every game, is none)."""
    if "variants" in setup:
        variants = _field(setup, "variants", dict, "setup.")
    else:
        variants = {}
        for key, value in setup.items():
            if key in ("num_players", "seed") or (key not in game.variants and value is False):
                continue
            variants[key] = value
    try:
        return game.check_variants(variants)
    except ValueError as err:
        raise RecordFormatError(f"setup.variants: {err}") from None


def _validate_header(data: dict, game: GameSpec, card_set: Any) -> None:
    if _field(data, "format", str) != RECORD_FORMAT:
        raise RecordFormatError(f"format: expected {RECORD_FORMAT!r}, got {data['format']!r}")
    version = _field(data, "version", int)
    if version not in READ_VERSIONS:
        raise RecordFormatError(
            f"version: {version} is not supported (this tool reads "
            f"{', '.join(map(str, READ_VERSIONS))})"
        )
    recorded = _field(data, "env_version", str)
    if recorded != game.env_version and recorded not in game.replays_versions:
        # another env version plays other rules (or actions)
        raise RecordFormatError(
            f"env_version: the game was recorded under {recorded!r} (package "
            f"{data.get('package_version')!r}); this engine plays {game.env_version!r}, whose "
            f"rules or actions differ, so its actions cannot be replayed here"
        )
    saved_cards = _field(data, "card_set", dict)
    name, fingerprint = (
        (card_set.name, card_set.fingerprint) if card_set is not None else game.default_data()
    )
    if saved_cards.get("fingerprint") != fingerprint:
        raise RecordFormatError(
            f"card_set: the game was played with card set {saved_cards.get('name')!r} "
            f"(fingerprint {saved_cards.get('fingerprint')!r}), not the loaded "
            f"{name!r} (fingerprint {fingerprint!r})"
        )


def _validate_setup(setup: dict, game: GameSpec) -> int:
    """The setup's fields; returns the number of players."""
    n = _field(setup, "num_players", int, "setup.")
    if not game.min_players <= n <= game.max_players:
        raise RecordFormatError(
            f"setup.num_players: {n} is not in {game.min_players}..{game.max_players}"
        )
    seed = setup.get("seed")
    if seed is None or isinstance(seed, bool) or not isinstance(seed, int):
        raise RecordFormatError(f"setup.seed: expected int, got {type(seed).__name__}")
    record_variants(setup, game)
    return n


def _validate_actions(actions: list, num_actions: int) -> None:
    for i, action in enumerate(actions):
        if isinstance(action, bool) or not isinstance(action, int):
            raise RecordFormatError(f"actions[{i}]: {action!r} is not an int")
        if not 0 <= action < num_actions:
            raise RecordFormatError(f"actions[{i}]: {action} is not in 0..{num_actions - 1}")


def _validate_breakdown(breakdown: Any, n: int) -> None:
    if breakdown is None:
        return
    if not isinstance(breakdown, list) or len(breakdown) != n:
        raise RecordFormatError(f"breakdown: expected null or a list of {n} player rows")
    for p, row in enumerate(breakdown):
        if not isinstance(row, dict) or not isinstance(row.get("total"), int):
            raise RecordFormatError(f"breakdown[{p}]: expected an object with an int 'total'")


def _validate_insight(insight: Any, num_actions: int) -> None:
    """Optional (records before it have none): one object or null per action."""
    if insight is None:
        return
    if not isinstance(insight, list) or len(insight) != num_actions:
        raise RecordFormatError(
            f"insight: expected null or a list of {num_actions} entries (one per action)"
        )
    for i, entry in enumerate(insight):
        if entry is not None and not isinstance(entry, dict):
            raise RecordFormatError(f"insight[{i}]: expected an object or null")


# -- replaying ---------------------------------------------------------------------------
def initial_state(record: dict[str, Any], card_set: Any = None) -> Any:
    """The record's game at its start (``card_set``: the game's data, when not the shipped)."""
    setup = record["setup"]
    game = record_game(record)
    options = {"card_set": card_set} if card_set is not None else {}
    return game.new_game(
        setup["num_players"], setup["seed"], **record_variants(setup, game), **options
    )


def replay_record(
    record: dict[str, Any],
    card_set: Any = None,
    on_step: Callable[[int, int, int, Any], None] | None = None,
) -> Any:
    """Re-simulate a (validated) record and return the final state.

    ``on_step(index, player, action, state_after)`` is called after every action.
    An action that is illegal where it is applied raises :class:`RecordFormatError`
    naming ``actions[i]``.
    """
    validate_record(record, card_set)
    game = record_game(record)
    state = initial_state(record, card_set)
    for i, action in enumerate(record["actions"]):
        if state.is_over:
            raise RecordFormatError(
                f"actions[{i}]: the game is already over after {i} actions "
                f"({len(record['actions']) - i} left over)"
            )
        player = state.current_player
        try:
            state.apply(action)
        except IllegalActionError:  # the state is unchanged
            legal = ", ".join(game.action_to_str(a) for a in state.legal_actions())
            raise RecordFormatError(
                f"actions[{i}]: {action} ({game.action_to_str(action)}) is not legal for "
                f"player {player} in phase {state.phase_name}; legal: {legal}"
            ) from None
        if on_step is not None:
            on_step(i, player, action, state)
    return state


def final_totals(breakdown: list[dict[str, Any]] | None) -> list[int] | None:
    return None if breakdown is None else [row["total"] for row in breakdown]
