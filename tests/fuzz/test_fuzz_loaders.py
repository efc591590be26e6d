"""Fuzzing every loader of outside data (hypothesis): state JSON of both games, game
records, the web server's saved games, checkpoint metadata sidecars, safetensors headers,
training configs (YAML) and the web server's HTTP bodies.

Each input is either random JSON (or bytes, or text) or a valid document with a few
random mutations (a key dropped, a value replaced by other JSON, a number pushed to an
extreme, a list emptied or doubled), which reach far deeper into a loader than random
input does. Every input must end in a result or in the loader's documented error type
(its one clear line), within the deadline, and write no file. The default run tries
``EXAMPLES`` inputs per test; the ``slow`` variants try ``SLOW_EXAMPLES``.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
import struct
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from game_states import random_moves
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from art_gallery_env.core.registry import get_game

EXAMPLES = 40
SLOW_EXAMPLES = 1500
ROOT = Path(__file__).resolve().parents[2]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
EXTREMES = st.sampled_from([0, -1, 1, 2**31, 2**63, -(2**63), 10**30, True, 1.5, "", "x" * 300])


def fuzz(slow: bool = False):
    """hypothesis settings of a fuzz test: bounded examples, a generous deadline (the
    machine is shared), no database (nothing written in the checkout)."""
    return settings(
        max_examples=SLOW_EXAMPLES if slow else EXAMPLES,
        deadline=timedelta(seconds=10),
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


def _paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path into a JSON document (dict keys and list indices)."""
    out = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc[:30]):  # long lists: their first entries
            out += _paths(value, (*prefix, i))
    return out


def mutate(doc: Any, data: st.DataObject, times: int = 3) -> Any:
    """``doc`` with up to ``times`` random mutations drawn from ``data``."""
    doc = copy.deepcopy(doc)
    for _ in range(data.draw(st.integers(1, times))):
        path = data.draw(st.sampled_from(_paths(doc)))
        op = data.draw(st.sampled_from(["drop", "json", "extreme", "empty", "double", "type"]))
        doc = _apply(doc, path, op, data)
    return doc


def _apply(doc: Any, path: tuple, op: str, data: st.DataObject) -> Any:
    if not path:
        return data.draw(JSON) if op in ("json", "drop") else doc
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    key, value = path[-1], parent[path[-1]]
    if op == "drop":
        del parent[key]
    elif op == "json":
        parent[key] = data.draw(JSON)
    elif op == "extreme":
        parent[key] = data.draw(EXTREMES)
    elif op == "empty":
        parent[key] = type(value)() if isinstance(value, list | dict | str) else None
    elif op == "double" and isinstance(value, list):
        parent[key] = value + value
    elif op == "type":
        parent[key] = str(value) if not isinstance(value, str) else [value]
    return doc


def files_under(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


# -- the games' state JSON -------------------------------------------------------------------
def _played_state(game: str, players: int, moves: int, seed: int = 3) -> Any:
    spec = get_game(game)
    return random_moves(spec.setup(players, seed, dict(spec.variants)), moves, seed)


def _state_error(game: str) -> type[Exception]:
    if game == "art_gallery":
        from art_gallery_env.games.art_gallery.rules.serialize import StateFormatError
    else:
        from art_gallery_env.games.gallerist.rules.serialize import StateFormatError
    return StateFormatError


STATES = {
    (game, moves): _played_state(game, players, moves).to_dict()
    for game, players in (("art_gallery", 3), ("gallerist", 2))
    for moves in (0, 25)
}


def _check_state(key: tuple[str, int], data: st.DataObject) -> None:
    game = key[0]
    doc = mutate(STATES[key], data) if data.draw(st.booleans()) else data.draw(JSON)
    try:
        state = get_game(game).state_from_dict(doc)
    except _state_error(game):
        return
    state.legal_actions()  # a state that loads is one the engine can go on with


@pytest.mark.parametrize("key", list(STATES), ids=lambda k: f"{k[0]}-{k[1]}")
@fuzz()
@given(data=st.data())
def test_state_json_loads_or_is_a_state_format_error(key: tuple, data: st.DataObject) -> None:
    _check_state(key, data)


@pytest.mark.slow
@pytest.mark.parametrize("key", list(STATES), ids=lambda k: f"{k[0]}-{k[1]}")
@fuzz(slow=True)
@given(data=st.data())
def test_state_json_many(key: tuple, data: st.DataObject) -> None:
    _check_state(key, data)


# -- game records ------------------------------------------------------------------------------
def _record(game: str, players: int, moves: int) -> dict[str, Any]:
    from art_gallery_env.arena.records import make_record

    spec = get_game(game)
    state = spec.setup(players, 5, dict(spec.variants))
    rng, actions = random.Random(5), []
    for _ in range(moves):
        if state.is_over:
            break
        actions.append(rng.choice(state.legal_actions()))
        state.apply(actions[-1])
    return make_record(
        num_players=players,
        seed=5,
        variants=dict(spec.variants),
        agents=["random"] * players,
        actions=actions,
        breakdown=state.score_breakdown() if state.is_over else None,
        game=game,
    )


RECORDS = [_record("art_gallery", 2, 30), _record("gallerist", 2, 30)]


def _check_record(data: st.DataObject, folder: Path) -> None:
    from art_gallery_env.arena.records import RecordFormatError, load_record
    from art_gallery_env.web.replays import rescored

    base = data.draw(st.sampled_from(RECORDS))
    doc = mutate(base, data) if data.draw(st.booleans()) else data.draw(JSON)
    with contextlib.suppress(RecordFormatError):  # validated and replayed, as uploads are
        rescored(doc)
    path = folder / "record.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    before = files_under(folder)
    with contextlib.suppress(RecordFormatError):
        load_record(path)
    assert files_under(folder) == before


@fuzz()
@given(data=st.data())
def test_a_record_replays_or_is_a_record_format_error(tmp_path: Path, data: st.DataObject) -> None:
    _check_record(data, tmp_path)


@pytest.mark.slow
@fuzz(slow=True)
@given(data=st.data())
def test_records_many(tmp_path: Path, data: st.DataObject) -> None:
    _check_record(data, tmp_path)


# -- the web server's saved games --------------------------------------------------------------
@pytest.fixture(scope="module")
def saved_games(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    from art_gallery_env.web.games import GameStore

    store = GameStore(tmp_path_factory.mktemp("games"))
    out = []
    for game, players in (("art_gallery", 2), ("gallerist", 2)):
        web = store.create(players, 0, ["random"], seed=1, game=game)
        with web.lock:
            for _ in range(3):
                store.act(web, web.state.legal_actions()[0])
        out.append(web.to_json())
    return out


def _check_saved_game(data: st.DataObject, folder: Path, saved: list[dict]) -> None:
    from art_gallery_env.web.games import SavedGameError, load_game

    base = data.draw(st.sampled_from(saved))
    doc = mutate(base, data) if data.draw(st.booleans()) else data.draw(JSON)
    path = folder / f"{base['id']}.json"
    raw = data.draw(st.booleans())
    path.write_bytes(data.draw(st.binary(max_size=200)) if raw else json.dumps(doc).encode())
    before = files_under(folder)
    try:
        load_game(path)
    except SavedGameError:
        pass
    except (json.JSONDecodeError, UnicodeDecodeError):  # documented: reading the file
        assert raw
    assert files_under(folder) == before


@fuzz()
@given(data=st.data())
def test_a_saved_web_game_loads_or_is_a_saved_game_error(
    tmp_path: Path, saved_games: list[dict], data: st.DataObject
) -> None:
    _check_saved_game(data, tmp_path, saved_games)


@pytest.mark.slow
@fuzz(slow=True)
@given(data=st.data())
def test_saved_web_games_many(tmp_path: Path, saved_games: list[dict], data: st.DataObject) -> None:
    _check_saved_game(data, tmp_path, saved_games)


# -- checkpoint metadata sidecars and safetensors headers ---------------------------------------
SIDECARS = [
    json.loads((ROOT / "checkpoints" / name).read_text())
    for name in ("ppo_2p.json", "gallerist_2p.json")
]
POLICY = (ROOT / "checkpoints" / "ppo_2p.safetensors").read_bytes()


def _check_sidecar(data: st.DataObject, folder: Path) -> None:
    from art_gallery_env.agents.policy_format import CheckpointError
    from art_gallery_env.training.run_folder import check_meta_schema
    from art_gallery_env.web import app as web_app

    base = data.draw(st.sampled_from(SIDECARS))
    doc = mutate(base, data) if data.draw(st.booleans()) else data.draw(JSON)
    path = folder / "policy.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    before = files_under(folder)
    with contextlib.suppress(CheckpointError):
        check_meta_schema(doc, path)
    # the web server's set-up reads a sidecar for its game and table sizes: never fails
    meta = web_app._training_meta(path)
    web_app._trained_players(meta)
    assert isinstance(web_app._checkpoint_game(folder / "policy.zip", meta), str)
    assert files_under(folder) == before


def _header_file(data: st.DataObject) -> bytes:
    """A safetensors file: the real policy with its header mutated, or bytes cut or
    flipped, or random bytes."""
    size = struct.unpack("<Q", POLICY[:8])[0]
    header = json.loads(POLICY[8 : 8 + size])
    kind = data.draw(st.sampled_from(["header", "meta", "bytes", "cut", "random"]))
    if kind in ("header", "meta"):
        if kind == "meta":  # the policy's own metadata (a JSON string inside the header)
            key = next(iter(header["__metadata__"]))
            meta = mutate(json.loads(header["__metadata__"][key]), data)
            header["__metadata__"][key] = json.dumps(meta)
        else:
            header = mutate(header, data)
        text = json.dumps(header).encode()
        return struct.pack("<Q", len(text)) + text + POLICY[8 + size :]
    if kind == "bytes":
        blob = bytearray(POLICY)
        for _ in range(data.draw(st.integers(1, 8))):
            at = data.draw(st.integers(0, min(len(blob) - 1, 8 + size + 64)))
            blob[at] = data.draw(st.integers(0, 255))
        return bytes(blob)
    if kind == "cut":
        return POLICY[: data.draw(st.integers(0, len(POLICY) - 1))]
    return data.draw(st.binary(max_size=300))


def _check_safetensors(data: st.DataObject, folder: Path) -> None:
    from art_gallery_env.agents.policy_format import CheckpointError, load_weights
    from art_gallery_env.web import app as web_app

    path = folder / "policy.safetensors"
    path.write_bytes(_header_file(data))
    before = files_under(folder)
    with contextlib.suppress(CheckpointError):
        load_weights(path)
    game = web_app._header_game(path)  # the web server's look at the header: never fails
    assert game is None or isinstance(game, str | int | float | bool | list | dict)
    assert files_under(folder) == before


@fuzz()
@given(data=st.data())
def test_checkpoint_metadata_is_checked_or_a_checkpoint_error(
    tmp_path: Path, data: st.DataObject
) -> None:
    _check_sidecar(data, tmp_path)


@fuzz()
@given(data=st.data())
def test_a_safetensors_file_loads_or_is_a_checkpoint_error(
    tmp_path: Path, data: st.DataObject
) -> None:
    _check_safetensors(data, tmp_path)


@pytest.mark.slow
@fuzz(slow=True)
@given(data=st.data())
def test_checkpoint_files_many(tmp_path: Path, data: st.DataObject) -> None:
    _check_sidecar(data, tmp_path)
    _check_safetensors(data, tmp_path)


# -- training configs (YAML) -------------------------------------------------------------------
CONFIGS = [
    yaml.safe_load((ROOT / "configs" / name).read_text())
    for name in ("quick.yaml", "gallerist_quick.yaml")
]


def _check_config(data: st.DataObject, folder: Path) -> None:
    from art_gallery_env.training.config import load_config
    from art_gallery_env.training.config_checks import ConfigError

    kind = data.draw(st.sampled_from(["mutated", "json", "text", "bytes"]))
    path = folder / "config.yaml"
    if kind == "mutated":
        path.write_text(yaml.safe_dump(mutate(data.draw(st.sampled_from(CONFIGS)), data)))
    elif kind == "json":
        path.write_text(yaml.safe_dump(data.draw(JSON)))
    elif kind == "text":  # YAML's own syntax: anchors, tags, flows, duplicate keys
        alphabet = st.sampled_from(list("ab:-[]{}&*!|>'\"#,? \n\t0123456789."))
        path.write_text(data.draw(st.text(alphabet, max_size=200)))
    else:
        path.write_bytes(data.draw(st.binary(max_size=200)))
    before = files_under(folder)
    with contextlib.suppress(ConfigError):
        load_config(path)
    assert files_under(folder) == before


@fuzz()
@given(data=st.data())
def test_a_config_loads_or_is_a_config_error(tmp_path: Path, data: st.DataObject) -> None:
    _check_config(data, tmp_path)


@pytest.mark.slow
@fuzz(slow=True)
@given(data=st.data())
def test_configs_many(tmp_path: Path, data: st.DataObject) -> None:
    _check_config(data, tmp_path)


# -- the web server's HTTP bodies --------------------------------------------------------------
@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Any:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from art_gallery_env.web.app import create_app
    from art_gallery_env.web.limits import Limits

    app = create_app(tmp_path_factory.mktemp("web"), limits=Limits(max_client_games=10**6))
    client = TestClient(app)
    view = client.post("/api/games", json={"players": 2, "opponents": ["random"]}).json()
    return client, view


NEW_GAME = {"players": 2, "seat": 0, "opponents": ["random"], "seed": 1, "variants": {}}
STATUSES = {200, 201, 400, 404, 409, 413, 415, 422, 429, 503, 507}


def _check_http(data: st.DataObject, web: Any) -> None:
    client, view = web
    store = client.app.state.store
    kind = data.draw(st.sampled_from(["new", "action", "upload", "raw"]))
    if kind == "new":
        path, body = "/api/live/games", mutate(NEW_GAME, data)
    elif kind == "action":
        path = f"/api/live/games/{view['id']}/actions"
        body = mutate({"action": 0, "decision": view["decision"]}, data)
    else:
        path = "/api/replays"
        body = mutate(data.draw(st.sampled_from(RECORDS)), data)
    content = json.dumps(body).encode() if kind != "raw" else data.draw(st.binary(max_size=300))
    if kind == "raw":
        path = data.draw(st.sampled_from(["/api/live/games", "/api/replays", "/api/games"]))
    before = files_under(store.folder)
    response = client.post(path, content=content, headers={"content-type": "application/json"})
    assert response.status_code in STATUSES, (response.status_code, response.text[:300])
    if response.status_code >= 400:
        assert isinstance(response.json()["error"], str)
        assert files_under(store.folder) == before  # a refused request changes nothing
    elif kind != "upload":  # a game made or moved: its agents play on, then it goes
        if response.status_code == 201:
            client.delete(f"/api/games/{response.json()['id']}")
        _settle(store)


def _settle(store: Any) -> None:
    """Wait until no agents play in any game (their saves would change the files)."""
    deadline = time.monotonic() + 20
    while any(store.live.running(g) for g in store.games()):
        assert time.monotonic() < deadline, "agents still playing after 20 s"
        time.sleep(0.01)


@fuzz()
@given(data=st.data())
def test_an_http_body_is_answered_or_refused_in_clear_words(web: Any, data: st.DataObject) -> None:
    _check_http(data, web)


@pytest.mark.slow
@fuzz(slow=True)
@given(data=st.data())
def test_http_bodies_many(web: Any, data: st.DataObject) -> None:
    _check_http(data, web)


def test_a_config_with_a_control_character_is_a_config_error(tmp_path: Path) -> None:
    """Found by the fuzzer: PyYAML's reader refused a NUL byte before the config checks
    saw it, so a ReaderError escaped instead of the ConfigError naming the file."""
    from art_gallery_env.training.config import load_config
    from art_gallery_env.training.config_checks import ConfigError

    path = tmp_path / "config.yaml"
    path.write_bytes(b"total_steps: 1\x00\n")
    with pytest.raises(ConfigError, match=r"config\.yaml: not valid YAML: .*#x0000"):
        load_config(path)


def test_an_art_gallery_event_whose_kind_is_a_list_is_a_state_format_error() -> None:
    """Found by the fuzzer: an event kind that is a list (unhashable) raised TypeError."""
    from art_gallery_env.games.art_gallery.rules.serialize import StateFormatError

    doc = copy.deepcopy(STATES[("art_gallery", 25)])
    doc["events"][0] = [["bid"], {}]
    with pytest.raises(StateFormatError, match=r"events\[0\]: expected \[kind"):
        get_game("art_gallery").state_from_dict(doc)
