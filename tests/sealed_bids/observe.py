"""Sealed Bids' observation (one flat float32 vector, fields below) and its seat observer."""

from __future__ import annotations

from typing import Any

import numpy as np

from art_gallery_env.core.fields import Field, decode, with_offsets
from art_gallery_env.core.seat import BaseSeatObserver

from .rules import CARDS, ROUNDS, State

S = 4  # seats, relative to the observer (0 = itself)
FIELDS, OBSERVATION_SIZE = with_offsets([
    Field("seat_active", (S,), "1 for each relative seat at the table"),
    Field("round", (ROUNDS,), "one-hot round"),
    Field("prize", (1,), "value of the prize on show / 12"),
    Field("held", (S, CARDS), "cards held at the round's start (own: now)", seat_axis=0),
    Field("has_bid", (S,), "1 if that seat has bid this round", seat_axis=0),
    Field("own_bid", (CARDS,), "one-hot card the observer bid this round"),
    Field("won", (S,), "prize value won / 18", seat_axis=0),
])  # fmt: skip


def decode_observation(vector: np.ndarray) -> dict[str, np.ndarray]:
    return decode(vector, FIELDS, OBSERVATION_SIZE)


def encode(state: State, seat: int) -> np.ndarray:
    out = {f.name: np.zeros(f.shape, np.float32) for f in FIELDS}
    n = state.num_players
    if not state.is_over:
        out["round"][state.round] = 1
        out["prize"][0] = state.prize / 12
    for k in range(n):
        p = (seat + k) % n
        out["seat_active"][k] = 1
        out["held"][k] = state.hands[p]
        bid = state.bids[p]
        if bid is not None:
            out["has_bid"][k] = 1
            if p == seat:
                out["own_bid"][bid] = 1
            else:
                out["held"][k][bid] = 1  # a hidden bid: still counted as held
        out["won"][k] = state.won[p] / 18
    return np.concatenate([out[f.name].ravel() for f in FIELDS])


class Observer(BaseSeatObserver):
    """The one builder of a seat's observation, mask and view (the mask and view come from
    the core's base)."""

    def __init__(self) -> None:
        super().__init__(CARDS)

    @staticmethod
    def action_to_str(action: int) -> str:
        return action_to_str(action)

    def observation(self, state: State, seat: int) -> np.ndarray:
        return encode(state, seat)


def action_to_str(action: int) -> str:
    return f"bid {action + 1}"


def str_to_action(text: str) -> int:
    word, _, number = text.strip().partition(" ")
    if word != "bid" or not number.isdigit() or not 1 <= int(number) <= CARDS:
        raise ValueError(f"unknown action {text!r}; actions: bid 1 .. bid {CARDS}")
    return int(number) - 1


def render_text(state: State, viewer: int | None) -> str:
    lines = [f"round {min(state.round, ROUNDS - 1) + 1}/{ROUNDS}, prize {state.deck[:1]}"]
    for p in range(state.num_players):
        bid = state.bids[p]
        shown = "-" if bid is None else (bid + 1 if viewer in (None, p) else "?")
        lines.append(f"P{p}: won {state.won[p]}, bid {shown}")
    return "\n".join(lines)


def render_breakdown(breakdown: list[dict[str, Any]]) -> str:
    return "\n".join(f"P{b['player']}: {b['total']} (rank {b['rank']})" for b in breakdown)


def describe_events(state: State, start: int, viewer: int | None, names: list[str]) -> list[str]:
    lines = []
    for kind, data in state.events[start:]:
        if kind == "bid":
            lines.append(f"{names[data['player']]} bids a card face down")
        elif kind == "reveal":
            who = "nobody" if data["winner"] is None else names[data["winner"]]
            lines.append(f"bids {[b + 1 for b in data['bids']]}: {who} wins the prize")
    return lines
