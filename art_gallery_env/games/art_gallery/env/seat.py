"""What a seat is given at its decision: observation, action mask and PlayerView.

This is the one place that builds them. The AEC env's ``observe``/``action_mask``, the
arena's game loop (evaluation, terminal and web play) and the self-play env all ask a
:class:`SeatObserver`, so a seat sees the same thing whoever runs the game.
"""

from __future__ import annotations

from art_gallery_env.core.seat import BaseSeatObserver

from ..rules.actions import NUM_ACTIONS, action_to_str
from ..rules.cards import CardSet
from .observation import ObservationEncoder


class SeatObserver(BaseSeatObserver):
    """Observations (through one cached :class:`ObservationEncoder`) and masks of a game."""

    action_to_str = staticmethod(action_to_str)  # how this game's actions read

    def __init__(self, card_set: CardSet) -> None:
        super().__init__(NUM_ACTIONS)
        self.encoder = ObservationEncoder(card_set)
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
