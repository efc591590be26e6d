"""``--resume`` continues the checkpoint's own network, whatever the config's ``network:``
says: a config that describes another network (another type, or other layer sizes) is
refused in one line naming both, before anything in the run folder changes.

The old run is tests/legacy's tiny MaskablePPO checkpoint (written before ``network.type``
existed: an MLP of hidden_sizes [8]), laid out as a run folder; the checks run before any
training, so these tests take about a second."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")

from art_gallery_env.cli import main  # noqa: E402
from art_gallery_env.training.config import config_from_dict  # noqa: E402
from art_gallery_env.training.run_folder import RunFolderError, start_run  # noqa: E402

LEGACY = Path(__file__).resolve().parents[1] / "legacy"


def _old_run(folder: Path) -> dict[str, Any]:
    """A run folder as a run before ``network.type`` wrote it (latest and best: the legacy
    checkpoint); returns the config it saved."""
    folder.mkdir()
    for name in ("best.json", "best.zip", "best.safetensors"):
        shutil.copy(LEGACY / name, folder / name)
    shutil.copy(LEGACY / "best.json", folder / "latest.json")
    saved = json.loads((LEGACY / "best.json").read_text())["config"]
    assert "type" not in saved["network"], "the legacy checkpoint has the old form"
    return saved


def _config(saved: dict[str, Any], run: Path, network: dict[str, Any]) -> dict[str, Any]:
    """The old run's own config, continued (more steps) with ``network``."""
    config = {k: v for k, v in saved.items() if k != "rllib"}
    return {**config, "run_dir": str(run), "total_steps": 512, "network": network}


def _contents(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).digest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize(
    ("network", "words"),
    [
        (
            {"type": "entity", "hidden_sizes": [8]},
            ["mlp network", "entity network", "before network.type existed"],
        ),
        ({"type": "ebag", "hidden_sizes": [8]}, ["mlp network", "ebag network"]),
        ({"hidden_sizes": [16]}, ["network.hidden_sizes: checkpoint [8], config [16]"]),
        (
            {"type": "mlp", "hidden_sizes": [8, 8], "activation": "relu"},
            [
                "network.hidden_sizes: checkpoint [8], config [8, 8]",
                "network.activation: checkpoint tanh, config relu",
            ],
        ),
    ],
)
def test_resuming_with_another_network_is_refused_in_one_line(
    tmp_path, capsys, network, words
) -> None:
    run = tmp_path / "run"
    saved = _old_run(run)
    config_file = tmp_path / "c.yaml"
    config_file.write_text(yaml.safe_dump(_config(saved, run, network)), encoding="utf-8")
    before = _contents(run)
    argv = ["train", str(config_file), "--run-dir", str(run), "--resume", str(run)]
    with pytest.raises(SystemExit) as info:
        main([*argv, "--no-progress"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if not line.startswith(("usage:", " "))]
    assert len(lines) == 1, err  # after argparse's usage lines: one error line
    line = lines[0]
    for word in [*words, "new run folder", "set the config's network back to"]:
        assert word in line, line
    assert "{type: mlp, hidden_sizes: [8], activation: tanh}" in line, line
    assert _contents(run) == before, "a refused resume changes nothing in the run folder"
    assert sorted(p.name for p in run.iterdir()) == sorted(before)


def test_an_old_run_resumes_with_its_own_mlp_config(tmp_path) -> None:
    """A run saved before ``network.type`` counts as an MLP of its saved sizes: the same
    network with or without ``type: mlp`` is no change."""
    run = tmp_path / "run"
    saved = _old_run(run)
    for network in ({"hidden_sizes": [8]}, {"type": "mlp", "hidden_sizes": [8]}):
        start = start_run(config_from_dict(_config(saved, run, network)), resume=run)
        start.release()
        assert start.steps_done == 256
        assert not [note for note in start.notes if "network" in note], start.notes


def test_resuming_an_entity_run_with_another_network_is_refused(tmp_path) -> None:
    """A checkpoint that names its type: another type, and within the type its own keys
    (entity: token_dim), are refused in one line too."""
    run = tmp_path / "run"
    saved = _old_run(run)
    meta_path = run / "latest.json"
    meta = json.loads(meta_path.read_text())
    entity = {"type": "entity", "hidden_sizes": [8], "token_dim": 16}
    meta["config"]["network"] = config_from_dict(_config(saved, run, entity)).network.model_dump()
    meta_path.write_text(json.dumps(meta))
    for network, expected in [
        ({**entity, "token_dim": 24}, "network.token_dim: checkpoint 16, config 24"),
        ({"hidden_sizes": [8]}, "holds an entity network ({type: entity, hidden_sizes: [8], "),
    ]:
        with pytest.raises(RunFolderError) as err:
            start_run(config_from_dict(_config(saved, run, network)), resume=run)
        assert expected in str(err.value)
        assert "\n" not in str(err.value) and "before network.type" not in str(err.value)
