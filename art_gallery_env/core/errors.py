"""The checks and the error every game's engine shares.

Each game raises :class:`IllegalActionError` (or a subclass) for an action its current
player may not take, and checks action ids and player counts with the functions here, so
that tools catch one exception type and every message reads the same.
"""

from __future__ import annotations

import operator
from collections.abc import Callable


class IllegalActionError(ValueError):
    """An action that the current player may not take; the state is left untouched."""


class UnknownAgentError(KeyError, ValueError):
    """An agent name the env does not have; the message lists its agents. A KeyError (as
    a plain dict lookup raised before) and a ValueError (a bad argument), printed plainly."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def check_action_id(action: object, num_actions: int) -> int:
    """``action`` as a plain int in 0..num_actions-1 (numpy ints allowed); ValueError else."""
    if not isinstance(action, bool):
        try:
            index = operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            index = None
        if index is not None and 0 <= index < num_actions:
            return index
    raise ValueError(f"action must be an int in 0..{num_actions - 1}, got {action!r}")


def check_num_players(num_players: object, min_players: int, max_players: int) -> int:
    """``num_players`` if it is an int in the game's range; ValueError naming the range else."""
    if (
        not isinstance(num_players, int)
        or isinstance(num_players, bool)
        or not min_players <= num_players <= max_players
    ):
        raise ValueError(
            f"num_players must be an int in {min_players}..{max_players}, got {num_players!r}"
        )
    return num_players


def illegal_action_message(
    action: object,
    legal: list[int],
    action_to_str: Callable[[int], str],
    num_actions: int,
    where: str,
) -> str:
    """What an illegal action's error says: the action (by name where it is an id), ``where``
    it was tried (``"for player 2 in phase 'bid'"``) and the legal actions by id and name."""
    try:
        problem = f"action {action} ({action_to_str(action)}) is not legal"  # type: ignore[arg-type]
    except ValueError:
        problem = f"action must be an int in 0..{num_actions - 1}, got {action!r}"
    choices = ", ".join(f"{a} ({action_to_str(a)})" for a in legal)
    return f"{problem} {where}; legal actions: {choices}"
