"""A training run's checkpoint as a player reads it: the metadata JSON and the SB3 zip.

``art-gallery train`` writes ``RUN_DIR/best.zip`` (Stable-Baselines3), ``best.json`` (config,
package versions, env version, observation/action layout fingerprint, steps, evaluation)
and ``best.safetensors`` (weights only, see :mod:`art_gallery_env.agents.policy`). Reading
lives here, in the agents layer, so that playing a checkpoint never imports the trainers;
writing lives in :mod:`art_gallery_env.training.checkpoints`. Unpickling a zip needs torch
and sb3-contrib (the ``[train]`` extra); the ``.safetensors`` file needs neither.

A plain SB3 zip (``MaskablePPO("MlpPolicy", gymnasium.make(<the game's Gymnasium id>))`` then
``model.save("model.zip")``, no JSON beside it) plays too: SB3 records no env id, so its
game is the registered game whose observation size and action count are the ones SB3 saved
in the zip's ``data`` JSON (read without unpickling). Where the sizes name no game or more
than one, it is refused with the one command that writes the metadata
(``python -m art_gallery_env.agents.run_checkpoint MODEL.zip --game NAME``).
"""

from __future__ import annotations

import argparse
import json
import sys
import zipfile
from pathlib import Path
from typing import Any

from art_gallery_env.core.registry import game_names, get_game

from .policy_format import (
    CheckpointError,
    MLPPolicy,
    header_game,
    policy_from_torch_mlp,
    policy_layout,
)

FORMAT = "art-gallery-env/checkpoint"
VERSION = 1
PLAIN_SOURCE = "plain Stable-Baselines3 zip"
"""The ``source`` of metadata made for a zip that training did not write."""


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


def sb3_zip_sizes(zip_path: str | Path) -> tuple[int, int]:
    """(observation size, action count) of an SB3 zip, from the spaces SB3 describes in its
    ``data`` JSON (nothing is unpickled). A policy here reads one flat float vector and picks
    one of n actions, so anything but a 1-D ``Box`` and a ``Discrete`` is refused."""
    try:
        with zipfile.ZipFile(zip_path) as archive:
            data = json.loads(archive.read("data"))
        obs, act = data["observation_space"], data["action_space"]
        obs_type, act_type = str(obs.get(":type:", "")), str(act.get(":type:", ""))
        shape = obs.get("_shape")
    except (OSError, zipfile.BadZipFile, KeyError, ValueError, TypeError, AttributeError) as err:
        raise CheckpointError(
            f"{zip_path}: not a readable Stable-Baselines3 zip (no spaces in its data: {err})"
        ) from None
    if "spaces.box.Box" not in obs_type or not isinstance(shape, list) or len(shape) != 1:
        raise CheckpointError(
            f"{zip_path}: an SB3 model of observation space {obs_type or '?'} shape {shape}; "
            f"the policies here read the flat Box observation of this package's Gymnasium envs "
            f"(an MlpPolicy)"
        )
    if "spaces.discrete.Discrete" not in act_type:
        raise CheckpointError(
            f"{zip_path}: an SB3 model of action space {act_type or '?'}; the policies here "
            f"pick one Discrete action"
        )
    return int(shape[0]), int(act["n"])


def adopt_command(zip_path: str | Path, game: str = "NAME") -> str:
    """The one command that writes a plain zip's metadata (then every tool plays it)."""
    return f"python -m art_gallery_env.agents.run_checkpoint {zip_path} --game {game}"


def plain_zip_game(zip_path: str | Path, game: str | None = None) -> str:
    """The registered game a plain SB3 zip plays: the one whose observation size and action
    count are the zip's (``game``, when given and it fits, settles a tie). Refused, naming
    every game's sizes, when none fits, and with :func:`adopt_command` when several do."""
    sizes = sb3_zip_sizes(zip_path)
    fits = [n for n in game_names() if _game_sizes(n) == sizes]
    if game is not None and game in fits:
        return game
    if len(fits) == 1:
        return fits[0]
    if not fits:
        known = ", ".join(f"{n} {_game_sizes(n)[0]} / {_game_sizes(n)[1]}" for n in game_names())
        raise CheckpointError(
            f"{zip_path}: an SB3 model of observation size {sizes[0]} and {sizes[1]} actions, "
            f"which no registered game has (observation size / actions: {known}); train it "
            f"on this version's Gymnasium env of its game"
        )
    raise CheckpointError(
        f"{zip_path}: has no metadata, and its sizes ({sizes[0]} / {sizes[1]}) fit the games "
        f"{', '.join(fits)}; name its game once with: {adopt_command(zip_path)}"
    )


def _game_sizes(name: str) -> tuple[int, int]:
    spec = get_game(name)
    return spec.observation_size, spec.num_actions


def plain_zip_meta(zip_path: str | Path, game: str | None = None) -> dict[str, Any]:
    """Metadata for a plain SB3 zip, as :func:`read_meta_file` returns it for a trained one:
    the game its sizes name (:func:`plain_zip_game`) and that game's layout fingerprint (a
    zip from an older env version with the same sizes cannot be told apart)."""
    name = plain_zip_game(zip_path, game)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": name,
        "layout_fingerprint": policy_layout(name).fingerprint,
        "source": PLAIN_SOURCE,
        "config": {"name": Path(zip_path).stem},
    }


def load_plain_sb3_model(
    zip_path: str | Path, game: str | None = None
) -> tuple[Any, dict[str, Any]]:
    """(model, metadata) of a MaskablePPO zip without metadata beside it (for play only: a
    training run resumes from its own checkpoints, see :func:`load_sb3_model`)."""
    zip_path = Path(zip_path)
    if not zip_path.is_file():
        raise CheckpointError(f"{zip_path}: no such checkpoint file")
    maskable_ppo = _maskable_ppo()  # without the [train] extra no zip plays: say so first
    meta = plain_zip_meta(zip_path, game)
    try:
        model = maskable_ppo.load(str(zip_path), device="cpu")
    except Exception as err:  # zipfile/pickle/torch errors, or another algorithm's zip
        raise CheckpointError(
            f"{zip_path}: cannot load it as an sb3-contrib MaskablePPO model: {err}"
        ) from None
    return model, meta


def _check_mlp(zip_path: Path, model: Any) -> None:
    """The actor must be the MLP the numpy policy computes: a flatten features extractor
    and Linear layers with Tanh or ReLU between them (another activation would be misread)."""
    import torch.nn as nn

    policy = model.policy
    if type(policy.features_extractor).__name__ != "FlattenExtractor":
        raise CheckpointError(
            f"{zip_path}: its features extractor is {type(policy.features_extractor).__name__}; "
            f"the policies here are MlpPolicy networks (FlattenExtractor)"
        )
    allowed = (nn.Linear, nn.Tanh, nn.ReLU, nn.Sequential, nn.Identity, nn.Flatten)
    for network in (actor_network(model), critic_network(model)):
        for module in network.modules():
            if not isinstance(module, allowed):
                raise CheckpointError(
                    f"{zip_path}: its network has a {type(module).__name__} layer; the policies "
                    f"here are Linear layers with Tanh or ReLU between them"
                )


def load_zip_policy(zip_path: str | Path, game: str | None = None) -> MLPPolicy:
    """The actor of an SB3 zip as the numpy policy ``PolicyAgent`` plays, with the critic
    as its value head (the web app shows its estimate). A zip without its metadata JSON is
    a plain SB3 zip (:func:`plain_zip_meta`; ``game``, the caller's, settles a size tie)."""
    zip_path = Path(zip_path)
    if zip_path.is_file() and not zip_path.with_suffix(".json").is_file():
        model, meta = load_plain_sb3_model(zip_path, game)
    else:
        model, meta = load_sb3_model(zip_path)
    name = f"{meta.get('config', {}).get('name', 'policy')}@{zip_path.stem}"
    extra = {"name": name, "game": header_game(meta)}
    if getattr(model.policy, "net", None) is not None:  # network: {type: ebag | entity}
        from .model_policy import policy_of_model

        return policy_of_model(model, extra)
    _check_mlp(zip_path, model)
    return policy_from_torch_mlp(
        actor_network(model), extra_meta=extra, critic=critic_network(model)
    )


def adopt_plain_zip(zip_path: str | Path, game: str | None = None) -> Path:
    """Write the metadata JSON beside a plain SB3 zip (its game checked against the zip's
    sizes), so that every tool plays it as a trained checkpoint; returns the JSON's path."""
    zip_path = Path(zip_path)
    meta_path = zip_path.with_suffix(".json")
    if meta_path.exists():
        raise CheckpointError(f"{meta_path}: exists already; the zip has its metadata")
    if game is not None and game not in game_names():
        raise CheckpointError(f"unknown game {game!r}; games: {', '.join(game_names())}")
    meta = plain_zip_meta(zip_path, game)
    if game is not None and meta["game"] != game:
        raise CheckpointError(
            f"{zip_path}: its sizes {sb3_zip_sizes(zip_path)} are not {game}'s {_game_sizes(game)}"
        )
    meta_path.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return meta_path


def main(argv: list[str] | None = None) -> int:
    """``python -m art_gallery_env.agents.run_checkpoint MODEL.zip [--game NAME]``."""
    parser = argparse.ArgumentParser(
        prog="python -m art_gallery_env.agents.run_checkpoint",
        description="Write the metadata JSON beside a plain Stable-Baselines3 MaskablePPO zip, "
        "so that art-gallery eval/play/serve/export take it.",
    )
    parser.add_argument("zip", help="the SB3 zip (model.save's file)")
    parser.add_argument("--game", choices=game_names(), help="the game it was trained on")
    args = parser.parse_args(argv)
    try:
        path = adopt_plain_zip(args.zip, args.game)
    except CheckpointError as err:
        parser.error(str(err))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
