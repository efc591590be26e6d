"""What a Gallerist seat is given at its decision: observation, action mask and PlayerView.

The interface of :class:`art_gallery_env.core.seat.SeatObserver`, so the shared game loop
(``art_gallery_env.core.loop.play``) can drive a Gallerist game with it,
and the AEC env asks it too: a seat sees the same thing whoever runs the game.
"""

from __future__ import annotations

import numpy as np

from art_gallery_env.core.seat import SeatInputs

from ..rules.actions import NUM_ACTIONS, action_to_str
from ..rules.hidden import PlayerView
from ..rules.state import GameState
from .observation import ObservationEncoder


class GalleristSeatObserver:
    """Observations and masks of a Gallerist game (any component data: the encoder reads
    everything from the state)."""

    action_to_str = staticmethod(action_to_str)  # how this game's actions read

    def __init__(self) -> None:
        self.encoder = ObservationEncoder()

    def reset(self) -> None:
        self.encoder.reset()

    def observation(self, state: GameState, seat: int) -> np.ndarray:
        return self.encoder.encode(state, seat)

    @staticmethod
    def action_mask(state: GameState, seat: int) -> np.ndarray:
        """int8, 1 for each legal action of ``seat``; all 0 when it is not its turn."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if not state.is_over and state.current_player == seat:
            mask[state.legal_actions()] = 1
        return mask

    @staticmethod
    def view(state: GameState, seat: int) -> PlayerView:
        return PlayerView(state, seat)

    def inputs(self, state: GameState, seat: int) -> SeatInputs:
        return SeatInputs(
            self.observation(state, seat), self.action_mask(state, seat), self.view(state, seat)
        )
