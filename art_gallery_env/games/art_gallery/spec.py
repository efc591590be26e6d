"""Art Gallery declares itself to the registry (:mod:`art_gallery_env.core.registry`)."""

from __future__ import annotations

from typing import Any

from art_gallery_env.core.registry import GameSpec, register_game

NAME = "art_gallery"

# Gymnasium ids (a literal: the registration reads it without importing this file). v1 has
# the defaults every entry point shares (reward_mode "win", illegal_action "terminate");
# v0 keeps its old reward default, "score_margin", so that old scripts train the same.
GYM_ENVS = {
    "art_gallery_env/ArtGallery-v1": {"kwargs": {"game": "art_gallery"}},
    "art_gallery_env/ArtGallery-v0": {
        "kwargs": {"game": "art_gallery", "reward_mode": "score_margin"}
    },
}


def _make_env(num_players: int = 2, variants: dict[str, Any] | None = None, **options: Any) -> Any:
    from art_gallery_env.games.art_gallery.env.aec import raw_env

    return raw_env(num_players, **(variants or {}), **options)


def _layout_fingerprint() -> str:
    from art_gallery_env.core.fields import layout_fingerprint
    from art_gallery_env.games.art_gallery.env.observation import FIELDS
    from art_gallery_env.games.art_gallery.rules.actions import NUM_ACTIONS

    return layout_fingerprint(FIELDS, NUM_ACTIONS)


def _decode_observation(vector: Any) -> dict[str, Any]:
    """The observation's fields (its decoder's readable summary left out)."""
    from art_gallery_env.games.art_gallery.env.observation import decode_observation

    return decode_observation(vector)["fields"]


def _check_state(state: Any) -> None:
    """The save format's checks of an in-memory state (its card set kept)."""
    from art_gallery_env.games.art_gallery.rules.state import GameState

    GameState.from_dict(state.to_dict(), state.cards)


def _render_frame(state: Any, viewer: int | None, mode: str) -> Any:
    """The drawn board: SVG text, or the same drawing as an HxWx3 uint8 array."""
    from art_gallery_env.games.art_gallery.env.raster import svg_to_rgb
    from art_gallery_env.games.art_gallery.env.svg import render_svg

    svg = render_svg(state, viewer)
    return svg if mode == "svg" else svg_to_rgb(svg)


def _agents() -> dict[str, Any]:
    from art_gallery_env.games.art_gallery.bots import make_heuristic

    return {"heuristic": make_heuristic}


def build() -> GameSpec:
    from art_gallery_env.games.art_gallery.bots import (
        HEURISTIC_VERSIONS,
        LATEST_HEURISTIC,
        ROLLOUTS,
        search_evaluator,
    )
    from art_gallery_env.games.art_gallery.env.aec import ENV_VERSION, REWARD_MODES, final_rewards
    from art_gallery_env.games.art_gallery.env.narration import describe_choice, describe_events
    from art_gallery_env.games.art_gallery.env.observation import (
        OBSERVATION_HIGH,
        OBSERVATION_SIZE,
    )
    from art_gallery_env.games.art_gallery.env.render import render_breakdown, render_text
    from art_gallery_env.games.art_gallery.env.seat import SeatObserver
    from art_gallery_env.games.art_gallery.rules.actions import (
        NUM_ACTIONS,
        action_kind,
        action_to_str,
        check_action_id,
        str_to_action,
    )
    from art_gallery_env.games.art_gallery.rules.board import MAX_PLAYERS, MIN_PLAYERS
    from art_gallery_env.games.art_gallery.rules.cards import default_card_set
    from art_gallery_env.games.art_gallery.rules.state import GameState, new_game

    return GameSpec(
        name=NAME,
        title="Art Gallery",
        env_version=ENV_VERSION,
        replays_versions=("art_gallery_v0",),  # v1 changed only illegal_action's default
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        num_actions=NUM_ACTIONS,
        observation_size=OBSERVATION_SIZE,
        decode_observation=_decode_observation,
        observation_high=OBSERVATION_HIGH,
        new_game=new_game,
        state_from_dict=GameState.from_dict,
        make_observer=lambda state: SeatObserver(state.cards),
        make_env=_make_env,
        action_to_str=action_to_str,
        str_to_action=str_to_action,
        check_action_id=check_action_id,
        render_text=render_text,
        render_breakdown=render_breakdown,
        describe_events=describe_events,
        layout_fingerprint=_layout_fingerprint,
        data_fingerprint=lambda state: (state.cards.name, state.cards.fingerprint),
        default_data=lambda: (default_card_set().name, default_card_set().fingerprint),
        state_type=GameState,
        variants={"zero_is_ten": False},
        variants_of=lambda state: {"zero_is_ten": state.zero_is_ten},
        agents=_agents(),
        agent_versions={"heuristic": (tuple(HEURISTIC_VERSIONS), LATEST_HEURISTIC)},
        rollouts=ROLLOUTS,
        search_evaluator=search_evaluator,
        capabilities=frozenset(
            {
                "vector",
                "web",
                "svg",
                "openspiel",
                "warm_start",
                "rllib",
                "network",
                "compiled_search",
            }
        ),
        score_parts=(
            ("row_total", "rows"),
            ("souvenirs", "souvenirs"),
            ("hand", "hand"),
            ("start_card", "start_card"),
            ("tiles", "tiles"),
        ),
        hidden_action_name=lambda action: "bid ?" if action_kind(action) == "bid" else None,
        describe_choice=describe_choice,
        reward_modes=tuple(REWARD_MODES),
        final_rewards=final_rewards,
        legacy_default=True,
        check_state=_check_state,
        render_frame=_render_frame,
        gym_envs=GYM_ENVS,
        extensions={
            "vector": "art_gallery_env.games.art_gallery.vector",
            "openspiel": "art_gallery_env.games.art_gallery.openspiel_game",
            "web": "art_gallery_env.games.art_gallery.env.web_view",
            "network": "art_gallery_env.games.art_gallery.network",
            # ISMCTS's compiled twin (agents/ismcts.py, engine=auto|compiled)
            "compiled_search": "art_gallery_env.games.art_gallery.vector.search",
        },
    )


SPEC = register_game(build())
