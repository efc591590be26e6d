"""A run folder's ``config.yaml`` loads again as a config: the resume errors tell users to
"use the run's own config (RUN_DIR/config.yaml)". A whole dump did not load, since it wrote
every default, also the keys and sections the algorithm or network type does not read
(``network: shared applies to network type ebag, not entity``)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from art_gallery_env.training.config import ConfigError, load_config
from art_gallery_env.training.run_folder import run_config_text

CONFIGS = sorted((Path(__file__).parents[2] / "configs").glob("*.yaml"))


@pytest.mark.parametrize("path", CONFIGS, ids=[p.stem for p in CONFIGS])
def test_a_run_folders_config_loads_as_the_same_config(path: Path, tmp_path: Path) -> None:
    config = load_config(path)
    saved = tmp_path / "config.yaml"
    saved.write_text(run_config_text(config))
    assert load_config(saved).model_dump() == config.model_dump()


def test_it_keeps_the_command_lines_overrides(tmp_path: Path) -> None:
    config = load_config(CONFIGS[0], {"seed": 7, "total_steps": 4096})
    saved = tmp_path / "config.yaml"
    saved.write_text(run_config_text(config))
    again = load_config(saved)
    assert (again.seed, again.total_steps) == (7, 4096)


@pytest.mark.parametrize("path", CONFIGS, ids=[p.stem for p in CONFIGS])
def test_an_old_run_folders_whole_dump_loads_as_the_same_config(path: Path, tmp_path: Path) -> None:
    """Run folders written before 23df60b hold ``model_dump()``, every default included,
    and those from before expert iteration have no ``exit:`` key at all."""
    config = load_config(path)
    dump = config.model_dump()
    if config.exit is None:
        del dump["exit"]
    saved = tmp_path / "config.yaml"
    saved.write_text(yaml.safe_dump(dump, sort_keys=False))
    assert load_config(saved).model_dump() == config.model_dump()


def test_a_written_config_with_another_types_key_is_still_refused(tmp_path: Path) -> None:
    """Only a whole dump is read without its defaults: a config that gives ``shared`` to an
    entity network (which does not read it) is told so, even at its default value."""
    path = tmp_path / "mine.yaml"
    path.write_text(
        "name: mine\ntotal_steps: 1000\nnetwork: {type: entity, shared: true}\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match="shared applies to network type ebag, not entity"):
        load_config(path)
