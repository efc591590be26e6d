"""No function, method or closure in the project's source over cyclomatic complexity 15.

Measured with radon's own API (``radon cc`` counts the same way), so a function that
grows past the limit fails here rather than in review. Classes are not checked: radon
scores a class from its methods' total, which would flag a class whose every method
is within the limit; the methods themselves are checked one by one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

radon_complexity = pytest.importorskip(
    "radon.complexity", reason="the complexity check needs radon (the [dev] extra)"
)
from radon.visitors import Function  # noqa: E402  (after the importorskip above)

ROOT = Path(__file__).resolve().parents[1]
SOURCE_FOLDERS = (
    "art_gallery_env",
    "agents",
    "arena",
    "training",
    "web",
    "benchmarks",
    "scripts",
)
LIMIT = 15


def source_files() -> list[Path]:
    """Every .py file under the source folders (tests and virtual environments left out)."""
    files = []
    for folder in SOURCE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT).parts
            if any(part in {".venv", "tests", "__pycache__"} for part in parts):
                continue
            files.append(path)
    return files


def function_blocks(code: str) -> list[Function]:
    """Functions, methods and closures (at any depth) of one module, as radon scores them."""
    blocks = radon_complexity.add_inner_blocks(radon_complexity.cc_visit(code))
    return [block for block in blocks if isinstance(block, Function)]


def too_complex(path: Path) -> list[str]:
    """One line per block over the limit: ``path:line name (complexity)``."""
    code = path.read_text(encoding="utf-8")
    rel = path.relative_to(ROOT).as_posix()
    return [
        f"{rel}:{block.lineno} {block.fullname} ({block.complexity})"
        for block in function_blocks(code)
        if block.complexity > LIMIT
    ]


def test_source_folders_hold_python() -> None:
    # A renamed folder would otherwise leave the check below passing over nothing.
    found = {path.relative_to(ROOT).parts[0] for path in source_files()}
    assert found == set(SOURCE_FOLDERS)


def _branchy(name: str, indent: str) -> str:
    """A function of complexity LIMIT + 1: one path plus LIMIT ``if`` statements."""
    lines = [f"def {name}(x):"] + [f"    if x == {i}:\n        return {i}" for i in range(LIMIT)]
    lines.append("    return -1")
    return "".join(indent + line.replace("\n", "\n" + indent) + "\n" for line in lines)


def test_measure_sees_methods_and_closures() -> None:
    code = (
        "class A:\n"
        + _branchy("method", "    ")
        + "def outer():\n"
        + _branchy("inner", "    ")
        + "    return inner\n"
        + _branchy("plain", "")
    )
    scores = {block.fullname: block.complexity for block in function_blocks(code)}
    assert scores["A.method"] == LIMIT + 1
    assert scores["outer.inner"] == LIMIT + 1
    assert scores["plain"] == LIMIT + 1
    assert scores["outer"] <= LIMIT  # a closure's branches are not its parent's


def test_no_function_over_complexity_limit() -> None:
    offenders = [line for path in source_files() for line in too_complex(path)]
    if offenders:
        pytest.fail(
            f"{len(offenders)} blocks over complexity {LIMIT}:\n" + "\n".join(offenders),
            pytrace=False,
        )
