"""Which env versions' records replay: the same game under an env version that changed only
a default (Art Gallery v0 -> v1: illegal_action) replays; an unknown version is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from art_gallery_env.arena.records import RecordFormatError, replay_record, validate_record

LEGACY_RECORD = Path(__file__).resolve().parents[1] / "legacy" / "record_3p.json"


def _record() -> dict:
    return json.loads(LEGACY_RECORD.read_text(encoding="utf-8"))


def test_an_art_gallery_v0_record_still_replays() -> None:
    data = _record()
    assert data["env_version"] == "art_gallery_v0"
    record = validate_record(data)
    state = replay_record(record)
    assert state.is_over


def test_a_record_of_an_unknown_env_version_is_refused_naming_both() -> None:
    data = _record()
    data["env_version"] = "art_gallery_v9"
    with pytest.raises(RecordFormatError, match="art_gallery_v9.*art_gallery_v1"):
        validate_record(data)
