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

from art_gallery_env.games.art_gallery.env.svg import render_svg
from art_gallery_env.games.art_gallery.rules.phases import BID, MOVE, PICK, SHOP
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


def seat_games(states: list, seed: int, game: str, variants: dict, opponent: str) -> list:
    """Each state as a web game of the person at seat ``index % n`` (the others
    ``opponent``), its events up to ``index`` seen."""
    games = []
    for index, state in enumerate(states):
        n = state.num_players
        agents = [opponent] * n
        agents[index % n] = "human"
        games.append(
            WebGame("0" * 16, index % n, agents, seed, game, variants, state, seen_events=index)
        )
    return games


def summed(check, games: list) -> tuple[int, int]:
    """``check(game, index)`` of every game: (worlds that differ, spectator drawings that
    differ), summed."""
    differs = spectator_differs = 0
    for index, game in enumerate(games):
        d, s = check(game, index)
        differs += d
        spectator_differs += s
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
    states = sample_states(n, seed)
    games = seat_games(states, seed, "art_gallery", {"zero_is_ten": False}, "random")
    differs, spectator_differs = summed(check_no_leak, games)
    assert {MOVE, BID, SHOP, PICK} <= {state.phase for state in states}
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


# -- the Gallerist (G18) -----------------------------------------------------------------------
def perturb_gallerist(state, seat: int, rng: random.Random):
    """Another state of ``seat``'s information set, drawn without ``determinize``: the other
    players' Curator and Art Dealer cards exchanged with the box's, the contract deck, the
    works below each stack's top and the bag reshuffled."""
    w = state.clone()
    others = [q for q in range(w.num_players) if q != seat]
    for dealt, box in ((w.curator, w.box_curators), (w.dealer, w.box_dealers)):
        pool = [dealt[q] for q in others] + box
        rng.shuffle(pool)
        for q in others:
            dealt[q] = pool.pop()
        box[:] = pool
    rng.shuffle(w.deck)
    for stack in w.stacks:
        below = stack[:-1]
        rng.shuffle(below)
        stack[:-1] = below
    rng.shuffle(w.bag)
    return w


def gallerist_hidden(state, seat: int) -> tuple:
    others = [q for q in range(state.num_players) if q != seat]
    return (
        [state.curator[q] for q in others],
        [state.dealer[q] for q in others],
        list(state.deck),
        [list(stack[:-1]) for stack in state.stacks],
        list(state.bag),
    )


def gallerist_states(n: int, seed: int, every: int = 23) -> list:
    """States of a game of the heuristic (even seats) and random (odd seats), every
    ``every``-th decision, and the final one."""
    from art_gallery_env.agents.registry import make_agent
    from art_gallery_env.core.loop import play_game
    from art_gallery_env.core.registry import get_game

    state = get_game("gallerist").new_game(n, seed)
    agents = [
        make_agent("random" if p % 2 else "heuristic", seed=p, game="gallerist") for p in range(n)
    ]
    out = [state.clone()]

    def keep(decision) -> None:
        if decision.index % every == every - 1:
            out.append(decision.state.clone())

    play_game(state, agents, on_decision=keep)
    return out + [state]


def check_gallerist_no_leak(game: WebGame, salt: int) -> tuple[int, int]:
    """As :func:`check_no_leak`, with the Gallerist's worlds and drawing."""
    from art_gallery_env.games.gallerist.render_svg import render_svg as gallerist_svg

    truth = responses(game)
    state, seat = game.state, game.seat
    if state.is_over:  # the final scoring reveals every card: the page shows the truth
        view = game_view(game)
        assert view["result"]["breakdown"] == state.score_breakdown()
        assert view["board"] == gallerist_svg(state, seat, game.names)
        d = state.data
        for q in range(state.num_players):
            assert f"curator: {d.curators[state.curator[q]].id}" in view["board"]
        return 0, 0
    differs = spectator_differs = 0
    others = [state.determinize(seat, random.Random(salt + k)) for k in range(2)]
    for world in [*others, perturb_gallerist(state, seat, random.Random(salt))]:
        assert responses(dataclasses.replace(game, state=world)) == truth
        differs += gallerist_hidden(world, seat) != gallerist_hidden(state, seat)
        spectator_differs += gallerist_svg(world, None) != gallerist_svg(state, None)
    return differs, spectator_differs


@pytest.mark.parametrize(
    ("n", "seed"), [(2, 1)] + [pytest.param(n, 2, marks=pytest.mark.slow) for n in (1, 3, 4)]
)
def test_gallerist_responses_are_the_same_in_every_world_of_the_seats_information_set(
    n: int, seed: int
) -> None:
    """G18 over the web: the Gallerist's board, choices, log and insight for a seat are the
    same in every world of its information set, in every kind of decision reached."""
    states = gallerist_states(n, seed)
    games = seat_games(states, seed, "gallerist", {}, "heuristic")
    differs, spectator_differs = summed(check_gallerist_no_leak, games)
    kinds = {state.phase_name for state in states}
    assert len(kinds) >= 5 and "game_over" in kinds
    assert differs > 5  # the comparison has teeth: the worlds differ in hidden fields
    # and a drawing of them for a spectator (others' secret cards) differs; solo: no others
    assert spectator_differs > 5 if n > 1 else spectator_differs == 0


def test_the_gallerist_view_hides_the_other_seats_secret_cards() -> None:
    """Teeth: the seat's drawing shows its own Curator and Art Dealer, card backs for the
    others'; a spectator sees every card."""
    from art_gallery_env.games.gallerist.render_svg import render_svg as gallerist_svg

    state = gallerist_states(3, 5)[2]
    d = state.data
    mine = gallerist_svg(state, 0)
    spectator = gallerist_svg(state, None)
    assert f"curator: {d.curators[state.curator[0]].id}" in mine
    for q in (1, 2):
        assert f"curator: {d.curators[state.curator[q]].id}" in spectator
        assert f"art dealer: {d.dealers[state.dealer[q]].id}" in spectator
    assert mine.count("(hidden)") == 4 and "(hidden)" not in spectator
    assert gallerist_svg(perturb_gallerist(state, 0, random.Random(3)), 0) == mine


@pytest.mark.slow
def test_every_api_response_of_a_real_gallerist_game_passes_the_comparison(
    client: TestClient,
) -> None:
    """A 3-player Gallerist game over HTTP against the heuristic and ISMCTS (insight):
    each response equals the one built from other worlds of the seat's information set."""
    store = client.app.state.store
    body = {
        "game": "gallerist",
        "players": 3,
        "seat": 1,
        "opponents": ["heuristic", "ismcts:iters=5"],
        "seed": 4,
    }
    view = client.post("/api/games", json=body).json()
    rng, checked = random.Random(5), 0
    while not view["over"]:
        game = store.get(view["id"])
        if checked % 5 == 0:
            assert client.get(f"/api/games/{view['id']}").json() == view
            check_gallerist_no_leak(game, checked)
            assert not view["insight"] and view["insight_pending"] >= 0  # others': at the end
        checked += 1
        legal = [o["action"] for o in view["choices"]["options"] if o["legal"]]
        view = client.post(
            f"/api/games/{view['id']}/actions", json={"action": rng.choice(legal)}
        ).json()
    check_gallerist_no_leak(store.get(view["id"]), checked)
    assert checked > 40 and view["insight"]  # the end of the game releases the insight
