"""The Gallerist in the browser: what ``art-gallery serve`` shows of this game beyond the
generic text view (the interface is documented in ``art_gallery_env/web/views.py``).

The spec names this module as its ``"web"`` extension; the web app imports it only through
:meth:`GameSpec.extension`, so no tool names the game. Plain functions over the engine (no
FastAPI): the drawn board (:func:`.render_svg.render_svg`) and the person's choices, one
button per legal action of the decision in front of them, each explained
(:func:`.choices.describe_choice`) and grouped as a compound turn reads: the location
actions, the executive actions (visitors moved with tickets, an assistant on a contract's
bonus), the end of the turn. Every function is given a world of the viewer's information
set (or, in a replay, the record's state for that viewer) and reads only what that viewer
may know (G18).

Another seat's policy insight is shown at the end of the game (the generic rule): a
checkpoint's or a search's numbers depend on its own Curator and Art Dealer cards, which
stay secret until then.
"""

from __future__ import annotations

from typing import Any

from .choices import describe_choice, prompt
from .render_svg import FORM_TOP, LOC_H, LOC_TOP, MARGIN, SEAT_COLOURS, WIDTH, render_svg
from .rules.actions import (
    ARTIST_BASE,
    ASSIST_LOC_BASE,
    BONUS_BASE,
    DONE,
    EASEL_BASE,
    LOC_BASE,
    LOCATION_NAMES,
    MOVE_BASE,
    START_BASE,
    action_to_str,
)
from .rules.scoring import named_goal_conditions
from .rules.state import GameState

COLOURS = SEAT_COLOURS  # the seats' colours on the board; the page uses them too
RESULT_COLUMNS = (  # breakdown key, column head, optional key of the cell's tooltip parts
    ("money", "money", None),
    ("majorities", "majorities", None),
    ("auction", "auction", None),
    ("reputation", "reputation", None),
    ("exhibition", "exhibition", None),
    ("curator", "curator", None),
    ("dealer", "dealer", None),
    ("influence", "influence", None),
    ("total", "total", None),
    ("rank", "rank", None),
)
RESULT_NOTE = (
    "Money at the end (G16): money held + visitor majorities + the auction of renowned "
    "works + reputation tiles + works exhibited + Curator and Art Dealer goals + influence."
)
# The opponents' measured strength, strongest first: each one's win share against the
# heuristic at 2 players (the checkpoint's evaluation file, docs/agents.md and
# docs/gallerist.md). A checkpoint is named by its file; one not listed was not measured.
STRENGTH = {
    "gallerist_2p.safetensors": "won 65.5% of 200 games against the heuristic (2 players)",
    "ismcts": "at 300 iterations won 62.5% of 40 games against the heuristic (2 players)",
    "ismcts:iters=50": "at 30 and 100 iterations won 55-56% against the heuristic (2 players)",
    "heuristic": "won 97.5% of 400 games against random (2 players)",
    "random": "uniformly random: the weakest",
}
SOLO_COLUMNS = (  # the solo game (G17.6): the goal level instead of a rank, and Lacerda's side
    *RESULT_COLUMNS[:-1],
    ("goal_name", "goal level", None),
    ("lacerda_majorities", "Lacerda's majorities", None),
)
SOLO_NOTE = (
    "Solo (G17.6): the goal level is the highest whose conditions all hold; Lacerda scores "
    "only the visitor majorities he wins, which go to no player."
)
_MENU_PHASES = ("turn", "post", "kicked")


def result_columns(state: GameState) -> tuple[tuple[str, str, str | None], ...]:
    """The score table's columns: G16's parts; solo, the goal level and Lacerda's side."""
    return SOLO_COLUMNS if state.solo else RESULT_COLUMNS


def result_note(state: GameState) -> str:
    return f"{RESULT_NOTE} {SOLO_NOTE}" if state.solo else RESULT_NOTE


def _amount(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _lacks(goal: Any, row: dict[str, Any]) -> str:
    """The conditions of ``goal`` that ``row`` does not meet, each as 'have of asked'."""
    missing = []
    for name, have, asked in named_goal_conditions(goal, row):
        if have >= asked:
            continue
        if name == "highest Curator goal":
            missing.append("the highest Curator goal")
        else:
            missing.append(f"{name} {_amount(have)} of {_amount(asked)}")
    return ", ".join(missing)


def verdict(state: GameState, seat: int) -> str:
    """How ``seat`` did: solo, the goal level reached and what the next one lacked (a
    table of one ranks first, which is no win); else by G16.8's rank."""
    rows = state.score_breakdown()
    row = rows[seat]
    if state.solo:
        goals, level = state.data.solo_goals, row["goal_level"]
        said = (
            f"Goal level {level} of {len(goals)} reached: {row['goal_name']}."
            if level
            else "No goal level reached."
        )
        if level < len(goals):
            goal = goals[level]
            said += f" Level {level + 1} ({goal.name}) lacked {_lacks(goal, row)}."
        return said
    top = [r["player"] for r in rows if r["rank"] == 1]
    if seat in top:
        return "You win!" if len(top) == 1 else "You share the win."
    return f"You finish rank {row['rank']} of {state.num_players}."


def board(world: GameState, viewer: int | None, names: list[str]) -> str:
    """The drawn board (SVG, escaped) as ``viewer`` may see it (None: a spectator)."""
    return render_svg(world, viewer, names)


def _location(action: int) -> int | None:
    """The location a choice is about (a location action, a start location, an assistant
    sent there), else None."""
    if LOC_BASE <= action < START_BASE:
        return (action - LOC_BASE) // 2
    if START_BASE <= action < START_BASE + len(LOCATION_NAMES):
        return action - START_BASE
    if ASSIST_LOC_BASE <= action < ASSIST_LOC_BASE + len(LOCATION_NAMES):
        return action - ASSIST_LOC_BASE
    return None


def _group(phase: str, action: int) -> str | None:
    """The part of a compound turn a menu choice belongs to (None outside the menus): a
    location action under its location's name."""
    if phase not in _MENU_PHASES:
        return None
    if LOC_BASE <= action < START_BASE:
        return f"Location action: {LOCATION_NAMES[(action - LOC_BASE) // 2]}"
    if MOVE_BASE <= action < BONUS_BASE:
        return "Executive action: move a visitor with a ticket (G4.2)"
    if BONUS_BASE <= action < EASEL_BASE:
        return "Executive action: an assistant on a contract bonus (G4.5)"
    return "Done" if action == DONE else None


def _target(action: int) -> str | None:
    """The place on the board a choice is about: a location (``loc-L``), an artist
    (``artist-A``), else None."""
    loc = _location(action)
    if loc is not None:
        return f"loc-{loc}"
    if ARTIST_BASE <= action < ARTIST_BASE + 2 * len(LOCATION_NAMES):
        return f"artist-{action - ARTIST_BASE}"
    return None


def _boxes(world: GameState) -> dict[str, dict[str, Any]]:
    """Where :func:`.render_svg.render_svg` draws the four locations and the artists."""
    w = (WIDTH - 2 * MARGIN - 3 * 8) / 4
    boxes = {
        f"loc-{loc}": {"box": [MARGIN + loc * (w + 8), LOC_TOP, w, LOC_H], "label": name}
        for loc, name in enumerate(LOCATION_NAMES)
    }
    cw = (w - 24) / 2
    for a in range(2 * len(world.data.art_forms)):  # as render_svg's forms() draws them
        form, colour = divmod(a, 2)
        x = MARGIN + form * (w + 8) + 8 + colour * (cw + 8)
        label = f"the {('blue', 'red')[colour]} {world.data.art_forms[form]} artist"
        boxes[f"artist-{a}"] = {"box": [x, FORM_TOP + 58, cw, 112], "label": label}
    return boxes


def choices(world: GameState, seat: int) -> dict[str, Any]:
    """The decision in front of ``seat``: one option per legal action, its short name on
    the button and what it does on hover (``short``), grouped by location; a choice about
    a location or an artist is also a click on it on the board (``targets``)."""
    phase = world.phase_name
    options = []
    for action in world.legal_actions():
        option: dict[str, Any] = {
            "action": action,
            "kind": phase,
            "label": action_to_str(action),
            "legal": True,
            "detail": describe_choice(world, seat, action),
            "short": True,
        }
        group = _group(phase, action)
        if group is not None:
            option["group"] = group
        target = _target(action)
        option["targets"] = [] if target is None else [target]
        options.append(option)
    boxes = _boxes(world)
    used = {t for option in options for t in option["targets"]}
    notes = [
        f"You have {world.money[seat]} money, {world.influence[seat]} influence and tickets "
        f"investor {world.tickets[seat][0]}, VIP {world.tickets[seat][1]}, "
        f"collector {world.tickets[seat][2]}."
    ]
    return {
        "phase": phase,
        "prompt": prompt(world),
        "options": options,
        "notes": notes,
        "targets": {t: boxes[t] for t in sorted(used)},
    }
