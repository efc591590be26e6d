"""Every capability a config asks of its game is checked when the config loads, before any
run folder exists, by one table (``training.config_capabilities``): one line names what
the game lacks, what it has, and what to write instead. The test game Sealed Bids has no
optional tools at all, so every entry of the table refuses it."""

from __future__ import annotations

from pathlib import Path

import pytest
import sealed_bids.spec  # noqa: F401 - registers the test game
from training_helpers import tiny_config_dict

from art_gallery_env.core.registry import CAPABILITIES, get_game
from art_gallery_env.training.config import ConfigError, config_from_dict
from art_gallery_env.training.config_capabilities import (
    CONFIG_CAPABILITIES,
    NOT_IN_CONFIGS,
    capability_problems,
)

GAME = "sealed_bids"
ENTITY = {"network": {"type": "entity"}}
EXIT = {"algorithm": "expert_iteration", "network": {"type": "entity"}}


def _sealed_bids(run_dir: Path, **changes) -> dict:
    changes.setdefault("env", {"game": GAME, "num_players": 3})
    return tiny_config_dict(run_dir, 256, **changes)


# (the config's changes, the key the line names, the capability's words)
CASES = [
    (ENTITY, "network.type: entity", "tokens for a structured policy network"),
    ({"vec_env": "vector"}, "vec_env: vector", "a compiled batched engine"),
    ({"warm_start": {"bc_games": 2}}, "warm_start:", "a teacher to clone"),
    ({"algorithm": "rllib_ppo", "pool": {}, "n_envs": 2}, "algorithm: rllib_ppo", "Ray RLlib"),
    (EXIT, "exit.init: warm_start", "a teacher to clone"),
    ({**EXIT, "exit": {"init": "random", "topk": 4}}, "exit.topk: 4", "a compiled ISMCTS"),
    (
        {"eval": {"opponents": ["random", "ismcts:engine=compiled"]}},
        "eval.opponents[1]: ismcts:engine=compiled",
        "a compiled ISMCTS",
    ),
    (
        {"pool": {"agents": {"ismcts:topk=2,iters=8": 1.0}}},
        "pool.agents[0]: ismcts:topk=2,iters=8",
        "a compiled ISMCTS",
    ),
]


@pytest.mark.parametrize(("changes", "key", "words"), CASES)
def test_a_capability_the_game_lacks_is_one_line_before_the_run_folder(
    tmp_path: Path, changes, key, words
) -> None:
    run = tmp_path / "run"
    with pytest.raises(ConfigError) as err:
        config_from_dict(_sealed_bids(run, **changes), "cfg.yaml")
    message = str(err.value)
    if changes.get("algorithm") == "expert_iteration":  # and its network: two lines
        assert message.startswith("cfg.yaml: invalid config (2 problems)\n"), message
        line = message.splitlines()[-1].strip()
    else:
        assert "\n" not in message, message
        line = message.removeprefix("cfg.yaml: ")
    assert line.startswith(f"{key} needs {words}"), message
    assert "which Sealed Bids ('sealed_bids') does not have" in line
    assert "Sealed Bids has no optional tools" in line
    assert "; instead, use" in line or "; instead, leave" in line  # the legal choice
    assert not run.exists()


def test_network_entity_for_a_game_without_tokens_exits_2_before_the_run_folder(
    tmp_path: Path, capsys
) -> None:
    """The bug: ``network: {type: entity}`` passed the check and failed with a traceback
    from sb3_policy.build_network after the run folder was made."""
    pytest.importorskip("sb3_contrib")
    import yaml

    from art_gallery_env.cli import main

    run = tmp_path / "run"
    path = tmp_path / "entity.yaml"
    path.write_text(yaml.safe_dump(_sealed_bids(run, **ENTITY)))
    with pytest.raises(SystemExit) as exit_:
        main(["train", str(path), "--no-progress"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "network.type: entity needs tokens" in err and "use network.type: mlp or ebag" in err
    assert "Traceback" not in err
    assert not run.exists()


def test_a_game_that_has_the_capability_passes(tmp_path: Path) -> None:
    config = config_from_dict(tiny_config_dict(tmp_path / "run", 256, **ENTITY))
    assert config.network.type == "entity"
    assert capability_problems(config) == []


def test_two_keys_that_need_one_capability_are_one_line(tmp_path: Path) -> None:
    changes = {**EXIT, "exit": {"init": "random"}}
    with pytest.raises(ConfigError) as err:
        config_from_dict(_sealed_bids(tmp_path / "run", **changes))
    message = str(err.value)
    assert message.count("tokens for a structured policy network") == 1, message
    assert "algorithm: expert_iteration and network.type: entity need tokens" in message
    assert "instead, use algorithm: maskable_ppo or use network.type: mlp or ebag" in message
    assert "\n" not in message


def test_the_game_offers_its_own_capabilities_in_the_line(tmp_path: Path) -> None:
    changes = {"env": {"game": "gallerist"}, **ENTITY}
    with pytest.raises(ConfigError) as err:
        config_from_dict(tiny_config_dict(tmp_path / "run", 256, **changes))
    have = ", ".join(sorted(get_game("gallerist").capabilities))
    assert f"The Gallerist has: {have}" in str(err.value)


def test_every_capability_is_in_the_table_or_named_as_no_config_key() -> None:
    in_table = {entry.capability for entry in CONFIG_CAPABILITIES}
    assert in_table | NOT_IN_CONFIGS == set(CAPABILITIES)
    assert not in_table & NOT_IN_CONFIGS
