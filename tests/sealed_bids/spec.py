"""Sealed Bids declares itself to the registry: the only thing a new game must do."""

from __future__ import annotations

from typing import Any

from art_gallery_env.core.registry import GameSpec, register_game

from . import observe, rules
from .env import raw_env


def _make_env(num_players: int = 2, variants: dict[str, Any] | None = None, **options: Any) -> Any:
    return raw_env(num_players, variants=variants, **options)


def _fingerprint() -> str:
    from art_gallery_env.core.fields import layout_fingerprint

    return layout_fingerprint(observe.FIELDS, rules.CARDS, salt="sealed_bids")


SPEC = register_game(
    GameSpec(
        # the required fields (core.registry.REQUIRED_FIELDS)
        name="sealed_bids",
        title="Sealed Bids",
        min_players=2,
        max_players=4,
        num_actions=rules.CARDS,
        observation_size=observe.OBSERVATION_SIZE,
        new_game=rules.new_game,
        make_observer=lambda state: observe.Observer(),
        make_env=_make_env,
        # optional: what the tools show and check (the rest keep their defaults: env_version
        # sealed_bids_v0, state_from_dict State.from_dict, action ids 0..4, no data files)
        action_to_str=observe.action_to_str,
        str_to_action=observe.str_to_action,
        render_text=observe.render_text,
        render_breakdown=observe.render_breakdown,
        describe_events=observe.describe_events,
        layout_fingerprint=_fingerprint,
        state_type=rules.State,
        variants={"double_last": False},
        variants_of=lambda state: {"double_last": state.double_last},
        score_parts=(("prizes", "prizes"),),
        hidden_action_name=lambda action: "bid ?",
        decode_observation=observe.decode_observation,
    ),
    replace=True,
)
