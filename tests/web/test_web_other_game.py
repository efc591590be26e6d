"""The web app serves every registered game: set-up per game, the Gallerist
played with its drawn board and explained choices through the API and replayed,
its policies and records offered for it alone, strict variants, saved games from before
games were named, and the generic text view of a game without a web module."""

from __future__ import annotations

import dataclasses
import html
import json
import random
from pathlib import Path

import pytest
from conftest import CHECKPOINTS
from fastapi.testclient import TestClient

from art_gallery_env.agents.policy_format import save_policy_weights
from art_gallery_env.arena.evaluate import MatchConfig, run_match, save_game_records
from art_gallery_env.arena.records import replay_record
from art_gallery_env.core.registry import game_names, get_game
from art_gallery_env.games.gallerist import web_view
from art_gallery_env.games.gallerist.env.observation_fields import OBSERVATION_SIZE
from art_gallery_env.games.gallerist.render_svg import render_svg
from art_gallery_env.games.gallerist.rules.actions import LOCATION_NAMES, NUM_ACTIONS
from art_gallery_env.web.app import create_app
from art_gallery_env.web.games import WebGame, load_game
from art_gallery_env.web.views import GameWeb, game_log, game_view, released_insight

GALLERIST = "gallerist"


def _gallerist_policy(path: Path, metadata: bool) -> None:
    """A tiny Gallerist policy; ``metadata``: with training metadata beside it (else its
    game is only in the policy header)."""
    import numpy as np

    weights = {
        "layers.0.weight": np.zeros((4, OBSERVATION_SIZE)),
        "layers.0.bias": np.zeros(4),
        "layers.1.weight": np.zeros((NUM_ACTIONS, 4)),
        "layers.1.bias": np.zeros(NUM_ACTIONS),
    }
    save_policy_weights(
        weights, {"hidden_sizes": [4], "activation": "tanh", "game": GALLERIST}, path
    )
    if metadata:
        path.with_suffix(".json").write_text(json.dumps({"game": GALLERIST}))


def legal(view: dict) -> list[int]:
    return [o["action"] for o in view["choices"]["options"] if o["legal"]]


def post_game(client: TestClient, **body) -> dict:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


# -- set-up -----------------------------------------------------------------------------------
def _check_game_setup(game: dict) -> None:
    """One game of /api/setup is its spec's: title, table sizes, variants with defaults,
    the generic agents, and checkpoints of that game only."""
    spec = get_game(game["name"])
    assert game["title"] == spec.title
    assert game["players"] == list(range(spec.min_players, spec.max_players + 1))
    assert game["variants"] == dict(spec.variants)
    fields = game["variant_fields"]
    assert [(v["name"], v["default"]) for v in fields] == list(spec.variants.items())
    assert all(v["type"] == type(v["default"]).__name__ and v["label"] for v in fields)
    assert {"random", "ismcts:iters=50"} <= {a["spec"] for a in game["agents"]}
    assert all(c["game"] == spec.name for c in game["checkpoints"])


def test_setup_lists_every_game_with_its_own_agents_variants_and_checkpoints(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "checkpoints"
    folder.mkdir()
    _gallerist_policy(folder / "g_meta.safetensors", metadata=True)
    _gallerist_policy(folder / "g_header.safetensors", metadata=False)
    for name in ("ppo_2p.safetensors", "ppo_2p.json"):
        (folder / name).write_bytes((CHECKPOINTS / name).read_bytes())
    setup = TestClient(create_app(tmp_path / "data", checkpoints=folder)).get("/api/setup").json()
    games = {g["name"]: g for g in setup["games"]}
    assert list(games) == game_names()
    for game in games.values():
        _check_game_setup(game)
    assert {Path(c["spec"]).name for c in games[GALLERIST]["checkpoints"]} == {
        "g_meta.safetensors",
        "g_header.safetensors",  # its game read from the policy header
    }
    assert [Path(c["spec"]).name for c in games["art_gallery"]["checkpoints"]] == [
        "ppo_2p.safetensors"  # no game named anywhere: the default game's
    ]
    assert games["art_gallery"]["drawn_board"] and not games["art_gallery"]["board_note"]
    assert games[GALLERIST]["drawn_board"] and not games[GALLERIST]["board_note"]
    assert setup["default_game"] == "art_gallery" and setup["players"] == [2, 3, 4, 5, 6]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"variants": {"zero": True}}, "Art Gallery has no variant 'zero' (variants: zero_is_ten)"),
        ({"variants": {"zero_is_ten": 1}}, "variants of Art Gallery: zero_is_ten (default False)"),
        ({"game": GALLERIST, "variants": {"zero_is_ten": True}}, "(variants: none)"),
        ({"game": "chess"}, "game: unknown game 'chess'; games: art_gallery"),
        ({"game": GALLERIST, "players": 5}, "players: The Gallerist is played by 1..4 players"),
        ({"variants": [True]}, "variants: Input should be a valid dictionary"),
        ({"game": 3}, "game: Input should be a valid string"),
    ],
)
def test_a_bad_game_or_variant_is_a_422_naming_the_choices(
    client: TestClient, body: dict, message: str
) -> None:
    response = client.post("/api/games", json={"players": 2, "opponents": ["random"], **body})
    assert response.status_code == 422 and message in response.json()["error"], response.text
    assert client.get("/api/games").json() == []


def test_variants_are_set_by_name_and_a_top_level_variant_still_folds_in(
    client: TestClient,
) -> None:
    store = client.app.state.store
    for body in ({"variants": {"zero_is_ten": True}}, {"zero_is_ten": True}):
        view = post_game(client, players=2, opponents=["random"], seed=1, **body)
        game = store.get(view["id"])
        assert game.variants == {"zero_is_ten": True} and game.state.zero_is_ten
        assert view["variants"] == {"zero_is_ten": True}  # the ones that differ from defaults
    view = post_game(client, players=2, opponents=["random"], seed=1)
    assert store.get(view["id"]).variants == {"zero_is_ten": False} and view["variants"] == {}


# -- the Gallerist's drawn board, through the API ---------------------------------------------
def _check_drawn_view(view: dict, game: WebGame) -> None:
    """A live Gallerist view: its board drawn from the seat's world for the seat, and one
    option per legal action named by ``action_to_str`` and explained by ``describe_choice``
    (in that world), the turn's menu grouped."""
    spec, state = game.rules, game.state
    world = state.determinize(game.seat, random.Random(0))
    assert view["drawn"] and view["board"] == render_svg(world, game.seat, game.names)
    assert set(legal(view)) == set(state.legal_actions())
    options = view["choices"]["options"]
    assert all(o["label"] == spec.action_to_str(o["action"]) for o in options)
    assert all(o["detail"] == spec.describe_choice(world, game.seat, o["action"]) for o in options)
    assert all(o["detail"] for o in options)  # every choice is explained
    groups = {o.get("group") for o in options}
    places = {f"Location action: {name}" for name in LOCATION_NAMES}  # a location's actions
    if world.phase_name in ("turn", "post", "kicked"):  # the turn's menu: every option grouped
        assert None not in groups and groups <= places | {
            "Executive action: move a visitor with a ticket (G4.2)",
            "Executive action: an assistant on a contract bonus (G4.5)",
            "Done",
        }
    else:
        assert groups == {None}
    assert view["choices"]["prompt"] == web_view.prompt(world) and "hand" not in view


def _play_to_the_end(client: TestClient, view: dict, game: WebGame) -> dict:
    """Random legal choices, by id and by name in turn, until the game is over."""
    rng, decisions = random.Random(0), 0
    while not view["over"]:
        _check_drawn_view(view, game)
        option = rng.choice([o for o in view["choices"]["options"] if o["legal"]])
        action = option["label"] if decisions % 2 else option["action"]
        before = len(game.actions)
        response = client.post(
            f"/api/games/{view['id']}/actions",
            json={"action": action, "decision": view["decision"]},
        )
        assert response.status_code == 200, response.text
        view = response.json()
        assert game.actions[before] == option["action"] and game.deciders[before] == game.seat
        decisions += 1
    assert decisions > 10
    return view


def _check_replay(client: TestClient, game: WebGame) -> None:
    """The finished game's record replays, and opens in the replay viewer for any seat."""
    spec = game.rules
    record = client.get(f"/api/games/{game.id}/record").json()
    assert record["game"] == GALLERIST and record["agents"] == game.agents
    assert replay_record(record).score_breakdown() == game.state.score_breakdown()
    listed = {r["id"]: r for r in client.get("/api/replays").json()}
    assert listed[f"game-{game.id}"]["game"] == GALLERIST
    for step, viewer in ((0, "all"), (3, "0"), (7, "1"), (len(game.actions), "all")):
        shown = client.get(f"/api/replays/game-{game.id}?step={step}&viewer={viewer}").json()
        assert shown["step"] == step and shown["board"].startswith("<svg") and shown["drawn"]
        if step:
            decision = shown["decision"]
            assert decision["seat"] == game.deciders[step - 1]
            assert decision["label"] == spec.action_to_str(game.actions[step - 1])
    assert shown["result"]["breakdown"] == game.state.score_breakdown()


def test_a_gallerist_game_is_played_on_its_drawn_board_and_replayed_through_the_api(
    client: TestClient,
) -> None:
    store = client.app.state.store
    view = post_game(client, game=GALLERIST, players=2, seat=1, opponents=["heuristic"], seed=5)
    game = store.get(view["id"])
    assert view["game"] == GALLERIST and view["title"] == "The Gallerist" and view["drawn"]
    assert game.agents == ["heuristic", "human"] and game.game == GALLERIST
    view = _play_to_the_end(client, view, game)
    totals = [r["total"] for r in game.state.score_breakdown()]
    assert [r["total"] for r in view["result"]["breakdown"]] == totals
    keys = [c["key"] for c in view["result"]["columns"]]
    assert keys == [key for key, _head, _parts in web_view.RESULT_COLUMNS]
    assert set(keys) <= set(view["result"]["breakdown"][0])
    saved = json.loads((store.folder / f"{game.id}.json").read_text())
    assert saved["version"] == 2 and saved["game"] == GALLERIST and saved["variants"] == {}
    assert load_game(store.folder / f"{game.id}.json").actions == game.actions
    _check_replay(client, game)


def test_a_solo_gallerist_game_needs_no_opponents(client: TestClient) -> None:
    view = post_game(client, game=GALLERIST, players=1, opponents=[], seed=2)
    assert view["your_turn"] and view["agents"] == ["human"] and view["decision"] == 0
    response = client.post(f"/api/games/{view['id']}/actions", json={"action": legal(view)[0]})
    assert response.status_code == 200 and response.json()["decision"] == 1


def test_a_gallerist_view_is_the_same_in_every_world_of_the_seats_information_set(
    client: TestClient,
) -> None:
    """G18 for the drawn view: the board, choices, log and insight come from the seat's
    world, so other worlds of its information set give the same responses."""
    view = post_game(client, game=GALLERIST, players=3, seat=2, opponents=["random"], seed=9)
    game = client.app.state.store.get(view["id"])
    rng, checked, differs = random.Random(4), 0, 0
    while not view["over"] and checked < 25:
        truth = json.dumps([game_view(game), game_log(game), released_insight(game)])
        for k in range(2):
            world = game.state.determinize(game.seat, random.Random(100 * checked + k))
            other = dataclasses.replace(game, state=world)
            assert json.dumps([game_view(other), game_log(other), released_insight(other)]) == truth
            # a spectator's drawing of the world differs from the truth's
            differs += render_svg(world, None) != render_svg(game.state, None)
        checked += 1
        view = client.post(
            f"/api/games/{view['id']}/actions", json={"action": rng.choice(legal(view))}
        ).json()
    assert checked == 25 and differs > 10  # the test has teeth: the worlds differ


# -- other games' policies and records ---------------------------------------------------------
def test_gallerist_policies_play_the_gallerist_and_its_records_replay(tmp_path: Path) -> None:
    checkpoints, records = tmp_path / "checkpoints", tmp_path / "records"
    checkpoints.mkdir()
    _gallerist_policy(checkpoints / "gallerist_2p.safetensors", metadata=True)
    config = MatchConfig(num_players=2, agents=("random",), games=1, workers=1, game=GALLERIST)
    save_game_records(run_match(config, progress=False), records)
    client = TestClient(create_app(tmp_path / "data", checkpoints=checkpoints, records=records))
    (policy,) = client.get("/api/setup").json()["checkpoints"]
    assert policy["game"] == GALLERIST
    view = post_game(client, game=GALLERIST, players=2, opponents=[policy["spec"]], seed=1)
    assert view["agents"][1] == policy["spec"]
    response = client.post("/api/games", json={"players": 2, "opponents": [policy["spec"]]})
    assert response.status_code == 422 and "not 'art_gallery'" in response.json()["error"]
    (listed,) = client.get("/api/replays").json()
    assert listed["id"] == "file-game_0000" and listed["game"] == GALLERIST
    step = client.get("/api/replays/file-game_0000?step=4&viewer=0").json()
    assert step["step"] == 4 and step["title"] == "The Gallerist" and step["drawn"]
    response = client.post(
        "/api/replays",
        content=(records / "game_0000.json").read_bytes(),
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 201 and response.json()["id"].startswith("upload-")


# -- saved games from before games were named ---------------------------------------------------
def test_a_version_1_save_file_loads_as_the_default_game_with_its_variants(
    client: TestClient, tmp_path: Path
) -> None:
    view = post_game(
        client, players=3, opponents=["heuristic"], seed=11, variants={"zero_is_ten": True}
    )
    for _ in range(4):
        view = client.post(
            f"/api/games/{view['id']}/actions", json={"action": legal(view)[0]}
        ).json()
    path = client.app.state.store.folder / f"{view['id']}.json"
    data = json.loads(path.read_text())
    # the file version 1 wrote: no game, the variant as a top-level key
    old = {k: v for k, v in data.items() if k not in ("game", "variants")}
    old.update(version=1, zero_is_ten=True)
    folder = tmp_path / "old" / "games"
    folder.mkdir(parents=True)
    (folder / path.name).write_text(json.dumps(old))
    again = TestClient(create_app(tmp_path / "old"))
    assert again.app.state.store.skipped == []
    game = again.app.state.store.get(view["id"])
    assert game.game == "art_gallery" and game.variants == {"zero_is_ten": True}
    assert game.state.zero_is_ten and game.actions == data["actions"]
    assert again.get(f"/api/games/{view['id']}").json() == view  # the same page
    response = again.post(f"/api/games/{view['id']}/actions", json={"action": legal(view)[0]})
    assert response.status_code == 200
    rewritten = json.loads((folder / path.name).read_text())
    assert rewritten["version"] == 2 and rewritten["variants"] == {"zero_is_ten": True}


# -- the generic view, unit by unit ---------------------------------------------------------------
def test_the_generic_view_of_a_game_without_a_web_module() -> None:
    """The Gallerist's spec without its web capability: the text board, one button per
    legal action explained by describe_choice, the spec's score parts."""
    spec = dataclasses.replace(get_game(GALLERIST), capabilities=frozenset(), extensions={})
    web = GameWeb(spec)
    assert web.module is None and not web.drawn and len(web.colours) >= spec.max_players
    state = spec.setup(2, 3)
    text = html.escape(spec.render_text(state, 0))
    assert web.board(state, 0, ["a", "b"]) == f'<pre class="text-board">{text}</pre>'
    shown = web.choices(state, state.current_player)
    assert [o["action"] for o in shown["options"]] == state.legal_actions()
    assert shown["prompt"].startswith("Your decision")
    keys = [c["key"] for c in web.result_columns()]
    assert keys == [key for key, _ in spec.score_parts] + ["total", "rank"]
    before = state.clone()
    action = state.legal_actions()[0]
    state.apply(action)
    assert web.decision_label(before, state, action, None) == spec.action_to_str(action)
    assert not web.insight_released(0, state)  # other seats' insight waits for the end
    art = GameWeb(get_game("art_gallery"))
    assert art.drawn and art.insight_release == "the end of its round"
    assert [c["key"] for c in art.result_columns()][-3:] == ["total", "tiles", "rank"]


def test_a_gallerist_record_with_policy_insight_replays_with_it(tmp_path: Path) -> None:
    """``eval --insight`` records of the Gallerist: the replay shows each checkpoint or
    search decision's insight, its actions named, for a spectator and the deciding seat;
    another seat sees it only at the end (others' secret cards shape it, G18)."""
    checkpoints, records = tmp_path / "checkpoints", tmp_path / "records"
    checkpoints.mkdir()
    policy = checkpoints / "tiny.safetensors"
    _gallerist_policy(policy, metadata=True)
    config = MatchConfig(
        num_players=2,
        agents=(str(policy), "ismcts:iters=4"),
        games=1,
        workers=1,
        game=GALLERIST,
        insight=True,
    )
    save_game_records(run_match(config, progress=False), records)
    client = TestClient(create_app(tmp_path / "data", checkpoints=checkpoints, records=records))
    (listed,) = client.get("/api/replays").json()
    record = json.loads((records / "game_0000.json").read_text())
    steps = len(record["actions"])
    kinds = {}
    for step in range(1, steps, max(1, steps // 40)):
        shown = client.get(f"/api/replays/{listed['id']}?step={step}&viewer=all").json()
        insight = shown["insight"]
        assert insight is not None and insight["seat"] == shown["decision"]["seat"]
        assert all(
            t["label"] == get_game(GALLERIST).action_to_str(t["action"]) for t in insight["top"]
        )
        kinds[insight["kind"]] = insight
        other = 1 - insight["seat"]
        hidden = client.get(f"/api/replays/{listed['id']}?step={step}&viewer={other}").json()
        assert hidden["insight"] is None and "end of the game" in hidden["insight_release"]
    assert set(kinds) == {"policy", "search"}
    assert kinds["policy"]["legal"] >= 1 and kinds["search"]["iterations"] in (0, 4)
    last = client.get(f"/api/replays/{listed['id']}?step={steps}&viewer=0").json()
    assert last["insight"] is not None  # the game is over: released to every seat
