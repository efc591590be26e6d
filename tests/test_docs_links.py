"""Every relative link of the README and the docs leads somewhere: the file exists, and an
``#anchor`` names a heading of the target (GitHub's slugs: lower case, punctuation
dropped, spaces to hyphens). Pages move (a guide's history went to docs/research/); a
stale link is the first thing a reader trips on."""

from __future__ import annotations

import re
from pathlib import Path

from doc_pages import DOCS, ROOT

LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*```")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def prose(text: str) -> str:
    """The text outside fenced code blocks."""
    kept, inside = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            inside = not inside
        elif not inside:
            kept.append(line)
    return "\n".join(kept)


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    for line in prose(path.read_text(encoding="utf-8")).splitlines():
        if line.startswith("#"):
            base = slug(line.lstrip("#"))
            name, n = base, 1
            while name in found:  # GitHub numbers repeated headings
                name, n = f"{base}-{n}", n + 1
            found.add(name)
    return found


def broken_links(doc: Path) -> list[str]:
    broken = []
    for target in LINK.findall(prose(doc.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue  # a URL
        path_part, _, anchor = target.partition("#")
        dest = (doc.parent / path_part).resolve() if path_part else doc
        if not dest.exists():
            broken.append(f"{doc.relative_to(ROOT)}: {target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{doc.relative_to(ROOT)}: {target} (no such heading)")
    return broken


def test_every_relative_link_resolves() -> None:
    broken = [line for doc in DOCS if doc.exists() for line in broken_links(doc)]
    assert not broken, "fix these links:\n" + "\n".join(broken)


def test_slugs_follow_github() -> None:
    assert slug(" From `ppo_all` (2026-12-02): the committed checkpoint") == (
        "from-ppo_all-2026-12-02-the-committed-checkpoint"
    )
    assert slug("Solo games: `env.num_players: 1`") == "solo-games-envnum_players-1"
