"""MaskablePPO's policy for the structured networks of :mod:`.networks`.

:class:`NetworkPolicy` is sb3-contrib's ``MaskableActorCriticPolicy`` whose actor and
critic are one :mod:`.networks` module (``forward(x) -> (logits, value)``), so a shared
trunk is computed once per PPO minibatch. SB3's features extractor and MLP extractor are
left unused; the network is built from ``policy_kwargs={"network": {...}, "game": ...}``
(what a saved zip stores, so loading it rebuilds the same net).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer, MaskableRolloutBufferSamples
from sb3_contrib.common.maskable.distributions import (
    MaskableCategorical,
    MaskableCategoricalDistribution,
)
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from art_gallery_env.core.registry import get_game

from .networks import EBagNet, EntityNet

NETWORK_TYPES = ("mlp", "ebag", "entity")


def build_network(network: dict[str, Any], game: str | None = None) -> torch.nn.Module:
    """The torch module of a ``network:`` config entry (not ``mlp``: SB3's own MlpPolicy)."""
    options = dict(network)
    kind = options.pop("type")
    spec = get_game(game)
    if kind == "ebag":
        return EBagNet(spec.observation_size, spec.num_actions, **options)
    if kind == "entity":
        spec.require("network", "network: {type: entity}")
        return EntityNet(spec.extension("network").network_structure(), **options)
    raise ValueError(f"network type {kind!r} is not one of {', '.join(NETWORK_TYPES)}")


class NetworkPolicy(MaskableActorCriticPolicy):
    """Masked actor-critic over one :mod:`.networks` module (see the module docstring)."""

    def __init__(self, *args: Any, network: dict[str, Any], game: str | None = None, **kwargs: Any):
        self.network_config, self.game = dict(network), game
        kwargs.setdefault("net_arch", [])
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        self.net = build_network(self.network_config, self.game)
        options = dict(self.optimizer_kwargs)
        if self.optimizer_class is torch.optim.Adam:
            # one multi-tensor step instead of a Python loop over the parameters: the same
            # numbers (tests/training/test_networks.py), half the time on a small net
            options.setdefault("foreach", True)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **options)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(network=self.network_config, game=self.game)
        return data

    def _x(self, obs: Any) -> torch.Tensor:
        return super(MaskableActorCriticPolicy, self).extract_features(obs, self.features_extractor)

    def _distribution(self, logits: torch.Tensor, action_masks: Any) -> Any:
        distribution = self.action_dist
        if not isinstance(distribution, MaskableCategoricalDistribution):
            distribution = distribution.proba_distribution(action_logits=logits)
            if action_masks is not None:
                distribution.apply_masking(action_masks)
            return distribution
        # The masked categorical built once, with its mask, without torch.distributions'
        # argument checks: proba_distribution then apply_masking normalises the logits
        # three times and checks them each time (a tenth of the PPO update of the small
        # entity net). The same distribution up to float error.
        distribution.distribution = MaskableCategorical(
            logits=logits.view(-1, distribution.action_dim),
            masks=action_masks,
            validate_args=False,
        )
        return distribution

    def forward(
        self, obs: torch.Tensor, deterministic: bool = False, action_masks: Any = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        if not torch.is_grad_enabled():  # the rollout (SB3 calls it under no_grad): the
            # same numbers without autograd's bookkeeping of every tensor
            with torch.inference_mode():
                return self._forward(obs, deterministic, action_masks)
        return self._forward(obs, deterministic, action_masks)

    def _forward(
        self, obs: torch.Tensor, deterministic: bool, action_masks: Any
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        logits, values = self.net(self._x(obs))
        distribution = self._distribution(logits, action_masks)
        actions = distribution.get_actions(deterministic=deterministic)
        log_prob = distribution.log_prob(actions)
        return actions.reshape((-1, *self.action_space.shape)), values, log_prob

    def evaluate_actions(
        self, obs: torch.Tensor, actions: torch.Tensor, action_masks: Any = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]:
        logits, values = self.net(self._x(obs))
        distribution = self._distribution(logits, action_masks)
        return values, distribution.log_prob(actions), distribution.entropy()

    def get_distribution(self, obs: Any, action_masks: Any = None) -> Any:
        return self._distribution(self.net.logits(self._x(obs)), action_masks)

    def predict_values(self, obs: Any) -> torch.Tensor:
        return self.net.value(self._x(obs))


class TorchRolloutBuffer(MaskableRolloutBuffer):
    """sb3-contrib's masked rollout buffer whose minibatches are one torch ``index_select``
    per array: SB3 indexes the numpy arrays and then copies the result into torch
    (``to_torch``), two copies of the 1,024 x 2,221 observations per minibatch. The same
    samples (on the CPU; another device, or a VecNormalize, takes SB3's path)."""

    def _get_samples(  # type: ignore[override]
        self, batch_inds: np.ndarray, env: Any = None
    ) -> MaskableRolloutBufferSamples:
        if env is not None or torch.device(self.device).type != "cpu":
            return super()._get_samples(batch_inds, env)
        index = torch.from_numpy(np.asarray(batch_inds, dtype=np.int64))

        def rows(array: np.ndarray) -> torch.Tensor:
            return torch.from_numpy(array).index_select(0, index)

        return MaskableRolloutBufferSamples(
            rows(self.observations),
            rows(self.actions),
            rows(self.values).flatten(),
            rows(self.log_probs).flatten(),
            rows(self.advantages).flatten(),
            rows(self.returns).flatten(),
            rows(self.action_masks).reshape(-1, self.mask_dims),
        )


def new_network_model(
    network: dict[str, Any],
    seed: int = 0,
    vec_env: Any = None,
    game: str | None = None,
    **ppo: Any,
) -> Any:
    """A MaskablePPO model whose policy is ``network`` (a ``network:`` entry whose type is
    not ``mlp``); without ``vec_env`` it gets a one-game 2-player env, as
    :func:`.sb3_trainer.new_mlp_model` does."""
    from sb3_contrib import MaskablePPO

    if vec_env is None:
        from stable_baselines3.common.vec_env import DummyVecEnv

        from .selfplay import SelfPlayEnv

        vec_env = DummyVecEnv([lambda: SelfPlayEnv(2, seed=seed, game=game)])
    torch.manual_seed(seed)
    return MaskablePPO(
        NetworkPolicy,
        vec_env,
        seed=seed,
        device="cpu",
        policy_kwargs={"network": dict(network), "game": game},
        rollout_buffer_class=TorchRolloutBuffer,
        **ppo,
    )
