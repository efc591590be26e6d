"""Training configs are validated on load: unknown keys, wrong types and bad values fail
with the file, the key path and the accepted values."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pydantic", reason="training configs need the [train] extra")

from art_gallery_env.training.config import ConfigError, load_config  # noqa: E402

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


@pytest.mark.parametrize("path", sorted(CONFIGS.glob("*.yaml")), ids=lambda p: p.name)
def test_shipped_configs_are_valid(path: Path) -> None:
    config = load_config(path)
    assert config.name
    assert config.total_steps > 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "name: x\ntotal_steps: 10\nppo: {learnin_rate: 0.1}\n",
            r"ppo\.learnin_rate: unknown key; known keys here: learning_rate",
        ),
        (
            "name: x\ntotal_steps: 10\nnetwork: {hiden_sizes: [8]}\n",
            r"network\.hiden_sizes: unknown key.*hidden_sizes",
        ),
        ("name: x\ntotal_steps: 10\nbogus: 1\n", r"bogus: unknown key; known keys here: name"),
        (  # an optional section lists its own keys, not the top level's
            "name: x\ntotal_steps: 10\nwarm_start: {dagger_game: 3}\n",
            r"warm_start\.dagger_game: unknown key; known keys here: teacher, .*dagger_games",
        ),
        ("name: x\ntotal_steps: ten\n", r"total_steps: 'ten' is not a whole number"),
        (
            "name: x\ntotal_steps: 10\nenv: {num_players: 7}\n",
            r"env: num_players: Art Gallery trains at 2\.\.6 players, got 7",
        ),
        (
            "name: x\ntotal_steps: 10\nenv: {num_players: 0}\n",
            r"env\.num_players: table sizes must be whole numbers of players",
        ),
        (
            "name: x\ntotal_steps: 10\nenv: {reward_mode: points}\n",
            r"env: reward_mode for Art Gallery must be one of \['win', 'score_margin'\]",
        ),
        (
            "name: x\ntotal_steps: 10\nn_envs: 0\n",
            r"n_envs: Input should be greater than or equal to 1",
        ),
        (
            "name: x\ntotal_steps: 10\nnetwork: {hidden_sizes: [0]}\n",
            r"hidden_sizes must be positive",
        ),
        (
            "name: x\ntotal_steps: 10\npool: {self_play: 0, heuristic: 0, random: 0}\n",
            r"must not all be 0",
        ),
        ("name: x\n", r"total_steps: Field required"),
        ("- a\n- b\n", r"expected a mapping"),
        ("name: [unclosed\n", r"not valid YAML"),
        (
            "name: x\ntotal_steps: 10\nenv: {zero_is_ten: 'yes'}\n",
            r"env: variant 'zero_is_ten' of Art Gallery must be a bool \(default False\), "
            r"got 'yes'",
        ),
        (  # an unknown key of env: lists its keys and the game's variants
            "name: x\ntotal_steps: 10\nenv: {zero_is_tn: true}\n",
            r"env\.zero_is_tn: unknown key; known keys here: game, num_players, player_weights, "
            r"variants, reward_mode \(variants of Art Gallery: zero_is_ten\)",
        ),
        (
            "name: x\ntotal_steps: 10\nenv: {variants: {zero_is_tn: true}}\n",
            r"env: Art Gallery has no variant 'zero_is_tn' \(variants: zero_is_ten\)",
        ),
        (
            "name: x\ntotal_steps: 10\nenv: {zero_is_ten: true, variants: {zero_is_ten: false}}\n",
            r"env: zero_is_ten is given twice, as env\.zero_is_ten \(True\) and "
            r"env\.variants\.zero_is_ten \(False\)",
        ),
        (
            "name: x\ntotal_steps: 10\nenv: {variants: [zero_is_ten]}\n",
            r"env\.variants: Input should be a valid dictionary",
        ),
    ],
)
def test_bad_config_is_rejected_with_the_key_path(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=expected) as info:
        load_config(path)
    assert str(path) in str(info.value)


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "nope.yaml")


def test_rllib_section_is_validated_and_defaults_fit_a_laptop() -> None:
    from art_gallery_env.training.config import config_from_dict

    config = config_from_dict({"name": "x", "total_steps": 10, "algorithm": "rllib_ppo"})
    assert config.rllib.num_env_runners == 0 and config.rllib.num_learners == 0
    assert config.rllib.num_gpus_per_learner == 0 and config.rllib.ray_address is None
    config = config_from_dict(
        {
            "name": "x",
            "total_steps": 10,
            "algorithm": "rllib_ppo",
            "rllib": {"num_env_runners": 8, "num_learners": 2, "num_gpus_per_learner": 1},
        }
    )
    assert config.rllib.num_gpus_per_learner == 1.0


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            {"rllib": {"num_env_runners": 2}},
            r"rllib: section is only used with algorithm: rllib_ppo",
        ),
        (
            {"algorithm": "rllib_ppo", "rllib": {"num_runners": 2}},
            r"rllib\.num_runners: unknown key; known keys here: num_env_runners",
        ),
        (
            {"algorithm": "rllib_ppo", "n_envs": 4, "ppo": {"n_steps": 64}},
            r"does not use n_envs .*ppo\.n_steps \(use rllib\.train_batch_size\)",
        ),
        (
            {"algorithm": "rllib_ppo", "rllib": {"train_batch_size": 100, "minibatch_size": 200}},
            r"minibatch_size 200 is larger than the batch per learner",
        ),
        (
            {"algorithm": "ppo"},
            r"algorithm: Input should be 'maskable_ppo', 'rllib_ppo' or 'expert_iteration'",
        ),
    ],
)
def test_bad_rllib_config_is_rejected(data: dict, expected: str) -> None:
    from art_gallery_env.training.config import config_from_dict

    with pytest.raises(ConfigError, match=expected):
        config_from_dict({"name": "x", "total_steps": 10, **data})


# -- everything is checked before any work starts --------------
def _base_for(text: str) -> str:
    """The required keys the case does not set itself (a key given twice is refused)."""
    return "name: x\n" + ("" if text.startswith("total_steps:") else "total_steps: 10\n")


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("ppo: {learning_rate: 3e-4}\n", ("ppo", "learning_rate"), 3e-4),
        ("ppo: {learning_rate: '1E-3'}\n", ("ppo", "learning_rate"), 1e-3),
        ("ppo: {ent_coef: 1e-2}\n", ("ppo", "ent_coef"), 0.01),
        ("total_steps: 1e5\n", ("total_steps",), 100_000),
        ("eval: {every_steps: 5e4}\n", ("eval", "every_steps"), 50_000),
    ],
)
def test_numbers_that_yaml_reads_as_text_are_numbers(tmp_path, text, key, value) -> None:
    """YAML 1.1 reads 3e-4 (no dot) as a string; a config means the number."""
    path = tmp_path / "c.yaml"
    path.write_text(_base_for(text) + text)
    config = load_config(path)
    for part in key:
        config = getattr(config, part)
    assert config == value and type(config) is type(value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ppo: {learning_rate: fast}\n", r"ppo\.learning_rate: .*'fast' is not a number"),
        ("ppo: {learning_rate: '-3e-4'}\n", r"ppo\.learning_rate: Input should be greater than 0"),
        ("ppo: {learning_rate: nan}\n", r"ppo\.learning_rate: .*not a finite number"),
        ("total_steps: 25e-1\n", r"total_steps: .*whole number"),
        ("total_steps: '1e400'\n", r"total_steps: .*whole number"),
    ],
)
def test_bad_numbers_name_their_key_path(tmp_path, text, expected) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(_base_for(text) + text)
    with pytest.raises(ConfigError, match=expected):
        load_config(path)


@pytest.mark.parametrize(
    ("opponents", "expected"),
    [
        (["random", "heurstic"], r"eval\.opponents\[1\]: 'heurstic'.*unknown agent.*heuristic"),
        (["ismcts:iter=5"], r"eval\.opponents\[0\]: 'ismcts:iter=5'.*iters"),
        (["runs/nope/best.safetensors"], r"eval\.opponents\[0\].*no such checkpoint file"),
    ],
)
def test_eval_opponents_are_checked_when_the_config_loads(opponents, expected) -> None:
    """Item 4: not after training up to the first evaluation."""
    from art_gallery_env.training.config import config_from_dict

    data = {"name": "x", "total_steps": 10, "eval": {"opponents": opponents}}
    with pytest.raises(ConfigError, match=expected):
        config_from_dict(data)


@pytest.mark.parametrize(
    ("env", "sizes", "weights"),
    [
        ({"num_players": 4}, [4], [1.0]),
        ({"num_players": "3"}, [3], [1.0]),
        ({"num_players": [2, 3, 4]}, [2, 3, 4], [1.0, 1.0, 1.0]),
        ({"num_players": [2, "6"], "player_weights": [1, "3e-1"]}, [2, 6], [1.0, 0.3]),
    ],
)
def test_num_players_is_one_table_size_or_a_list(env, sizes, weights) -> None:
    from art_gallery_env.training.config import config_from_dict

    config = config_from_dict({"name": "x", "total_steps": 10, "env": env})
    assert config.env.table_sizes == sizes
    assert config.env.table_weights == weights


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"num_players": [2, 7]}, r"env: num_players: Art Gallery trains at 2\.\.6 players, got 7"),
        ({"game": "gallerist", "num_players": [2, 5]}, r"The Gallerist trains at 2\.\.4 players"),
        ({"num_players": []}, r"env\.num_players: .*non-empty and distinct"),
        ({"num_players": [3, 3]}, r"env\.num_players: .*non-empty and distinct, got \[3, 3\]"),
        ({"num_players": True}, r"env\.num_players: table sizes"),
        ({"num_players": 3, "player_weights": [1]}, r"env: player_weights needs num_players"),
        ({"num_players": [2, 3], "player_weights": [1]}, r"player_weights has 1 entries for 2"),
        ({"num_players": [2, 3], "player_weights": [0, 0]}, r"player_weights must be >= 0"),
        ({"num_players": [2, 3], "player_weights": [1, -1]}, r"player_weights must be >= 0"),
    ],
)
def test_bad_table_sizes_name_the_key(env, expected) -> None:
    from art_gallery_env.training.config import config_from_dict

    with pytest.raises(ConfigError, match=expected):
        config_from_dict({"name": "x", "total_steps": 10, "env": env})


# -- variants travel as a dict; a config from before still loads -----------------
def test_a_config_names_its_variants_under_env_variants(tmp_path: Path) -> None:
    from art_gallery_env.core.registry import default_game

    path = tmp_path / "new.yaml"
    path.write_text("name: x\ntotal_steps: 10\nenv:\n  variants: {zero_is_ten: true}\n")
    config = load_config(path)
    assert config.env.game == default_game().name  # no game named: the default one
    assert config.env.variants == {"zero_is_ten": True}
    assert config.model_dump()["env"]["variants"] == {"zero_is_ten": True}
    path.write_text("name: x\ntotal_steps: 10\n")
    assert load_config(path).env.variants == {"zero_is_ten": False}  # the defaults, filled in


@pytest.mark.parametrize("value", [True, False])
def test_a_config_from_before_variants_sets_one_as_a_key_of_env(tmp_path, value) -> None:
    """Configs (and the configs saved in checkpoints) before 0.2 wrote ``zero_is_ten: true``
    in ``env:``; it is read as that variant."""
    path = tmp_path / "old.yaml"
    path.write_text(f"name: x\ntotal_steps: 10\nenv: {{num_players: 3, zero_is_ten: {value}}}\n")
    config = load_config(path)
    assert config.env.variants == {"zero_is_ten": value}
    assert config.env.num_players == 3
    dumped = config.model_dump()["env"]
    assert "zero_is_ten" not in dumped and dumped["variants"] == {"zero_is_ten": value}
    from art_gallery_env.training.config import config_from_dict

    again = config_from_dict({"name": "x", "total_steps": 10, "env": dumped})  # the new form
    assert again.env == config.env


def test_a_checkpoint_config_from_before_variants_resumes_without_fixed_changes() -> None:
    """The config saved in tests/legacy/best.json (0.1: no env.game, env.zero_is_ten) is
    compared with today's config of the same run as the same training."""
    import json

    from art_gallery_env.training.config import config_from_dict, saved_config_as_now
    from art_gallery_env.training.run_folder import config_differences

    legacy = Path(__file__).resolve().parents[1] / "legacy" / "best.json"
    saved = json.loads(legacy.read_text())["config"]
    assert "zero_is_ten" in saved["env"] and "game" not in saved["env"]  # the old form
    # (a saved config holds every section; the rllib one only loads with rllib_ppo)
    config = config_from_dict({k: v for k, v in saved.items() if k != "rllib"})
    assert config.env.variants == {"zero_is_ten": saved["env"]["zero_is_ten"]}
    fixed, _ = config_differences(saved_config_as_now(saved), config.model_dump())
    assert fixed == []
    other = config.model_copy(
        update={"env": config.env.model_copy(update={"variants": {"zero_is_ten": True}})}
    )
    fixed, _ = config_differences(saved_config_as_now(saved), other.model_dump())
    assert [key for key, _, _ in fixed] == ["env.variants.zero_is_ten"]  # still refused
