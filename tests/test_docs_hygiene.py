"""The repository reads as a product: no tracked text file speaks of how the project is
developed (numbered steps, work sittings, tracker numbers) or names an absolute path of
the machine it was developed on. A reader cannot follow "see stop 26" or open
``/work/exp/run.yaml``; a guide says how, and the research log (docs/research/) says what
was measured, when.

The allow-list is small and precise: a pattern that would flag a legitimate word names
the legitimate phrase, and a recorded artefact (a file a run or an old release wrote,
kept byte for byte) is named with the reason."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEXT_SUFFIXES = {".py", ".md", ".yaml", ".yml", ".toml", ".txt", ".sh", ".js", ".html",
                 ".css", ".json", ".cfg", ".ini", ""}  # fmt: skip

# Words about the development process, and absolute paths of a development machine.
PROCESS = re.compile(r"session|stop [0-9]|sitting|issue [0-9]|#[0-9]{2}\b", re.IGNORECASE)
MACHINE_PATH = re.compile(r"/work/|/tmp/pytest|/root/|/home/[a-z]")

# "session" where it is the legitimate word: a terminal play session (PlaySession), an
# ONNX Runtime session, a process session (start_new_session), a Ray or pytest session;
# "sitting" where a player sits at the table.
LEGITIMATE = re.compile(
    r"PlaySession|terminal session|the session's prompts|session = PlaySession"
    r"|session\.run\(|session_out|self\.session = session|self\.session|session: PlaySession"
    r"|InferenceSession|SessionOptions|session = ort\.|ort session"
    r"|start_new_session"
    r"|Ray sessions?|session on the machine"
    r"|scope=\"session\"|Session-scoped fixtures|test session|the session takes"
    r"|sitting clockwise",  # rules.md: the player sitting clockwise next to the holder
)

# Recorded artefacts: what a training run or an old release wrote, kept as written (the
# tests read them as such); the path inside is a record of where that run ran.
RECORDED = {
    "checkpoints/exit_all.json": "the metadata the exit_all run wrote with its checkpoint",
    "tests/legacy/best.json": "a checkpoint metadata file of an old release, read by tests",
    "tests/test_docs_hygiene.py": "this test: the patterns and the examples it must catch",
}


def tracked_text_files() -> list[str]:
    """Every tracked file that is text (by suffix), except the recorded artefacts."""
    names = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    return [
        name
        for name in names
        if Path(name).suffix in TEXT_SUFFIXES and name not in RECORDED and (ROOT / name).is_file()
    ]


def offending_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) for each line with a process word or a machine path."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        cleaned = LEGITIMATE.sub("", line)
        if PROCESS.search(cleaned) or MACHINE_PATH.search(line):
            found.append((number, line.strip()))
    return found


def test_no_file_speaks_of_the_development_process() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    found = []
    for name in tracked_text_files():
        try:
            text = (ROOT / name).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        found += [f"{name}:{n}: {line[:120]}" for n, line in offending_lines(text)]
    assert not found, (
        "say how (a guide) or what was measured when (docs/research/), not how the project "
        "was developed, and name no path of a development machine:\n" + "\n".join(found)
    )


@pytest.mark.parametrize(
    "line",
    [
        "Retrained in stop 26, see issue 24",
        "a session of work",
        "the run of one sitting",
        "see #41 for details",
        "config in /work/exp/s26/a.yaml",
        "written to /tmp/pytest-of-root/x",
    ],
)
def test_the_check_flags_process_words_and_machine_paths(line: str) -> None:
    assert offending_lines(line) == [(1, line)]


@pytest.mark.parametrize(
    "line",
    [
        "session = ort.InferenceSession('ppo_2p.onnx')",
        "subprocess.Popen(args, start_new_session=True)",
        '@pytest.fixture(scope="session")',
        "it can run beside other Ray sessions",
        "colour #333 and step 40",
        "the 12 stops of the tour",
    ],
)
def test_the_check_passes_legitimate_words(line: str) -> None:
    assert offending_lines(line) == []
