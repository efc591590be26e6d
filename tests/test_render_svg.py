"""The drawn board: SVG (R8 per viewer), rgb_array frames and videos of games."""

from __future__ import annotations

import random
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from gymnasium.error import DependencyNotInstalled
from pettingzoo.test import render_test
from test_no_leak import perturb_hidden, sample_states

from art_gallery_env import env, raw_env
from art_gallery_env.games.art_gallery.env.raster import svg_to_rgb
from art_gallery_env.games.art_gallery.env.svg import (
    MARGIN,
    SEAT_COLOURS,
    STRIP_GAP,
    STRIP_H,
    _strips_top,
    canvas_size,
    fit,
    render_svg,
    symbol_abbreviations,
)
from art_gallery_env.games.art_gallery.env.video import save_video
from art_gallery_env.games.art_gallery.rules.cards import card_set_from_dict, default_card_set
from art_gallery_env.games.art_gallery.rules.hidden import bid_visible, hand_visible
from art_gallery_env.games.art_gallery.rules.phases import BID, MOVE, PICK, SHOP
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game

iio = pytest.importorskip("imageio.v3")
SVG_NS = "{http://www.w3.org/2000/svg}"
DOCS = Path(__file__).resolve().parents[1] / "docs"
PLAYER_COUNTS = range(2, 7)
# The drawn-board R8 checks at 2 and 3 players stay in the fast loop; 4-6 are slow.
PLAYER_COUNTS_FAST_TO_3 = [
    n if n <= 3 else pytest.param(n, marks=pytest.mark.slow) for n in PLAYER_COUNTS
]


def mid_game(n: int, seed: int) -> GameState:
    """A state from the middle of a random game (test_no_leak's snapshots)."""
    states = sample_states(n, seed)
    return states[len(states) // 2]


def texts(svg: str) -> list[str]:
    """Every text and tspan element's own content, unescaped and stripped (the SVG must
    parse as XML)."""
    root = ET.fromstring(svg)
    tags = {f"{SVG_NS}text", f"{SVG_NS}tspan"}
    return [(t.text or "").strip() for t in root.iter() if t.tag in tags]


def hex_rgb(colour: str) -> list[int]:
    return [int(colour[i : i + 2], 16) for i in (1, 3, 5)]


# -- PettingZoo's render test and the env's modes ------------------------------------------
@pytest.mark.parametrize("n", (2, pytest.param(6, marks=pytest.mark.slow)))
def test_pettingzoo_render_test_passes_for_every_mode(n: int) -> None:
    render_test(
        lambda render_mode: env(num_players=n, render_mode=render_mode),
        custom_tests={
            "svg": lambda res: isinstance(res, str) and res.startswith("<svg"),
            "rgb_array": lambda res: res.shape == (*canvas_size(n)[::-1], 3),
        },
    )


def test_metadata_declares_the_modes_and_fps() -> None:
    metadata = raw_env.metadata
    assert {"ansi", "human", "rgb_array", "svg"} <= set(metadata["render_modes"])
    assert metadata["render_fps"] > 0


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_rgb_array_frame_is_the_svg_drawn_for_the_seat_to_act(n: int) -> None:
    state = mid_game(n, n)  # some are zero_is_ten games: the env must be made for them
    e = raw_env(num_players=n, render_mode="rgb_array", zero_is_ten=state.zero_is_ten)
    e.reset(options={"state": state})
    frame = e.render()
    width, height = canvas_size(n)
    assert frame.shape == (height, width, 3) and frame.dtype == np.uint8
    assert np.array_equal(frame, svg_to_rgb(render_svg(e.state, e.state.current_player)))
    # each player's strip starts with a bar in the seat's colour
    for p in range(n):
        y = _strips_top() + p * (STRIP_H + STRIP_GAP) + STRIP_H // 2
        assert frame[y, MARGIN + 3].tolist() == hex_rgb(SEAT_COLOURS[p])


def test_raster_reads_the_same_pixels_as_cairosvg_png_output() -> None:
    """svg_to_rgb reads cairo's surface directly; it must equal the public PNG path."""
    cairosvg = pytest.importorskip("cairosvg")
    svg = render_svg(mid_game(3, 1), None)
    png = iio.imread(cairosvg.svg2png(bytestring=svg.encode()), extension=".png")
    assert np.array_equal(svg_to_rgb(svg), png[..., :3])


def test_svg_mode_returns_the_spectator_drawing_at_game_over() -> None:
    e = raw_env(num_players=2, render_mode="svg")
    e.reset(options={"state": sample_states(2, 4)[-1]})
    assert e.state.is_over
    svg = e.render()
    assert svg == render_svg(e.state, None)
    assert "Game over" in texts(svg)


def test_rgb_array_without_the_extra_fails_at_construction(monkeypatch) -> None:
    for name in [m for m in sys.modules if m == "cairosvg" or m.startswith("cairosvg.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import cairosvg -> ImportError
    with pytest.raises(DependencyNotInstalled, match=r"art-gallery-env\[render\]"):
        raw_env(render_mode="rgb_array")
    raw_env(render_mode="svg")  # the SVG itself needs nothing


# -- the SVG: valid, deterministic, complete ------------------------------------------------
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_svg_is_xml_of_the_canvas_size_and_deterministic(n: int) -> None:
    state = mid_game(n, 11)
    svg = render_svg(state, 0)
    root = ET.fromstring(svg)
    width, height = canvas_size(n)
    assert root.tag == f"{SVG_NS}svg"
    assert (root.get("width"), root.get("height")) == (str(width), str(height))
    assert render_svg(state, 0) == svg
    assert render_svg(state.clone(), 0) == svg
    assert render_svg(GameState.from_dict(state.to_dict()), 0) == svg
    # no external resources: no images, links, scripts or style sheets
    assert not re.search(r"<(image|script|style|a|use)\b|href=|url\(|@import", svg)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_svg_shows_the_loop_paintings_piles_and_every_player(n: int) -> None:
    state = mid_game(n, 5)
    svg = render_svg(state, None)
    shown = texts(svg)
    joined = "\n".join(shown)
    assert "Shop" in shown and all(f"Gallery {g}" in shown for g in range(1, state.num_areas))
    for g in range(1, state.num_areas):
        number = state.gallery_painting[g]
        if number:
            assert f"#{number}" in shown
            title = state.cards.painting(number).title
            assert any(t.rstrip("\u2026") and title.startswith(t.rstrip("\u2026")) for t in shown)
    for mark, pile in zip((1, 3, 5, 7), state.tile_piles):
        assert f"pile {mark}" in shown and f"{len(pile)} left" in shown
        if pile:
            assert f"#{pile[-1]}" in shown
    for p in range(n):
        assert f"Player {p}" in shown
        b = state.score_breakdown()[p]
        assert f"score {b['total']}" in shown  # a spectator sees every hand
        assert f"collection ({len(state.collections[p])})" in shown
    assert f"Round {state.round}" in shown
    assert f"start card: Player {state.start_player}" in joined


def test_svg_marks_the_resolving_area_and_marker_during_distribution() -> None:
    state = new_game(4, 2)
    rng = random.Random(2)
    while state.phase not in (SHOP, PICK):
        state.apply(rng.choice(state.legal_actions()))
    shown = texts(render_svg(state, 1))
    where = "the Shop" if state.dist_area == 0 else f"Gallery {state.dist_area}"
    assert "resolving" in shown
    assert f"distributing {where}," in shown
    assert any(t.startswith("cards on the space:") for t in shown)


def test_text_is_escaped_and_names_label_the_seats() -> None:
    data = default_card_set().to_dict()
    for painting in data["paintings"]:
        painting["title"] = "A <b>&\"odd\"</b> 'title'"
    cards = card_set_from_dict(data)
    state = new_game(2, 3, card_set=cards)
    svg = render_svg(state, None, names=["Ann & <Bo>", "Cy"])
    shown = texts(svg)  # parses: the markup was escaped
    assert any(t.startswith("A <b>&") for t in shown)
    assert "Ann & <Bo>" in shown and "Cy" in shown
    with pytest.raises(ValueError, match="one name per seat"):
        render_svg(state, None, names=["only one"])
    with pytest.raises(ValueError, match="0..1"):
        render_svg(state, 2)


def test_fit_and_symbol_abbreviations() -> None:
    assert fit("short", 200, 12) == "short"
    cut = fit("a rather long painting title indeed", 80, 12)
    assert cut.endswith("\u2026") and len(cut) < 20
    for symbols, short in zip(
        default_card_set().row_symbols, symbol_abbreviations(default_card_set())
    ):
        assert len(set(short)) == len(symbols)
        assert all(s.startswith(a) and len(a) >= min(3, len(s)) for s, a in zip(symbols, short))


# -- R8: a seat's drawing holds what the seat may know, nothing more ----------------------
@pytest.mark.parametrize("n", PLAYER_COUNTS_FAST_TO_3)
def test_R8_svg_is_the_same_in_every_world_of_the_viewers_information_set(n: int) -> None:
    states = sample_states(n, 8)[::3]
    differs = compared = 0
    for index, state in enumerate(states):
        for viewer in range(n):
            svg = render_svg(state, viewer)
            worlds = [state.determinize(viewer, random.Random(k)) for k in range(2)]
            worlds.append(perturb_hidden(state, viewer, random.Random(index)))
            for world in worlds:
                assert render_svg(world, viewer) == svg, (
                    f"{n} players, state {index} ({state.phase_name}), viewer {viewer}: "
                    "the drawing shows something hidden from the viewer"
                )
                compared += 1
                differs += render_svg(world, None) != render_svg(state, None)
    # teeth: the spectator's drawing does show what the worlds resampled
    assert differs > 0.3 * compared, f"only {differs} of {compared} spectator drawings differ"


@pytest.mark.parametrize("n", PLAYER_COUNTS_FAST_TO_3)
def test_R8_other_seats_hidden_bids_are_card_backs_and_hidden_hands_counts(n: int) -> None:
    checked = 0
    for state in sample_states(n, 3):
        if state.phase not in (MOVE, BID):
            continue
        for viewer in range(n):
            shown = texts(render_svg(state, viewer))
            backs = sum(
                not bid_visible(state, area, owner, viewer)
                for area, bids in enumerate(state.bids)
                for owner, _ in bids
            )
            assert shown.count("?") == backs
            for p in range(n):
                if not hand_visible(state, p, viewer):
                    assert f"{sum(state.hands[p])} hidden" in shown
            checked += backs > 0
        assert texts(render_svg(state, None)).count("?") == 0  # a spectator sees all
    assert checked > 0


# -- videos ------------------------------------------------------------------------------
SHRINK = 4  # the per-decision video keeps every 4th pixel: H.264 of ~290 full frames took ~20 s


def played_game(n: int, seed: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """A whole game played through the env, rendered after every step, dead steps included:
    (every frame, shrunk SHRINK times per side; the full frames at the start, each new round
    and the end). One game serves both video tests: rasterising is ~0.25 s a frame."""
    e = env(num_players=n, render_mode="rgb_array", render_viewer=None)
    e.reset(seed=seed)
    rng = random.Random(seed)
    first = e.render()
    every, rounds, last_round = [first[::SHRINK, ::SHRINK].copy()], [first], 1
    for _agent in e.agent_iter():
        obs, _, termination, truncation, _ = e.last()
        dead = termination or truncation
        e.step(None if dead else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        frame = e.render()
        every.append(frame[::SHRINK, ::SHRINK].copy())
        state = e.unwrapped.state
        if not dead and (state.round != last_round or state.is_over):
            rounds.append(frame)
            last_round = state.round
    return every, rounds


@pytest.fixture(scope="module")
def game() -> tuple[list[np.ndarray], list[np.ndarray]]:
    return played_game(2, 9)


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".mp4", ".gif"])
def test_a_2_player_game_saves_as_a_video(tmp_path, game, suffix: str) -> None:
    frames = game[1]  # one full-size frame per round
    assert len(frames) >= 5
    path = save_video(frames, tmp_path / "games" / f"game{suffix}", fps=2)
    assert path.is_file() and path.stat().st_size > 10_000
    assert [p.name for p in path.parent.iterdir()] == [f"game{suffix}"]  # no temp file left
    plugin = "pyav" if suffix == ".mp4" else "pillow"
    video = iio.imread(path, plugin=plugin)
    assert video.shape[1:3] == frames[0].shape[:2]
    assert video.shape[0] == len(frames)


@pytest.mark.slow
def test_a_2_player_game_saves_as_a_video_with_a_frame_per_decision(tmp_path, game) -> None:
    frames, rounds = game
    assert len(frames) > 200 > len(rounds)  # a whole game, a frame after each of its steps
    width, height = canvas_size(2)
    assert frames[0].shape == (-(-height // SHRINK), -(-width // SHRINK), 3)
    path = save_video(frames, tmp_path / "game.mp4", fps=raw_env.metadata["render_fps"])
    assert iio.imread(path, plugin="pyav").shape[0] == len(frames)


@pytest.mark.slow
def test_save_video_rejects_bad_input_clearly(tmp_path) -> None:
    frame = np.zeros((8, 8, 3), np.uint8)
    with pytest.raises(ValueError, match=r"\.mp4"):
        save_video([frame], tmp_path / "x.avi")
    with pytest.raises(ValueError, match="no frames"):
        save_video([], tmp_path / "x.mp4")
    with pytest.raises(ValueError, match="frame 1 has shape"):
        save_video([frame, np.zeros((8, 10, 3), np.uint8)], tmp_path / "x.mp4")
    with pytest.raises(ValueError, match="frame 0 must be an HxWx3 uint8"):
        save_video([frame.astype(float)], tmp_path / "x.mp4")
    with pytest.raises(ValueError, match="fps"):
        save_video([frame], tmp_path / "x.mp4", fps=0)
    assert list(tmp_path.iterdir()) == []
    odd = np.full((7, 9, 3), 200, np.uint8)  # H.264 needs even sides: padded, not refused
    assert iio.imread(save_video([odd, odd], tmp_path / "odd.mp4"), plugin="pyav").shape[1:3] == (
        8,
        10,
    )


def test_docs_show_a_small_4_player_board_image() -> None:
    assert "images/board-4p.png" in (DOCS / "render.md").read_text(encoding="utf-8")
    image = DOCS / "images" / "board-4p.png"
    assert image.stat().st_size < 300_000
    width, height = canvas_size(4)
    assert iio.imread(image).shape[:2] == (height, width)
