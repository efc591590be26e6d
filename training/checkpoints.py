"""Training checkpoints: the SB3 zip, a metadata JSON beside it, and the weights-only
export that ``PolicyAgent`` plays without torch or unpickling.

``runs/NAME/best.zip`` + ``best.json`` + ``best.safetensors`` (and the same for ``latest``).
The JSON records the config, package versions, env version, the observation/action layout
fingerprint, steps and evaluation results; a layout mismatch is refused at load time.
"""

from __future__ import annotations

import json
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Any

from art_gallery_env.agents.policy import (
    CheckpointError,
    MLPPolicy,
    export_torch_mlp,
    layout_fingerprint,
    policy_from_torch_mlp,
)

FORMAT = "art-gallery-env/checkpoint"
VERSION = 1
ENV_VERSION = "art_gallery_v0"
_PACKAGES = (
    "art-gallery-env",
    "numpy",
    "gymnasium",
    "pettingzoo",
    "torch",
    "stable-baselines3",
    "sb3-contrib",
)


def package_versions() -> dict[str, str]:
    versions = {}
    for name in _PACKAGES:
        try:
            versions[name] = importlib_metadata.version(name)
        except importlib_metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def actor_network(model: Any) -> Any:
    """The actor half of a MaskablePPO MlpPolicy as one torch Sequential (obs -> logits)."""
    import torch.nn as nn

    policy = model.policy
    return nn.Sequential(*policy.mlp_extractor.policy_net, policy.action_net)


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
        "format": FORMAT,
        "version": VERSION,
        "env_version": ENV_VERSION,
        "layout_fingerprint": layout_fingerprint(),
        "versions": package_versions(),
        "files": {
            "sb3": stem.with_suffix(".zip").name,
            "weights": stem.with_suffix(".safetensors").name,
        },
        **info,
    }
    path = stem.with_suffix(".json")
    path.write_text(json.dumps(meta, indent=2, sort_keys=True), encoding="utf-8")
    return path


def read_checkpoint_meta(zip_path: str | Path) -> dict[str, Any]:
    """The metadata beside an SB3 zip, checked against this env's layout."""
    zip_path = Path(zip_path)
    meta_path = zip_path.with_suffix(".json")
    if not zip_path.is_file():
        raise CheckpointError(f"{zip_path}: no such checkpoint file")
    if not meta_path.is_file():
        raise CheckpointError(
            f"{zip_path}: its metadata {meta_path.name} is missing; a checkpoint is the zip "
            f"plus the JSON that training writes beside it"
        )
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise CheckpointError(f"{meta_path}: not readable JSON: {err}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise CheckpointError(f"{meta_path}: not an art-gallery-env checkpoint metadata file")
    if meta.get("layout_fingerprint") != layout_fingerprint():
        raise CheckpointError(
            f"{zip_path}: trained for observation/action layout "
            f"{meta.get('layout_fingerprint')!r}, but this env's layout is "
            f"{layout_fingerprint()!r}; the policy cannot read these observations"
        )
    return meta


def load_sb3_model(zip_path: str | Path, env: Any = None) -> tuple[Any, dict[str, Any]]:
    """(model, metadata) of a MaskablePPO zip, metadata checked first; a broken zip gives a
    clear error."""
    meta = read_checkpoint_meta(zip_path)
    from sb3_contrib import MaskablePPO

    try:
        return MaskablePPO.load(str(zip_path), env=env, device="cpu"), meta
    except Exception as err:  # zipfile/pickle/torch errors of a corrupted file
        raise CheckpointError(f"{zip_path}: cannot load the SB3 checkpoint: {err}") from None


def load_zip_policy(zip_path: str | Path) -> MLPPolicy:
    """The actor of an SB3 zip as the numpy policy ``PolicyAgent`` plays (the .zip hook)."""
    model, meta = load_sb3_model(zip_path)
    name = f"{meta.get('config', {}).get('name', 'policy')}@{Path(zip_path).stem}"
    return policy_from_torch_mlp(actor_network(model), extra_meta={"name": name})
