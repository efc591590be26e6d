"""What a seat is given at its decision, and the action-mask cache every game's observer uses."""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

import numpy as np

from .protocol import EngineState, SeatView
from .view import PlayerView


class SeatInputs(NamedTuple):
    """The arguments of :meth:`Agent.act <art_gallery_env.core.agent.Agent.act>`."""

    observation: np.ndarray
    action_mask: np.ndarray
    view: SeatView


class SeatObserver(Protocol):
    """A game's one builder of observations, masks and views (the AEC env, the game loop
    and the self-play env all ask it, so a seat sees the same thing whoever runs the game)."""

    def reset(self) -> None: ...

    def observation(self, state: Any, seat: int) -> np.ndarray: ...

    def action_mask(self, state: Any, seat: int) -> np.ndarray: ...

    def view(self, state: Any, seat: int) -> SeatView: ...

    def inputs(self, state: Any, seat: int) -> SeatInputs: ...

    def action_to_str(self, action: int) -> str: ...


class MaskCache:
    """int8 action masks of a game with ``num_actions`` actions, one kept array per distinct
    legal set (a game meets a few hundred, so they are kept); callers get copies."""

    def __init__(self, num_actions: int) -> None:
        self.num_actions = num_actions
        self._none = np.zeros(num_actions, dtype=np.int8)
        self._masks: dict[tuple[int, ...], np.ndarray] = {}

    def mask(self, state: EngineState, seat: int) -> np.ndarray:
        """1 for each legal action of ``seat``; all 0 when it is not its turn."""
        if state.is_over or state.current_player != seat:
            return self._none.copy()
        legal = tuple(state.legal_actions())
        mask = self._masks.get(legal)
        if mask is None:
            mask = self._masks[legal] = np.zeros(self.num_actions, dtype=np.int8)
            mask[list(legal)] = 1
        return mask.copy()  # a new array: callers may write to it (a copy is ~4x cheaper
        # than np.array of a bytearray)


class BaseSeatObserver:
    """What every game's seat observer does alike: the action mask (through a
    :class:`MaskCache`), the seat's view (:class:`~.view.PlayerView`) and the three together
    (:class:`SeatInputs`). A game's observer adds ``observation`` and ``action_to_str``, and
    ``reset`` where it caches anything per game."""

    def __init__(self, num_actions: int) -> None:
        self.masks = MaskCache(num_actions)

    def reset(self) -> None:
        """Forget the previous game's caches (they are exact; this only bounds memory)."""

    def observation(self, state: Any, seat: int) -> np.ndarray:
        raise NotImplementedError

    def action_mask(self, state: Any, seat: int) -> np.ndarray:
        """int8, 1 for each legal action of ``seat``; all 0 when it is not its turn."""
        return self.masks.mask(state, seat)

    @staticmethod
    def view(state: Any, seat: int) -> SeatView:
        return PlayerView(state, seat)

    def inputs(self, state: Any, seat: int) -> SeatInputs:
        return SeatInputs(
            self.observation(state, seat), self.action_mask(state, seat), self.view(state, seat)
        )
