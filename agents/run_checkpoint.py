"""A training run's checkpoint as a player reads it: the metadata JSON and the SB3 zip.

``art-gallery train`` writes ``RUN_DIR/best.zip`` (Stable-Baselines3), ``best.json`` (config,
package versions, env version, observation/action layout fingerprint, steps, evaluation)
and ``best.safetensors`` (weights only, see :mod:`art_gallery_env.agents.policy`). Reading
lives here, in the agents layer, so that playing a checkpoint never imports the trainers;
writing lives in :mod:`art_gallery_env.training.checkpoints`. Unpickling a zip needs torch
and sb3-contrib (the ``[train]`` extra); the ``.safetensors`` file needs neither.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .policy_format import (
    CheckpointError,
    MLPPolicy,
    header_game,
    policy_from_torch_mlp,
    policy_layout,
)

FORMAT = "art-gallery-env/checkpoint"
VERSION = 1


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
    return read_meta_file(meta_path, zip_path)


def read_meta_file(meta_path: str | Path, checkpoint: str | Path | None = None) -> dict[str, Any]:
    """A checkpoint metadata JSON, checked to be one and to fit this env's layout
    (errors about the layout name ``checkpoint``, the file the user gave)."""
    meta_path = Path(meta_path)
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CheckpointError(f"{meta_path}: no such checkpoint metadata file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise CheckpointError(f"{meta_path}: not readable JSON: {err}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise CheckpointError(f"{meta_path}: not an art-gallery-env checkpoint metadata file")
    layout = policy_layout(header_game(meta))
    if meta.get("layout_fingerprint") != layout.fingerprint:
        raise CheckpointError(
            f"{checkpoint or meta_path}: trained for observation/action layout "
            f"{meta.get('layout_fingerprint')!r}, but this env's layout is "
            f"{layout.fingerprint!r}; the policy cannot read these observations"
        )
    return meta


def _maskable_ppo() -> Any:
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as exc:
        raise CheckpointError(
            f"SB3 .zip checkpoints need the [train] extra ({exc}); install it with "
            f"pip install 'art-gallery-env[train]', or play the weights-only .safetensors file "
            f"written beside the zip"
        ) from exc
    return MaskablePPO


def load_sb3_model(
    zip_path: str | Path, env: Any = None, settings: dict[str, Any] | None = None
) -> tuple[Any, dict[str, Any]]:
    """(model, metadata) of a MaskablePPO zip, metadata checked first; a broken zip gives a
    clear error. ``settings`` (constructor hyper-parameters such as ``learning_rate``)
    replace the saved ones, so that a resumed run trains with its new config."""
    maskable_ppo = _maskable_ppo()
    meta = read_checkpoint_meta(zip_path)
    try:
        model = maskable_ppo.load(str(zip_path), env=env, device="cpu", custom_objects=settings)
        return model, meta
    except Exception as err:  # zipfile/pickle/torch errors of a corrupted file
        raise CheckpointError(f"{zip_path}: cannot load the SB3 checkpoint: {err}") from None


def actor_network(model: Any) -> Any:
    """The actor half of a MaskablePPO MlpPolicy as one torch Sequential (obs -> logits)."""
    import torch.nn as nn

    policy = model.policy
    return nn.Sequential(*policy.mlp_extractor.policy_net, policy.action_net)


def critic_network(model: Any) -> Any:
    """The critic half of a MaskablePPO MlpPolicy as one torch Sequential (obs -> value)."""
    import torch.nn as nn

    policy = model.policy
    return nn.Sequential(*policy.mlp_extractor.value_net, policy.value_net)


def load_zip_policy(zip_path: str | Path) -> MLPPolicy:
    """The actor of an SB3 zip as the numpy policy ``PolicyAgent`` plays, with the critic
    as its value head (the web app shows its estimate)."""
    model, meta = load_sb3_model(zip_path)
    name = f"{meta.get('config', {}).get('name', 'policy')}@{Path(zip_path).stem}"
    extra = {"name": name, "game": header_game(meta)}
    return policy_from_torch_mlp(
        actor_network(model), extra_meta=extra, critic=critic_network(model)
    )
