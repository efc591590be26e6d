"""Game records: everything needed to replay one game exactly, as JSON.

A record holds the setup (players, seed, variant), the agent spec per seat, every action id
in order and the final score breakdown. Replaying runs :func:`new_game` with the same setup
and applies the actions; the engine is deterministic, so the replay ends in the same state
(:func:`replay_record` checks every action is legal on the way). The same narration helpers
(:func:`describe_events`) are used by ``art-gallery replay`` and ``art-gallery play``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TextIO

from art_gallery_env import ENV_VERSION, __version__
from art_gallery_env.env.render import painting_label, render_breakdown, render_text
from art_gallery_env.rules.actions import (
    NUM_ACTIONS,
    SHOP_CHOICES,
    action_to_str,
)
from art_gallery_env.rules.board import MAX_PLAYERS, MIN_PLAYERS
from art_gallery_env.rules.cards import CardSet, default_card_set
from art_gallery_env.rules.game import IllegalActionError
from art_gallery_env.rules.hidden import visible_events
from art_gallery_env.rules.state import GameState, new_game

RECORD_FORMAT = "art-gallery-env/record"
RECORD_VERSION = 1
ROMAN = ("I", "II", "III", "IV", "V", "VI")


class RecordFormatError(ValueError):
    """A record that cannot be loaded or replayed; the message names the bad field."""


# -- building and saving ---------------------------------------------------------------
def make_record(
    *,
    num_players: int,
    seed: int,
    zero_is_ten: bool,
    agents: list[str],
    actions: Iterable[int],
    breakdown: list[dict[str, Any]] | None,
    card_set: CardSet | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A record dict (JSON-ready). ``breakdown`` is None for an unfinished game."""
    cards = card_set or default_card_set()
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "env_version": ENV_VERSION,
        "package_version": __version__,
        "card_set": {"name": cards.name, "fingerprint": cards.fingerprint},
        "setup": {"num_players": num_players, "seed": seed, "zero_is_ten": bool(zero_is_ten)},
        "agents": list(agents),
        "actions": [int(a) for a in actions],
        "breakdown": breakdown,
    }
    if extra:
        record["extra"] = extra
    return record


def save_record(record: dict[str, Any], path: str | Path) -> Path:
    path = Path(path)
    if path.parent and not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, separators=(",", ":")) + "\n", encoding="utf-8")
    return path


def load_record(path: str | Path) -> dict[str, Any]:
    """Read and validate a record file; errors name the file and the bad field."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise RecordFormatError(f"{path}: cannot read: {err.strerror or err}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordFormatError(f"{path}: not valid JSON: {err}") from None
    try:
        return validate_record(data)
    except RecordFormatError as err:
        raise RecordFormatError(f"{path}: {err}") from None


def validate_record(data: Any, card_set: CardSet | None = None) -> dict[str, Any]:
    """Check the shape of a record (not yet that its actions are legal: see replay)."""
    if not isinstance(data, dict):
        raise RecordFormatError("record: expected a JSON object")

    def field(key: str, kind: type | tuple[type, ...], where: dict = data, prefix: str = ""):
        if key not in where:
            raise RecordFormatError(f"{prefix}{key}: missing")
        value = where[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise RecordFormatError(f"{prefix}{key}: expected {names}, got {type(value).__name__}")
        return value

    if field("format", str) != RECORD_FORMAT:
        raise RecordFormatError(f"format: expected {RECORD_FORMAT!r}, got {data['format']!r}")
    version = field("version", int)
    if version != RECORD_VERSION:
        raise RecordFormatError(
            f"version: {version} is not supported (this tool reads {RECORD_VERSION})"
        )
    field("env_version", str)
    cards = card_set or default_card_set()
    saved_cards = field("card_set", dict)
    if saved_cards.get("fingerprint") != cards.fingerprint:
        raise RecordFormatError(
            f"card_set: the game was played with card set {saved_cards.get('name')!r} "
            f"(fingerprint {saved_cards.get('fingerprint')!r}), not the loaded "
            f"{cards.name!r} (fingerprint {cards.fingerprint!r})"
        )
    setup = field("setup", dict)
    n = field("num_players", int, setup, "setup.")
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise RecordFormatError(f"setup.num_players: {n} is not in {MIN_PLAYERS}..{MAX_PLAYERS}")
    seed = setup.get("seed")
    if seed is None or isinstance(seed, bool) or not isinstance(seed, int):
        raise RecordFormatError(f"setup.seed: expected int, got {type(seed).__name__}")
    field("zero_is_ten", bool, setup, "setup.")
    agents = field("agents", list)
    if len(agents) != n or not all(isinstance(a, str) for a in agents):
        raise RecordFormatError(f"agents: expected a list of {n} agent specs (strings)")
    actions = field("actions", list)
    for i, action in enumerate(actions):
        if isinstance(action, bool) or not isinstance(action, int):
            raise RecordFormatError(f"actions[{i}]: {action!r} is not an int")
        if not 0 <= action < NUM_ACTIONS:
            raise RecordFormatError(f"actions[{i}]: {action} is not in 0..{NUM_ACTIONS - 1}")
    breakdown = data.get("breakdown")
    if breakdown is not None:
        if not isinstance(breakdown, list) or len(breakdown) != n:
            raise RecordFormatError(f"breakdown: expected null or a list of {n} player rows")
        for p, row in enumerate(breakdown):
            if not isinstance(row, dict) or not isinstance(row.get("total"), int):
                raise RecordFormatError(f"breakdown[{p}]: expected an object with an int 'total'")
    return data


# -- replaying ---------------------------------------------------------------------------
def initial_state(record: dict[str, Any], card_set: CardSet | None = None) -> GameState:
    setup = record["setup"]
    return new_game(
        setup["num_players"],
        setup["seed"],
        zero_is_ten=setup["zero_is_ten"],
        card_set=card_set,
    )


def replay_record(
    record: dict[str, Any],
    card_set: CardSet | None = None,
    on_step: Callable[[int, int, int, GameState], None] | None = None,
) -> GameState:
    """Re-simulate a (validated) record and return the final state.

    ``on_step(index, player, action, state_after)`` is called after every action.
    An action that is illegal where it is applied raises :class:`RecordFormatError`
    naming ``actions[i]``.
    """
    validate_record(record, card_set)
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
        except IllegalActionError:
            legal = ", ".join(action_to_str(a) for a in state.legal_actions())
            raise RecordFormatError(
                f"actions[{i}]: {action} ({action_to_str(action)}) is not legal for player "
                f"{player} in phase {state.phase_name}; legal: {legal}"
            ) from None
        if on_step is not None:
            on_step(i, player, action, state)
    return state


def final_totals(breakdown: list[dict[str, Any]] | None) -> list[int] | None:
    return None if breakdown is None else [row["total"] for row in breakdown]


# -- narration -----------------------------------------------------------------------
def area_name(area: int) -> str:
    return "the Shop" if area == 0 else f"Gallery {area}"


def describe_event(
    kind: str, data: dict[str, Any], cards: CardSet, names: list[str] | None = None
) -> str | None:
    """One line for an engine event (bids whose value is None are shown face down)."""

    def who(p: int) -> str:
        return names[p] if names else f"P{p}"

    if kind == "setup":
        return None
    if kind == "round_start":
        text = f"-- round {data['round']} begins; {who(data['start_player'])} starts"
        refilled = data.get("refilled") or []
        if refilled:
            text += "; new paintings: " + ", ".join(
                f"{area_name(a)} {painting_label(cards, n)}" for a, n in refilled
            )
        return text
    if kind == "move":
        direction = "anticlockwise" if data["direction"] else "clockwise"
        text = f"{who(data['player'])} plays {data['value']} face up, moves {direction} to "
        text += area_name(data["to"])
        if data.get("fallback"):
            text += " (passing full areas, R4.6)"
        return text
    if kind == "bid":
        value = data.get("value")
        card = "a face-down card" if value is None else f"card {value}"
        return (
            f"{who(data['player'])} bids {card} at {area_name(data['area'])} "
            f"(marker {ROMAN[data['marker']]})"
        )
    if kind == "start_card":
        last = ", ".join(f"{who(p)}={v}" for p, v in enumerate(data["last_cards"]))
        return f"start card goes to {who(data['player'])} (last cards: {last})"
    if kind == "reveal":
        bids = ", ".join(f"{ROMAN[k]}:{who(p)}={v}" for k, (p, v) in enumerate(data["bids"]))
        return f"{area_name(data['area'])} reveals its bids: {bids}"
    if kind == "shop":
        marks = SHOP_CHOICES[data["choice"]]
        if not marks:
            return f"{who(data['player'])} takes no tile"
        taken = ", ".join(f"#{t} from pile {m}" for m, t in zip(marks, data["tiles"]))
        return f"{who(data['player'])} takes {taken}"
    if kind == "painting":
        totals = ", ".join(f"{who(p)}={t}" for p, t in enumerate(data["totals"]))
        return (
            f"{who(data['player'])} wins {painting_label(cards, data['painting'])} at "
            f"{area_name(data['area'])} (bid totals {totals})"
        )
    if kind == "pick":
        return f"{who(data['player'])} picks card {data['value']} at {area_name(data['area'])}"
    if kind == "game_over":
        return f"== game over after round {data['rounds']}: {data['reason']}"
    return f"{kind}: {data}"


def describe_events(
    state: GameState,
    start: int,
    viewer: int | None = None,
    names: list[str] | None = None,
) -> list[str]:
    """Lines for ``state.events[start:]`` as ``viewer`` may see them (None: everything)."""
    events = state.events if viewer is None else visible_events(state, viewer)
    lines = []
    for kind, data in events[start:]:
        line = describe_event(kind, data, state.cards, names)
        if line is not None:
            lines.append(line)
    return lines


# -- the ``replay`` command ----------------------------------------------------------
class _StopReplay(Exception):
    pass


def run_replay(
    path: str,
    *,
    step: bool = False,
    viewer: int | None = None,
    out: TextIO | None = None,
    stdin: TextIO | None = None,
) -> int:
    """Print a recorded game; returns 0 when the replayed scores match the stored ones."""
    out = out or sys.stdout
    stdin = stdin or sys.stdin
    try:
        record = load_record(path)
    except RecordFormatError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    n = record["setup"]["num_players"]
    if viewer is not None and not 0 <= viewer < n:
        print(
            f"error: --viewer must be 'all' or a seat in 0..{n - 1}, got {viewer}", file=sys.stderr
        )
        return 2
    agents = record["agents"]
    names = [f"P{p} ({spec})" for p, spec in enumerate(agents)]
    interactive = step and stdin.isatty()

    def emit(text: str = "") -> None:
        print(text, file=out)

    def wait() -> None:
        if interactive:
            print("-- Enter: next decision, q: stop --", end=" ", file=out, flush=True)
            if stdin.readline().strip().lower() in ("q", "quit"):
                raise _StopReplay

    state = initial_state(record)
    setup = record["setup"]
    emit(
        f"Record {path}: {n} players, seed {setup['seed']}, zero_is_ten={setup['zero_is_ten']}, "
        f"{len(record['actions'])} decisions"
    )
    emit("Seats: " + ", ".join(names))
    for line in describe_events(state, 0, viewer, names):
        emit("  " + line)
    emit(render_text(state, viewer))
    shown = len(state.events)
    current_round = state.round

    def on_step(i: int, player: int, action: int, after: GameState) -> None:
        nonlocal shown, current_round
        events = (after.events if viewer is None else visible_events(after, viewer))[shown:]
        shown = len(after.events)
        # The first new event is the decision itself (move, bid, shop or pick).
        own_kind, own_data = events[0]
        name = action_to_str(action)
        if own_kind == "bid" and own_data.get("value") is None:
            name = "bid ?"
        own = describe_event(own_kind, own_data, after.cards, names)
        emit(f"[{i + 1}] round {current_round}, {name}: {own}")
        round_ended = False
        for kind, data in events[1:]:
            line = describe_event(kind, data, after.cards, names)
            if line is not None:
                emit("  " + line)
            round_ended = round_ended or kind in ("round_start", "game_over")
        current_round = after.round
        if step:
            emit(render_text(after, viewer))
            wait()
        elif round_ended:
            emit(render_text(after, viewer))

    try:
        final = replay_record(record, on_step=on_step)
    except RecordFormatError as err:
        print(f"error: {path}: {err}", file=sys.stderr)
        return 2
    except _StopReplay:
        emit("Replay stopped.")
        return 0
    breakdown = final.score_breakdown()
    if not final.is_over:
        emit("The record ends before the game is over; scores so far:")
    emit(render_breakdown(breakdown))
    stored = final_totals(record.get("breakdown"))
    replayed = final_totals(breakdown)
    if stored is None:
        emit("The record stores no final scores to compare with.")
        return 0
    if stored == replayed:
        emit(f"Replayed scores match the stored ones: {replayed}")
        return 0
    emit(f"MISMATCH: replayed scores {replayed} differ from the stored {stored}")
    return 1
