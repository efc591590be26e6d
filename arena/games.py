"""The one small interface through which the tools serve every game.

Evaluation, records, replay, terminal play and self-play training need the same few
things of a game: how to set one up and load a saved one, what a seat sees, how actions
and events read, how the board and the score print, which agents play it and which
layout its policies read. A :class:`Game` bundles them; :func:`get_game` finds one by
name. The engines themselves share a method interface (``current_player``, ``is_over``,
``legal_actions()``, ``apply``, ``clone``, ``to_dict``, ``determinize``,
``score_breakdown()``, ``events``), so the arena's game loop drives either unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from art_gallery_env.agents.base import Agent

DEFAULT_GAME = "art_gallery"


@dataclass(frozen=True)
class Game:
    """One game as the tools see it (all callables; see the module docstring)."""

    name: str  # the id in records, configs and command lines
    title: str
    env_version: str
    min_players: int
    max_players: int
    num_actions: int
    observation_size: int
    variants: tuple[str, ...]  # boolean setup options new_game takes (e.g. "zero_is_ten")
    new_game: Callable[..., Any]  # (num_players, seed, **variants) -> state
    state_from_dict: Callable[[dict[str, Any]], Any]
    make_observer: Callable[[Any], Any]  # state -> a SeatObserver for its component data
    action_to_str: Callable[[int], str]
    str_to_action: Callable[[str], int]
    check_action_id: Callable[[object], int]  # a plain int action id, else ValueError
    render_text: Callable[[Any, int | None], str]
    render_breakdown: Callable[[list[dict[str, Any]]], str]
    describe_events: Callable[..., list[str]]  # (state, start, viewer, names) -> lines
    make_agent: Callable[[str, int | None], Agent]
    agent_names: Callable[[], list[str]]
    data_fingerprint: Callable[[Any], tuple[str, str]]  # state -> (data name, fingerprint)
    default_data: Callable[[], tuple[str, str]]  # (name, fingerprint) of the shipped data
    # score parts averaged per agent by the evaluation: (breakdown key, column name)
    score_parts: tuple[tuple[str, str], ...] = ()
    # how an action reads to a seat that did not take it, where the action itself is
    # hidden (Art Gallery's face-down bids); None: it reads as action_to_str says
    hidden_action_name: Callable[[int], str | None] = lambda action: None
    # what a legal choice does, in words, for the seat about to choose (terminal play)
    describe_choice: Callable[[Any, int, int], str] = lambda state, seat, action: ""
    # end-of-game rewards of a finished game's breakdown, one per seat, for each mode a
    # trainer may ask for (what the game's AEC env gives as its final rewards)
    reward_modes: tuple[str, ...] = ("win", "score_margin")
    final_rewards: Callable[[list[dict[str, Any]], str], list[float]] | None = None

    def check_reward_mode(self, reward_mode: object) -> str:
        if reward_mode not in self.reward_modes:
            raise ValueError(
                f"reward_mode for {self.title} must be one of {list(self.reward_modes)}, "
                f"got {reward_mode!r}"
            )
        return reward_mode  # type: ignore[return-value]

    def check_players(self, num_players: object) -> int:
        if (
            isinstance(num_players, bool)
            or not isinstance(num_players, int)
            or not self.min_players <= num_players <= self.max_players
        ):
            raise ValueError(
                f"{self.title} is played by {self.min_players}..{self.max_players} players, "
                f"got {num_players!r}"
            )
        return num_players

    def setup(self, num_players: int, seed: int, **variants: bool) -> Any:
        """A new game; a variant this game does not have is an error naming the ones it has."""
        unknown = sorted(k for k, on in variants.items() if on and k not in self.variants)
        if unknown:
            have = ", ".join(self.variants) or "none"
            raise ValueError(f"{self.title} has no variant {unknown[0]!r} (variants: {have})")
        return self.new_game(
            self.check_players(num_players),
            seed,
            **{k: v for k, v in variants.items() if k in self.variants},
        )


def _art_gallery() -> Game:
    from art_gallery_env.agents.registry import agent_names, make_agent
    from art_gallery_env.env.aec import ENV_VERSION, REWARD_MODES, final_rewards
    from art_gallery_env.env.narration import describe_choice, describe_events
    from art_gallery_env.env.observation import OBSERVATION_SIZE
    from art_gallery_env.env.render import render_breakdown, render_text
    from art_gallery_env.env.seat import SeatObserver
    from art_gallery_env.rules.actions import (
        NUM_ACTIONS,
        action_kind,
        action_to_str,
        check_action_id,
        str_to_action,
    )
    from art_gallery_env.rules.board import MAX_PLAYERS, MIN_PLAYERS
    from art_gallery_env.rules.cards import default_card_set
    from art_gallery_env.rules.state import GameState, new_game

    return Game(
        name="art_gallery",
        title="Art Gallery",
        env_version=ENV_VERSION,
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        num_actions=NUM_ACTIONS,
        observation_size=OBSERVATION_SIZE,
        variants=("zero_is_ten",),
        new_game=new_game,
        state_from_dict=GameState.from_dict,
        make_observer=lambda state: SeatObserver(state.cards),
        action_to_str=action_to_str,
        str_to_action=str_to_action,
        check_action_id=check_action_id,
        render_text=render_text,
        render_breakdown=render_breakdown,
        describe_events=describe_events,
        make_agent=make_agent,
        agent_names=agent_names,
        data_fingerprint=lambda state: (state.cards.name, state.cards.fingerprint),
        default_data=lambda: (default_card_set().name, default_card_set().fingerprint),
        hidden_action_name=lambda action: "bid ?" if action_kind(action) == "bid" else None,
        describe_choice=describe_choice,
        reward_modes=tuple(REWARD_MODES),
        final_rewards=final_rewards,
        score_parts=(
            ("row_total", "rows"),
            ("souvenirs", "souvenirs"),
            ("hand", "hand"),
            ("start_card", "start_card"),
            ("tiles", "tiles"),
        ),
    )


def _gallerist() -> Game:
    from art_gallery_env.gallerist import ENV_VERSION
    from art_gallery_env.gallerist.agents import agent_names, make_agent
    from art_gallery_env.gallerist.env.aec import MULTI_REWARD_MODES, gallerist_rewards
    from art_gallery_env.gallerist.env.narration import describe_events
    from art_gallery_env.gallerist.env.observation_fields import OBSERVATION_SIZE
    from art_gallery_env.gallerist.env.render import render_breakdown, render_text
    from art_gallery_env.gallerist.env.seat import GalleristSeatObserver
    from art_gallery_env.gallerist.rules.actions import (
        NUM_ACTIONS,
        action_to_str,
        check_action_id,
        str_to_action,
    )
    from art_gallery_env.gallerist.rules.data import default_game_data
    from art_gallery_env.gallerist.rules.state import GameState, new_game

    return Game(
        name="gallerist",
        title="The Gallerist",
        env_version=ENV_VERSION,
        min_players=1,
        max_players=4,
        num_actions=NUM_ACTIONS,
        observation_size=OBSERVATION_SIZE,
        variants=(),
        new_game=new_game,
        state_from_dict=GameState.from_dict,
        make_observer=lambda state: GalleristSeatObserver(),
        action_to_str=action_to_str,
        str_to_action=str_to_action,
        check_action_id=check_action_id,
        render_text=render_text,
        render_breakdown=render_breakdown,
        describe_events=describe_events,
        make_agent=make_agent,
        agent_names=agent_names,
        data_fingerprint=lambda state: ("gallerist", state.data.fingerprint),
        reward_modes=MULTI_REWARD_MODES,
        final_rewards=gallerist_rewards,
        default_data=lambda: ("gallerist", default_game_data().fingerprint),
        score_parts=(
            ("money", "money"),
            ("exhibition", "exhibition"),
            ("reputation", "reputation"),
            ("auction", "auction"),
        ),
    )


_BUILDERS: dict[str, Callable[[], Game]] = {"art_gallery": _art_gallery, "gallerist": _gallerist}
_GAMES: dict[str, Game] = {}


def game_names() -> list[str]:
    return list(_BUILDERS)


def get_game(name: str = DEFAULT_GAME) -> Game:
    """The game called ``name``; an unknown name is an error listing the games."""
    game = _GAMES.get(name)
    if game is None:
        if name not in _BUILDERS:
            raise ValueError(f"unknown game {name!r}; games: {', '.join(game_names())}")
        game = _GAMES[name] = _BUILDERS[name]()
    return game
