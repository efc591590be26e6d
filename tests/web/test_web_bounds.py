"""The server's bounds (web/limits.py, web/store.py): caps on live games per server and per
client, on stored games and uploads, the expiry of abandoned games, memory that stays flat
past the caps, request bodies over their limit, and a decision from a stale tab."""

from __future__ import annotations

import gc
import json
import random
import time
import tracemalloc
from pathlib import Path
from types import SimpleNamespace

import pytest
import sealed_bids.spec  # noqa: F401 - registers the test game (6 decisions a game)
from fastapi.testclient import TestClient

import art_gallery_env.web.store as store_module
from art_gallery_env.web.app import create_app
from art_gallery_env.web.limits import Limits

BID = {"game": "sealed_bids", "players": 2, "opponents": ["random"]}
ART = {"players": 2, "opponents": ["random"]}


def app_client(tmp_path: Path, address: str = "10.0.0.1", **limits: float) -> TestClient:
    app = create_app(tmp_path / "data", limits=Limits(**limits))
    return TestClient(app, client=(address, 40000))


def other_client(client: TestClient, address: str) -> TestClient:
    """A second client of the same server, from another address."""
    return TestClient(client.app, client=(address, 40001))


def files(client: TestClient) -> dict[str, bytes]:
    """Every game file on disk (archive included), by name: what must never be lost."""
    folder = client.app.state.store.folder
    return {p.name: p.read_bytes() for p in folder.rglob("*.json")}


def finish(client: TestClient, view: dict, seed: int = 0) -> dict:
    """Play the person's seat to the end through the page's endpoints."""
    rng = random.Random(seed)
    while not view["over"]:
        legal = [o["action"] for o in view["choices"]["options"] if o["legal"]]
        body = {"action": rng.choice(legal), "decision": view["decision"]}
        view = client.post(f"/api/games/{view['id']}/actions", json=body).json()
    return view


def test_the_live_games_cap_refuses_with_a_503_naming_it_and_touches_nothing(
    tmp_path: Path,
) -> None:
    client = app_client(tmp_path, max_live_games=3)
    ids = [client.post("/api/games", json=ART).json()["id"] for _ in range(3)]  # agents done
    before = files(client)
    response = other_client(client, "10.0.0.9").post("/api/live/games", json=ART)
    assert response.status_code == 503
    body = response.json()
    assert body["limit"] == "max_live_games" and body["value"] == 3
    assert "max_live_games=3" in body["error"] and "3 unfinished games" in body["error"]
    assert files(client) == before  # nothing written, nothing removed
    client.delete(f"/api/games/{ids[0]}")
    assert client.post("/api/live/games", json=ART).status_code == 201  # room again


def test_the_per_client_cap_counts_one_client_address(tmp_path: Path) -> None:
    client = app_client(tmp_path, max_client_games=2)
    for _ in range(2):
        assert client.post("/api/games", json=ART).status_code == 201
    response = client.post("/api/live/games", json=ART)
    assert response.status_code == 429
    assert response.json()["limit"] == "max_client_games"
    assert "you have 2 unfinished games" in response.json()["error"]
    assert other_client(client, "10.0.0.2").post("/api/games", json=ART).status_code == 201
    # a finished game is not counted: the client may start another
    bids = app_client(tmp_path / "b", max_client_games=1)
    finish(bids, bids.post("/api/games", json=BID).json())
    assert bids.post("/api/games", json=BID).status_code == 201


def test_an_abandoned_game_leaves_memory_unchanged_on_disk_and_comes_back(
    tmp_path: Path,
) -> None:
    client = app_client(tmp_path, max_live_games=2, idle_seconds=60)
    store = client.app.state.store
    old = client.post("/api/games", json=ART).json()  # the agents played: the file holds
    client.post("/api/games", json=ART)
    saved = (store.folder / f"{old['id']}.json").read_bytes()
    store.get(old["id"]).seen -= 61  # unseen for over idle_seconds
    assert client.post("/api/live/games", json=ART).status_code == 201  # it made room
    assert old["id"] not in {g.id for g in store.games()}
    assert (store.archive / f"{old['id']}.json").read_bytes() == saved  # moved, unchanged
    # its link still works, once there is room for it: the view is the one it left
    assert client.get(f"/api/games/{old['id']}").status_code == 503  # 2 live, 2 at most
    client.delete(f"/api/games/{store.games()[0].id}")
    back = client.get(f"/api/live/games/{old['id']}").json()
    assert back["decision"] == old["decision"] and back["choices"] == old["choices"]
    assert (store.folder / f"{old['id']}.json").read_bytes() == saved
    assert not (store.archive / f"{old['id']}.json").exists()
    legal = [o["action"] for o in back["choices"]["options"] if o["legal"]]
    body = {"action": legal[0], "decision": back["decision"]}
    assert client.post(f"/api/live/games/{old['id']}/actions", json=body).status_code == 200


def test_old_finished_games_go_to_the_archive_and_their_records_still_open(
    tmp_path: Path,
) -> None:
    client = app_client(tmp_path, max_finished_games=2)
    store = client.app.state.store
    ends = [finish(client, client.post("/api/games", json=BID).json(), k) for k in range(4)]
    assert store.held()["finished"] == 2 and len(files(client)) == 4
    assert {p.stem for p in store.archive.glob("*.json")} == {ends[0]["id"], ends[1]["id"]}
    listed = {r["id"] for r in client.get("/api/replays").json()}
    assert listed == {f"game-{ends[2]['id']}", f"game-{ends[3]['id']}"}  # the newest
    record = client.get(f"/api/games/{ends[0]['id']}/record")  # archived: opens, comes back
    assert record.status_code == 200 and len(record.json()["actions"]) == 6
    assert store.held()["finished"] == 2  # and another went out for it
    assert client.delete(f"/api/games/{ends[1]['id']}").json()["deleted"]  # archived too
    assert len(files(client)) == 3


def test_the_stored_games_cap_is_a_507_and_deletes_nothing(tmp_path: Path) -> None:
    client = app_client(tmp_path, max_stored_games=3, max_finished_games=1)
    views = [finish(client, client.post("/api/games", json=BID).json(), k) for k in range(3)]
    before = files(client)
    response = client.post("/api/live/games", json=BID)
    assert response.status_code == 507 and response.json()["limit"] == "max_stored_games"
    assert "stores 3 games" in response.json()["error"]
    assert files(client) == before
    client.delete(f"/api/games/{views[0]['id']}")
    assert client.post("/api/live/games", json=BID).status_code == 201


def test_a_restarted_server_loads_only_the_newest_games_up_to_its_caps(tmp_path: Path) -> None:
    client = app_client(tmp_path, max_live_games=50)
    ids = [client.post("/api/games", json=ART).json()["id"] for _ in range(6)]
    before = files(client)
    again = app_client(tmp_path, max_live_games=4)  # the same folder, smaller caps
    store = again.app.state.store
    assert store.held() == {"live": 4, "finished": 0, "stored": 6, "archived": 0}
    assert files(again) == before  # the same files, two of them in the archive
    assert len(list(store.archive.glob("*.json"))) == 2
    assert all(again.get(f"/api/games/{i}").status_code in (200, 503) for i in ids)


@pytest.mark.parametrize("games", [200, pytest.param(1000, marks=pytest.mark.slow, id="1000-slow")])
def test_memory_stays_flat_past_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, games: int
) -> None:
    """A soak: games created one a second (a fake clock), 20 live at most, each abandoned
    after 20 s: the live count holds at the cap, every game is on disk (the abandoned ones
    archived) and traced memory does not grow with the games."""
    clock = [0.0]
    monkeypatch.setattr(store_module, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    client = app_client(tmp_path, max_live_games=20, max_client_games=20, idle_seconds=20)
    store = client.app.state.store
    body = {**BID, "seed": 1}
    codes = []

    def create(n: int) -> None:
        for _ in range(n):
            clock[0] += 1
            codes.append(client.post("/api/live/games", json=body).status_code)
            assert store.held()["live"] <= 20

    warm = games // 4
    create(warm)  # warm: caches, interned strings, the app's first calls
    gc.collect()
    tracemalloc.start()
    try:
        first, _ = tracemalloc.get_traced_memory()
        create(games - warm)
        gc.collect()
        last, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    held = store.held()
    assert held["live"] == 20 and set(codes) == {201}
    assert held["stored"] == games and len(files(client)) == games
    # unbounded, the server kept about 34 KB a game; what is left here is fixed overhead
    grown = (last - first) / (games - warm)
    print(f"{games} games, 20 live: traced memory grew {grown:.0f} bytes a game")
    assert grown < 2000, f"{grown:.0f} bytes a game"


def test_a_decision_from_a_stale_tab_says_the_game_moved_on(tmp_path: Path) -> None:
    client = app_client(tmp_path)
    tab = client.post("/api/live/games", json={**BID, "seat": 1}).json()
    tab = your_turn(client, tab)  # after the agent's first bid
    legal = [o["action"] for o in tab["choices"]["options"] if o["legal"]]
    body = {"action": legal[0], "decision": tab["decision"]}
    assert client.post(f"/api/live/games/{tab['id']}/actions", json=body).status_code == 200
    your_turn(client, tab)  # the agent's reply is saved: the files hold still
    saved = files(client)
    stale = client.post(f"/api/live/games/{tab['id']}/actions", json=body)  # the other tab
    assert stale.status_code == 409
    answer = stale.json()
    assert "this game moved on in another tab" in answer["error"]
    assert answer["moved_on"] is True and answer["decision"] > tab["decision"]
    assert files(client) == saved


def your_turn(client: TestClient, view: dict) -> dict:
    """Follow a live game until the person is to decide (or it is over)."""
    url, deadline = f"/api/live/games/{view['id']}", time.monotonic() + 20
    while time.monotonic() < deadline:
        view = client.get(f"{url}?after={view['decision']}&wait=2").json()
        if (view.get("your_turn") or view.get("over")) and not view["agents_playing"]:
            return view
    raise AssertionError("the agents did not play within 20 s")


@pytest.mark.parametrize("path", ["/api/live/games", "/api/games", "/api/games/0/actions"])
def test_five_megabytes_of_brackets_are_too_large_a_body(tmp_path: Path, path: str) -> None:
    client = app_client(tmp_path)
    response = client.post(path, content=b"[" * 5_000_000, headers=JSON)
    assert response.status_code == 413
    assert response.json()["error"].startswith("request body too large: 5000000 bytes")
    assert response.json()["limit"] == "max_body_bytes"

    def chunks():  # no Content-Length: counted as it comes
        for _ in range(100):
            yield b"[" * 1000

    response = client.post(path, content=chunks(), headers=JSON)
    assert response.status_code == 413 and "too large" in response.json()["error"]


JSON = {"content-type": "application/json"}


def test_deep_brackets_within_the_limit_are_not_json_in_clear_words(tmp_path: Path) -> None:
    client = app_client(tmp_path)
    for path in ("/api/live/games", "/api/games"):
        response = client.post(path, content=b"[" * 50_000, headers=JSON)
        assert response.status_code == 400
        assert "malformed JSON" in response.json()["error"]
        assert "nested too deeply" in response.json()["error"]
    response = client.post("/api/replays", content=b"[" * 5_000_000, headers=JSON)
    assert response.status_code == 400
    assert "nested too deeply to be a game record" in response.json()["error"]
    response = client.post("/api/replays", content=b" " * 5_000_001, headers=JSON)
    assert response.status_code == 413 and response.json()["limit"] == "max_upload_bytes"


def test_the_uploads_cap_is_a_507_and_the_same_record_again_is_not_new(tmp_path: Path) -> None:
    client = app_client(tmp_path, max_uploads=1)
    records = []
    for k in range(2):
        view = finish(client, client.post("/api/games", json={**BID, "seed": k}).json(), k)
        records.append(client.get(f"/api/games/{view['id']}/record").json())
    first = json.dumps(records[0])
    assert client.post("/api/replays", content=first, headers=JSON).status_code == 201
    uploads = client.app.state.library.uploads
    before = {p.name: p.read_bytes() for p in uploads.iterdir()}
    response = client.post("/api/replays", content=json.dumps(records[1]), headers=JSON)
    assert response.status_code == 507 and response.json()["limit"] == "max_uploads"
    assert {p.name: p.read_bytes() for p in uploads.iterdir()} == before
    assert client.post("/api/replays", content=first, headers=JSON).status_code == 201


def test_limits_refuse_a_bad_value_naming_the_limits() -> None:
    with pytest.raises(ValueError, match=r"max_live_games must be an integer > 0, got 0"):
        Limits(max_live_games=0)
    with pytest.raises(ValueError, match=r"idle_seconds must be a number > 0.*max_uploads"):
        Limits(idle_seconds=float("nan"))
