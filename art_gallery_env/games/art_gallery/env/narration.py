"""Events in words: one line per engine event, as a given seat may know it (R8).

``art-gallery replay``, terminal play and the web app narrate games with these.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from art_gallery_env.core.narration import events_narrator

from ..rules.actions import (
    PILE_MARKS,
    SHOP_BASE,
    SHOP_CHOICE_PILES,
    SHOP_CHOICES,
    action_kind,
)
from ..rules.cards import CardSet
from ..rules.hidden import visible_events
from ..rules.state import GameState
from .render import ROMAN, painting_label


def area_name(area: int) -> str:
    return "the Shop" if area == 0 else f"Gallery {area}"


def describe_choice(state: GameState, seat: int, action: int) -> str:
    """What a legal choice of ``seat`` does, in words, from what the seat may know
    (terminal play lists it beside the choice's name)."""
    kind = action_kind(action)
    if kind == "move":
        after = state.clone()
        after.apply(action)
        area = after.position[seat]
        free = 6 - len(state.bids[area])
        if area == 0:
            return f"-> the Shop ({free} marker spaces free)"
        painting = state.gallery_painting[area]
        what = f"#{painting} {state.cards.painting(painting).title}" if painting else "empty"
        return f"-> Gallery {area}: {what} ({free} free)"
    if kind == "bid":
        return f"face down at {area_name(state.position[seat])}"
    if kind == "shop":
        tiles = [
            f"#{state.tile_piles[p][-1]} (pile {PILE_MARKS[p]})"
            for p in SHOP_CHOICE_PILES[action - SHOP_BASE]
        ]
        return "take " + ", ".join(tiles) if tiles else ""
    return "into your hand"


Who = Callable[[int], str]


def _round_start(data: dict[str, Any], cards: CardSet, who: Who) -> str:
    text = f"-- round {data['round']} begins; {who(data['start_player'])} starts"
    refilled = data.get("refilled") or []
    if refilled:
        text += "; new paintings: " + ", ".join(
            f"{area_name(a)} {painting_label(cards, n)}" for a, n in refilled
        )
    return text


def _move(data: dict[str, Any], cards: CardSet, who: Who) -> str:
    direction = "anticlockwise" if data["direction"] else "clockwise"
    text = f"{who(data['player'])} plays {data['value']} face up, moves {direction} to "
    text += area_name(data["to"])
    if data.get("fallback"):
        text += " (passing full areas, R4.6)"
    return text


def _bid(data: dict[str, Any], cards: CardSet, who: Who) -> str:
    value = data.get("value")
    card = "a face-down card" if value is None else f"card {value}"
    return (
        f"{who(data['player'])} bids {card} at {area_name(data['area'])} "
        f"(marker {ROMAN[data['marker']]})"
    )


def _start_card(data: dict[str, Any], cards: CardSet, who: Who) -> str:
    last = ", ".join(f"{who(p)}={v}" for p, v in enumerate(data["last_cards"]))
    return f"start card goes to {who(data['player'])} (last cards: {last})"


def _reveal(data: dict[str, Any], cards: CardSet, who: Who) -> str:
    bids = ", ".join(f"{ROMAN[k]}:{who(p)}={v}" for k, (p, v) in enumerate(data["bids"]))
    return f"{area_name(data['area'])} reveals its bids: {bids}"


def _shop(data: dict[str, Any], cards: CardSet, who: Who) -> str:
    marks = SHOP_CHOICES[data["choice"]]
    if not marks:
        return f"{who(data['player'])} takes no tile"
    taken = ", ".join(f"#{t} from pile {m}" for m, t in zip(marks, data["tiles"]))
    return f"{who(data['player'])} takes {taken}"


def _painting(data: dict[str, Any], cards: CardSet, who: Who) -> str:
    totals = ", ".join(f"{who(p)}={t}" for p, t in enumerate(data["totals"]))
    return (
        f"{who(data['player'])} wins {painting_label(cards, data['painting'])} at "
        f"{area_name(data['area'])} (bid totals {totals})"
    )


def _pick(data: dict[str, Any], cards: CardSet, who: Who) -> str:
    return f"{who(data['player'])} picks card {data['value']} at {area_name(data['area'])}"


def _game_over(data: dict[str, Any], cards: CardSet, who: Who) -> str:
    return f"== game over after round {data['rounds']}: {data['reason']}"


# One narrator per event kind: a new kind is one entry here, not a longer if-chain.
_NARRATORS: dict[str, Callable[[dict[str, Any], CardSet, Who], str]] = {
    "round_start": _round_start,
    "move": _move,
    "bid": _bid,
    "start_card": _start_card,
    "reveal": _reveal,
    "shop": _shop,
    "painting": _painting,
    "pick": _pick,
    "game_over": _game_over,
}


def describe_event(
    kind: str, data: dict[str, Any], cards: CardSet, names: list[str] | None = None
) -> str | None:
    """One line for an engine event (bids whose value is None are shown face down)."""

    def who(p: int) -> str:
        return names[p] if names else f"P{p}"

    if kind == "setup":
        return None
    narrator = _NARRATORS.get(kind)
    if narrator is None:
        return f"{kind}: {data}"
    return narrator(data, cards, who)


describe_events = events_narrator(
    visible_events, lambda state, kind, data, names: describe_event(kind, data, state.cards, names)
)
