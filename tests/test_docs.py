"""The README is part of the API: its tables and its test command must stay true."""

from __future__ import annotations

from pathlib import Path

from art_gallery_env.games.art_gallery.env.observation import observation_table_markdown
from art_gallery_env.games.art_gallery.rules.actions import ALL_ACTION_NAMES, NUM_ACTIONS

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_observation_table_matches_the_layout() -> None:
    assert observation_table_markdown() in README, (
        "README's observation table is out of date; paste observation_table_markdown()"
    )


def test_readme_action_table_covers_all_47_ids() -> None:
    assert NUM_ACTIONS == 47 == len(ALL_ACTION_NAMES)
    for row in ("| 0–17 | move", "| 18–26 | bid", "| 27–37 | shop", "| 38–46 | pick"):
        assert row in README


TEST_COMMAND = "bash scripts/bootstrap.sh && .venv/bin/python -m pytest -n 2"
# What CI may do before the README's command: install the browser the web tests drive,
# and say it is CI (so those tests fail instead of skipping without it). Nothing else.
CI_PREREQUISITES = {
    'export CI="${CI:-1}"',
    "command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)",
}


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci_lines = [
        line.strip()
        for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith(("#", "set ", "cd "))
    ]
    assert ci_lines[-1] == TEST_COMMAND, "CI must end by running the README's test command"
    assert set(ci_lines[:-1]) <= CI_PREREQUISITES, f"unexpected CI steps: {ci_lines[:-1]}"
    assert TEST_COMMAND in README
