"""What a seat is given at its decision: observation, action mask and PlayerView.

This is the one place that builds them. The AEC env's ``observe``/``action_mask``, the
arena's game loop (evaluation, terminal and web play) and the self-play env all ask a
:class:`SeatObserver`, so a seat sees the same thing whoever runs the game.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..rules.actions import NUM_ACTIONS
from ..rules.cards import CardSet
from ..rules.hidden import PlayerView
from ..rules.state import GameState
from .observation import ObservationEncoder

_NO_ACTIONS = bytes(NUM_ACTIONS)


class SeatInputs(NamedTuple):
    """The arguments of :meth:`Agent.act <art_gallery_env.agents.base.Agent.act>`."""

    observation: np.ndarray
    action_mask: np.ndarray
    view: PlayerView


class SeatObserver:
    """Observations (through one cached :class:`ObservationEncoder`) and masks of a game."""

    def __init__(self, card_set: CardSet) -> None:
        self.encoder = ObservationEncoder(card_set)
        self._masks: dict[tuple[int, ...], bytes] = {}

    def reset(self) -> None:
        """Forget the previous game's caches (they are exact; this only bounds memory)."""
        self.encoder.reset()

    def observation(self, state: GameState, seat: int) -> np.ndarray:
        return self.encoder.encode(state, seat)

    def action_mask(self, state: GameState, seat: int) -> np.ndarray:
        """int8, 1 for each legal action of ``seat``; all 0 when it is not its turn."""
        if state.is_over or state.current_player != seat:
            return np.frombuffer(_NO_ACTIONS, dtype=np.int8).copy()
        legal = tuple(state.legal_actions())
        mask = self._masks.get(legal)
        if mask is None:  # a few hundred distinct sets occur in a game, so they are kept
            row = bytearray(NUM_ACTIONS)
            for action in legal:
                row[action] = 1
            mask = self._masks[legal] = bytes(row)
        return np.frombuffer(mask, dtype=np.int8).copy()  # a new array: callers may write

    @staticmethod
    def view(state: GameState, seat: int) -> PlayerView:
        return PlayerView(state, seat)

    def inputs(self, state: GameState, seat: int) -> SeatInputs:
        return SeatInputs(
            self.observation(state, seat), self.action_mask(state, seat), self.view(state, seat)
        )
