"""The Gallerist declares itself to the registry (:mod:`art_gallery_env.core.registry`)."""

from __future__ import annotations

from typing import Any

from art_gallery_env.core.registry import GameSpec, register_game

NAME = "gallerist"

# Gymnasium ids (a literal: the registration reads it without importing this file): the
# learner against random seats at 2 players, and the solo game against Lacerda (G17).
GYM_ENVS = {
    "art_gallery_env/Gallerist-v0": {"kwargs": {"game": "gallerist"}},
    "art_gallery_env/GalleristSolo-v0": {
        "entry_point": "art_gallery_env.games.gallerist.solo:GalleristSoloEnv",
        "kwargs": {},
    },
}


def _make_env(num_players: int = 2, variants: dict[str, Any] | None = None, **options: Any) -> Any:
    from art_gallery_env.games.gallerist.env.aec import raw_env

    if variants:
        raise ValueError(f"The Gallerist has no variant {sorted(variants)[0]!r} (variants: none)")
    return raw_env(num_players, **options)


def _check_state(state: Any) -> None:
    """The save format's checks of an in-memory state (its component data kept)."""
    from art_gallery_env.games.gallerist.rules.state import GameState

    GameState.from_dict(state.to_dict(), state.data)


def _render_frame(state: Any, viewer: int | None, mode: str) -> Any:
    """The drawn board: SVG text, or the same drawing as an HxWx3 uint8 array."""
    from art_gallery_env.games.gallerist.render_svg import render_svg, svg_to_rgb

    svg = render_svg(state, viewer)
    return svg if mode == "svg" else svg_to_rgb(svg)


def build() -> GameSpec:
    from art_gallery_env.games.gallerist import ENV_VERSION
    from art_gallery_env.games.gallerist.agents.registry import (
        ROLLOUTS,
        make_heuristic,
        search_evaluator,
    )
    from art_gallery_env.games.gallerist.choices import describe_choice
    from art_gallery_env.games.gallerist.env.aec import (
        MULTI_REWARD_MODES,
        SOLO_REWARD_MODES,
        gallerist_rewards,
    )
    from art_gallery_env.games.gallerist.env.narration import describe_events
    from art_gallery_env.games.gallerist.env.observation_fields import (
        OBSERVATION_HIGH,
        OBSERVATION_SIZE,
        decode_observation,
        layout_fingerprint,
    )
    from art_gallery_env.games.gallerist.env.render import render_breakdown, render_text
    from art_gallery_env.games.gallerist.env.seat import GalleristSeatObserver
    from art_gallery_env.games.gallerist.rules.actions import (
        NUM_ACTIONS,
        action_to_str,
        check_action_id,
        str_to_action,
    )
    from art_gallery_env.games.gallerist.rules.data import default_game_data
    from art_gallery_env.games.gallerist.rules.state import GameState, new_game

    return GameSpec(
        name=NAME,
        title="The Gallerist",
        env_version=ENV_VERSION,
        min_players=1,
        max_players=4,
        num_actions=NUM_ACTIONS,
        observation_size=OBSERVATION_SIZE,
        decode_observation=decode_observation,
        observation_high=OBSERVATION_HIGH,
        new_game=new_game,
        state_from_dict=GameState.from_dict,
        make_observer=lambda state: GalleristSeatObserver(),
        make_env=_make_env,
        action_to_str=action_to_str,
        str_to_action=str_to_action,
        check_action_id=check_action_id,
        render_text=render_text,
        render_breakdown=render_breakdown,
        describe_events=describe_events,
        layout_fingerprint=layout_fingerprint,
        data_fingerprint=lambda state: (NAME, state.data.fingerprint),
        default_data=lambda: (NAME, default_game_data().fingerprint),
        state_type=GameState,
        agents={"heuristic": make_heuristic},
        rollouts=ROLLOUTS,
        search_evaluator=search_evaluator,
        reward_modes=MULTI_REWARD_MODES,
        final_rewards=gallerist_rewards,
        check_state=_check_state,
        gym_envs=GYM_ENVS,
        reward_modes_at=lambda n: SOLO_REWARD_MODES if n == 1 else MULTI_REWARD_MODES,
        describe_choice=describe_choice,
        render_frame=_render_frame,
        capabilities=frozenset({"web", "svg", "warm_start"}),
        extensions={"web": "art_gallery_env.games.gallerist.web_view"},
        score_parts=(
            ("money", "money"),
            ("exhibition", "exhibition"),
            ("reputation", "reputation"),
            ("auction", "auction"),
        ),
    )


SPEC = register_game(build())
