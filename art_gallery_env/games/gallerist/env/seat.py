"""What a Gallerist seat is given at its decision: observation, action mask and PlayerView.

The interface of :class:`art_gallery_env.core.seat.SeatObserver`, so the shared game loop
(``art_gallery_env.core.loop.play``) can drive a Gallerist game with it,
and the AEC env asks it too: a seat sees the same thing whoever runs the game.
"""

from __future__ import annotations

import numpy as np

from art_gallery_env.core.seat import BaseSeatObserver

from ..rules.actions import NUM_ACTIONS, action_to_str
from ..rules.state import GameState
from .observation import ObservationEncoder


class GalleristSeatObserver(BaseSeatObserver):
    """Observations and masks of a Gallerist game (any component data: the encoder reads
    everything from the state)."""

    action_to_str = staticmethod(action_to_str)  # how this game's actions read

    def __init__(self) -> None:
        super().__init__(NUM_ACTIONS)
        self.encoder = ObservationEncoder()
        self.action_mask = self.masks.mask  # the base's action_mask, one call fewer

    def reset(self) -> None:
        """A new game keeps the encoder's last vectors: they are exact for any state (every
        part is compared by value), so the first decisions of the next game rewrite only
        what differs instead of every part (the memos are one per table size and seat)."""

    def observation(self, state: GameState, seat: int) -> np.ndarray:
        return self.encoder.encode(state, seat)
