"""What the shared tools (evaluation, records, replay, terminal play, training) will call
for the Gallerist: text board, score table, event narration, the layout fingerprint and
agents by spec. Each is checked for what it shows and for what it must not show (G18)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from art_gallery_env.agents.policy_format import layout_fingerprint as art_gallery_layout
from art_gallery_env.agents.random_agent import RandomAgent
from art_gallery_env.agents.registry import agent_names as shared_agent_names
from art_gallery_env.agents.registry import make_agent as shared_make_agent
from art_gallery_env.arena.loop import play_game
from art_gallery_env.games.gallerist import (
    describe_event,
    describe_events,
    layout_fingerprint,
    new_game,
    render_breakdown,
    render_text,
)
from art_gallery_env.games.gallerist.agents import GalleristHeuristicAgent
from art_gallery_env.games.gallerist.env import observation_fields
from art_gallery_env.games.gallerist.env.seat import GalleristSeatObserver
from art_gallery_env.games.gallerist.rules.state import GameState


def agent_names() -> list[str]:
    return shared_agent_names("gallerist")


def make_agent(spec: str, seed: int | None = None):
    return shared_make_agent(spec, seed, game="gallerist")


def finished(n: int, seed: int) -> GameState:
    s = new_game(n, seed)
    rng = random.Random(seed)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    return s


def midgame(n: int, seed: int, steps: int = 60) -> GameState:
    s = new_game(n, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        s.apply(rng.choice(s.legal_actions()))
    assert not s.is_over
    return s


# -- render_text / render_breakdown ----------------------------------------------------
@pytest.mark.parametrize("n", [1, 3])
def test_render_text_shows_the_viewers_own_cards_only(n: int) -> None:
    s = midgame(n, 11)
    d = s.data
    for viewer in range(n):
        text = render_text(s, viewer)
        assert f"view of player {viewer}" in text
        assert f"curator {d.curators[s.curator[viewer]].id}" in text
        shown = [line for line in text.splitlines() if line.strip().startswith("curator ")]
        assert len(shown) == 1  # nobody else's cards
    spectator = render_text(s, None)
    assert sum(1 for line in spectator.splitlines() if "curator " in line) == n


@pytest.mark.parametrize("n", [2, 4])
def test_render_text_is_the_same_in_every_world_of_the_viewers_information_set(n: int) -> None:
    s = midgame(n, 12)
    rng = random.Random(3)
    for viewer in range(n):
        text = render_text(s, viewer)
        for _ in range(3):
            assert render_text(s.determinize(viewer, rng), viewer) == text


def test_render_breakdown_lists_every_part_and_the_solo_goal() -> None:
    s = finished(1, 5)
    table = render_breakdown(s.score_breakdown())
    for key in ("majorities", "auction", "reputation", "exhibition", "curator", "dealer"):
        assert key in table
    assert "solo goal reached:" in table
    assert str(s.score_breakdown()[0]["total"]) in table


# -- narration -------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_every_event_of_a_game_is_narrated_or_deliberately_silent(n: int) -> None:
    s = finished(n, 20 + n)
    lines = describe_events(s, 0)
    assert lines and not [line for line in lines if ": {" in line]  # no raw fallback
    assert lines[-1].startswith("== game over")
    kinds = {kind for kind, _ in s.events}
    silent = {"setup", "decision", "action"}
    for kind, data in s.events:
        line = describe_event(kind, data, game_data=s.data)
        assert (line is None) == (kind in silent), kind
    assert kinds - silent  # the game logged more than decisions


def test_narration_uses_names_and_is_the_same_for_every_world_of_the_viewer() -> None:
    s = midgame(3, 7, 120)
    names = ["Ada", "Bo", "Cy"]
    lines = describe_events(s, 0, viewer=1, names=names)
    assert any(line.startswith(("Ada ", "Bo ", "Cy ")) for line in lines)
    assert not any("P0" in line or "P1" in line for line in lines)
    world = s.determinize(1, random.Random(1))
    assert describe_events(world, 0, viewer=1, names=names) == lines
    start = len(s.events)
    s.apply(s.legal_actions()[0])
    assert describe_events(s, start) == [
        line
        for kind, data in s.events[start:]
        if (line := describe_event(kind, data, game_data=s.data)) is not None
    ]


def test_lacerda_and_the_end_are_narrated_in_a_solo_game() -> None:
    s = finished(1, 9)
    text = "\n".join(describe_events(s, 0, viewer=0, names=["You"]))
    assert "Lacerda moves to the" in text
    assert "the end is triggered in round" in text
    assert "You " in text


# -- layout fingerprint ----------------------------------------------------------------
def test_layout_fingerprint_is_pinned_and_differs_from_art_gallery() -> None:
    """A change of the observation or action layout must change the pinned value below
    (and old Gallerist checkpoints are then refused)."""
    assert layout_fingerprint() == "11cde8490823f1a6"
    assert layout_fingerprint() != art_gallery_layout()


def test_layout_fingerprint_changes_with_the_layout(monkeypatch) -> None:
    before = layout_fingerprint()
    fields = list(observation_fields.FIELDS)
    monkeypatch.setattr(observation_fields, "FIELDS", tuple(fields[:-1]))
    assert layout_fingerprint() != before
    monkeypatch.setattr(observation_fields, "FIELDS", tuple(fields))
    monkeypatch.setattr(observation_fields, "NUM_ACTIONS", 114)
    assert layout_fingerprint() != before


# -- agents by spec --------------------------------------------------------------------
def test_make_agent_builds_random_and_heuristic_with_options() -> None:
    assert agent_names() == ["heuristic", "ismcts", "policy", "random", "search"]
    assert isinstance(make_agent("random", 1), RandomAgent)
    agent = make_agent("heuristic:lookahead=0,solo_tile=3.5", 2)
    assert isinstance(agent, GalleristHeuristicAgent)
    params = agent.policy.params
    assert params.lookahead == 0 and isinstance(params.lookahead, int)
    assert params.solo_tile == 3.5


@pytest.mark.parametrize(
    "spec, message",
    [
        ("bidder", "known agents: heuristic, ismcts, policy, random, search"),
        ("heuristic:depth=2", "valid options: ticket"),
        ("heuristic:lookahead=deep", "must be a number"),
        ("random:x=1", "valid options: (none)"),
        ("heuristic:seed=4", "'seed' is not an agent option"),
        ("heuristic:lookahead", "must look like key=value"),
    ],
)
def test_make_agent_errors_name_the_choices(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_agent(spec)


def test_agents_from_specs_play_reproducibly_through_the_shared_loop() -> None:
    def game() -> list[int]:
        agents = [make_agent("heuristic:lookahead=0", 5), make_agent("random", 6)]
        return play_game(new_game(2, 5), agents, GalleristSeatObserver()).actions

    first = game()
    assert first == game() and len(first) > 50
    assert np.unique(first).size > 10
