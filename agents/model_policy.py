"""The numpy policy of a MaskablePPO model in memory, whatever its network.

A model whose policy holds a structured network (``policy.net``, built by
``training/sb3_policy.py``: the embedding-bag or entity network) exports through the
network's own ``export_tensors()`` and ``header()``; an SB3 ``MlpPolicy`` through its
Linear layers. Duck-typed on ``policy.net``, so playing a model never imports the trainers.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .policy_format import (
    export_torch_mlp,
    policy_from_network,
    policy_from_torch_mlp,
    save_network_weights,
)


def _mlp_halves(model: Any) -> tuple[Any, Any]:
    import torch.nn as nn

    policy = model.policy
    actor = nn.Sequential(*policy.mlp_extractor.policy_net, policy.action_net)
    critic = nn.Sequential(*policy.mlp_extractor.value_net, policy.value_net)
    return actor, critic


def load_mlp_actor(model: Any, policy: Any) -> None:
    """Copy a weights-only MLP checkpoint's layers (an :class:`MLPPolicy`) into the actor
    of an SB3 ``MlpPolicy`` model of the same shape: the inverse of the export, so a
    trained policy can be trained further. The critic is left as it is."""
    import torch

    actor, _ = _mlp_halves(model)
    linears = [m for m in actor if isinstance(m, torch.nn.Linear)]
    shapes = [tuple(layer.weight.shape) for layer in linears]
    wanted = [tuple(w.shape) for w, _ in policy.layers]
    if shapes != wanted:
        raise ValueError(f"the checkpoint's layers {wanted} do not fit the model's {shapes}")
    with torch.no_grad():
        for layer, (weight, bias) in zip(linears, policy.layers, strict=True):
            layer.weight.copy_(torch.as_tensor(weight))
            layer.bias.copy_(torch.as_tensor(bias))


def policy_of_model(
    model: Any, extra_meta: Mapping[str, Any] | None = None, *, critic: bool = True
) -> Any:
    """The model's actor as the numpy policy ``PolicyAgent`` plays (with its value head
    unless ``critic`` is False)."""
    extra = dict(extra_meta or {})
    net = getattr(model.policy, "net", None)
    if net is None:
        actor, value = _mlp_halves(model)
        return policy_from_torch_mlp(actor, extra_meta=extra, critic=value if critic else None)
    value_layers = net.value_layers() if critic else None
    return policy_from_network(net.export_tensors(), {**net.header(), **extra}, value_layers)


def export_model_weights(model: Any, path: str | Path, meta: Mapping[str, Any]) -> Path:
    """Write the model's actor as a weights-only ``.safetensors`` checkpoint."""
    net = getattr(model.policy, "net", None)
    if net is None:
        return export_torch_mlp(_mlp_halves(model)[0], path, extra_meta=meta)
    return save_network_weights(net.export_tensors(), {**net.header(), **dict(meta)}, path)
