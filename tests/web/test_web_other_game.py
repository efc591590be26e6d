"""The web app draws Art Gallery only: the Gallerist's policies and records, which the
shared tools now make (issue 15, item 5), are left out or refused with the tool to use."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from art_gallery_env.agents.policy_format import save_policy_weights
from art_gallery_env.arena.evaluate import MatchConfig, run_match, save_game_records
from art_gallery_env.gallerist.env.observation_fields import OBSERVATION_SIZE
from art_gallery_env.gallerist.rules.actions import NUM_ACTIONS
from art_gallery_env.web.app import create_app


def _gallerist_policy(path: Path) -> None:
    import numpy as np

    weights = {
        "layers.0.weight": np.zeros((4, OBSERVATION_SIZE)),
        "layers.0.bias": np.zeros(4),
        "layers.1.weight": np.zeros((NUM_ACTIONS, 4)),
        "layers.1.bias": np.zeros(NUM_ACTIONS),
    }
    meta = {"hidden_sizes": [4], "activation": "tanh", "game": "gallerist"}
    save_policy_weights(weights, meta, path)
    path.with_suffix(".json").write_text(json.dumps({"game": "gallerist"}))


def test_gallerist_policies_and_records_stay_out_of_the_web_app(tmp_path: Path) -> None:
    checkpoints, records = tmp_path / "checkpoints", tmp_path / "records"
    checkpoints.mkdir()
    _gallerist_policy(checkpoints / "gallerist_2p.safetensors")
    config = MatchConfig(num_players=2, agents=("random",), games=1, workers=1, game="gallerist")
    save_game_records(run_match(config, progress=False), records)
    client = TestClient(create_app(tmp_path / "data", checkpoints=checkpoints, records=records))
    assert client.get("/api/setup").json()["checkpoints"] == []
    assert client.get("/api/replays").json() == []  # left out of the list
    response = client.get("/api/replays/file-game_0000")
    assert response.status_code == 422
    assert "a record of The Gallerist" in response.json()["error"]
    assert "art-gallery replay FILE" in response.json()["error"]
    response = client.post("/api/replays", content=(records / "game_0000.json").read_bytes())
    assert response.status_code == 422 and "a record of The Gallerist" in response.json()["error"]
