"""Who sits where in each game of a match, and the seeds: a match's line-ups rotate the
agent specs through the seats (see :mod:`art_gallery_env.arena.evaluate`), and every game
and seat gets a seed derived from the master seed alone, so results do not depend on the
number of worker processes."""

from __future__ import annotations

import functools
import hashlib
import itertools
import random
from collections.abc import Sequence


def agent_labels(agents: Sequence[str]) -> list[str]:
    """One label per spec; a spec given twice gets '#2', '#3', ... so it is reported apart."""
    labels, seen = [], {}
    for spec in agents:
        seen[spec] = seen.get(spec, 0) + 1
        labels.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return labels


MAX_TABLES = 200_000  # N-subsets a round robin may cycle through


@functools.lru_cache(maxsize=8)
def _tables(num_agents: int, num_players: int) -> list[tuple[int, ...]]:
    """Every N-subset of the agents, in a fixed shuffled order (so a match shorter than
    all of them still seats every agent about equally often)."""
    tables = list(itertools.combinations(range(num_agents), num_players))
    random.Random(f"{num_agents}:{num_players}").shuffle(tables)
    return tables


def lineup(num_agents: int, num_players: int, game: int) -> list[int]:
    """Agent index per seat for game ``game`` (see the module docstring)."""
    if num_agents > num_players:  # a round robin: this block's subset, rotated below
        tables = _tables(num_agents, num_players)
        base = list(tables[(game // num_players) % len(tables)])
        reverse = (game // (num_players * len(tables))) % 2 == 1
    else:
        base = [seat % num_agents for seat in range(num_players)]
        reverse = (game // num_players) % 2 == 1
    if reverse:
        base.reverse()
    shift = game % num_players
    return base[-shift:] + base[:-shift] if shift else base


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the given parts (stable across processes and Python versions)."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def game_seed(master: int, game: int) -> int:
    return derive_seed("game", master, game)


def seat_seed(master: int, game: int, seat: int) -> int:
    return derive_seed("agent", master, game, seat)
