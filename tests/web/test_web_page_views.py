"""What the page's end screens and board targets are built from, without a browser: the
verdict and result columns come from each game's web view, the generic view never calls a
table of one a win, and every board target lies on the drawn board."""

from __future__ import annotations

import dataclasses
import random

import pytest

from art_gallery_env.core.registry import get_game
from art_gallery_env.games.art_gallery.env.svg import canvas_size as art_canvas
from art_gallery_env.games.gallerist.render_svg import canvas_size as gallerist_canvas
from art_gallery_env.web.views import GameWeb, result, web_of


def played_out(name: str, players: int, seed: int = 3):
    state = get_game(name).setup(players, seed, None)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_the_generic_verdict_never_calls_a_table_of_one_a_win() -> None:
    spec = dataclasses.replace(get_game("gallerist"), capabilities=frozenset(), extensions={})
    web = GameWeb(spec)
    solo = played_out("gallerist", 1)
    assert solo.score_breakdown()[0]["rank"] == 1  # a table of one always ranks first
    said = web.verdict(solo, 0)
    assert "win" not in said.lower() and str(solo.score_breakdown()[0]["total"]) in said
    duo = played_out("gallerist", 2)
    ranks = [row["rank"] for row in duo.score_breakdown()]
    assert [web.verdict(duo, p).startswith("You win") for p in (0, 1)] == [r == 1 for r in ranks]


def test_the_solo_gallerist_result_comes_from_its_web_view() -> None:
    state = played_out("gallerist", 1)
    shown = result(state, 0)
    row = state.score_breakdown()[0]
    keys = [c["key"] for c in shown["columns"]]
    assert "goal_name" in keys and "lacerda_majorities" in keys and "rank" not in keys
    assert "win" not in shown["verdict"].lower()
    level = row["goal_level"]
    assert (f"Goal level {level}" if level else "No goal level reached") in shown["verdict"]
    assert "G17.6" in shown["note"]
    two = result(played_out("gallerist", 2), 0)
    assert [c["key"] for c in two["columns"]][-1] == "rank" and "G17.6" not in two["note"]


@pytest.mark.parametrize("name", ["art_gallery", "gallerist"])
def test_measured_strength_names_offered_agents_strongest_first(name: str) -> None:
    spec = get_game(name)
    listed = web_of(spec).strength
    assert listed and listed[-1]["spec"] == "random"  # the weakest last
    agents = set(spec.agents) | {"random", "ismcts"}
    for entry in listed:
        head = entry["spec"].partition(":")[0]
        assert entry["spec"].endswith(".safetensors") or head in agents, entry
        assert entry["strength"]


@pytest.mark.parametrize("name", ["art_gallery", "gallerist"])
def test_every_board_target_lies_on_the_board(name: str) -> None:
    spec, web = get_game(name), web_of(get_game(name))
    state = spec.setup(3, 5, None)
    rng = random.Random(5)
    size = (art_canvas if name == "art_gallery" else gallerist_canvas)(3)
    targeted = 0
    for _ in range(200):
        if state.is_over:
            break
        seat = state.current_player
        world = state.determinize(seat, random.Random(0))
        shown = web.choices(world, seat)
        for option in shown["options"]:
            for target in option["targets"]:
                x, y, w, h = shown["targets"][target]["box"]
                assert x >= 0 and x + w <= size[0] and y >= 0 and y + h <= size[1], target
                targeted += 1
        state.apply(rng.choice(state.legal_actions()))
    assert targeted > 50
