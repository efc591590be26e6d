"""The replay viewer's tools in Chromium: autoplay, jumps to a round and
to a seat's decisions, the chart of each seat's running score and insight value, and the
export of the current frame as SVG and PNG. The timeline endpoint is checked over HTTP."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from conftest import CHECKPOINTS, LiveServer
from fastapi.testclient import TestClient
from playwright.sync_api import Page, expect

from art_gallery_env.arena.evaluate import MatchConfig, run_match, save_game_records
from art_gallery_env.arena.records import initial_state
from art_gallery_env.web.app import create_app

AGENTS = ("ismcts:iters=20", str(CHECKPOINTS / "ppo_2p.safetensors"), "heuristic")


@pytest.fixture(scope="module")
def insight_records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with one 3-player eval record with insight (search and checkpoint)."""
    folder = tmp_path_factory.mktemp("insight") / "records"
    save_game_records(
        run_match(MatchConfig(3, AGENTS, games=1, insight=True), progress=False), folder
    )
    return folder


def the_record(folder: Path) -> str:
    (path,) = folder.glob("*.json")
    return f"file-{path.stem}"


def test_the_timeline_is_the_records_replay(insight_records: Path, tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "data", records=insight_records))
    record_id = the_record(insight_records)
    record = client.app.state.library.get(record_id)
    line = client.get(f"/api/replays/{record_id}/timeline").json()
    n = len(record["actions"])
    assert line["steps"] == n and len(line["rounds"]) == len(line["scores"]) == n + 1
    state = initial_state(record)
    search = []
    for k, action in enumerate(record["actions"]):
        assert line["deciders"][k] == state.current_player
        if state.current_player == 0 and len(state.legal_actions()) > 1:
            search.append(k + 1)
        state.apply(action)
    assert line["scores"][-1] == [row["total"] for row in record["breakdown"]]
    assert line["rounds"][-1] == state.round
    # a value per decision of the search seat that had a choice (its chosen action's mean
    # reward; a forced move is not searched); the checkpoint has no value head, the
    # heuristic no insight
    assert [v["step"] for v in line["values"]] == search
    assert all(v["seat"] == 0 and 0 <= v["value"] <= 1 for v in line["values"])
    assert client.get("/api/replays/file-nothing/timeline").status_code == 404


@pytest.fixture
def server(tmp_path: Path, insight_records: Path) -> Any:
    with LiveServer(tmp_path / "data", insight_records) as live:
        yield live


def open_replay(page: Page, server: LiveServer, step: int = 0) -> tuple[str, dict[str, Any]]:
    record_id = the_record(server.app.state.library.folder)
    page.goto(f"{server.url}/#/replay/{record_id}?step={step}&viewer=all")
    page.wait_for_selector(".replay #chart")
    line = page.evaluate(f"fetch('/api/replays/{record_id}/timeline').then(r => r.json())")
    return record_id, line


@pytest.mark.slow
def test_autoplay_steps_by_itself_and_pauses(page: Page, server: LiveServer) -> None:
    _, line = open_replay(page, server)
    page.select_option("#speed", "150")
    page.click("#play")
    expect(page.locator("#play")).to_contain_text("Pause")
    page.wait_for_function("() => Number(document.querySelector('.replay').dataset.step) >= 4")
    page.click("#play")
    expect(page.locator("#play")).to_contain_text("Play")
    stopped = int(page.locator(".replay").get_attribute("data-step"))
    page.wait_for_timeout(600)
    assert int(page.locator(".replay").get_attribute("data-step")) == stopped
    page.keyboard.press(" ")  # space plays again
    page.wait_for_function(
        "s => Number(document.querySelector('.replay').dataset.step) > s", arg=stopped
    )


@pytest.mark.slow
def test_jump_to_a_round_and_to_a_seats_decisions(page: Page, server: LiveServer) -> None:
    _, line = open_replay(page, server)
    page.select_option("#round", "2")
    begins = line["rounds"].index(2)
    expect(page.locator("#step")).to_have_text(f"{begins} / {line['steps']}")
    expect(page.locator(".replay")).to_have_attribute("data-round", "2")
    page.select_option("#seat-jump", "1")
    page.click("#seat-next")
    after = next(k + 1 for k, s in enumerate(line["deciders"]) if s == 1 and k + 1 > begins)
    expect(page.locator("#step")).to_have_text(f"{after} / {line['steps']}")
    expect(page.locator("#decision-info .who")).to_contain_text(line["names"][1])
    page.click("#seat-prev")
    before = max(k + 1 for k, s in enumerate(line["deciders"]) if s == 1 and k + 1 < after)
    expect(page.locator("#step")).to_have_text(f"{before} / {line['steps']}")


@pytest.mark.slow
def test_the_chart_shows_scores_and_values_and_jumps(page: Page, server: LiveServer) -> None:
    _, line = open_replay(page, server, step=10)
    expect(page.locator("#chart-score polyline.line")).to_have_count(line["players"])
    expect(page.locator("#chart-value polyline.line")).to_have_count(1)  # the search seat
    expect(page.locator("#chart-value")).to_have_attribute("aria-label", "win chance (search)")
    expect(page.locator("#chart-score line.marker")).to_have_attribute("data-step", "10")
    box = page.locator("#chart-score").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] - 3, box["y"] + box["height"] / 3)  # the end
    page.wait_for_function(
        "n => Number(document.querySelector('.replay').dataset.step) >= n - 2",
        arg=line["steps"],
    )


@pytest.mark.slow
def test_export_the_frame_as_svg_and_png(page: Page, server: LiveServer) -> None:
    record_id, line = open_replay(page, server, step=12)
    with page.expect_download() as svg_download:
        page.click("#export-svg")
    assert svg_download.value.suggested_filename == f"{record_id}-step-12.svg"
    root = ET.fromstring(Path(svg_download.value.path()).read_text(encoding="utf-8"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = "".join(root.itertext())
    assert all(name in texts for name in line["names"])  # the board of this step
    with page.expect_download() as png_download:
        page.click("#export-png")
    assert png_download.value.suggested_filename == f"{record_id}-step-12.png"
    data = Path(png_download.value.path()).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(data[16:20], "big")
    assert width >= 2 * int(float(root.get("width")))  # drawn at twice the board's size
