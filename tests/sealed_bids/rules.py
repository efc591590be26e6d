"""Sealed Bids' engine: the state, legal actions, apply, clone, save, determinize, score."""

from __future__ import annotations

import random
from typing import Any

from art_gallery_env.core.errors import IllegalActionError, check_action_id, check_num_players

CARDS = 5  # action a bids card a + 1
ROUNDS = 3
PRIZES = tuple(range(1, 7))


class SealedBidsError(IllegalActionError):
    """A bid of a card the player does not hold, or after the game's end."""


def new_game(
    num_players: int, seed: int, *, double_last: bool = False, start_player: int | None = None
) -> State:
    state = State(num_players, seed, double_last)
    if start_player is not None:
        if start_player not in range(num_players):
            raise ValueError(f"start_player must be a seat in 0..{num_players - 1}")
        state.start = state.current_player = start_player
    return state


class State:
    def __init__(self, num_players: int, seed: int, double_last: bool = False) -> None:
        self.num_players = check_num_players(num_players, 2, 4)
        self.double_last = double_last
        self.seed = seed
        self.start = 0  # the seat that bids first each round
        rng = random.Random(seed)
        self.deck = rng.sample(PRIZES, len(PRIZES))  # deck[0] is the prize on show
        self.hands = [[1] * CARDS for _ in range(num_players)]
        self.bids: list[int | None] = [None] * num_players  # this round's, hidden till reveal
        self.won = [0] * num_players
        self.round = 0
        self.current_player = 0
        self.events: list[tuple[str, dict[str, Any]]] = [("setup", {"seed": seed})]

    @property
    def is_over(self) -> bool:
        return self.round >= ROUNDS

    @property
    def phase_name(self) -> str:
        return "game_over" if self.is_over else "bid"

    @property
    def prize(self) -> int:
        return self.deck[0] * (2 if self.double_last and self.round == ROUNDS - 1 else 1)

    def legal_actions(self) -> list[int]:
        hand = [] if self.is_over else self.hands[self.current_player]
        return [a for a, held in enumerate(hand) if held]

    def apply(self, action: int) -> None:
        try:
            action = check_action_id(action, CARDS)
        except ValueError as err:
            raise SealedBidsError(str(err)) from None
        if action not in self.legal_actions():
            raise SealedBidsError(f"card {action + 1} cannot be bid now; legal: "
                                  f"{[a + 1 for a in self.legal_actions()]}")  # fmt: skip
        seat = self.current_player
        self.hands[seat][action] = 0
        self.bids[seat] = action
        self.events.append(("bid", {"player": seat}))
        self.current_player = (seat + 1) % self.num_players
        if self.current_player == self.start:
            self._reveal()

    def _reveal(self) -> None:
        bids = [b for b in self.bids if b is not None]
        unique = [b for b in bids if bids.count(b) == 1]
        winner = self.bids.index(max(unique)) if unique else None
        if winner is not None:
            self.won[winner] += self.prize
        self.events.append(("reveal", {"bids": list(self.bids), "winner": winner}))
        self.deck.pop(0)
        self.bids = [None] * self.num_players
        self.round += 1

    def clone(self) -> State:
        other = State.__new__(State)
        other.__dict__ = {k: (v[:] if isinstance(v, list) else v) for k, v in vars(self).items()}
        other.hands = [h[:] for h in self.hands]
        return other

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if k != "events"} | {"events": [
            [kind, data] for kind, data in self.events]}  # fmt: skip

    @staticmethod
    def from_dict(data: dict[str, Any]) -> State:
        if not isinstance(data, dict) or set(data) != set(State(2, 0).to_dict()):
            raise ValueError("not a Sealed Bids state: expected the keys of State.to_dict()")
        state = State(data["num_players"], data["seed"], data["double_last"])
        for key, value in data.items():
            setattr(state, key, value)
        state.events = [(kind, dict(d)) for kind, d in data["events"]]
        return state

    def determinize(self, observer: int, rng: random.Random) -> State:
        """Others' bids of this round come back to their hands and are drawn again, and
        the prizes not yet on show are shuffled: what ``observer`` cannot know."""
        world = self.clone()
        rest = world.deck[1:]
        rng.shuffle(rest)
        world.deck[1:] = rest
        for seat, bid in enumerate(world.bids):
            if bid is not None and seat != observer:
                world.hands[seat][bid] = 1
                world.bids[seat] = rng.choice([a for a, h in enumerate(world.hands[seat]) if h])
                world.hands[seat][world.bids[seat]] = 0
        return world

    def score_breakdown(self) -> list[dict[str, Any]]:
        totals = self.won
        return [{"player": p, "total": t, "prizes": t, "rank": 1 + sum(o > t for o in totals)}
                for p, t in enumerate(totals)]  # fmt: skip
