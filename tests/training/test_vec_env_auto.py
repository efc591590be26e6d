"""``vec_env: auto`` (the default): the game's compiled engine where it has one and numba
imports, else the subprocess workers."""

from __future__ import annotations

import pytest
from training_helpers import tiny_config_dict

from art_gallery_env.core import registry
from art_gallery_env.training.config import config_from_dict
from art_gallery_env.training.config_checks import resolved_vec_env


def _config(tmp_path, **changes):
    data = tiny_config_dict(tmp_path, 64)
    data.pop("vec_env")
    data.update(changes)
    return config_from_dict(data)


def test_the_default_is_auto_and_picks_the_compiled_engine_where_there_is_one(tmp_path):
    pytest.importorskip("numba")
    config = _config(tmp_path)
    assert config.vec_env == "auto"
    assert resolved_vec_env(config) == "vector"


def test_a_game_without_a_compiled_engine_trains_on_subprocess_workers(tmp_path):
    config = _config(tmp_path, env={"game": "gallerist", "num_players": 2})
    assert "vector" not in registry.get_game("gallerist").capabilities
    assert resolved_vec_env(config) == "subproc"


def test_without_numba_auto_falls_back_to_subprocess_workers(tmp_path, monkeypatch):
    config = _config(tmp_path)

    def no_numba(self, capability):
        raise ImportError("No module named 'numba'")

    monkeypatch.setattr(registry.GameSpec, "extension", no_numba)
    assert resolved_vec_env(config) == "subproc"
    assert resolved_vec_env(config.model_copy(update={"vec_env": "dummy"})) == "dummy"


def test_an_explicit_kind_is_kept(tmp_path):
    for kind in ("subproc", "dummy", "vector"):
        assert resolved_vec_env(_config(tmp_path, vec_env=kind)) == kind
