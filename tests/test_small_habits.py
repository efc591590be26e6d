"""Small things a practitioner meets: every env's metadata names its frame rate, and a
saved video is readable by the user's group as any file they write."""

from __future__ import annotations

import os
import stat

import numpy as np
import pytest

from art_gallery_env.core.registry import game_names, get_game


@pytest.mark.parametrize("name", ["art_gallery", "gallerist"])
def test_every_aec_env_names_its_render_fps(name: str) -> None:
    env = get_game(name).make_env(num_players=2)
    assert env.metadata["render_fps"] > 0
    assert env.unwrapped.metadata["render_fps"] == env.metadata["render_fps"]


def test_every_registered_game_names_its_render_fps() -> None:
    for name in game_names():
        spec = get_game(name)
        env = spec.make_env(num_players=spec.min_players)
        assert env.metadata.get("render_fps", 0) > 0, name


def test_a_video_is_written_with_the_umasks_mode(tmp_path) -> None:
    pytest.importorskip("imageio")
    from art_gallery_env.games.art_gallery.env.video import save_video

    frames = [np.full((8, 8, 3), value, np.uint8) for value in (0, 255)]
    old = os.umask(0o022)
    try:
        path = save_video(frames, tmp_path / "game.gif", fps=2)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["game.gif"]  # no temporary file left
