"""What a seat is given at its decision: observation, action mask and PlayerView.

This is the one place that builds them. The AEC env's ``observe``/``action_mask``, the
arena's game loop (evaluation, terminal and web play) and the self-play env all ask a
:class:`SeatObserver`, so a seat sees the same thing whoever runs the game.
"""

from __future__ import annotations

import numpy as np

from ..core.seat import SeatInputs
from ..rules.actions import NUM_ACTIONS, action_to_str
from ..rules.cards import CardSet
from ..rules.hidden import PlayerView
from ..rules.state import GameState
from .observation import ObservationEncoder

_NO_ACTIONS = bytearray(NUM_ACTIONS)


class SeatObserver:
    """Observations (through one cached :class:`ObservationEncoder`) and masks of a game."""

    action_to_str = staticmethod(action_to_str)  # how this game's actions read

    def __init__(self, card_set: CardSet) -> None:
        self.encoder = ObservationEncoder(card_set)
        self._masks: dict[tuple[int, ...], bytearray] = {}
        # observation(state, seat) is the encoder's encode, bound once (the hot path of
        # every env step): one call instead of two.
        self.observation = self.encoder.encode

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        del state["observation"]  # a bound method of the encoder: rebound on unpickling
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.observation = self.encoder.encode

    def reset(self) -> None:
        """Forget the previous game's caches (they are exact; this only bounds memory)."""
        self.encoder.reset()

    def action_mask(self, state: GameState, seat: int) -> np.ndarray:
        """int8, 1 for each legal action of ``seat``; all 0 when it is not its turn."""
        if state.is_over or state.current_player != seat:
            return np.array(_NO_ACTIONS, dtype=np.int8)
        legal = tuple(state.legal_actions())
        mask = self._masks.get(legal)
        if mask is None:  # a few hundred distinct sets occur in a game, so they are kept
            mask = self._masks[legal] = bytearray(NUM_ACTIONS)
            for action in legal:
                mask[action] = 1
        return np.array(mask, dtype=np.int8)  # a new array: callers may write to it

    @staticmethod
    def view(state: GameState, seat: int) -> PlayerView:
        return PlayerView(state, seat)

    def inputs(self, state: GameState, seat: int) -> SeatInputs:
        return SeatInputs(
            self.observation(state, seat), self.action_mask(state, seat), self.view(state, seat)
        )
