"""The Gallerist's drawn board (``render_svg``, ``rgb_array`` frames) and its explained
choices (``describe_choice``, the web view's options)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from art_gallery_env.core.registry import get_game
from art_gallery_env.games.gallerist import web_view
from art_gallery_env.games.gallerist.choices import describe_choice
from art_gallery_env.games.gallerist.render_svg import canvas_size, render_svg
from art_gallery_env.games.gallerist.rules.data import NUM_FORMS

SPEC = get_game("gallerist")


def random_states(n: int, seed: int, every: int = 17) -> list:
    state, rng, out, k = SPEC.new_game(n, seed), random.Random(seed), [], 0
    while not state.is_over:
        if k % every == 0:
            out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
        k += 1
    return out + [state]


def test_the_spec_draws_the_board_and_explains_choices() -> None:
    assert SPEC.has("web") and SPEC.has("svg") and SPEC.render_frame is not None
    assert SPEC.extension("web") is web_view
    assert SPEC.describe_choice is describe_choice


@pytest.mark.parametrize("n", [1, 2, 4])
def test_the_drawing_is_a_pure_function_of_one_size_per_table(n: int) -> None:
    names = [f"seat {p}" for p in range(n)]
    width, height = canvas_size(n)
    for state in random_states(n, 3, every=60):
        svg = render_svg(state, 0, names)
        assert svg == render_svg(state.clone(), 0, names)  # same input, same bytes
        assert svg.startswith(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" ')
        assert f'height="{height}"' in svg and "<script" not in svg
        for form in state.data.art_forms[:NUM_FORMS]:
            assert form.upper() in svg
        assert all(name in svg for name in names)


def test_a_seat_sees_its_own_secret_cards_and_backs_for_the_others() -> None:
    state = SPEC.new_game(3, 8)
    d = state.data
    mine = render_svg(state, 1)
    assert f"curator: {d.curators[state.curator[1]].id}" in mine
    assert f"art dealer: {d.dealers[state.dealer[1]].id}" in mine
    assert mine.count("(hidden)") == 4  # two cards of each other seat
    spectator = render_svg(state, None)
    assert "(hidden)" not in spectator
    assert all(f"curator: {d.curators[c].id}" in spectator for c in state.curator)


def test_bad_viewers_and_names_are_refused_in_one_line() -> None:
    state = SPEC.new_game(2, 1)
    with pytest.raises(ValueError, match=r"viewer must be None \(spectator\) or a seat in 0..1"):
        render_svg(state, 2)
    with pytest.raises(ValueError, match="one name per seat"):
        render_svg(state, 0, ["only one"])


def test_svg_frames_in_the_aec_env_are_the_acting_seats_view() -> None:
    from art_gallery_env.games.gallerist.env.aec import raw_env

    env = raw_env(2, render_mode="svg")
    env.reset(seed=2)
    state = env.unwrapped.state
    assert env.render() == render_svg(state, state.current_player)
    assert "rgb_array" in env.metadata["render_modes"]


@pytest.mark.slow  # CairoSVG takes a second or two per frame on a loaded machine
def test_rgb_array_frames_in_the_aec_and_solo_envs() -> None:
    pytest.importorskip("cairosvg")
    from art_gallery_env.games.gallerist.env.aec import raw_env
    from art_gallery_env.games.gallerist.solo import GalleristSoloEnv

    env = raw_env(2, render_mode="rgb_array")
    env.reset(seed=2)
    frame = env.render()
    width, height = canvas_size(2)
    assert frame.shape == (height, width, 3) and frame.dtype == np.uint8
    assert len(np.unique(frame[::4, ::4].reshape(-1, 3), axis=0)) > 20  # a picture
    solo = GalleristSoloEnv(render_mode="rgb_array")
    solo.reset(seed=1)
    assert solo.render().shape == (canvas_size(1)[1], canvas_size(1)[0], 3)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_every_legal_choice_of_every_decision_is_explained(n: int) -> None:
    """In random games (which reach every kind of decision), each legal action has a
    description, and the web view offers exactly the legal actions, in the world a seat
    sees, with the decision's prompt."""
    kinds = set()
    for seed in range(2):
        for state in random_states(n, seed, every=3):
            if state.is_over:
                continue
            seat = state.current_player
            world = state.determinize(seat, random.Random(0))
            shown = web_view.choices(world, seat)
            assert [o["action"] for o in shown["options"]] == state.legal_actions()
            assert shown["prompt"] and shown["phase"] == state.phase_name
            for option in shown["options"]:
                assert option["legal"] and option["detail"]
                assert option["detail"] == describe_choice(world, seat, option["action"])
            kinds.add(state.phase_name)
    assert {"start", "turn", "post", "leave", "artist", "ticket", "contract"} <= kinds


def test_a_choice_names_what_it_does() -> None:
    state = SPEC.new_game(2, 4)
    seat = state.current_player
    start = {a: describe_choice(state, seat, a) for a in state.legal_actions()}
    assert all(text.startswith("start at the ") for text in start.values())
    assert describe_choice(state, 1 - seat, state.legal_actions()[0]) == ""  # not its turn
    while state.phase_name != "turn":
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    texts = [describe_choice(state, seat, a) for a in state.legal_actions()]
    assert any("move your Gallerist to the" in t for t in texts)
