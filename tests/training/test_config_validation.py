"""A training config is checked before any file is touched. Every number
is finite and in range, seeds fit numpy.random.seed, the network fits a memory limit, the
file is UTF-8 YAML without duplicate keys, paths can be folders; each problem is one line
naming the key path and the accepted values, and ``art-gallery train`` exits with 2, no
traceback and no run folder."""

from __future__ import annotations

import os
import re
import typing
from pathlib import Path

import pytest

pytest.importorskip("pydantic", reason="training configs need the [train] extra")

from pydantic import BaseModel  # noqa: E402

from art_gallery_env.training import config_checks  # noqa: E402
from art_gallery_env.training.config import (  # noqa: E402
    ConfigError,
    TrainConfig,
    config_from_dict,
    load_config,
)

BASE = "name: x\ntotal_steps: 1000\n"
BIG = str(2**70)  # 1180591620717411303424


def _load(tmp_path: Path, text: str, name: str = "c.yaml") -> ConfigError:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(f"{path}: "), message  # the file first
    assert "\n" not in message, message  # one problem: one line
    return info.value


# -- the cases ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ppo: {learning_rate: .inf}\n", r"ppo\.learning_rate: inf is not a finite number"),
        ("ppo: {learning_rate: .nan}\n", r"ppo\.learning_rate: nan is not a finite number"),
        ("ppo: {ent_coef: .inf}\n", r"ppo\.ent_coef: inf is not a finite number"),
        ("ppo: {ent_coef: .nan}\n", r"ppo\.ent_coef: nan is not a finite number"),
        ("ppo: {vf_coef: .inf}\n", r"ppo\.vf_coef: inf is not a finite number"),
        ("ppo: {vf_coef: .nan}\n", r"ppo\.vf_coef: nan is not a finite number"),
        (
            "env: {num_players: [2, 3], player_weights: [.inf, 1]}\n",
            r"env\.player_weights\[0\]: inf is not a finite number",
        ),
        (
            "env: {num_players: [2, 3], player_weights: [.nan, 1]}\n",
            r"env\.player_weights\[0\]: nan is not a finite number",
        ),
        ("seed: -1\n", r"seed: must be a whole number in 0\.\.4294967295 .*got -1$"),
        (f"seed: {BIG}\n", rf"seed: must be a whole number in 0\.\.4294967295 .*got {BIG}$"),
        (
            "network: {hidden_sizes: [200000, 200000]}\n",
            r"network\.hidden_sizes: \[200000, 200000\] has about 80,898,800,048 parameters, "
            r"1,205\.5 GiB to train .*accepted: at most 8 GiB",
        ),
        (
            "torch_threads: 100000\n",
            rf"torch_threads: accepted 1\.\.{os.cpu_count()} \(this machine's CPUs.*got 100000",
        ),
    ],
)
def test_the_configs_of_issue_27_are_refused_in_one_line(tmp_path, text, expected) -> None:
    error = _load(tmp_path, BASE + text)
    assert re.search(expected, str(error)), str(error)


def test_a_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(BASE.encode() + "# café\n".encode("latin-1"))
    with pytest.raises(ConfigError, match=r"latin1\.yaml: not UTF-8 text \(byte 0xe9 at offset"):
        load_config(path)


def test_a_folder_given_as_the_config_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r": is a folder; give a YAML config file in it$"):
        load_config(tmp_path)


def _refused_in_one_line(path: Path, text: str, expected: str) -> None:
    """A config file holding ``text`` is refused with one line matching ``expected``."""
    path.write_text(text)
    with pytest.raises(ConfigError, match=expected) as info:
        load_config(path)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name: x\ntotal_steps: 10\nname: y\n", r"name is given twice \(lines 1 and 3\)"),
        (
            "name: x\ntotal_steps: 10\nppo:\n  n_steps: 64\n  n_steps: 128\n",
            r"ppo\.n_steps is given twice \(lines 4 and 5\); give each key once",
        ),
        (
            "name: x\ntotal_steps: 10\neval: {opponents: [random], games: 4, games: 8}\n",
            r"eval\.games is given twice",
        ),
        (  # inside a list of mappings
            "name: x\ntotal_steps: 10\nxs:\n  - {a: 1, a: 2}\n",
            r"xs\[0\]\.a is given twice",
        ),
    ],
)
def test_a_key_given_twice_is_refused_not_overwritten(tmp_path, text, expected) -> None:
    """PyYAML keeps the last of two equal keys silently; a config refuses them."""
    _refused_in_one_line(tmp_path / "dup.yaml", text, expected)


def test_yaml_anchors_and_merges_still_load(tmp_path: Path) -> None:
    """A merge key (<<) is not a duplicate of the keys it merges; an alias loads."""
    path = tmp_path / "anchors.yaml"
    path.write_text(
        BASE + "ppo: &p {learning_rate: 0.001, batch_size: 32}\n"
        "warm_start:\n  <<: *p\n  batch_size: 64\n"
    )
    config = load_config(path)
    assert config.warm_start.learning_rate == 0.001 and config.warm_start.batch_size == 64
    assert config.ppo.batch_size == 32


def test_gallerist_with_vec_env_vector_is_one_line(tmp_path: Path) -> None:
    error = _load(tmp_path, BASE + "vec_env: vector\nenv: {game: gallerist}\n")
    assert str(error).endswith(
        ": vec_env: vector needs a compiled batched engine (training with vec_env: vector), "
        "which The Gallerist ('gallerist') does not have; games that have it: art_gallery; "
        "The Gallerist has: svg, warm_start, web; instead, use vec_env: subproc or dummy "
        "(auto picks one)"
    )


# -- every numeric key ------------------------------------------------------------------
def _numeric_keys() -> list[tuple[str, str, str]]:
    """(section, key, 'float' or 'int') for every number of every section of TrainConfig."""
    keys: list[tuple[str, str, str]] = []

    def walk(model: type[BaseModel], prefix: str) -> None:
        for name, field in model.model_fields.items():
            annotation = field.annotation
            sections = [
                t
                for t in (annotation, *typing.get_args(annotation))
                if isinstance(t, type) and issubclass(t, BaseModel)
            ]
            if sections:
                walk(sections[0], f"{prefix}{name}.")
            elif annotation is float:
                keys.append((prefix, name, "float"))
            elif annotation is int:
                keys.append((prefix, name, "int"))

    walk(TrainConfig, "")
    return keys


NUMERIC_KEYS = _numeric_keys()


def _config_with(prefix: str, key: str, value: object) -> dict:
    data: dict = {"name": "x", "total_steps": 1000}
    if prefix == "rllib.":
        data["algorithm"] = "rllib_ppo"
    section = data
    for part in prefix.rstrip(".").split(".") if prefix else []:
        section = section.setdefault(part, {})
    section[key] = value
    return data


def test_the_walk_finds_the_numbers() -> None:
    found = {prefix + key for prefix, key, _ in NUMERIC_KEYS}
    assert {"seed", "total_steps", "ppo.learning_rate", "warm_start.holdout"} <= found
    assert {"rllib.num_gpus_per_learner", "pool.self_play", "eval.final_games"} <= found
    assert len(found) >= 40


@pytest.mark.parametrize("bad", [float("inf"), float("-inf"), float("nan")], ids=str)
@pytest.mark.parametrize(
    ("prefix", "key"),
    [(p, k) for p, k, kind in NUMERIC_KEYS if kind == "float"],
    ids=lambda x: x,
)
def test_every_float_key_refuses_infinity_and_nan(prefix, key, bad) -> None:
    with pytest.raises(ConfigError) as info:
        config_from_dict(_config_with(prefix, key, bad))
    assert str(info.value) == f"config: {prefix}{key}: {bad!r} is not a finite number"


@pytest.mark.parametrize(
    ("prefix", "key"),
    [(p, k) for p, k, kind in NUMERIC_KEYS if kind == "int"],
    ids=lambda x: x,
)
def test_every_count_key_refuses_a_number_past_int64(prefix, key) -> None:
    with pytest.raises(ConfigError) as info:
        config_from_dict(_config_with(prefix, key, 2**70))
    message = str(info.value)
    assert message.startswith(f"config: {prefix}{key}: "), message
    assert "\n" not in message, message
    assert re.search(r"2\*\*63 - 1|2\*\*32 - 1|less than or equal to \d+", message), message


@pytest.mark.parametrize(
    ("prefix", "key"),
    [(p, k) for p, k, kind in NUMERIC_KEYS if kind in ("int", "float")],
    ids=lambda x: x,
)
def test_every_numeric_key_refuses_a_negative_number(prefix, key) -> None:
    """No number of a config means anything below 0 (or below 1: counts of things)."""
    with pytest.raises(ConfigError) as info:
        config_from_dict(_config_with(prefix, key, -1))
    assert str(info.value).startswith(f"config: {prefix}{key}: "), str(info.value)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"ppo": {"learning_rate": 2}}, r"ppo\.learning_rate: .*less than or equal to 1, got 2"),
        ({"warm_start": {"learning_rate": 1.5}}, r"warm_start\.learning_rate: .*equal to 1"),
        (
            {"env": {"num_players": [2, 3], "player_weights": [1e308, 1e308]}},
            r"player_weights must add up to a finite number",
        ),
        ({"pool": {"self_play": 1e308, "random": 1e308}}, r"pool weights .* finite number"),
        ({"eval": {"workers": 257}}, r"eval\.workers: accepted 1\.\.256 processes"),
        ({"eval": {"final_workers": 1000}}, r"eval\.final_workers: accepted 1\.\.256"),
        (
            {"n_envs": 300, "vec_env": "subproc"},
            r"n_envs \(vec_env: subproc\): accepted 1\.\.256 processes",
        ),
        ({"eval": {"games": 10**7 + 1}}, r"eval\.games: accepted at most 10,000,000 games"),
        ({"eval": {"final_games": 10**8}}, r"eval\.final_games: accepted at most 10,000,000"),
        ({"warm_start": {"bc_games": 10**8}}, r"warm_start\.bc_games: accepted at most"),
        ({"ppo": {"n_steps": 10**8}}, r"ppo\.n_steps \* n_envs: 200,000,000 steps per update"),
        (
            {"algorithm": "rllib_ppo", "seed": 2**32 - 1, "rllib": {"num_env_runners": 2}},
            r"seed: with rllib\.num_env_runners 2 the runners' seeds go up to 4294967297",
        ),
        (
            {"algorithm": "rllib_ppo", "rllib": {"train_batch_size": 10**9}},
            r"rllib\.train_batch_size: 1,000,000,000 steps per update need a",
        ),
        ({"algorithm": "rllib_ppo", "rllib": {"num_env_runners": 10**5}}, r"num_env_runners"),
        ({"seed": True}, r"seed: Input should be a valid integer, got True"),
        ({"seed": 1.5}, r"seed: 1\.5 is not a whole number"),
    ],
)
def test_numbers_out_of_range_name_the_key_and_the_range(data, expected) -> None:
    with pytest.raises(ConfigError, match=expected) as info:
        config_from_dict({"name": "x", "total_steps": 1000, **data})
    assert "\n" not in str(info.value)


def test_the_edges_of_the_ranges_are_accepted() -> None:
    config = config_from_dict(
        {
            "name": "x",
            "total_steps": 2**63 - 1,
            "seed": 2**32 - 1,
            "torch_threads": os.cpu_count(),
            "ppo": {"learning_rate": 1},
            "eval": {"workers": 256, "games": 10**7},
        }
    )
    assert config.seed == 2**32 - 1 and config.torch_threads == os.cpu_count()


# -- the memory estimate ----------------------------------------------------------------
def test_the_parameter_count_is_the_one_sb3_builds() -> None:
    pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")
    from art_gallery_env.core.registry import get_game
    from art_gallery_env.training.sb3_trainer import new_mlp_model

    game = get_game(None)
    model = new_mlp_model([64, 32])
    built = sum(p.numel() for p in model.policy.parameters())
    assert built == config_checks.network_parameters(
        game.observation_size, game.num_actions, [64, 32]
    )


def test_the_memory_limit_and_its_variable(monkeypatch) -> None:
    data = {"name": "x", "total_steps": 1000, "network": {"hidden_sizes": [20000, 20000]}}
    with pytest.raises(ConfigError, match=r"13\.3 GiB to train .*at most 8 GiB"):
        config_from_dict(data)  # one extra zero of a plausible [2000, 2000]
    assert config_from_dict({**data, "network": {"hidden_sizes": [10000, 10000]}})
    monkeypatch.setenv(config_checks.MEMORY_LIMIT_VARIABLE, "16")
    assert config_from_dict(data).network.hidden_sizes == [20000, 20000]
    monkeypatch.setenv(config_checks.MEMORY_LIMIT_VARIABLE, "lots")
    with pytest.raises(ConfigError, match=r"ART_GALLERY_MAX_TRAIN_GIB: expected a positive"):
        config_from_dict(data)


def test_a_network_type_may_count_its_own_parameters(monkeypatch) -> None:
    """A network that is not two MLPs of hidden_sizes gives its own count to the estimate."""
    from art_gallery_env.training.config import NetworkConfig

    data = {"name": "x", "total_steps": 1000, "network": {"hidden_sizes": [8]}}
    assert config_from_dict(data)
    monkeypatch.setattr(
        NetworkConfig, "parameter_count", lambda self, obs, actions: 10**9, raising=False
    )
    with pytest.raises(ConfigError, match=r"has about 1,000,000,000 parameters, 14\.9 GiB"):
        config_from_dict(data)


# -- paths ------------------------------------------------------------------------------
def test_run_dir_and_name_must_be_folders(tmp_path: Path) -> None:
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    base = {"name": "x", "total_steps": 1000}
    with pytest.raises(ConfigError, match=r"run_dir: '.*a_file' cannot be a run folder: it is"):
        config_from_dict({**base, "run_dir": str(a_file)})
    with pytest.raises(ConfigError, match=r"run_dir: .*: .*a_file is a file, not a folder"):
        config_from_dict({**base, "run_dir": str(a_file / "run")})
    with pytest.raises(ConfigError, match=r"run_dir: contains a control character"):
        config_from_dict({**base, "run_dir": "runs/a\x00b"})
    with pytest.raises(ConfigError, match=r"run_dir: must name a folder"):
        config_from_dict({**base, "run_dir": "  "})
    with pytest.raises(ConfigError, match=r"name: contains a control character"):
        config_from_dict({**base, "name": "a\nb"})
    assert config_from_dict({**base, "run_dir": str(tmp_path / "new" / "run")})


def test_overrides_are_checked_as_keys_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("name: x\n")  # total_steps only on the command line
    assert load_config(path, {"total_steps": 64, "run_dir": None}).total_steps == 64
    (tmp_path / "f").write_text("")
    with pytest.raises(ConfigError, match=r"run_dir: .* it is a file"):
        load_config(path, {"total_steps": 64, "run_dir": str(tmp_path / "f")})


# -- the file -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name: [unclosed\n", r"not valid YAML: expected ',' or '\]', but got .* at line 2"),
        ("name: x\n---\nname: y\n", r"not valid YAML: .*single document"),
        ("name: x\n\ttotal_steps: 3\n", r"not valid YAML: .* at line 2, column 1"),
    ],
)
def test_bad_yaml_is_one_line_with_its_place(tmp_path, text, expected) -> None:
    _refused_in_one_line(tmp_path / "bad.yaml", text, expected)


def test_a_huge_or_deep_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text(BASE + "# " + "x" * (1 << 20) + "\n")
    with pytest.raises(ConfigError, match=r"larger than 1,048,576 bytes; not a config file"):
        load_config(path)
    path.write_text("name: " + "[" * 50_000 + "]" * 50_000 + "\n")
    with pytest.raises(ConfigError, match=r"not valid YAML"):
        load_config(path)


def test_several_problems_are_one_line_each(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(BASE + "seed: -3\nppo: {learning_rate: .inf, gamma: 2}\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    lines = str(info.value).splitlines()
    assert lines[0] == f"{path}: invalid config (3 problems)"
    assert [line.split(":")[0].strip() for line in lines[1:]] == [
        "seed",
        "ppo.learning_rate",
        "ppo.gamma",
    ]
