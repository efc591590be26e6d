"""Art Gallery in the browser: what ``art-gallery serve`` shows of this game beyond the
generic text view (the interface is documented in ``art_gallery_env/web/views.py``).

The spec names this module as its ``"web"`` extension; the web app imports it only
through :meth:`GameSpec.extension`, so no tool names the game. Plain functions over the
engine (no FastAPI): the drawn board (:func:`~.svg.render_svg`), the person's choices
grouped as the page lays them out (cards and directions to move, face-down bids, the
eleven tile choices of the Shop, picks), the hand, a replay's ``bid ?`` decision line
and when another seat's insight may be shown (R8). Every function is given a world of
the viewer's information set (or, in a replay, the record's state for that viewer) and
reads only what that viewer may know.
"""

from __future__ import annotations

from typing import Any

from ..rules.actions import (
    NUM_CARD_VALUES,
    PILE_MARKS,
    SHOP_BASE,
    SHOP_CHOICE_COST,
    SHOP_CHOICE_PILES,
    SHOP_CHOICES,
    action_kind,
    action_to_str,
    bid_action,
    move_action,
    pick_action,
)
from ..rules.board import MARKER_BAR_SIZE, move_destinations
from ..rules.hidden import visible_events
from ..rules.phases import BID, MOVE, PICK, SHOP
from ..rules.state import GameState
from .narration import area_name
from .svg import SEAT_COLOURS, render_svg, target_boxes

COLOURS = SEAT_COLOURS  # the seats' colours on the board; the page uses them too
INSIGHT_RELEASE = "the end of its round"  # when another seat's insight shows (R8)
VARIANT_LABELS = {"zero_is_ten": "Rule variant: a 0 counts 10 (R5.6)"}
RESULT_COLUMNS = (  # breakdown key, column head, optional key of the cell's tooltip parts
    ("row_total", "rows", "rows"),
    ("souvenirs", "souvenirs", None),  # points; "tiles" is always a count of tiles
    ("hand", "hand", None),
    ("start_card", "start card", None),
    ("total", "total", None),
    ("tiles", "tiles held", None),
    ("rank", "rank", None),
)
RESULT_NOTE = (
    "Rows (R7.1) + souvenirs (R7.2) + hand / 4 (R7.3) + start card (R7.4); "
    "ties go to most tiles held (R7.5)."
)

# The opponents' measured strength, strongest first: each one's win share against today's
# heuristic (version 2) at 2 players, seat-rotated (docs/training.md's table of shipped
# checkpoints, docs/agents.md). A checkpoint is named by its file; an agent not listed
# was not measured against version 2.
STRENGTH = {
    "exit_all.safetensors": "won 58-61% of 2,000 games against the heuristic (2 players)",
    "ppo_all.safetensors": "won 61.6% of 400 games against the heuristic (2 players, one seed)",
    "quick.safetensors": "won 50.7% of 200 games against the heuristic (2 players)",
    "ppo_2p.safetensors": "won 20.3% of 1,000 games against the heuristic (2 players)",
    "heuristic": "won 100% of 400 games against random (2 players)",
    "ppo_4p.safetensors": "won 0.5% against three heuristics (4 players)",
    "random": "uniformly random: the weakest",
}


def verdict(state: GameState, seat: int) -> str:
    """How ``seat`` did (R7.5: rank by total, then tiles held; a tie on both shares)."""
    rows = state.score_breakdown()
    top = [r["player"] for r in rows if r["rank"] == 1]
    if seat in top:
        return "You win!" if len(top) == 1 else "You share the win."
    return f"You finish rank {rows[seat]['rank']} of {state.num_players}."


def board(world: GameState, viewer: int | None, names: list[str]) -> str:
    """The drawn board (SVG, escaped) as ``viewer`` may see it (None: a spectator)."""
    return render_svg(world, viewer, names)


def seat_extras(world: GameState, seat: int) -> dict[str, Any]:
    """The seat's own hand: how many cards of each value (the page lists them)."""
    return {"hand": list(world.hands[seat])}


def insight_released(decision_round: int, now: GameState) -> bool:
    """Another seat's insight of round ``decision_round`` may be shown once that round is
    over: every bid of it has been revealed and every hand of it follows from public
    events (R8)."""
    return now.round > decision_round


def decision_label(
    before: GameState, after: GameState, action: int, viewer: int | None
) -> str | None:
    """A replay's name for the decision from ``before`` to ``after`` as ``viewer`` saw it:
    ``bid ?`` for another seat's bid still face down (R8), else None (the action's name)."""
    if viewer is None:
        return None
    new = visible_events(after, viewer)[len(before.events) :]
    if new and new[0][0] == "bid" and new[0][1].get("value") is None:
        return "bid ?"
    return None


def choices(world: GameState, seat: int) -> dict[str, Any]:
    """The decision in front of ``seat``: every candidate of the phase with ``legal`` set
    for the engine's legal actions only (the page shows the others disabled)."""
    legal = set(world.legal_actions())
    phase = world.phase
    if phase == MOVE:
        options = _move_options(world, seat, legal)
    elif phase == BID:
        area = world.position[seat]
        options = [
            _option(bid_action(v), legal, value=v, detail=f"face down at {area_name(area)}")
            for v in range(NUM_CARD_VALUES)
            if world.hands[seat][v]
        ]
    elif phase == SHOP:
        options = _shop_options(world, legal)
    elif phase == PICK:
        options = [
            _option(pick_action(v), legal, value=v, detail="into your hand")
            for v in range(NUM_CARD_VALUES)
            if world.space_cards[v]
        ]
    else:  # pragma: no cover - only the four decision phases ask a seat
        options = []
    shown = {o["action"] for o in options}
    # every legal action is offered, whatever the grouping above missed
    options += [_option(a, legal) for a in sorted(legal - shown)]
    prompt = {
        MOVE: "Play a card face up and move",
        BID: f"Bid a card face down at {area_name(world.position[seat])}",
        SHOP: "Take tiles with your Shop card",
        PICK: f"Take a card from the action space of {area_name(world.dist_area)}",
    }[phase]
    out: dict[str, Any] = {"phase": world.phase_name, "prompt": prompt, "options": options}
    _add_targets(world, seat, out)
    if phase == SHOP:
        card = world.bids[0][world.dist_marker][1]  # the seat's own, revealed card
        out["card"] = card
        out["notes"] = [f"Your Shop card: {card}"]
    return out


def _add_targets(world: GameState, seat: int, out: dict[str, Any]) -> None:
    """What on the drawn board chooses each option (the page makes those places
    clickable): a move's destination and card, a bid's card, a Shop choice's piles, a pick's
    area; and where each place is drawn, with its name."""
    boxes = target_boxes(world, seat)
    for option in out["options"]:
        kind, ids = option["kind"], []
        if "to" in option:
            ids = [f"area-{option['to']}", f"card-{option['value']}"]
        elif kind == "bid":
            ids = [f"card-{option['value']}"]
        elif "marks" in option:
            ids = [f"pile-{p}" for p in SHOP_CHOICE_PILES[option["action"] - SHOP_BASE]]
        elif kind == "pick":
            ids = [f"area-{world.dist_area}"]
        option["targets"] = [t for t in ids if t in boxes]
    used = {t for option in out["options"] for t in option["targets"]}
    out["targets"] = {t: {"box": list(boxes[t]), "label": _target_label(t)} for t in sorted(used)}


def _target_label(target: str) -> str:
    kind, _, k = target.partition("-")
    if kind == "area":
        return area_name(int(k))
    return f"pile {PILE_MARKS[int(k)]}" if kind == "pile" else f"your card {k}"


def _option(action: int, legal: set[int], **fields: Any) -> dict[str, Any]:
    return {
        "action": action,
        "kind": action_kind(action),
        "label": action_to_str(action),
        "legal": action in legal,
        **fields,
    }


def _move_options(world: GameState, seat: int, legal: set[int]) -> list[dict[str, Any]]:
    options = []
    here = world.position[seat]
    table = move_destinations(world.num_areas)[here]
    for value in range(NUM_CARD_VALUES):
        if not world.hands[seat][value]:
            continue
        for direction in (0, 1):
            action = move_action(value, direction)
            if action in legal:
                after = world.clone()
                after.apply(action)
                to = after.position[seat]
            else:
                to = table[action]
            free = MARKER_BAR_SIZE - len(world.bids[to])
            painting = world.gallery_painting[to]
            if to == 0:
                what = "souvenir tiles"
            elif painting:
                what = f"#{painting} {world.cards.painting(painting).title}"
            else:
                what = "no painting"
            detail = f"{area_name(to)}: {what}, {free} free"
            if action not in legal:
                detail = "a 0 moves clockwise only" if value == 0 else f"{area_name(to)} is full"
            options.append(
                _option(
                    action,
                    legal,
                    value=value,
                    direction=direction,
                    to=to,
                    area=area_name(to),
                    what=what,
                    free=free,
                    detail=detail,
                )
            )
    return options


def _shop_options(world: GameState, legal: set[int]) -> list[dict[str, Any]]:
    """The eleven tile choices; an illegal one says why (R5.1: an empty pile, or marks
    adding up to more than the Shop card)."""
    card = world.bids[0][world.dist_marker][1]
    options = []
    for k, marks in enumerate(SHOP_CHOICES):
        action = SHOP_BASE + k
        piles = SHOP_CHOICE_PILES[k]
        tiles = [world.tile_piles[p][-1] if world.tile_piles[p] else None for p in piles]
        if not marks:
            detail = "take nothing"
        elif None in tiles:
            detail = "a pile is empty"
        elif SHOP_CHOICE_COST[k] > card:
            detail = f"needs a card of {SHOP_CHOICE_COST[k]}, yours is {card}"
        else:
            detail = " + ".join(
                f"#{t} (pile {PILE_MARKS[p]})" for t, p in zip(tiles, piles, strict=True)
            )
        options.append(_option(action, legal, marks=list(marks), tiles=tiles, detail=detail))
    return options
