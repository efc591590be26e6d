"""An action-masking PPO RLModule whose policy exports to the weights-only checkpoint format.

:class:`MaskedPPOTorchRLModule` is RLlib's current PPO torch module
(``DefaultPPOTorchRLModule``) with two changes:

* it takes the Dict observation ``{"observations", "action_mask"}`` of
  :mod:`training.rllib_env`, builds its networks for the ``observations`` vector only, and
  adds ``max(log(mask), MASK_LOGIT)`` to the action logits, so illegal actions get
  probability 0 while sampling, in the PPO loss and in the entropy;
* its model config is pinned to what :mod:`agents.policy` can play: a separate actor
  encoder (``vf_share_layers=False``) that is a plain MLP (``fcnet_hiddens``, tanh or relu,
  no layer norm) followed by a single Linear pi head to the 47 logits. The value function
  has its own encoder of the same sizes and a Linear head.

:func:`export_rllib_module` writes the actor (encoder Linear layers, then the pi Linear) as
``layers.{i}.weight/bias`` with :func:`agents.policy.save_policy_weights`, so a checkpoint
trained here plays through the same :class:`agents.policy.PolicyAgent` as the SB3 ones.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from torch import nn

from art_gallery_env.agents.policy import CheckpointError, save_policy_weights
from art_gallery_env.agents.policy_format import save_network_weights

OBS_KEY = "observations"
MASK_KEY = "action_mask"
# log(0) is clamped to this: exp() of it is exactly 0 in float32, and unlike -inf or
# float32's minimum it cannot overflow when added to a logit or multiplied by 0.
MASK_LOGIT = -1e9

# The model-config keys the exportable architecture needs (on top of RLlib's defaults).
PINNED_MODEL_CONFIG = {
    "head_fcnet_hiddens": [],
    "vf_share_layers": False,
    "fcnet_use_layernorm": False,
    "use_lstm": False,
}


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits + max(log(mask), MASK_LOGIT)``: unchanged where mask is 1, ~-1e9 where 0."""
    return logits + torch.clamp(torch.log(mask.to(logits.dtype)), min=MASK_LOGIT)


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """PPO actor-critic over ``obs["observations"]`` with ``obs["action_mask"]`` applied."""

    def __init__(
        self,
        *,
        observation_space: gym.Space | None = None,
        action_space: gym.Space | None = None,
        inference_only: bool | None = None,
        learner_only: bool = False,
        model_config: Mapping[str, Any] | Any | None = None,
        **kwargs: Any,
    ) -> None:
        if not (
            isinstance(observation_space, gym.spaces.Dict)
            and set(observation_space.spaces) == {OBS_KEY, MASK_KEY}
        ):
            raise ValueError(
                f"{type(self).__name__} needs a Dict observation space with the keys "
                f"{OBS_KEY!r} and {MASK_KEY!r} (see training.rllib_env), got {observation_space}"
            )
        # The catalog builds the networks for the vector alone; setup() puts the Dict back
        # so that checkpoints (get_ctor_args_and_kwargs) record the space the env provides.
        self._space_with_mask = observation_space
        super().__init__(
            observation_space=observation_space[OBS_KEY],
            action_space=action_space,
            inference_only=inference_only,
            learner_only=learner_only,
            model_config=pinned_model_config(model_config),
            **kwargs,
        )

    def setup(self) -> None:
        super().setup()
        self.observation_space = self._space_with_mask

    @staticmethod
    def _split(batch: Mapping[str, Any]) -> tuple[dict[str, Any], torch.Tensor]:
        """(a shallow copy of ``batch`` whose OBS is the vector, the mask); no mutation."""
        obs = batch[Columns.OBS]
        inner = dict(batch)
        inner[Columns.OBS] = obs[OBS_KEY]
        return inner, obs[MASK_KEY]

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = self._split(batch)
        out = super()._forward(inner, **kwargs)
        out[Columns.ACTION_DIST_INPUTS] = masked_logits(out[Columns.ACTION_DIST_INPUTS], mask)
        return out

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = self._split(batch)
        out = super()._forward_train(inner, **kwargs)
        out[Columns.ACTION_DIST_INPUTS] = masked_logits(out[Columns.ACTION_DIST_INPUTS], mask)
        return out

    def compute_values(self, batch: dict[str, Any], embeddings: Any | None = None) -> Any:
        if embeddings is None and isinstance(batch[Columns.OBS], Mapping):
            batch, _mask = self._split(batch)
        return super().compute_values(batch, embeddings)

    # -- export ------------------------------------------------------------------------
    def actor_linears(self) -> list[nn.Linear]:
        """The actor's Linear layers in order (encoder, then pi): obs -> ... -> logits."""
        encoder = getattr(self.encoder, "actor_encoder", None)
        if encoder is None:
            raise CheckpointError("the module has no separate actor encoder to export")
        layers: list[nn.Linear] = []
        for part in (encoder, self.pi):
            for m in part.modules():
                if isinstance(m, nn.Linear):
                    layers.append(m)
                elif len(list(m.children())) == 0 and not isinstance(
                    m, nn.Tanh | nn.ReLU | nn.Identity
                ):
                    raise CheckpointError(
                        f"the actor holds a {type(m).__name__} layer; only Linear layers with "
                        f"tanh/relu between them export to the weights-only format"
                    )
        return layers

    def actor_logits(self, observations: torch.Tensor) -> torch.Tensor:
        """Unmasked logits of the exported MLP (for checks against the export)."""
        activation = _activation_module(self.model_config["fcnet_activation"])
        layers = self.actor_linears()
        x = observations
        for i, layer in enumerate(layers):
            x = layer(x)
            if i < len(layers) - 1:
                x = activation(x)
        return x


class MaskedNetworkPPOTorchRLModule(MaskedPPOTorchRLModule):
    """The same masked PPO module over a structured network of :mod:`.networks`
    (``model_config={"network": {...}, "game": ...}``): one module computes the logits and
    the value, so a shared trunk runs once per batch; ``_forward_train`` hands the value on
    as the embeddings that :meth:`compute_values` returns."""

    def setup(self) -> None:
        from .sb3_policy import build_network

        config = dict(self.model_config)
        self.net = build_network(config["network"], config.get("game"))
        self.observation_space = self._space_with_mask

    def get_non_inference_attributes(self) -> list[str]:
        return []  # the value head is part of the one network

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = self._split(batch)
        logits = self.net.logits(inner[Columns.OBS])
        return {Columns.ACTION_DIST_INPUTS: masked_logits(logits, mask)}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = self._split(batch)
        logits, values = self.net(inner[Columns.OBS])
        return {
            Columns.ACTION_DIST_INPUTS: masked_logits(logits, mask),
            Columns.EMBEDDINGS: values,
        }

    def compute_values(self, batch: dict[str, Any], embeddings: Any | None = None) -> Any:
        if embeddings is not None:
            return embeddings.squeeze(-1)
        obs = batch[Columns.OBS]
        obs = obs[OBS_KEY] if isinstance(obs, Mapping) else obs
        return self.net.value(obs).squeeze(-1)


def pinned_model_config(model_config: Mapping[str, Any] | Any | None) -> dict[str, Any]:
    """``model_config`` with :data:`PINNED_MODEL_CONFIG`; a conflicting value is an error."""
    if model_config is None:
        config: dict[str, Any] = {}
    elif dataclasses.is_dataclass(model_config):
        config = dataclasses.asdict(model_config)
    else:
        config = dict(model_config)
    for key, value in PINNED_MODEL_CONFIG.items():
        if key in config and config[key] != value:
            raise ValueError(
                f"model_config[{key!r}]={config[key]!r}: the exportable policy needs {value!r}"
            )
        config[key] = value
    activation = config.setdefault("fcnet_activation", "tanh")
    if activation not in ("tanh", "relu"):
        raise ValueError(f"fcnet_activation must be 'tanh' or 'relu', got {activation!r}")
    return config


def module_spec(
    hidden_sizes: Sequence[int],
    activation: str = "tanh",
    network: Mapping[str, Any] | None = None,
    game: str | None = None,
) -> RLModuleSpec:
    """The RLModuleSpec of one policy (spaces are filled in by the algorithm config);
    ``network``, a structured network's entry (``NetworkConfig.network()``), replaces the
    MLP of ``hidden_sizes``."""
    if network is not None and network.get("type", "mlp") != "mlp":
        return RLModuleSpec(
            module_class=MaskedNetworkPPOTorchRLModule,
            model_config={"network": dict(network), "game": game},
        )
    return RLModuleSpec(
        module_class=MaskedPPOTorchRLModule,
        model_config=pinned_model_config(
            {"fcnet_hiddens": [int(h) for h in hidden_sizes], "fcnet_activation": activation}
        ),
    )


def _activation_module(name: str) -> nn.Module:
    return {"tanh": nn.Tanh(), "relu": nn.ReLU()}[name]


def export_rllib_module(
    module: MaskedPPOTorchRLModule,
    path: str | os.PathLike[str],
    meta: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``module``'s actor as a weights-only ``.safetensors`` policy checkpoint."""
    if not isinstance(module, MaskedPPOTorchRLModule):
        raise CheckpointError(
            f"expected a {MaskedPPOTorchRLModule.__name__}, got {type(module).__name__}"
        )
    if isinstance(module, MaskedNetworkPPOTorchRLModule):
        net = module.net
        header = {**net.header(), "trainer": "rllib_ppo", **dict(meta or {})}
        return save_network_weights(net.export_tensors(), header, path)
    layers = module.actor_linears()
    weights: dict[str, np.ndarray] = {}
    for i, layer in enumerate(layers):
        weights[f"layers.{i}.weight"] = layer.weight.detach().cpu().numpy()
        bias = layer.bias
        weights[f"layers.{i}.bias"] = (
            np.zeros(layer.out_features, np.float32)
            if bias is None
            else bias.detach().cpu().numpy()
        )
    header = {
        "hidden_sizes": [layer.out_features for layer in layers[:-1]],
        "activation": module.model_config["fcnet_activation"],
        "trainer": "rllib_ppo",
        **dict(meta or {}),
    }
    return save_policy_weights(weights, header, path)
