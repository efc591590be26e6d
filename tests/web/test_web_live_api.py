"""The live endpoints (web/moves.py) over HTTP: no request waits for an agent, a long poll
returns each agent decision as it is saved, and the agents' thread survives errors,
deletions and restarts."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from art_gallery_env.agents import registry as agent_registry
from art_gallery_env.agents.base import Agent
from art_gallery_env.agents.registry import make_agent
from art_gallery_env.web.app import create_app


class Sleepy(Agent):
    """A random agent that takes ``seconds`` to decide, or fails with ``fail=1``."""

    def __init__(self, seed: int | None = None, seconds: str = "0.3", fail: str = "0") -> None:
        self.inner = make_agent("random", seed)
        self.seconds, self.fail = float(seconds), fail == "1"
        self.name = "sleepy"

    def reset(self, seed: int | None = None) -> None:
        self.inner.reset(seed)

    def act(self, observation: Any, action_mask: Any, view: Any = None) -> Any:
        time.sleep(self.seconds)
        if self.fail:
            raise RuntimeError("no idea")
        return self.inner.act(observation, action_mask, view)


@pytest.fixture(autouse=True)
def sleepy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(agent_registry._REGISTRY, "sleepy", Sleepy)


def new_game(client: TestClient, opponent: str, seed: int = 1) -> dict[str, Any]:
    body = {"players": 2, "seat": 1, "opponents": [opponent], "seed": seed}
    response = client.post("/api/live/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def follow(client: TestClient, view: dict[str, Any]) -> list[dict[str, Any]]:
    """Long-poll until the person's turn: every view the server sent."""
    views = []
    while view["agents_playing"] or view.get("unchanged"):
        url = f"/api/live/games/{view['id']}?after={view['decision']}&wait=5"
        view = {**view, **client.get(url).json()}
        views.append(view)
    return views


def test_a_new_game_and_a_decision_are_answered_before_any_agent_decides(
    tmp_path: Path,
) -> None:
    client = TestClient(create_app(tmp_path / "data"))
    t0 = time.monotonic()
    view = new_game(client, "sleepy:seconds=0.4", seed=1)
    assert time.monotonic() - t0 < 0.4 + 1  # not after the agent's first decision...
    store = client.app.state.store
    game = store.get(view["id"])
    if not view["your_turn"]:  # ...which comes after: seat 0 starts here
        assert view["agents_playing"] and view["thinking"] == {"seat": 0, "name": game.names[0]}
        views = follow(client, view)
        assert [v["decision"] for v in views if not v.get("unchanged")] == list(
            range(1, len(game.actions) + 1)
        )
        view = views[-1]
    assert view["your_turn"] and not view["agents_playing"]
    # the person's decisions until the agent's turn: each answered with the agent not yet at it
    while view["your_turn"]:
        action = next(o["action"] for o in view["choices"]["options"] if o["legal"])
        body = {"action": action, "decision": view["decision"]}
        view = client.post(f"/api/live/games/{view['id']}/actions", json=body).json()
        assert view["last_move"]["seat"] == 1 and view["last_move"]["lines"]
    assert view["agents_playing"] and view["thinking"]["seat"] == 0
    mine = view["decision"]
    assert len(game.actions) == mine  # the agent had not decided when the answer came
    late = client.post(f"/api/live/games/{view['id']}/actions", json={"action": 0})
    assert late.status_code == 409 and "agents are still playing" in late.json()["error"]
    views = follow(client, view)
    shown = [v for v in views if not v.get("unchanged")]
    assert [v["decision"] for v in shown] == list(range(mine + 1, len(game.actions) + 1))
    assert all(v["last_move"]["seat"] == 0 for v in shown)  # each decision, as it came
    assert shown[-1]["your_turn"] and shown[-1]["thinking"] is None
    # the live view is the plain API's view (the one the no-leak tests check), plus its fields
    plain = client.get(f"/api/games/{view['id']}").json()
    assert {k: v for k, v in shown[-1].items() if k in plain} == plain
    assert time.monotonic() - t0 < 30


def test_an_agent_error_stops_the_agents_until_a_retry(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "data"))
    store = client.app.state.store
    for seed in range(20):  # a seed where the failing agent (seat 0) starts
        view = new_game(client, "sleepy:seconds=0,fail=1", seed=seed)
        if not view["your_turn"]:
            break
    # with seconds=0 the agent may fail before the game's first view is built: then that
    # view already carries the error and there is nothing to follow
    views = follow(client, view) or [view]
    error = views[-1]["agent_error"]
    assert error["status"] == 500 and "no idea" in error["error"]
    assert not views[-1]["agents_playing"] and views[-1]["decision"] == 0
    again = client.get(f"/api/live/games/{view['id']}").json()  # no retry: nothing starts
    assert again["agent_error"] == error and not again["agents_playing"]
    retried = client.get(f"/api/live/games/{view['id']}?retry=true").json()
    assert retried["agents_playing"] or retried["agent_error"]
    assert len(store.get(view["id"]).actions) == 0


def test_a_restarted_server_lets_owed_agents_play_and_a_deleted_game_stops(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    client = TestClient(create_app(data))
    for seed in range(20):
        view = new_game(client, "sleepy:seconds=0.5", seed=seed)
        if not view["your_turn"]:
            break
    old = client.app.state.store.get(view["id"])
    old.deleted = True  # the process dies: its thread applies and writes nothing more
    restarted = TestClient(create_app(data))
    again = restarted.get(f"/api/live/games/{view['id']}").json()
    assert again["agents_playing"] and again["decision"] == 0  # started by the request
    views = follow(restarted, again)
    assert views[-1]["your_turn"]
    game = restarted.app.state.store.get(view["id"])
    # a deletion while the agent thinks: the thread stops, nothing is written
    while game.your_turn:
        action = game.state.legal_actions()[0]
        body = {"action": action, "decision": len(game.actions)}
        restarted.post(f"/api/live/games/{game.id}/actions", json=body)
    assert restarted.delete(f"/api/games/{game.id}").status_code == 200
    time.sleep(1.0)
    assert not (data / "games" / f"{game.id}.json").exists()
    assert restarted.get(f"/api/live/games/{game.id}").status_code == 404


class _StopsWhenReadUnlocked:
    """A live entry whose agents' thread stops on an error just as ``error`` is read,
    unless the reader holds the lock the thread needs (as the thread then must wait)."""

    def __init__(self, games: Any, game: Any) -> None:
        self._games, self._game = games, game
        self.running, self._error = True, None
        self.view, self.decision = None, -1

    @property
    def error(self) -> dict[str, Any] | None:
        seen = self._error
        if self.running and not self._games._lock.locked():
            self._games._stopped(self._game, self, 500, "no idea")
        return seen

    @error.setter
    def error(self, value: dict[str, Any] | None) -> None:
        self._error = value


def test_an_answer_never_says_stopped_without_the_error(tmp_path: Path) -> None:
    """The agents' state is read in one step: never 'not playing' with no error."""
    client = TestClient(create_app(tmp_path / "data"))
    view = new_game(client, "random", seed=0)
    store = client.app.state.store
    game = store.get(view["id"])
    entry = _StopsWhenReadUnlocked(store.live, game)
    answer = store.live.answer(game, entry, None)
    assert answer["agents_playing"] or answer["agent_error"] is not None, answer
