"""The part of an engine state every rules package writes the same way.

A rules package keeps its scoring, hidden-information and save-file code in modules of its
own (``scoring.py``: ``score_breakdown``; ``hidden.py``: ``determinize``; ``serialize.py``:
``state_to_dict``, ``read_state``), which import the state module; the state reaches them
lazily, by its own package's name, so there is no import cycle. Pure Python.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

_MODULES: dict[tuple[type, str], Any] = {}


class RulesState:
    """Base of a game state: delegates to its rules package's modules (see the module).
    A subclass sets ``num_players``, ``round``, ``current_player`` and ``phase_name``."""

    __slots__ = ()

    @classmethod
    def _rules(cls, module: str) -> Any:
        """The rules package's ``module``, imported once per class (search calls
        ``determinize`` and ``score_breakdown`` at every iteration)."""
        key = (cls, module)
        found = _MODULES.get(key)
        if found is None:
            package = cls.__module__.rpartition(".")[0]
            found = _MODULES[key] = importlib.import_module(f"{package}.{module}")
        return found

    def score_breakdown(self) -> list[dict[str, Any]]:
        """Per player: the game's score parts, ``total`` and ``rank`` (its rules doc says which)."""
        return self._rules("scoring").score_breakdown(self)

    def determinize(self, observer: int, rng: random.Random) -> Any:
        """A copy with everything hidden from ``observer`` resampled consistently."""
        return self._rules("hidden").determinize(self, observer, rng)

    def to_dict(self) -> dict[str, Any]:
        return self._rules("serialize").state_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any], data_set: Any = None) -> Any:
        """Load a saved state (``data_set``: the game's component data, default the shipped
        one); a malformed or inconsistent one raises the game's StateFormatError."""
        state = cls()
        cls._rules("serialize").read_state(state, data, data_set)
        return state

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(players={self.num_players}, round={self.round}, "
            f"{self.phase_label}={self.phase_name}, current_player={self.current_player})"
        )

    phase_label = "phase"  # what the rules doc calls the kind of decision pending
