"""Versioned JSON for Gallerist states: bad files rejected with the bad field named and
nothing half-loaded (the round trip at every decision is the conformance suite's)."""

from __future__ import annotations

import copy
import json

import pytest
from game_states import random_moves

from art_gallery_env.games.gallerist.rules.data import game_data_from_dict
from art_gallery_env.games.gallerist.rules.serialize import StateFormatError
from art_gallery_env.games.gallerist.rules.state import GameState, new_game


def midgame(n: int = 3, seed: int = 1, steps: int = 80) -> GameState:
    return random_moves(new_game(n, seed), steps, seed)


def bad(mutate) -> dict:
    data = copy.deepcopy(midgame().to_dict())
    mutate(data)
    return data


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(format="chess"), "format"),
        (lambda d: d.update(version=99), "version"),
        (lambda d: d.update(num_players=7), "num_players"),
        (lambda d: d.pop("money"), "money: missing"),
        (lambda d: d.update(money=[1, 2]), "money: expected a list of 3"),
        (lambda d: d["money"].__setitem__(0, -5), r"money\[0\]"),
        (lambda d: d["influence"].__setitem__(1, 99), r"influence\[1\]"),
        (lambda d: d["fame"].__setitem__(0, "high"), r"fame\[0\]"),
        (lambda d: d.update(over="no"), "over: expected true or false"),
        (lambda d: d["plaza"].__setitem__(0, d["plaza"][0] + 1), "visitors"),
        (lambda d: d["deck"].append(d["deck"][0]), "contracts"),
        (lambda d: d["tickets"][0].__setitem__(0, d["tickets"][0][0] + 1), "tickets"),
        (lambda d: d["desks"].__setitem__(0, 4), "assistants|desks"),
        (lambda d: d.update(frames=[[99, 0]]), "frames"),
        (lambda d: d.update(frames=[[1, 0]]), r"frames\[0\]: kind 1 takes 2"),
        (lambda d: d.update(frames=[[1, 7, 0]]), "player 7"),
        (lambda d: d.update(kicked=[0, 3, 0]), "kicked"),
        (lambda d: d["contracts"][0].__setitem__(0, [0, 9, 0]), "state must be 0..3"),
        (lambda d: d.update(events=[["x"]]), r"events\[0\]"),
        (lambda d: d["data"].update(fingerprint="other"), "component data"),
    ],
)
def test_bad_files_name_the_field(mutate, message) -> None:
    with pytest.raises(StateFormatError, match=message):
        GameState.from_dict(bad(mutate))


def test_not_an_object() -> None:
    with pytest.raises(StateFormatError, match="JSON object"):
        GameState.from_dict([1, 2])  # type: ignore[arg-type]


def test_other_component_data_must_be_passed_to_load() -> None:
    from importlib import resources

    raw = json.loads(
        resources.files("art_gallery_env.games.gallerist")
        .joinpath("data/gallerist.json")
        .read_text()
    )
    raw["player_board"]["start_money"] = 15
    other = game_data_from_dict(raw)
    s = new_game(2, 3, data=other)
    data = s.to_dict()
    with pytest.raises(StateFormatError, match="component data"):
        GameState.from_dict(data)
    assert GameState.from_dict(data, other).money == [15, 15]
