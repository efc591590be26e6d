"""What a structured policy network needs to know of a game's observation and actions.

A game that offers the ``network`` capability describes its observation as *token groups*
(one token per area, seat, pile ...: each token reads the same kind of features, so one
set of weights encodes them all) and, optionally, an *action pointer*: for some actions,
the token the action is about (Art Gallery: the area a move card takes the piece to).
The pointer is a lookup the game knows and a network would have to learn from examples:
``table[i, j, k]`` is the token that action ``actions[k]`` points to when the observation's
one-hot entries ``context_a[i]`` and ``context_b[j]`` are set (own position and table size).

Everything is plain index arrays, so the torch network, the numpy inference and the ONNX
export compute the same thing from the same tensors without importing the game.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class TokenGroup:
    """``index[t, f]``: the observation entry that feature ``f`` of token ``t`` reads
    (-1: none, read as 0, for a token that lacks that feature, e.g. the Shop's painting)."""

    name: str
    index: np.ndarray


@dataclass(frozen=True)
class ActionPointer:
    """Actions whose logits also read one token of ``group`` (see the module docstring)."""

    group: str
    actions: np.ndarray  # (k,) action ids
    context_a: np.ndarray  # (n1,) observation entries, one-hot
    context_b: np.ndarray  # (n2,) observation entries, one-hot
    table: np.ndarray  # (n1, n2, k) token index, -1: none


@dataclass(frozen=True)
class NetworkStructure:
    """A game's token groups and action pointer; :meth:`rest` is what no token reads."""

    observation_size: int
    num_actions: int
    groups: tuple[TokenGroup, ...]
    pointer: ActionPointer | None = None

    def rest(self) -> np.ndarray:
        """Observation entries no token reads (the global features), in order."""
        used = np.zeros(self.observation_size, dtype=bool)
        for group in self.groups:
            index = group.index[group.index >= 0]
            used[index] = True
        return np.flatnonzero(~used).astype(np.int64)

    def check(self) -> NetworkStructure:
        """Raise ValueError if an index is out of range (a game's bug, found at build)."""
        n = self.observation_size
        for group in self.groups:
            if group.index.ndim != 2 or group.index.max() >= n or group.index.min() < -1:
                raise ValueError(f"token group {group.name!r}: indices outside the observation")
        p = self.pointer
        if p is not None:
            names = [g.name for g in self.groups]
            if p.group not in names:
                raise ValueError(f"action pointer: no token group {p.group!r} in {names}")
            tokens = self.groups[names.index(p.group)].index.shape[0]
            shape = (len(p.context_a), len(p.context_b), len(p.actions))
            if p.table.shape != shape or p.table.max() >= tokens or p.table.min() < -1:
                raise ValueError(f"action pointer: table of shape {p.table.shape}, not {shape}")
            if p.actions.min() < 0 or p.actions.max() >= self.num_actions:
                raise ValueError("action pointer: an action outside the action space")
        return self
