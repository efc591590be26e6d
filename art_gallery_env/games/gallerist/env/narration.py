"""Gallerist events in words: one line per engine event, as a given seat may know it (G18).

The same functions as Art Gallery's :mod:`art_gallery_env.games.art_gallery.env.narration`, for
replays and
terminal play. Every logged event after the setup is public (G18: decisions are made in
the open; cards dealt secretly never appear in events); ``describe_events`` reads the log
through :func:`..rules.hidden.visible_events`, which hides the setup seed. Single
decisions (``decision`` events) are not narrated: the events they cause are.
"""

from __future__ import annotations

from typing import Any

from art_gallery_env.core.narration import events_narrator

from ..rules.actions import LOCATION_NAMES
from ..rules.data import MARKET_LOWER_ROWS, MARKET_UPPER_ROWS, GameData, default_game_data
from ..rules.hidden import visible_events
from ..rules.state import ASSISTANT, LACERDA
from ..rules.turns import END_REASONS

_REASONS = dict(
    zip(
        END_REASONS,
        (
            "two end conditions are met",  # solo: the box office is empty (G17.5)
            "a whole round passed without a location action",
            "the round limit is reached",
        ),
        strict=True,
    )
)


def artist_name(d: GameData, slot: int) -> str:
    """'painting blue': the artist slot's form and colour."""
    return f"{d.art_forms[slot // 2]} {('blue', 'red')[slot % 2]}"


def describe_event(
    kind: str,
    data: dict[str, Any],
    names: list[str] | None = None,
    *,
    game_data: GameData | None = None,
) -> str | None:
    """One line for an engine event (None for events not worth a line). ``game_data`` is
    the game's component data (``state.data``; default: the shipped file)."""
    d = game_data or default_game_data()

    def who(p: int) -> str:
        if p == LACERDA:
            return "Lacerda"
        return names[p] if names else f"P{p}"

    text = _describe(kind, data, d, who)
    return text if text is not None or kind in _SILENT else f"{kind}: {data}"


_SILENT = ("setup", "decision", "action")


def _describe(kind: str, data: dict[str, Any], d: GameData, who) -> str | None:
    if kind in _SILENT:
        return None
    if kind == "round_start":
        return f"-- round {data['round']}"
    if kind == "start":
        return f"{who(data['player'])} starts at the {LOCATION_NAMES[data['location']]}"
    if kind in ("move", "lacerda"):
        mover = "Lacerda" if kind == "lacerda" else who(data["player"])
        text = f"{mover} moves to the {LOCATION_NAMES[data['to']]}"
        if data["kicked"]:
            owner, piece, _loc = data["kicked"]
            text += f", kicking out {who(owner)}'s {_piece(piece)}"
        return text
    if kind == "lacerda_kicked":
        return (
            f"Lacerda's {_piece(data['kind'])} is kicked out of the "
            f"{LOCATION_NAMES[data['location']]}; a ticket leaves the box office"
        )
    if kind == "lacerda_market":
        lower = data["lower"]
        part = "auction" if lower else "reputation"
        column = data["space"] // (MARKET_LOWER_ROWS if lower else MARKET_UPPER_ROWS)
        return f"Lacerda puts an assistant on the market's {part} part, column {column + 1}"
    return _describe_action(kind, data, d, who) or _describe_end(kind, data, d, who)


def _describe_action(kind: str, data: dict[str, Any], d: GameData, who) -> str | None:
    p = who(data["player"]) if "player" in data else ""
    if kind == "discover":
        return f"{p} discovers the {artist_name(d, data['artist'])} artist"
    if kind == "buy":
        work = d.works[data["work"]]
        return (
            f"{p} buys a {d.art_forms[work.form]} by the {artist_name(d, data['artist'])} "
            f"artist (fame +{work.fame})"
        )
    if kind == "promote":
        return f"{p} promotes the {artist_name(d, data['artist'])} artist to level {data['level']}"
    if kind == "sign":
        card = d.contracts[data["contract"]]
        return (
            f"{p} signs a {d.art_forms[card.form]} contract ({card.bonus.describe()}) "
            f"into slot {data['slot'] + 1}"
        )
    if kind == "sell":
        form = d.art_forms[d.works[data["work"]].form]
        return f"{p} sells a {form} for {data['value']}"
    if kind == "hire":
        return f"{p} hires {data['count']} assistant{'s' if data['count'] > 1 else ''}"
    if kind == "reputation":
        column, row = divmod(data["space"], MARKET_UPPER_ROWS)
        tile = d.reputation_tiles[data["tile"]].id
        return (
            f"{p} takes the reputation tile '{tile}' (market column {column + 1}, "
            f"{d.art_forms[row]} row)"
        )
    if kind == "auction":
        column, row = divmod(data["space"], MARKET_LOWER_ROWS)
        return f"{p} offers {d.auction_offers[row]} for the renowned works (column {column + 1})"
    if kind == "contract_bonus":
        return f"{p} uses the bonus of the contract in slot {data['slot'] + 1}"
    if kind == "celebrity":
        text = (
            f"the {artist_name(d, data['artist'])} artist becomes a celebrity "
            f"({p} gains {d.celebrity_money})"
        )
        if data["masterpieces"]:
            text += f"; {len(data['masterpieces'])} exhibited work(s) become masterpieces"
        return text
    return None


def _describe_end(kind: str, data: dict[str, Any], d: GameData, who) -> str | None:
    if kind == "intermediate_scoring":
        return "intermediate scoring: a box-office colour ran out (G14)"
    if kind == "end_triggered":
        reason = _REASONS.get(data.get("reason", "conditions"), data.get("reason"))
        return f"the end is triggered in round {data['round']}: {reason}"
    if kind == "final_round":
        return f"-- round {data['round']} is the final round"
    if kind == "final_auction":
        order = ", ".join(who(o) for o in data["order"]) or "nobody made an offer"
        return f"the auction of renowned works: {order}"
    if kind == "renowned":
        form = d.art_forms[d.works[data["work"]].form]
        return f"{who(data['player'])} takes the renowned {form} (worth {data['value']})"
    if kind == "game_over":
        totals = ", ".join(f"{who(p)}={t}" for p, t in enumerate(data["totals"]))
        return f"== game over: {totals}"
    return None


def _piece(kind: int) -> str:
    return "assistant" if kind == ASSISTANT else "Gallerist"


describe_events = events_narrator(
    visible_events,
    lambda state, kind, data, names: describe_event(kind, data, names, game_data=state.data),
)
