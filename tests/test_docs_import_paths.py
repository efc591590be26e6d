"""The docs name the package's modules by import path: a reader types
``import art_gallery_env.arena.single_agent``, while ``import arena`` fails (the
top-level folders install as subpackages). A file path may stand next to its import path
(the layout tables); docs/architecture.md is the file map and may name files."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILE_MAP = {"architecture.md"}
INSTALLED_FOLDERS = ("agents", "arena", "training", "web")  # art_gallery_env.<folder>
PACKAGE_FOLDERS = ("core", "bridges", "games")
GAME_FOLDERS = ("rules", "env", "vector")  # art_gallery_env.games.<the doc's game>.<folder>
PATH = re.compile(r"`([a-z_]+(?:/[a-z_0-9]+)+\.py)`")


def import_path(path: str, doc: str) -> str | None:
    """The module a backticked file path names, if it is one of the package's files."""
    parts = path[: -len(".py")].split("/")
    if parts[0] == "art_gallery_env":
        file, module = ROOT / path, parts
    elif parts[0] in INSTALLED_FOLDERS:
        file, module = ROOT / path, ["art_gallery_env", *parts]
    elif parts[0] in PACKAGE_FOLDERS or parts[0] in GAME_FOLDERS:
        game = "gallerist" if doc.startswith("gallerist") else "art_gallery"
        prefix = ["games", game] if parts[0] in GAME_FOLDERS else []
        file = ROOT / "art_gallery_env" / Path(*prefix) / path
        module = ["art_gallery_env", *prefix, *parts]
    else:
        return None  # tests/, benchmarks/, scripts/: files, not modules
    if not file.exists():
        return None
    return ".".join(module[:-1] if module[-1] == "__init__" else module)


def test_docs_name_modules_by_import_path() -> None:
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    found = []
    for doc in docs:
        if doc.name in FILE_MAP:
            continue
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for match in PATH.finditer(line):
                module = import_path(match.group(1), doc.name)
                if module is not None and f"`{module}`" not in line:
                    found.append(f"{doc.name}:{number}: {match.group(1)} -> {module}")
    assert not found, "name these modules by import path:\n" + "\n".join(found)


def test_the_check_finds_a_file_path() -> None:
    assert import_path("arena/single_agent.py", "x.md") == "art_gallery_env.arena.single_agent"
    gallerist_state = "art_gallery_env.games.gallerist.rules.state"
    assert import_path("rules/state.py", "gallerist.md") == gallerist_state
    assert (
        import_path("rules/state.py", "rules.md") == "art_gallery_env.games.art_gallery.rules.state"
    )
    assert import_path("tests/test_docs.py", "x.md") is None
