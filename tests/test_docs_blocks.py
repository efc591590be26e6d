"""Every code block of the README and the docs either runs or says on purpose that it is
not Python to run.

- Every fence names its language. ```` ```python ```` blocks run, each on its own, as a
  script (``__name__ == "__main__"``) in a fresh interpreter, in an empty folder that links
  the repository's ``checkpoints/`` and ``configs/`` (a block may read them; what it writes
  stays in the folder). ```` ```bash ````, ```` ```text ````, ```` ```yaml ```` ... are
  shell commands, output or file contents, and are not run.
- The line just before a fence may carry a marker:
  ``<!-- no-run: why -->`` (an excerpt or a signature, not a whole program; the reason is
  required) or ``<!-- slow-run: why -->`` (it trains or needs minutes: it runs with the
  slow tests, ``-m slow``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from doc_pages import DOCS, ROOT

FENCE = re.compile(r"^(\s*)```(.*)$")
MARKER = re.compile(r"^<!--\s*(no-run|slow-run)\s*:\s*(\S.*?)\s*-->\s*$")
RUN_LANGUAGES = {"python", "py"}
LINKED = ("checkpoints", "configs")
BLOCK_TIMEOUT_S = 600
# One thread per numeric library: the blocks run beside other tests on 2 cores, where
# torch's and BLAS's default thread pools spin against each other (15x the CPU time of
# one PPO update here).
ONE_THREAD = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}


@dataclass(frozen=True)
class Block:
    """One fenced block: where it is, its language, its marker and its text."""

    doc: str
    line: int
    language: str
    marker: str | None
    code: str

    @property
    def name(self) -> str:
        return f"{self.doc}:{self.line}"


def blocks_of(text: str, doc: str) -> list[Block]:
    """The fenced blocks of one Markdown text, in order."""
    lines = text.splitlines()
    blocks, start, language, marker, body = [], None, "", None, []
    for number, line in enumerate(lines, 1):
        match = FENCE.match(line)
        if start is None and match:
            start, language, body = number, match.group(2).strip(), []
            previous = lines[number - 2].strip() if number > 1 else ""
            found = MARKER.match(previous)
            marker = found.group(1) if found else None
        elif start is not None and match and not match.group(2).strip():
            blocks.append(Block(doc, start, language, marker, "\n".join(body) + "\n"))
            start = None
        elif start is not None:
            body.append(line)
    if start is not None:
        raise AssertionError(f"{doc}:{start}: a code fence is never closed")
    return blocks


def all_blocks() -> list[Block]:
    found = []
    for path in DOCS:
        if path.exists():
            found += blocks_of(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    return found


BLOCKS = all_blocks()
RUNNABLE = [b for b in BLOCKS if b.language in RUN_LANGUAGES and b.marker != "no-run"]


def test_every_fence_names_its_language() -> None:
    unnamed = [b.name for b in BLOCKS if not b.language]
    assert not unnamed, (
        "name each block's language (python runs; bash, text, yaml, json ... do not):\n"
        + "\n".join(unnamed)
    )


def test_markers_stand_before_python_blocks_only() -> None:
    odd = [b.name for b in BLOCKS if b.marker and b.language not in RUN_LANGUAGES]
    assert not odd, "a no-run/slow-run marker belongs before a python block:\n" + "\n".join(odd)


def test_the_collector_reads_languages_markers_and_bodies() -> None:
    text = (
        "a\n```python\nx = 1\n```\n<!-- no-run: an excerpt -->\n```py\nf(\n```\n```text\nout\n```\n"
    )
    found = blocks_of(text, "x.md")
    assert [(b.line, b.language, b.marker, b.code) for b in found] == [
        (2, "python", None, "x = 1\n"),
        (6, "py", "no-run", "f(\n"),
        (9, "text", None, "out\n"),
    ]


def run_block(block: Block, folder: Path) -> subprocess.CompletedProcess[str]:
    for name in LINKED:
        (folder / name).symlink_to(ROOT / name, target_is_directory=True)
    script = folder / "block.py"
    script.write_text(block.code, encoding="utf-8")
    env = {**os.environ, **ONE_THREAD, "MPLBACKEND": "Agg", "PYTHONHASHSEED": "0"}
    return subprocess.run(
        [sys.executable, script.name],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=BLOCK_TIMEOUT_S,
    )


@pytest.mark.parametrize(
    "block",
    [
        pytest.param(b, id=b.name, marks=[pytest.mark.slow] if b.marker == "slow-run" else [])
        for b in RUNNABLE
    ],
)
def test_the_block_runs(block: Block, tmp_path: Path) -> None:
    result = run_block(block, tmp_path)
    assert result.returncode == 0, f"{block.name} fails as written:\n{result.stderr[-3000:]}"


def test_a_failing_block_is_caught(tmp_path: Path) -> None:
    block = Block("x.md", 1, "python", None, "print(state)\n")
    result = run_block(block, tmp_path)
    assert result.returncode != 0 and "NameError" in result.stderr
