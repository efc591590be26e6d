"""The observation layout: named fields of one flat float32 vector, and its fingerprint.

A game lists its observation as :class:`Field` rows (name, shape, meaning); the offsets
follow from the order. :func:`layout_fingerprint` names a layout (and its action count)
so that a checkpoint trained on another layout is refused instead of misread, and
:func:`decode` splits a vector back into its fields.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Field:
    name: str
    shape: tuple[int, ...]
    meaning: str
    seat_axis: int | None = None  # axis indexed by relative seat, if any
    offset: int = 0

    @property
    def size(self) -> int:
        return math.prod(self.shape)


def with_offsets(fields: Sequence[Field]) -> tuple[tuple[Field, ...], int]:
    """The fields with their offsets filled in, in order, and the vector's total size."""
    placed, offset = [], 0
    for field in fields:
        placed.append(replace(field, offset=offset))
        offset += field.size
    return tuple(placed), offset


def layout_fingerprint(fields: Sequence[Field], num_actions: int, salt: str | None = None) -> str:
    """A stable 16-hex id of an observation and action layout.

    sha256 of the field names and shapes in order and the number of actions; ``salt`` (a
    game's name) keeps two games' fingerprints apart even if their layouts matched.
    """
    layout: list[Any] = [[f.name, list(f.shape)] for f in fields] + [num_actions]
    if salt is not None:
        layout = [salt, layout[:-1], num_actions]
    text = json.dumps(layout, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def decode(vector: Any, fields: Sequence[Field], size: int) -> dict[str, Any]:
    """``vector`` (numpy array of shape (size,)) split into named fields with their shapes."""
    if getattr(vector, "shape", None) != (size,):
        raise ValueError(
            f"expected an observation of shape ({size},), got {getattr(vector, 'shape', None)}"
        )
    return {f.name: vector[f.offset : f.offset + f.size].reshape(f.shape) for f in fields}
