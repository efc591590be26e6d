"""Shared by the docs tests: the pages a reader reads (the README, the changelog, the
checkpoints' README and everything under docs/)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = [
    ROOT / "README.md",
    ROOT / "CHANGELOG.md",
    ROOT / "checkpoints" / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
]
