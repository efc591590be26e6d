"""The web server's faults: bounded searches and decisions, deleting a game
while an agent thinks, uploads only as JSON with their scores recomputed, short error
bodies, JSON for every error, corrupt games named without private data, and one message
for "no such agent or file"."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import ROOT
from fastapi.testclient import TestClient

from art_gallery_env.agents import registry
from art_gallery_env.agents.base import Agent, legal_from_mask
from art_gallery_env.agents.registry import (
    MAX_SEARCH_ITERS,
    MAX_SEARCH_SECONDS,
    agent_spec_problem,
    make_agent,
)
from art_gallery_env.arena.evaluate import MatchConfig, run_match, save_game_records
from art_gallery_env.core.registry import get_game
from art_gallery_env.web.app import create_app
from art_gallery_env.web.games import QUOTE_CHARS, GameStore
from art_gallery_env.web.limits import Limits
from art_gallery_env.web.server import BackgroundServer, allowed_hosts

JSON = {"content-type": "application/json"}


# -- search budgets have upper limits, wherever a spec is parsed --------------------------------
@pytest.mark.parametrize(
    ("spec", "limit"),
    [
        ("ismcts:iters=1000000000", f"limit of {MAX_SEARCH_ITERS} iterations"),
        ("ismcts:seconds=100000", f"limit of {MAX_SEARCH_SECONDS:g} s"),
        ("ismcts:seconds=inf", f"limit of {MAX_SEARCH_SECONDS:g} s"),
        ("ismcts:seconds=nan", f"limit of {MAX_SEARCH_SECONDS:g} s"),
        ("ismcts:iters=50,seconds=1e9", f"limit of {MAX_SEARCH_SECONDS:g} s"),
    ],
)
def test_search_budgets_over_the_limits_are_refused_in_one_line(spec: str, limit: str) -> None:
    problem = agent_spec_problem(spec)
    assert problem is not None and limit in problem and "\n" not in problem
    assert "known agents" not in problem  # about the option, not the agent's name
    with pytest.raises(ValueError, match="over the limit"):
        make_agent(spec, 0)


def test_search_budgets_at_the_limits_are_accepted() -> None:
    assert agent_spec_problem(f"ismcts:iters={MAX_SEARCH_ITERS}") is None
    assert agent_spec_problem(f"ismcts:seconds={MAX_SEARCH_SECONDS:g}") is None


def test_the_server_refuses_a_search_over_the_limits(client: TestClient) -> None:
    for spec in ("ismcts:iters=1000000000", "ismcts:seconds=100000"):
        response = client.post("/api/games", json={"players": 2, "opponents": [spec]})
        assert response.status_code == 422 and "over the limit" in response.json()["error"]
    assert client.get("/api/games").json() == []


# -- every error is JSON and quotes at most 200 characters of the input ------------------------
HUGE = 1_000_000


def _assert_short(response, status: int) -> str:
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"].startswith("application/json")
    error = response.json()["error"]
    assert len(response.content) < 5000, len(response.content)
    assert "x" * (QUOTE_CHARS + 1) not in error
    return error


def test_error_bodies_quote_at_most_200_characters_of_the_input(tmp_path: Path) -> None:
    # bodies past the default max_body_bytes (a 413) reach the checks on a server allowing them
    client = TestClient(create_app(tmp_path, limits=Limits(max_body_bytes=4 * HUGE)))
    big = "x" * HUGE
    spaced = "x " * (HUGE // 2)
    for body in (
        {"players": 2, "opponents": [big]},
        {"players": 2, "opponents": [f"ismcts:{big}=1"]},
        {"players": 2, "opponents": [f"ismcts:iters={'9' * HUGE}"]},
        {"players": 2, "opponents": [spaced]},
        {"players": 2, "opponents": ["random"], "game": big},
        {"players": 2, "opponents": ["random"], "variants": {big: True}},
        {"players": 2, "opponents": ["random"], big: 1},
    ):
        error = _assert_short(client.post("/api/games", json=body), 422)
        assert any(part * 50 in error for part in ("x", "9", "x ")), error  # quoted, but cut
    view = client.post("/api/games", json={"players": 2, "opponents": ["random"]}).json()
    response = client.post(f"/api/games/{view['id']}/actions", json={"action": big})
    _assert_short(response, 422)
    long = big[:50_000]  # httpx refuses URLs over 64 KiB
    for path in (f"/api/games/{long}", f"/api/replays/upload-{long}", f"/{long}"):
        _assert_short(client.get(path), 404)


def test_a_bad_host_header_is_a_json_error(tmp_path: Path) -> None:
    app = create_app(tmp_path, allowed_hosts=allowed_hosts("127.0.0.1"))
    client = TestClient(app, base_url="http://127.0.0.1:8000")
    assert client.get("/api/games").status_code == 200
    assert client.get("/api/games", headers={"host": "localhost:8000"}).status_code == 200
    for host in ("evil.example", "127.0.0.1.evil.example:80", "x" * HUGE):
        response = client.get("/api/games", headers={"host": host})
        error = _assert_short(response, 400)
        assert "Host header" in error and "127.0.0.1, localhost" in error


def test_ipv6_loopback_hosts_are_accepted_when_bound_to_it(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path, allowed_hosts=allowed_hosts("::1")))
    assert client.get("/api/games", headers={"host": "[::1]:8000"}).status_code == 200
    assert client.get("/api/games", headers={"host": "[::2]:8000"}).status_code == 400


def test_an_unexpected_failure_is_a_json_500_without_its_text(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> list:
        raise RuntimeError("a secret: the seed is 1234")

    monkeypatch.setattr(GameStore, "games", broken)
    response = TestClient(client.app, raise_server_exceptions=False).get("/api/games")
    error = _assert_short(response, 500)
    assert "RuntimeError" in error and "secret" not in error


# -- uploads: only as JSON, their scores recomputed ---------------------------------------------
@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished 3-player game's record, as ``eval --save-games`` writes it."""
    folder = tmp_path_factory.mktemp("records")
    config = MatchConfig(num_players=3, agents=("random",), games=1, workers=1, seed=5)
    save_game_records(run_match(config, progress=False), folder)
    (path,) = folder.glob("*.json")
    return path


@pytest.mark.parametrize(
    "content_type", [None, "text/plain", "text/plain;charset=UTF-8", "multipart/form-data"]
)
def test_an_upload_that_is_not_sent_as_json_is_refused(
    client: TestClient, record_file: Path, content_type: str | None
) -> None:
    """A page of another site can POST text/plain (a no-cors fetch, a form) without a CORS
    preflight; application/json needs one, which this server never allows."""
    headers = {"origin": "https://evil.example"}
    if content_type is not None:
        headers["content-type"] = content_type
    response = client.post("/api/replays", content=record_file.read_bytes(), headers=headers)
    error = _assert_short(response, 415)
    assert "application/json" in error
    assert client.get("/api/replays").json() == []
    assert not any((client.app.state.library.uploads).iterdir())


def test_other_posts_that_are_not_json_are_415(client: TestClient) -> None:
    body = json.dumps({"players": 2, "opponents": ["random"]}).encode()
    response = client.post("/api/games", content=body, headers={"content-type": "text/plain"})
    assert "application/json" in _assert_short(response, 415)
    assert client.get("/api/games").json() == []
    response = client.post("/api/games", content=body, headers=JSON)
    assert response.status_code == 201


def test_uploaded_scores_are_recomputed_from_the_actions(
    client: TestClient, record_file: Path
) -> None:
    record = json.loads(record_file.read_text())
    true_totals = [row["total"] for row in record["breakdown"]]
    forged = json.loads(record_file.read_text())
    for row in forged["breakdown"]:
        row["total"] = 999
    response = client.post("/api/replays", content=json.dumps(forged), headers=JSON)
    assert response.status_code == 201 and response.json()["rescored"] is True
    rid = response.json()["id"]
    (listed,) = client.get("/api/replays").json()
    assert listed["id"] == rid and listed["totals"] == true_totals != [999] * 3
    last = len(record["actions"])
    shown = client.get(f"/api/replays/{rid}?step={last}").json()
    assert "999" not in json.dumps(shown)
    # the same game with its true scores is the same upload
    response = client.post("/api/replays", content=record_file.read_bytes(), headers=JSON)
    assert response.json() == {"id": rid, "rescored": False}
    # an unfinished game claims no scores
    cut = {**record, "actions": record["actions"][:10]}
    response = client.post("/api/replays", content=json.dumps(cut), headers=JSON)
    assert response.status_code == 201
    (listed,) = [r for r in client.get("/api/replays").json() if r["id"] == response.json()["id"]]
    assert listed["totals"] is None


def test_records_in_the_records_folder_are_rescored_too(tmp_path: Path, record_file: Path) -> None:
    records = tmp_path / "records"
    records.mkdir()
    forged = json.loads(record_file.read_text())
    true_totals = [row["total"] for row in forged["breakdown"]]
    forged["breakdown"][0]["total"] = 999
    (records / "forged.json").write_text(json.dumps(forged))
    client = TestClient(create_app(tmp_path / "data", records=records))
    (listed,) = client.get("/api/replays").json()
    assert listed["totals"] == true_totals


# -- corrupt game files: named on the page, nothing private ------------------------------------
def _played_game(tmp_path: Path) -> tuple[Path, dict]:
    """A 3-player game against random agents a few decisions in, and its saved file."""
    client = TestClient(create_app(tmp_path / "data"))
    view = client.post(
        "/api/games", json={"players": 3, "opponents": ["random"], "seed": 11}
    ).json()
    for _ in range(4):
        action = next(o["action"] for o in view["choices"]["options"] if o["legal"])
        url = f"/api/games/{view['id']}/actions"
        view = client.post(url, json={"action": action, "decision": view["decision"]}).json()
    path = tmp_path / "data" / "games" / f"{view['id']}.json"
    return path, json.loads(path.read_text())


def test_a_corrupt_game_names_no_action_of_any_seat(tmp_path: Path) -> None:
    path, data = _played_game(tmp_path)
    seat = data["seat"]
    spec = get_game(data["game"])
    # the first agent's decision after the person's first: change it to an illegal one
    index = next(i for i, d in enumerate(data["deciders"]) if d != seat and i > 2)
    state = spec.setup(len(data["agents"]), data["seed"], data["variants"])
    for action in data["actions"][:index]:
        state.apply(action)
    legal = state.legal_actions()
    labels = [spec.action_to_str(a) for a in legal]
    data["actions"][index] = next(a for a in range(spec.num_actions) if a not in legal)
    path.write_text(json.dumps(data))
    client = TestClient(create_app(tmp_path / "data"))
    (problem,) = client.get("/api/setup").json()["skipped_games"]
    assert problem.startswith(path.name) and f"actions[{index}]" in problem
    assert "legal:" not in problem and not any(label in problem for label in labels)
    assert str(data["actions"][index]) not in problem.removeprefix(path.name)
    assert client.get("/api/games").json() == []


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"seed": "the-secret-seed-4242"}, "seed: expected an int"),
        ({"seed": None}, "seed: expected an int"),
        ({"rounds": 5}, "wrong type or value"),
        ({"agents": "human"}, "agents: expected a list"),
        ({"game": "nogame"}, "game: unknown game"),
        ({"actions": "x"}, "actions[0]"),
    ],
)
def test_a_damaged_field_is_named_without_its_value(
    tmp_path: Path, change: dict, words: str
) -> None:
    path, data = _played_game(tmp_path)
    path.write_text(json.dumps({**data, **change}))
    (problem,) = create_app(tmp_path / "data").state.store.skipped
    words_only = problem.removeprefix(f"{path.name}: ")  # the file name is a random id
    assert words in words_only and "secret" not in words_only
    assert str(data["seed"]) not in words_only


def test_a_missing_field_and_bad_bytes_are_named(tmp_path: Path) -> None:
    path, data = _played_game(tmp_path)
    del data["seed"]
    path.write_text(json.dumps(data))
    (path.parent / "0123456789abcdef.json").write_bytes(b'{"id": "\xff"}')
    skipped = create_app(tmp_path / "data").state.store.skipped
    assert sorted(skipped) == sorted(
        [f"{path.name}: missing field 'seed'", "0123456789abcdef.json: not UTF-8 text (byte 8)"]
    )


# -- one message for "no such agent or file" ------------------------------------------------------
def test_a_spec_naming_no_agent_gets_one_message_whatever_the_file(
    client: TestClient, tmp_path: Path
) -> None:
    """Missing, a directory, not a checkpoint, a broken checkpoint, options after a file
    that exists: the answers must not tell which files exist on the server."""
    garbage = tmp_path / "garbage.zip"
    garbage.write_bytes(b"not a zip")
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    specs = [
        "grandmaster",
        str(tmp_path / "missing"),
        str(tmp_path / "missing.zip"),
        str(tmp_path / "missing.safetensors"),
        str(tmp_path),
        str(text),
        str(garbage),
        f"{text}:deterministic=maybe",
        f"{tmp_path / 'missing'}:deterministic=maybe",
        f"{text}:x",
        f"policy:path={text}",
        f"policy:path={tmp_path / 'missing'}",
    ]
    answers = set()
    for spec in specs:
        response = client.post("/api/games", json={"players": 2, "opponents": [spec]})
        assert response.status_code == 422, spec
        error = response.json()["error"]
        assert "unknown agent or checkpoint file" in error, error
        answers.add(error.replace(repr(spec), "SPEC"))
    assert len(answers) == 1, answers
    assert client.get("/api/games").json() == []


def test_agent_options_and_offered_checkpoints_are_still_explained(client: TestClient) -> None:
    for spec, words in (
        ("ismcts:depth=3", "unknown option 'depth'"),
        ("policy", "needs path=FILE"),
        ("random:x", "must look like key=value"),
    ):
        response = client.post("/api/games", json={"players": 2, "opponents": [spec]})
        assert response.status_code == 422 and words in response.json()["error"], spec
    offered = str(ROOT / "checkpoints" / "ppo_2p.safetensors")  # the client offers this folder
    response = client.post("/api/games", json={"players": 2, "opponents": [f"{offered}:v9"]})
    assert response.status_code == 422
    assert "unknown agent or checkpoint file" not in response.json()["error"]


# -- a decision holds its game for a bounded time; a game can be deleted while an agent thinks --
class Sleepy(Agent):
    """Thinks until the test releases it (or for ``seconds``), then plays the first legal
    action; counts its decisions."""

    name = "sleepy"
    release = threading.Event()
    started = threading.Event()

    calls = 0

    def act(self, observation: Any, action_mask: Any, view: Any = None) -> int:
        Sleepy.calls += 1
        Sleepy.started.set()
        Sleepy.release.wait(20)
        return int(legal_from_mask(action_mask)[0])


@pytest.fixture
def sleepy(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The agent spec ``sleepy`` for every game, for this test only."""
    monkeypatch.setitem(registry._REGISTRY, "sleepy", lambda seed=None, **options: Sleepy())
    Sleepy.release.clear()
    Sleepy.started.clear()
    Sleepy.calls = 0
    yield "sleepy"
    Sleepy.release.set()  # let the threads still thinking end


def _agent_moves_first() -> int:
    """A seed whose 2-player game of the default game starts with seat 1 (the agent)."""
    spec = get_game(None)
    variants = spec.check_variants(None)
    return next(s for s in range(100) if spec.setup(2, s, variants).current_player == 1)


def test_a_decision_over_the_limit_frees_the_game(tmp_path: Path, sleepy: str) -> None:
    app = create_app(tmp_path / "data", decision_seconds=0.5)
    client = TestClient(app)
    start = time.monotonic()
    response = client.post(
        "/api/games", json={"players": 2, "opponents": [sleepy], "seed": _agent_moves_first()}
    )
    error = _assert_short(response, 503)
    assert time.monotonic() - start < 5
    assert "limit of 0.5 s per decision" in error and "decision 0" in error
    game_id = response.json()["id"]
    path = tmp_path / "data" / "games" / f"{game_id}.json"
    assert json.loads(path.read_text())["actions"] == []  # nothing was applied
    # the lock is free: another request is answered, waiting (boundedly) for the same thought
    assert client.get(f"/api/games/{game_id}").status_code == 503
    assert Sleepy.calls == 1  # one thread per game, not one more per request
    Sleepy.release.set()  # the agent decides at last: the next request plays its decision
    assert client.get(f"/api/games/{game_id}").status_code == 200
    saved = json.loads(path.read_text())
    agent_decisions = [d for d in saved["deciders"] if d != saved["seat"]]
    assert agent_decisions and Sleepy.calls == len(agent_decisions)  # each thought played once
    assert client.delete(f"/api/games/{game_id}").json() == {"id": game_id, "deleted": True}
    assert not path.exists() and client.get("/api/games").json() == []


def test_a_game_is_deleted_at_once_while_an_agent_thinks(tmp_path: Path, sleepy: str) -> None:
    seed = _agent_moves_first()
    with BackgroundServer(create_app(tmp_path / "data")) as server:  # the default limit
        answers: list[httpx.Response] = []
        body = {"players": 2, "opponents": [sleepy], "seed": seed}

        def create() -> None:
            answers.append(httpx.post(f"{server.url}/api/games", json=body, timeout=60))

        creating = threading.Thread(target=create)
        creating.start()
        assert Sleepy.started.wait(20)
        (listed,) = httpx.get(f"{server.url}/api/games", timeout=10).json()
        path = tmp_path / "data" / "games" / f"{listed['id']}.json"
        assert path.exists()
        start = time.monotonic()
        response = httpx.delete(f"{server.url}/api/games/{listed['id']}", timeout=10)
        assert response.status_code == 200 and time.monotonic() - start < 2
        creating.join(5)  # the request that was waiting for the agent ends too
        assert not creating.is_alive() and not Sleepy.release.is_set()
        (answer,) = answers
        assert answer.status_code == 404 and "deleted" in answer.json()["error"]
        assert not path.exists() and httpx.get(f"{server.url}/api/games").json() == []
        Sleepy.release.set()
        time.sleep(0.2)
        assert not path.exists()
        assert httpx.delete(f"{server.url}/api/games/{listed['id']}").status_code == 404


def test_a_search_is_cut_at_the_servers_limit(tmp_path: Path) -> None:
    # 0.1 s of search a decision: far below what the largest search (MAX_SEARCH_ITERS)
    # takes even on a fast idle machine (~120k iterations/s seen), so every search is cut
    client = TestClient(create_app(tmp_path / "data", decision_seconds=0.2))
    response = client.post(
        "/api/games", json={"players": 2, "opponents": ["ismcts:seconds=5"], "seed": 1}
    )
    error = _assert_short(response, 422)
    assert "limit of 0.1 s of search per decision" in error
    start = time.monotonic()
    view = client.post(
        "/api/games",
        json={"players": 2, "opponents": ["ismcts:iters=100000"], "seed": _agent_moves_first()},
    )
    assert view.status_code == 201 and time.monotonic() - start < 8
    game = client.app.state.store.get(view.json()["id"])
    searched = [entry for entry in game.insight if entry and entry.get("iterations")]
    assert searched and all(entry["iterations"] < 100_000 for entry in searched)
