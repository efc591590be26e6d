"""The ``art-gallery`` command as a shell runs it: ``--import MODULE`` registers a game from
outside the package, and in a core-only install (numpy, gymnasium, pettingzoo) every
subcommand ends in one line naming the extra to install, not a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from art_gallery_env.cli import build_parser, imports_of, main
from art_gallery_env.cli.extras import EXTRA_OF

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
SCRIPT = Path(sys.executable).parent / "art-gallery"  # the installed console script


def _shell(*argv: str, pythonpath: Path | None = TESTS) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    command = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "art_gallery_env.cli"]
    return subprocess.run(
        [*command, *argv], env=env, capture_output=True, text=True, timeout=180, cwd=ROOT
    )


def test_import_registers_a_game_for_the_documented_eval_in_a_shell() -> None:
    done = _shell(
        "--import", "sealed_bids.spec", "eval", "--game", "sealed_bids", "--agents", "random",
        "--games", "2", "--workers", "1", "--no-progress",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Sealed Bids" in done.stdout and "2 games" in done.stdout


def test_without_the_import_the_game_is_unknown_in_one_line() -> None:
    done = _shell("eval", "--game", "sealed_bids", "--agents", "random")
    assert done.returncode == 2
    assert "unknown game 'sealed_bids'; games: art_gallery" in done.stderr.splitlines()[-1]


def test_a_module_that_fails_to_import_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "broken_game.py").write_text("raise RuntimeError('half written')\n")
    for module, expected in (
        ("no_such_game.spec", "ModuleNotFoundError: No module named 'no_such_game'"),
        ("broken_game", "RuntimeError: half written"),
    ):
        done = _shell("--import", module, "demo", pythonpath=tmp_path)
        assert done.returncode == 2 and done.stdout == ""
        (line,) = done.stderr.splitlines()
        assert line.startswith(f"error: --import {module}: ") and expected in line


def test_only_the_imports_before_the_command_are_read_first() -> None:
    argv = ["--import", "a.spec", "--import=b", "eval", "--import", "c"]
    assert imports_of(argv) == ["a.spec", "b"]
    assert build_parser().parse_args(["--import", "x", "demo"]).imports == ["x"]


def test_the_deprecated_variant_flag_still_works_with_a_note(capsys) -> None:
    assert main(["demo", "--players", "2", "--seed", "3", "--zero-is-ten"]) == 0
    assert "--zero-is-ten is deprecated: use --variant zero_is_ten=true" in capsys.readouterr().err


# A core-only install, without building one: a finder refuses every module of an extra.
PROBE = """
import contextlib, importlib.abc, io, json, sys

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)

BLOCKED = set(sys.argv[1].split(","))
sys.meta_path.insert(0, Refuse())
from art_gallery_env.cli import main

results = {}
for argv in json.loads(sys.argv[2]):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = stop.code
        except BaseException as exc:
            code = f"{type(exc).__name__}: {exc}"
    results[argv[0]] = [code, err.getvalue()]
print(json.dumps(results))
"""


def test_every_subcommand_in_a_core_only_install_names_its_extra(tmp_path: Path) -> None:
    assert main(
        ["eval", "--agents", "random", "--games", "1", "--workers", "1", "--no-progress",
         "--save-games", str(tmp_path / "games")]
    ) == 0  # fmt: skip
    (record,) = (tmp_path / "games").glob("*.json")
    commands = [
        ["demo", "--players", "2"],
        ["eval", "--agents", "random", "--games", "2", "--workers", "1", "--no-progress"],
        ["play", "--opponents", "random"],
        ["replay", str(record)],
        ["train", "configs/quick.yaml", "--run-dir", str(tmp_path / "run")],
        ["exploit", "checkpoints/ppo_2p.safetensors", "--run-dir", str(tmp_path / "response")],
        ["serve", "--port", "0", "--data", str(tmp_path / "web")],
        ["export", str(tmp_path / "policy.zip"), "--onnx", str(tmp_path / "policy.onnx")],
        ["plot", str(tmp_path)],
    ]
    assert {c[0] for c in commands} == set(build_parser()._subparsers._group_actions[0].choices)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, ",".join(EXTRA_OF), json.dumps(commands)],
        capture_output=True, text=True, timeout=180, cwd=ROOT, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    for command in ("demo", "replay"):  # the core is enough for these two
        assert results[command][0] == 0, results[command]
    for command in ("eval", "play", "train", "exploit", "serve", "export", "plot"):
        code, err = results[command]
        assert code == 2 and "Traceback" not in err, (command, err)
        last = err.strip().splitlines()[-1]
        assert "extra" in last and "pip install 'art-gallery-env[" in last, (command, last)


@pytest.mark.parametrize("module", ["tqdm.auto", "matplotlib.pyplot", "yaml", "torch.nn"])
def test_the_line_names_the_extra_of_the_missing_module(module: str) -> None:
    from art_gallery_env.cli.extras import missing_extra_message

    err = ModuleNotFoundError(f"No module named {module!r}", name=module)
    line = missing_extra_message("eval", err)
    top = module.split(".")[0]
    assert line == (
        f"error: art-gallery eval needs the [{EXTRA_OF[top]}] extra ({top} is not installed): "
        f"pip install 'art-gallery-env[{EXTRA_OF[top]}]'"
    )
    assert missing_extra_message("eval", ModuleNotFoundError("x", name="not_an_extra")) is None


def test_a_policy_of_another_game_names_the_game_option(capsys) -> None:
    gallerist = str(ROOT / "checkpoints" / "gallerist_2p.safetensors")
    with pytest.raises(SystemExit):
        main(["eval", "--agents", gallerist, "random", "--games", "1", "--no-progress"])
    err = capsys.readouterr().err
    assert "a policy for the game 'gallerist', not 'art_gallery'" in err
    assert "--game gallerist" in err


def test_demo_seats_as_many_players_as_eval_by_default() -> None:
    parse = build_parser().parse_args
    assert parse(["demo"]).players == parse(["eval", "--agents", "random"]).players == 2
