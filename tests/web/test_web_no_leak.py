"""R8 over HTTP: a response carries only what the person's seat may know.

Every response about a live game (the game view, the log, the released insight) is
compared with the same response built for other worlds of the seat's information set:
``state.determinize(seat, rng)`` for several rngs, and test_no_leak's ``perturb_hidden``,
which reshuffles the painting pile, the tiles below the pile tops, and which of each
opponent's unlocated cards are in hand or under which face-down bid (event log included).
A response that showed anything hidden would differ between these worlds. The tests also
show that they have teeth: the worlds really differ in hidden fields, and a spectator's
drawing of them differs.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from fastapi.testclient import TestClient
from test_no_leak import hidden_fields, perturb_hidden, sample_states

from art_gallery_env.env.svg import render_svg
from art_gallery_env.rules.phases import BID, MOVE, PICK, SHOP
from art_gallery_env.web.games import WebGame
from art_gallery_env.web.views import game_log, game_view, released_insight

PPO_2P = "checkpoints/ppo_2p.safetensors"


def responses(game: WebGame) -> str:
    """Everything the server answers about ``game`` to its person, as sent (JSON)."""
    return json.dumps(
        {"view": game_view(game), "log": game_log(game), "insight": released_insight(game)},
        sort_keys=True,
    )


def worlds(game: WebGame, salt: int) -> list:
    state, seat = game.state, game.seat
    out = [state.determinize(seat, random.Random(salt + k)) for k in range(2)]
    out.append(perturb_hidden(state, seat, random.Random(salt)))
    return out


def check_no_leak(game: WebGame, salt: int) -> tuple[int, int]:
    """Assert the responses are equal in every world; returns (worlds that differ from the
    truth in hidden fields, spectator drawings that differ)."""
    truth = responses(game)
    differs = spectator_differs = 0
    for world in worlds(game, salt):
        other = dataclasses.replace(game, state=world)
        assert responses(other) == truth
        differs += hidden_fields(world, game.seat) != hidden_fields(game.state, game.seat)
        spectator_differs += render_svg(world, None) != render_svg(game.state, None)
    return differs, spectator_differs


@pytest.mark.parametrize(
    ("n", "seed"),
    [(2, 3)]
    + [pytest.param(n, 3, marks=pytest.mark.slow) for n in range(3, 7)]
    + [pytest.param(n, 8, marks=pytest.mark.slow) for n in (2, 4, 6)],
)
def test_responses_are_the_same_in_every_world_of_the_seats_information_set(
    n: int, seed: int
) -> None:
    differs = spectator_differs = 0
    phases = set()
    for index, state in enumerate(sample_states(n, seed)):
        seat = index % n
        agents = ["random"] * n
        agents[seat] = "human"
        game = WebGame(
            "0" * 16,
            seat,
            agents,
            seed,
            "art_gallery",
            {"zero_is_ten": False},
            state,
            seen_events=index,
        )
        phases.add(state.phase)
        d, s = check_no_leak(game, index)
        differs += d
        spectator_differs += s
    assert {MOVE, BID, SHOP, PICK} <= phases
    assert differs > 5 and spectator_differs > 5  # the comparison has teeth


@pytest.mark.parametrize(
    ("players", "seat", "opponents"),
    [
        pytest.param(2, 0, [PPO_2P], marks=pytest.mark.slow),
        pytest.param(4, 2, ["ismcts:iters=10", "heuristic", PPO_2P], marks=pytest.mark.slow),
    ],
)
def test_every_api_response_of_real_games_passes_the_comparison(
    client: TestClient, players: int, seat: int, opponents: list[str]
) -> None:
    """Games played over HTTP against agents with insight: each response the person gets
    equals the response built from other worlds of their information set."""
    store = client.app.state.store
    checked = 0
    body = {"players": players, "seat": seat, "opponents": opponents, "seed": players}
    view = client.post("/api/games", json=body).json()
    rng = random.Random(players)
    while not view["over"]:
        game = store.get(view["id"])
        sent = {
            "view": client.get(f"/api/games/{view['id']}").json(),
            "log": client.get(f"/api/games/{view['id']}/log").json()["lines"],
            "insight": client.get(f"/api/games/{view['id']}/insight").json()["insight"],
        }
        assert json.dumps(sent, sort_keys=True) == responses(game)
        assert sent["view"] == view
        check_no_leak(game, checked)
        checked += 1
        legal = [o["action"] for o in view["choices"]["options"] if o["legal"]]
        view = client.post(
            f"/api/games/{view['id']}/actions", json={"action": rng.choice(legal)}
        ).json()
    check_no_leak(store.get(view["id"]), checked)  # and the final page
    assert checked > 40


def test_the_view_is_not_the_truth_drawn_for_a_spectator() -> None:
    """Teeth: a server that drew the board for everyone (viewer None) would fail above."""
    state = next(s for s in sample_states(4, 3) if s.phase == BID)
    world = perturb_hidden(state, 0, random.Random(1))
    assert render_svg(world, None) != render_svg(state, None)
    assert render_svg(world, 0) == render_svg(state, 0)
