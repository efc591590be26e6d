"""One installed name: the wheel holds only ``art_gallery_env`` (and its dist-info), and a
fresh venv with the project installed has no top-level ``agents`` or ``training``."""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    had_build = (ROOT / "build").exists()
    try:
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
            check=True,
            capture_output=True,
        )
    finally:
        if not had_build:  # setuptools builds in the source tree; leave no stale copy
            shutil.rmtree(ROOT / "build", ignore_errors=True)
    (path,) = out.glob("art_gallery_env-*.whl")
    return path


@pytest.mark.slow
def test_wheel_has_one_top_level_name(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"art_gallery_env"}
    for module in ("agents/policy.py", "arena/loop.py", "training/selection.py", "cli/__init__.py"):
        assert f"art_gallery_env/{module}" in names
    assert "art_gallery_env/games/art_gallery/data/paintings.json" in names
    for page in ("index.html", "app.js", "style.css"):  # the web app's page is package data
        assert f"art_gallery_env/web/static/{page}" in names


@pytest.mark.slow
def test_fresh_venv_with_the_wheel_has_no_agents_or_training(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True, system_site_packages=False)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
        check=True,
        capture_output=True,
    )
    # find_spec of a top-level name does not import it (the venv has no numpy & co.).
    probe = (
        "import importlib.util as u, pathlib, sys; "
        "top = pathlib.Path(u.find_spec('art_gallery_env').origin).parent; "
        "names = ('agents', 'training', 'arena', 'web'); "
        "sys.exit(0 if [u.find_spec(n) for n in names] == [None] * 4"
        " and (top / 'agents' / '__init__.py').is_file() else 1)"
    )
    result = subprocess.run([str(python), "-c", probe], cwd=tmp_path, capture_output=True)
    assert result.returncode == 0, result.stderr.decode()
