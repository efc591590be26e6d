"""The web server's API: set-up, play, bad requests, saving and restarting, replays."""

from __future__ import annotations

import json
import random
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from conftest import ROOT
from fastapi.testclient import TestClient

from art_gallery_env.arena.records import load_record, replay_record
from art_gallery_env.cli import main
from art_gallery_env.web import games as games_module
from art_gallery_env.web.app import create_app
from art_gallery_env.web.games import load_game
from art_gallery_env.web.server import allowed_hosts

PPO_2P = "checkpoints/ppo_2p.safetensors"
JSON = {"content-type": "application/json"}  # uploads are read only as JSON


def legal_options(view: dict) -> list[int]:
    return [o["action"] for o in view["choices"]["options"] if o["legal"]]


def new_game(client: TestClient, **body) -> dict:
    body = {"players": 3, "seat": 0, "opponents": ["random"], **body}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def game_file(client: TestClient, game_id: str) -> Path:
    return client.app.state.store.folder / f"{game_id}.json"


# -- set-up and a whole game ----------------------------------------------------------------
def test_setup_offers_agents_and_the_checkpoint_folder(client: TestClient) -> None:
    setup = client.get("/api/setup").json()
    assert setup["players"] == [2, 3, 4, 5, 6]
    assert {"random", "heuristic", "ismcts:iters=50"} <= {a["spec"] for a in setup["agents"]}
    names = {Path(c["spec"]).name: c["label"] for c in setup["checkpoints"]}
    assert "trained at 2 players" in names["ppo_2p.safetensors"]
    assert "trained at 2-6 players" in names["ppo_all.safetensors"]  # mixed tables
    assert len(setup["colours"]) == 6
    (ours,) = [g for g in setup["games"] if g["name"] == setup["default_game"]]
    strength = [entry["spec"] for entry in ours["strength"]]  # measured, strongest first
    assert strength[0] == "exit_all.safetensors" and strength[-1] == "random"
    assert '<main id="app"' in client.get("/").text
    assert "function renderGame" in client.get("/static/app.js").text


@pytest.mark.parametrize("seed", range(4))
def test_agents_play_until_the_persons_turn(client: TestClient, seed: int) -> None:
    opponents = ["heuristic", "random", "random"]
    view = new_game(client, players=4, seat=3, opponents=opponents, seed=seed)
    state = client.app.state.store.get(view["id"]).state
    assert view["your_turn"] and state.current_player == 3 and not state.is_over
    # every seat from the start player on moved and bid before seat 3
    assert view["decision"] == 2 * ((3 - state.round_starter) % 4)
    assert view["names"][3] == "You (P3)" and view["agents"][3] == "human"
    assert view["recent"][0].startswith("-- round 1 begins")
    assert set(legal_options(view)) == set(state.legal_actions())
    assert view["board"].startswith("<svg") and "You (P3)" in view["board"]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_a_whole_game_against_random_through_the_api(client: TestClient, players: int) -> None:
    view = new_game(client, players=players, seat=1, opponents=["random"], seed=players)
    store = client.app.state.store
    rng = random.Random(1)
    while not view["over"]:
        state = store.get(view["id"]).state
        assert set(legal_options(view)) == set(state.legal_actions())
        before = len(store.get(view["id"]).actions)
        action = rng.choice(legal_options(view))
        response = client.post(
            f"/api/games/{view['id']}/actions",
            json={"action": action, "decision": view["decision"]},
        )
        view = response.json()
        game = store.get(view["id"])
        assert game.actions[before] == action and game.deciders[before] == 1
    game = store.get(view["id"])
    breakdown = game.state.score_breakdown()
    assert view["result"]["breakdown"] == breakdown
    assert view["result"]["verdict"]
    assert view["choices"] is None and view["phase"] == "game over"
    record = client.get(f"/api/games/{view['id']}/record").json()
    final = replay_record(record)
    assert [r["total"] for r in final.score_breakdown()] == [r["total"] for r in breakdown]
    assert record["agents"][1] == "human"
    response = client.post(f"/api/games/{view['id']}/actions", json={"action": 0})
    assert response.status_code == 409 and "the game is over" in response.json()["error"]
    assert client.get(f"/api/replays/game-{view['id']}?step=3").json()["step"] == 3


def test_actions_may_be_given_by_name(client: TestClient) -> None:
    view = new_game(client, seed=4)
    option = next(o for o in view["choices"]["options"] if o["legal"])
    response = client.post(f"/api/games/{view['id']}/actions", json={"action": option["label"]})
    assert response.status_code == 200
    assert client.app.state.store.get(view["id"]).actions[view["decision"]] == option["action"]


# -- bad requests -----------------------------------------------------------------------------
def test_an_illegal_action_is_refused_naming_the_legal_ones_and_nothing_changes(
    client: TestClient,
) -> None:
    view = new_game(client, seed=5)
    path = game_file(client, view["id"])
    saved = path.read_bytes()
    illegal = next(o for o in view["choices"]["options"] if not o["legal"])  # move 0 acw
    for action in (illegal["action"], 40, 99, -1, "fly away", True, 3.0):
        response = client.post(f"/api/games/{view['id']}/actions", json={"action": action})
        assert 400 <= response.status_code < 500, (action, response.text)
        error = response.json()["error"]
        assert "action" in error
        if type(action) is int and action in (illegal["action"], 40):
            assert "is not legal now; legal: " in error and legal_options(view)
            assert {o["action"] for o in response.json()["legal"]} == set(legal_options(view))
    assert path.read_bytes() == saved
    assert client.get(f"/api/games/{view['id']}").json() == view


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"players": 4, "seat": 4, "opponents": ["random"]}, 422, "seat: must be in 0..3, got 4"),
        ({"players": 3, "seat": -1, "opponents": ["random"]}, 422, "seat: must be in 0..2"),
        ({"players": 7, "seat": 0, "opponents": ["random"]}, 422, "players: Input should be"),
        ({"players": 4, "opponents": ["random", "random"]}, 422, "need 3 agent specs"),
        ({"players": 2, "opponents": ["grandmaster"]}, 422, "unknown agent or checkpoint file"),
        ({"players": 2, "opponents": ["ismcts:iters=0"]}, 422, "iters must be a positive"),
        ({"players": 2, "opponents": ["human"]}, 422, "'human' plays only at your own seat"),
        ({"players": "2", "opponents": ["random"]}, 422, "players: Input should be"),
        ({"players": 2, "opponents": ["random"], "colour": "red"}, 422, "colour: Extra inputs"),
        ({"opponents": ["random"]}, 422, "players: Field required"),
    ],
)
def test_bad_set_ups_are_4xx_naming_the_problem(
    client: TestClient, body: dict, status: int, message: str
) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == status and message in response.json()["error"], response.text
    assert client.get("/api/games").json() == []


def test_malformed_json_unknown_games_and_stale_clicks(client: TestClient) -> None:
    view = new_game(client, seed=6)
    url = f"/api/games/{view['id']}/actions"
    response = client.post(
        url, content=b'{"action": 3', headers={"content-type": "application/json"}
    )
    assert response.status_code == 400 and "malformed JSON" in response.json()["error"]
    response = client.post(
        "/api/games", content=b"[1, 2", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400 and "malformed JSON" in response.json()["error"]
    for path in ("/api/games/0123456789abcdef", "/api/games/x/log", "/api/games/a/b/c"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert "no game" in response.json()["error"] or "no such page" in response.json()["error"]
    response = client.post("/api/games/0123456789abcdef/actions", json={"action": 0})
    assert response.status_code == 404
    # a second click on the same decision is refused, not applied to the next decision
    action = legal_options(view)[0]
    first = client.post(url, json={"action": action, "decision": view["decision"]})
    assert first.status_code == 200
    saved = game_file(client, view["id"]).read_bytes()
    again = client.post(url, json={"action": action, "decision": view["decision"]})
    assert again.status_code == 409 and "reload the game" in again.json()["error"]
    assert game_file(client, view["id"]).read_bytes() == saved


def test_a_live_game_has_no_record_yet(client: TestClient) -> None:
    """Its record holds the seed, which reveals every hidden card."""
    view = new_game(client, players=2, seed=7)
    response = client.get(f"/api/games/{view['id']}/record")
    assert response.status_code == 409 and "still being played" in response.json()["error"]
    response = client.get(f"/api/replays/game-{view['id']}")
    assert response.status_code == 409
    assert client.get("/api/replays").json() == []


def test_other_hosts_are_refused_when_bound_to_loopback(tmp_path: Path) -> None:
    app = create_app(tmp_path, allowed_hosts=["127.0.0.1", "localhost"])
    client = TestClient(app, base_url="http://127.0.0.1:8000")
    assert client.get("/api/games").status_code == 200
    assert client.get("/api/games", headers={"host": "evil.example"}).status_code == 400


# -- saved after every decision; a restart continues identically ----------------------------------
def test_every_decision_is_saved_atomically(client: TestClient, monkeypatch) -> None:
    saved_lengths = []
    real = games_module.atomic_write_json

    def spy(path, data, **options):
        saved_lengths.append(len(data["actions"]))
        return real(path, data, **options)

    monkeypatch.setattr(games_module, "atomic_write_json", spy)
    view = new_game(client, players=4, opponents=["heuristic"], seed=8)
    for _ in range(6):
        view = client.post(
            f"/api/games/{view['id']}/actions", json={"action": legal_options(view)[0]}
        ).json()
    assert saved_lengths == list(range(len(saved_lengths)))  # 0 (set-up), 1, 2, ...: each one
    assert saved_lengths[-1] == view["decision"]
    assert not list(game_file(client, view["id"]).parent.glob(".*.tmp"))


def _truncate(path: Path, keep: int) -> None:
    """The file a server killed right after decision ``keep`` would have left."""
    data = json.loads(path.read_text())
    for key in ("actions", "deciders", "rounds", "insight"):
        data[key] = data[key][:keep]
    path.write_text(json.dumps(data))


@pytest.mark.slow
@pytest.mark.parametrize("opponents", [["heuristic", "ismcts:iters=20", PPO_2P], ["random"]])
def test_a_restarted_server_continues_every_game_identically(
    tmp_path: Path, opponents: list[str]
) -> None:
    """Kill the server at any decision (here: a copy of the games folder truncated to that
    decision, agents' or person's), start a new one on it: it continues to the very game
    the first server plays on."""
    first = TestClient(create_app(tmp_path / "a"))
    view = new_game(first, players=4, seat=1, opponents=opponents, seed=21)
    choices = random.Random(3)
    human_moves: list[int] = []
    for _ in range(12):
        human_moves.append(choices.choice(legal_options(view)))
        view = first.post(
            f"/api/games/{view['id']}/actions", json={"action": human_moves[-1]}
        ).json()
    path = game_file(first, view["id"])
    game = first.app.state.store.get(view["id"])
    for keep in (len(game.actions), len(game.actions) - 2, 5):
        folder = tmp_path / f"b{keep}" / "games"
        folder.mkdir(parents=True)
        shutil.copy(path, folder)
        _truncate(folder / path.name, keep)
        second = TestClient(create_app(tmp_path / f"b{keep}"))
        resumed = second.get(f"/api/games/{view['id']}").json()
        again = second.app.state.store.get(view["id"])
        if keep == len(game.actions):
            assert resumed == view  # nothing to redo: the same page, byte for byte
        # the person's moves after the cut are played again; agents decide by themselves
        mine = [a for a, seat in zip(game.actions, game.deciders) if seat == 1]
        todo = mine[sum(1 for s in again.deciders if s == 1) :]
        for action in todo:
            resumed = second.post(
                f"/api/games/{view['id']}/actions", json={"action": action}
            ).json()
        assert again.actions == game.actions and again.insight == game.insight
        assert resumed["board"] == view["board"]


def test_unreadable_game_files_are_skipped_and_named(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "0123456789abcdef.json").write_text("{not json")
    app = create_app(tmp_path)
    (problem,) = app.state.store.skipped
    assert problem.startswith("0123456789abcdef.json")
    assert TestClient(app).get("/api/setup").json()["skipped_games"] == [problem]


def test_the_saved_file_is_the_documented_format(client: TestClient) -> None:
    view = new_game(client, players=2, opponents=[PPO_2P], seed=9)
    data = json.loads(game_file(client, view["id"]).read_text())
    assert data["format"] == "art-gallery-env/web-game" and data["version"] == 2
    assert data["game"] == "art_gallery" and data["variants"] == {"zero_is_ten": False}
    assert data["state"]["format"] == "art-gallery-env/state"
    assert len(data["actions"]) == len(data["insight"]) == view["decision"]
    assert load_game(game_file(client, view["id"])).actions == data["actions"]


# -- policy insight ----------------------------------------------------------------------------
@pytest.mark.slow
def test_insight_of_other_seats_waits_for_the_end_of_its_round(client: TestClient) -> None:
    view = new_game(client, players=2, seat=1, opponents=[PPO_2P], seed=10)
    rng = random.Random(2)
    seen_pending = seen_released = False
    while not view["over"]:
        game = client.app.state.store.get(view["id"])
        this_round = [
            i
            for i, (r, s) in enumerate(zip(game.rounds, game.deciders))
            if s == 0 and r == view["round"]
        ]
        assert view["insight_pending"] == len(this_round)
        seen_pending |= bool(this_round)
        for entry in view["insight"]:
            assert entry["round"] < view["round"] and entry["seat"] == 0
            assert entry["kind"] == "policy" and entry["value"] is None
            assert entry["top"][0]["label"] and 0 < entry["top"][0]["p"] <= 1
            seen_released = True
        full = client.get(f"/api/games/{view['id']}/insight").json()["insight"]
        assert all(e["round"] < view["round"] for e in full)
        view = client.post(
            f"/api/games/{view['id']}/actions", json={"action": rng.choice(legal_options(view))}
        ).json()
    assert seen_pending and seen_released
    full = client.get(f"/api/games/{view['id']}/insight").json()["insight"]
    game = client.app.state.store.get(view["id"])
    assert len(full) == sum(1 for s in game.deciders if s == 0)  # all released at the end


# -- replays -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def records_client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    tmp_path = tmp_path_factory.mktemp("replays")
    records = tmp_path / "records"
    argv = ["eval", "--players", "3", "--agents", PPO_2P, "ismcts:iters=10", "random"]
    argv += ["--games", "1", "--workers", "1", "--no-progress", "--save-games", str(records)]
    assert main([*argv, "--insight"]) == 0
    shutil.copy(ROOT / "tests" / "legacy" / "record_3p.json", records / "legacy_3p.json")
    (records / "broken.json").write_text("{}")
    return TestClient(create_app(tmp_path / "data", records=records))


@pytest.mark.slow
def test_replays_list_eval_records_and_step_through_them(records_client: TestClient) -> None:
    listed = {r["id"]: r for r in records_client.get("/api/replays").json()}
    files = {rid for rid in listed if rid.startswith("file-")}
    assert files == {"file-game_0000", "file-legacy_3p"}  # broken.json is left out
    assert listed["file-game_0000"]["insight"] and not listed["file-legacy_3p"]["insight"]
    record = load_record(ROOT / "tests" / "legacy" / "record_3p.json")
    steps = len(record["actions"])
    hidden_bids = 0
    for step in range(0, steps + 1, 7):
        view = records_client.get(f"/api/replays/file-legacy_3p?step={step}&viewer=1").json()
        assert view["step"] == step and view["steps"] == steps and view["board"].startswith("<svg")
        if step:
            decision = view["decision"]
            assert decision["index"] == step - 1
            hidden_bids += decision["label"] == "bid ?"
            assert decision["seat"] != 1 or decision["label"] != "bid ?"
    assert hidden_bids > 0
    end = records_client.get(f"/api/replays/file-legacy_3p?step={steps}").json()
    assert [r["total"] for r in end["result"]["breakdown"]] == [
        r["total"] for r in record["breakdown"]
    ]


def test_replay_insight_follows_the_viewer(records_client: TestClient) -> None:
    record = load_record(records_client.app.state.library.folder / "game_0000.json")
    final = replay_record(record)
    assert final.is_over
    checked = {"own": 0, "spectator": 0, "hidden": 0, "released": 0}
    for step in range(1, len(record["actions"]) + 1, 3):
        insight = record["insight"][step - 1]
        if insight is None:
            continue
        views = {
            v: records_client.get(f"/api/replays/file-game_0000?step={step}&viewer={v}").json()
            for v in ("all", "0", "1", "2")
        }
        seat = views["all"]["decision"]["seat"]
        assert views["all"]["insight"]["kind"] == insight["kind"]
        assert views[str(seat)]["insight"] is not None
        checked["spectator"] += 1
        checked["own"] += 1
        other = str((seat + 1) % 3)
        after_round = views["all"]["round"]
        if after_round == views["all"]["decision"]["round"] and step < len(record["actions"]):
            assert views[other]["insight"] is None
            checked["hidden"] += 1
        else:
            assert views[other]["insight"] is not None
            checked["released"] += 1
    assert all(checked.values()), checked


def test_bad_replay_requests(records_client: TestClient) -> None:
    for path, status, message in (
        ("/api/replays/file-legacy_3p?viewer=3", 422, "viewer: must be 'all' or a seat in 0..2"),
        ("/api/replays/file-legacy_3p?viewer=me", 422, "viewer"),
        ("/api/replays/file-legacy_3p?step=100000", 422, "step: must be in 0.."),
        ("/api/replays/file-legacy_3p?step=-1", 422, "step"),
        ("/api/replays/file-nothing", 404, "no record"),
        ("/api/replays/file-..%2Fsecret", 404, "no such page"),
        ("/api/replays/file-..", 404, "no record"),
        ("/api/replays/upload-..", 404, "no record"),
        ("/api/replays/file-broken", 422, "record 'file-broken'"),
        ("/api/replays/elsewhere-x", 404, "no record"),
    ):
        response = records_client.get(path)
        assert response.status_code == status and message in response.json()["error"], path


def test_uploaded_records_are_checked_stored_and_replayed(records_client: TestClient) -> None:
    text = (ROOT / "tests" / "legacy" / "record_3p.json").read_bytes()
    response = records_client.post("/api/replays", content=text, headers=JSON)
    assert response.status_code == 201
    rid = response.json()["id"]
    assert rid.startswith("upload-")
    again = records_client.post("/api/replays", content=text, headers=JSON)
    assert again.json()["id"] == rid  # idempotent
    assert rid in {r["id"] for r in records_client.get("/api/replays").json()}
    assert records_client.get(f"/api/replays/{rid}?step=5").json()["step"] == 5
    response = records_client.post("/api/replays", content=b"{nope", headers=JSON)
    assert response.status_code == 400 and "malformed JSON" in response.json()["error"]
    bad = json.loads(text)
    bad["actions"][0] = 1  # move 0 acw: never legal
    response = records_client.post("/api/replays", content=json.dumps(bad), headers=JSON)
    assert response.status_code == 422 and "actions[0]" in response.json()["error"]


@pytest.mark.parametrize("players", [2, 5])
def test_choices_offer_every_legal_action_and_say_why_others_are_not(players: int) -> None:
    """For every decision of random games: the legal options are exactly the engine's
    legal actions, and each illegal option shown names its reason (R4.3, R4.5, R5.1)."""
    from art_gallery_env.games.art_gallery.rules.state import new_game as engine_game
    from art_gallery_env.web.views import choices

    reasons = ("a 0 moves clockwise only", "is full", "a pile is empty", "needs a card of")
    illegal_seen = set()
    for seed in range(6):
        state, rng = engine_game(players, seed), random.Random(seed)
        while not state.is_over:
            offered = choices(state, state.current_player)
            legal = {o["action"] for o in offered["options"] if o["legal"]}
            assert legal == set(state.legal_actions())
            for option in offered["options"]:
                if not option["legal"]:
                    assert any(r in option["detail"] for r in reasons), option
                    illegal_seen.add(option["kind"])
            state.apply(rng.choice(state.legal_actions()))
    assert illegal_seen == {"move", "shop"}


def test_allowed_hosts_follow_the_bound_address() -> None:
    assert allowed_hosts("127.0.0.1") == ["127.0.0.1", "localhost"]
    assert allowed_hosts("127.0.0.2") == ["127.0.0.1", "localhost", "127.0.0.2"]
    assert allowed_hosts("localhost") == ["127.0.0.1", "localhost"]
    assert "::1" in allowed_hosts("::1")
    assert allowed_hosts("0.0.0.0") is None and allowed_hosts("192.168.1.5") is None


@pytest.mark.slow
def test_art_gallery_serve_starts_a_server(tmp_path: Path) -> None:
    """The command a person runs on a fresh clone: a real process on a free port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    command = [sys.executable, "-m", "art_gallery_env.cli", "serve", "--port", str(port)]
    proc = subprocess.Popen(
        [*command, "--data", str(tmp_path / "games")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                setup = httpx.get(f"http://127.0.0.1:{port}/api/setup", timeout=2).json()
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        # run from the repository, it offers the committed checkpoints
        assert "ppo_2p.safetensors" in {Path(c["spec"]).name for c in setup["checkpoints"]}
        page = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
        assert page.status_code == 200 and "app.js" in page.text
        refused = httpx.get(f"http://127.0.0.1:{port}/", headers={"host": "evil.example"})
        assert refused.status_code == 400
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=10)
    assert f"Art Gallery on http://127.0.0.1:{port}/" in out.decode()
