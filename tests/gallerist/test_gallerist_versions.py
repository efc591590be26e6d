"""Records and saved states of the rules before gallerist_v1 are refused in one
line naming the version, not replayed into a different game."""

from __future__ import annotations

import random

import pytest

from art_gallery_env.arena.records import RecordFormatError, make_record, replay_record
from art_gallery_env.games.gallerist import ENV_VERSION
from art_gallery_env.games.gallerist.rules.serialize import StateFormatError
from art_gallery_env.games.gallerist.rules.state import GameState, new_game


def _record(seed: int = 3) -> dict:
    state, rng, actions = new_game(2, seed), random.Random(seed), []
    for _ in range(40):
        actions.append(rng.choice(state.legal_actions()))
        state.apply(actions[-1])
    return make_record(
        num_players=2, seed=seed, agents=["random", "random"], actions=actions,
        breakdown=None, game="gallerist",
    )  # fmt: skip


def test_a_record_of_this_env_version_replays():
    record = _record()
    assert ENV_VERSION == "gallerist_v1" and record["env_version"] == ENV_VERSION
    assert replay_record(record).num_players == 2


def test_a_gallerist_v0_record_is_refused_naming_both_versions():
    record = _record()
    record["env_version"] = "gallerist_v0"
    with pytest.raises(RecordFormatError, match=r"env_version: .*'gallerist_v0'.*'gallerist_v1'"):
        replay_record(record)


def test_a_version_2_saved_state_is_refused():
    saved = new_game(2, 5).to_dict()
    assert saved["version"] == 3
    saved["version"] = 2
    with pytest.raises(StateFormatError, match="version: 2 is not supported"):
        GameState.from_dict(saved)
