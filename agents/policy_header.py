"""The policy file header: the layout a checkpoint must match, and its errors.

Shared by the MLP format (:mod:`.policy_format`, version 1) and the entity network
(:mod:`.policy_entity`, version 2), so neither imports the other to check a header.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from art_gallery_env.core.registry import UnknownGameError, default_game, game_names, get_game

FORMAT = "art-gallery-policy"
VERSION = 1
ENTITY_VERSION = 2  # the entity network (agents/policy_entity.py); MLP files stay version 1
METADATA_KEY = "art_gallery_policy"
SUFFIX = ".safetensors"


class CheckpointError(ValueError):
    """A checkpoint that cannot be used; the message names the file and the problem."""


def wrong_game_message(where: str, policy_game: str, game: str) -> str:
    """A policy of another game: what it is for, and the option that plays that game."""
    return (
        f"{where}: a policy for the game {policy_game!r}, not {game!r}; it cannot read that "
        f"game's observations (to play its own game: --game {policy_game})"
    )


@dataclass(frozen=True)
class PolicyLayout:
    """What a policy maps between, for one game: observation size, number of actions and
    the fingerprint of both layouts (a checkpoint names its game in the header)."""

    game: str
    obs_size: int
    num_actions: int
    fingerprint: str


def header_game(meta: Mapping[str, Any]) -> str:
    """The game a header names; one that names none is the default game's (older files)."""
    return meta["game"] if "game" in meta else default_game().name


def policy_layout(game: str | None = None) -> PolicyLayout:
    """The layout of ``game``'s observation and action encoding (None: the default game);
    a game nobody registered is a :class:`CheckpointError` naming the registered ones."""
    try:
        spec = get_game(game)
    except UnknownGameError:
        raise CheckpointError(
            f"unknown game {game!r}; policies exist for: {', '.join(game_names())}"
        ) from None
    return PolicyLayout(
        spec.name, spec.observation_size, spec.num_actions, spec.layout_fingerprint()
    )


def layout_fingerprint(game: str | None = None) -> str:
    """A stable id of the observation and action layout a policy of ``game`` (None: the
    default game) was trained on: any change to either layout changes it, so an old
    checkpoint is rejected instead of misread (``GameSpec.layout_fingerprint``)."""
    return policy_layout(game).fingerprint


def layout_header(game: str | None = None) -> dict[str, Any]:
    layout = policy_layout(game)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": layout.game,
        "obs_size": layout.obs_size,
        "num_actions": layout.num_actions,
        "layout_fingerprint": layout.fingerprint,
    }


def safetensors_numpy():
    try:
        import safetensors.numpy
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise CheckpointError(
            "policy checkpoints need the 'safetensors' package: "
            "pip install 'art-gallery-env[tools]'"
        ) from exc
    return safetensors.numpy


def check_layout(where: str, meta: dict[str, Any]) -> PolicyLayout:
    """Check that a header's game, layout fingerprint and sizes are this env's."""
    game = header_game(meta)
    if game not in game_names():
        raise CheckpointError(f"{where}: game {game!r} is not one of {', '.join(game_names())}")
    layout = policy_layout(game)
    if meta.get("layout_fingerprint") != layout.fingerprint:
        raise CheckpointError(
            f"{where}: the checkpoint was made for observation/action layout "
            f"{meta.get('layout_fingerprint')!r}, but this env's layout is "
            f"{layout.fingerprint!r} (the observation or action encoding changed); retrain "
            f"or re-export the policy for this version"
        )
    if meta.get("obs_size") != layout.obs_size or meta.get("num_actions") != layout.num_actions:
        raise CheckpointError(
            f"{where}: obs_size {meta.get('obs_size')!r} / num_actions "
            f"{meta.get('num_actions')!r} do not match this env ({layout.obs_size} / "
            f"{layout.num_actions})"
        )
    return layout
