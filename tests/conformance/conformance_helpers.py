"""What the conformance suite runs over: every registered game at a few table sizes, and
seeded random games of each (OpenSpiel's ``random_sim_test``, for any game).

Nothing here names a game: the games come from the registry (the package's games, and
those installed through the entry point group ``art_gallery_env.games``), after the
test-only games have registered themselves. A test-only game is found by convention: a
package folder ``tests/<name>/`` with a ``spec.py`` (``tests/sealed_bids/spec.py``), which
is imported as ``<name>.spec``. So a new game gets the whole suite by registering.
"""

from __future__ import annotations

import functools
import importlib
import random
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from art_gallery_env.core.registry import GameSpec, game_names, get_game

TESTS_DIR = Path(__file__).resolve().parents[1]
ROOT = TESTS_DIR.parent
MAX_DECISIONS = 50_000


def discover_test_games(tests_dir: Path = TESTS_DIR) -> list[str]:
    """``<name>.spec`` for every package folder ``tests/<name>/`` that has a ``spec.py``:
    the games that live only in the tests (they register when imported)."""
    return [
        f"{path.parent.name}.spec"
        for path in sorted(tests_dir.glob("*/spec.py"))
        if (path.parent / "__init__.py").exists()
    ]


def register_test_games() -> list[str]:
    """Import the test-only games so that they register; the modules imported."""
    if str(TESTS_DIR) not in sys.path:
        sys.path.append(str(TESTS_DIR))
    modules = discover_test_games()
    for module in modules:
        importlib.import_module(module)
    return modules


def player_counts(spec: GameSpec) -> list[int]:
    """The smallest and the largest table, and 2 as well where the smallest is a solo game."""
    counts = {spec.min_players, spec.max_players}
    if spec.min_players == 1 and spec.max_players >= 2:
        counts.add(2)
    return sorted(counts)


def cases(slow_at_max: bool = False) -> list[Any]:
    """``pytest.param(game, n)`` for every registered game and table size (ids like
    ``gallerist-p4``); ``slow_at_max`` marks the largest table slow where it is not the
    smallest (for the tests whose time grows with the table)."""
    out = []
    for name in game_names():
        spec = get_game(name)
        for n in player_counts(spec):
            slow = slow_at_max and n == spec.max_players and n != spec.min_players
            marks = [pytest.mark.slow] if slow else []
            out.append(pytest.param(name, n, id=f"{name}-p{n}", marks=marks))
    return out


def variant_sets(spec: GameSpec) -> list[dict[str, Any]]:
    """The defaults, and every true/false variant flipped (so both settings are played)."""
    flipped = {k: not v for k, v in spec.variants.items() if isinstance(v, bool)}
    return [{}, flipped] if flipped else [{}]


def random_decisions(
    spec: GameSpec, num_players: int, seed: int, variants: Mapping[str, Any] | None = None
) -> Iterator[tuple[Any, int | None]]:
    """(state, action) at each decision of a seeded random game, the action not yet
    applied, then (final state, None). The state is the live one: clone what you keep."""
    state = spec.setup(num_players, seed, variants)
    rng = random.Random(seed)
    for _ in range(MAX_DECISIONS):
        if state.is_over:
            yield state, None
            return
        action = rng.choice(state.legal_actions())
        yield state, action
        state.apply(action)
    raise AssertionError(f"{spec.name}: the game did not end within {MAX_DECISIONS} decisions")


@functools.cache
def sampled_states(game: str, num_players: int, seed: int, every: int) -> tuple[Any, ...]:
    """Copies of one seeded random game's states (kept read-only by the tests): the first
    two of each kind of decision (``phase_name``), every ``every``-th, and the end. The
    variants alternate with the seed (see :func:`variant_sets`)."""
    spec = get_game(game)
    options = variant_sets(spec)
    variants = options[seed % len(options)]
    kept, seen = [], {}
    for index, (state, _action) in enumerate(random_decisions(spec, num_players, seed, variants)):
        kind = state.phase_name
        seen[kind] = seen.get(kind, 0) + 1
        if seen[kind] <= 2 or index % every == 0 or state.is_over:
            kept.append(state.clone())
    return tuple(kept)


def illegal_actions(spec: GameSpec, state: Any) -> list[int]:
    """Action ids in range that the current player may not take now."""
    legal = set(state.legal_actions())
    return [a for a in range(spec.num_actions) if a not in legal]
