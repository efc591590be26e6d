"""Writing training checkpoints: the SB3 zip, the weights-only export that ``PolicyAgent``
plays without torch, and the metadata JSON beside them (format in
:mod:`art_gallery_env.agents.run_checkpoint`, which reads them)."""

from __future__ import annotations

import json
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Any

from art_gallery_env.agents.policy import export_torch_mlp, layout_fingerprint
from art_gallery_env.agents.run_checkpoint import FORMAT, VERSION, actor_network
from art_gallery_env.env.aec import ENV_VERSION

_PACKAGES = (
    "art-gallery-env",
    "numpy",
    "gymnasium",
    "pettingzoo",
    "torch",
    "stable-baselines3",
    "sb3-contrib",
    "ray",
)


def package_versions() -> dict[str, str]:
    versions = {}
    for name in _PACKAGES:
        try:
            versions[name] = importlib_metadata.version(name)
        except importlib_metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def checkpoint_header() -> dict[str, Any]:
    """The fields every run checkpoint's metadata starts with."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "env_version": ENV_VERSION,
        "layout_fingerprint": layout_fingerprint(),
        "versions": package_versions(),
    }


def save_checkpoint(model: Any, path_stem: str | Path, info: dict[str, Any]) -> Path:
    """Write ``STEM.zip``, ``STEM.safetensors`` and ``STEM.json``; returns the JSON path."""
    stem = Path(path_stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    model.save(str(stem.with_suffix(".zip")))
    export_torch_mlp(
        actor_network(model),
        stem.with_suffix(".safetensors"),
        extra_meta={"name": f"{info.get('config', {}).get('name', 'policy')}@{stem.name}"},
    )
    meta = {
        **checkpoint_header(),
        "files": {
            "sb3": stem.with_suffix(".zip").name,
            "weights": stem.with_suffix(".safetensors").name,
        },
        **info,
    }
    path = stem.with_suffix(".json")
    path.write_text(json.dumps(meta, indent=2, sort_keys=True), encoding="utf-8")
    return path
