"""What the server sends: every response is built here, from what its viewer may know (R8).

The person's view of a live game is built from a *determinized world* of their seat's
information set (:func:`~art_gallery_env.rules.hidden.determinize` with a fixed seed), never
from the true state: two true states that the seat cannot tell apart give one world, hence
one response, byte for byte. Within that world the board is drawn for the seat
(:func:`~art_gallery_env.env.svg.render_svg`), events are narrated for the seat
(:func:`~art_gallery_env.env.narration.describe_events`) and the choices are the seat's own
legal actions. Other seats' face-down bids and hands therefore never reach the client.

An agent's insight (:meth:`Agent.explain`) is computed from that agent's own information,
which includes its hand and face-down bids: a viewer gets it only when its seat made the
decision, or once the decision's round is over (then every bid of that round has been
revealed and every hand of it follows from public events, R8), or at the end of the game.
"""

from __future__ import annotations

import random
from typing import Any

from art_gallery_env.env.narration import area_name, describe_event, describe_events
from art_gallery_env.env.svg import render_svg
from art_gallery_env.rules.actions import (
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
from art_gallery_env.rules.board import MARKER_BAR_SIZE, move_destinations
from art_gallery_env.rules.hidden import visible_events
from art_gallery_env.rules.phases import BID, MOVE, PICK, SHOP
from art_gallery_env.rules.scoring import winners
from art_gallery_env.rules.state import GameState

from .games import WebGame

MAX_INSIGHT = 60  # insight entries in a game view (GET .../insight has them all)
WORLD_SEED = 0  # any seed: a world differs from another only in what the seat cannot see


def seat_world(state: GameState, seat: int) -> GameState:
    """The one world the server draws ``seat``'s responses from (see the module doc)."""
    return state.determinize(seat, random.Random(WORLD_SEED))


def insight_visible(decider: int, decision_round: int, viewer: int | None, now: GameState) -> bool:
    """Whether ``viewer`` (None: spectator) may see the insight of a decision ``decider``
    made in round ``decision_round``, in state ``now`` (see the module doc)."""
    return viewer is None or viewer == decider or now.is_over or now.round > decision_round


def insight_entry(
    index: int, decider: int, decision_round: int, action: int, insight: dict[str, Any]
) -> dict[str, Any]:
    """An insight as the page shows it: each listed action with its name."""
    top = [{**t, "label": action_to_str(t["action"])} for t in insight.get("top", [])]
    return {
        **insight,
        "decision": index,
        "seat": decider,
        "round": decision_round,
        "action": action,
        "label": action_to_str(action),
        "top": top,
    }


# -- the person's view of a live game ----------------------------------------------------------
def game_summary(game: WebGame) -> dict[str, Any]:
    """A line of the games list: set-up and progress, public to the person."""
    state = game.state
    summary = {
        "id": game.id,
        "players": game.num_players,
        "seat": game.seat,
        "agents": game.agents,
        "names": game.names,
        "decision": len(game.actions),
        "round": state.round,
        "over": state.is_over,
        "your_turn": game.your_turn,
        "created": game.created,
        "updated": game.updated,
    }
    if state.is_over:
        breakdown = state.score_breakdown()
        summary["totals"] = [row["total"] for row in breakdown]
        summary["winners"] = winners(breakdown)
    return summary


def game_view(game: WebGame) -> dict[str, Any]:
    """Everything the person's page shows, built from their seat's world only."""
    seat = game.seat
    world = seat_world(game.state, seat)
    names = game.names
    view = game_summary(game)
    view.update(
        {
            "phase": "game over" if world.is_over else world.phase_name,
            "current_player": None if world.is_over else world.current_player,
            "board": render_svg(world, seat, names),
            "recent": describe_events(world, game.seen_events, seat, names),
            "hand": list(world.hands[seat]),
            "choices": choices(world, seat) if game.your_turn else None,
            "zero_is_ten": game.zero_is_ten,
        }
    )
    released, pending = [], 0
    for i, insight in enumerate(game.insight):
        if insight is None:
            continue
        decider, decision_round = game.deciders[i], game.rounds[i]
        if not insight_visible(decider, decision_round, seat, world):
            pending += 1
        elif decision_round >= world.round - 1:  # this round and the last: the rest on request
            released.append(insight_entry(i, decider, decision_round, game.actions[i], insight))
    view["insight"] = released[-MAX_INSIGHT:]
    view["insight_pending"] = pending
    if world.is_over:
        view["result"] = result(world, seat)
    return view


def game_log(game: WebGame) -> list[str]:
    world = seat_world(game.state, game.seat)
    return describe_events(world, 0, game.seat, game.names)


def released_insight(game: WebGame) -> list[dict[str, Any]]:
    """Every insight entry the person may see now (all of them once the game is over)."""
    world = seat_world(game.state, game.seat)
    return [
        insight_entry(i, game.deciders[i], game.rounds[i], game.actions[i], insight)
        for i, insight in enumerate(game.insight)
        if insight is not None
        and insight_visible(game.deciders[i], game.rounds[i], game.seat, world)
    ]


def result(state: GameState, seat: int | None) -> dict[str, Any]:
    """The final score breakdown (R7) and, for a seat, how it did."""
    breakdown = state.score_breakdown()
    won = winners(breakdown)
    out: dict[str, Any] = {"breakdown": breakdown, "winners": won}
    if seat is not None:
        mine = breakdown[seat]
        if mine["rank"] == 1:
            out["verdict"] = "You win!" if len(won) == 1 else "You share the win."
        else:
            out["verdict"] = f"You finish rank {mine['rank']} of {state.num_players}."
    return out


# -- the person's choices ----------------------------------------------------------------------
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
    if phase == SHOP:
        out["card"] = world.bids[0][world.dist_marker][1]  # the seat's own, revealed card
    return out


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


# -- replays ------------------------------------------------------------------------------------
def replay_step(
    record: dict[str, Any],
    states: tuple[GameState, GameState | None],
    step: int,
    viewer: int | None,
    names: list[str],
) -> dict[str, Any]:
    """Step ``step`` of a record (the state after ``step`` actions) as ``viewer`` saw it:
    the board, the decision that led there with its events, and its insight if visible."""
    after, before = states
    actions = record["actions"]
    view: dict[str, Any] = {
        "step": step,
        "steps": len(actions),
        "viewer": viewer,
        "round": after.round,
        "phase": "game over" if after.is_over else after.phase_name,
        "board": render_svg(after, viewer, names),
        "decision": None,
        "events": [],
        "insight": None,
    }
    if step > 0 and before is not None:
        action = actions[step - 1]
        decider = before.current_player
        events = after.events if viewer is None else visible_events(after, viewer)
        new = events[len(before.events) :]
        lines = [describe_event(kind, data, after.cards, names) for kind, data in new]
        label = action_to_str(action)
        if new and new[0][0] == "bid" and new[0][1].get("value") is None:
            label = "bid ?"  # another seat's face-down card (R8)
        view["decision"] = {
            "index": step - 1,
            "seat": decider,
            "name": names[decider],
            "label": label,
            "round": before.round,
        }
        view["events"] = [line for line in lines if line]
        insight = (record.get("insight") or [None] * len(actions))[step - 1]
        if insight is not None and insight_visible(decider, before.round, viewer, after):
            view["insight"] = insight_entry(step - 1, decider, before.round, action, insight)
    if step == len(actions):
        view["result"] = result(after, None)  # no "you" in a replay
    return view
