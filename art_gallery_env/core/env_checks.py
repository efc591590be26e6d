"""The checks both core envs (the AEC base and the single-agent env) make at construction
and at reset, for every game alike: a choice among named values, a seed, ``options`` and a
saved state that must fit the env. Pure Python, so that the messages read the same in
both envs and in every game."""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from typing import Any

from .registry import GameSpec

ILLEGAL_ACTION_MODES = ("raise", "terminate")
ILLEGAL_ACTION_REWARD = -1.0  # PettingZoo's convention: the offender gets -1, the others 0
RENDER_FPS = 2  # every env's metadata["render_fps"]: a board game reads at two decisions a second


def check_choice(name: str, value: object, choices: Sequence[str]) -> str:
    """``value`` if it is one of ``choices``; a ValueError naming them else."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")
    return value  # type: ignore[return-value]


def check_seed(seed: object) -> int | None:
    """``seed`` as a plain int (numpy integers included) or None; ValueError else."""
    if seed is None:
        return None
    if not isinstance(seed, bool):
        try:
            return operator.index(seed)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise ValueError(f"seed must be an int or None, got {seed!r} ({type(seed).__name__})")


def check_options(options: object) -> dict[str, Any]:
    """``options`` of a reset as a dict (None: empty); other keys than the env's own are
    ignored by the envs (PettingZoo's API test passes its own)."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(f"options must be a dict or None, got {type(options).__name__}")
    return options


def players_text(sizes: Sequence[int]) -> str:
    """``4 players``, ``1 player``, ``2 or 4 players``: the table sizes in words."""
    sizes = sorted(sizes)
    shown = ", ".join(map(str, sizes[:-1])) + " or " if len(sizes) > 1 else ""
    return f"{shown}{sizes[-1]} player{'' if sizes == [1] else 's'}"


def check_saved_state(
    game: GameSpec,
    state: object,
    sizes: Sequence[int],
    variants: Mapping[str, Any],
    data: tuple[str, str] | None,
    data_label: str = "data",
    data_hint: str = "",
) -> Any:
    """A copy of ``options["state"]`` if it is a game this env can continue: a state of
    ``game`` at one of ``sizes``, played with ``variants`` (every variant, defaults filled
    in) and, unless ``data`` is None, with the data whose (name, fingerprint) it is."""
    players = getattr(state, "num_players", None)
    if not isinstance(state, game.state_type) or players not in sizes:
        raise ValueError(
            f"options['state'] must be a {game.state_type.__name__} for {players_text(sizes)}"
        )
    played = game.check_variants(game.variants_of(state))
    for key, value in played.items():
        if value != variants[key]:
            raise ValueError(
                f"options['state'] was played with {key}={value!r}, but this env has "
                f"{key}={variants[key]!r}; make the env with variants={played!r}"
            )
    if data is not None:
        name, fingerprint = game.data_fingerprint(state)
        if fingerprint != data[1]:
            hint = f"; make the env with {data_hint}" if data_hint else ""
            raise ValueError(
                f"options['state'] uses {data_label} {name!r} (fingerprint {fingerprint}), but "
                f"this env has {data_label} {data[0]!r} ({data[1]}){hint}"
            )
    check_state_fields(game, state, "options['state']")
    return state.clone()  # type: ignore[attr-defined]


def check_state_fields(game: GameSpec, state: Any, what: str) -> None:
    """The rules' field-by-field checks of a state held in memory (the JSON reader's: a
    state edited by hand is refused here, not by an IndexError at some later step)."""
    if game.check_state is None:
        return
    try:
        game.check_state(state)
    except ValueError as err:
        raise ValueError(f"{what} is not a state of {game.title}: {err}") from None
    except (AttributeError, IndexError, KeyError, TypeError) as err:
        raise ValueError(
            f"{what} is not a state of {game.title}: cannot read it ({err!r})"
        ) from None
