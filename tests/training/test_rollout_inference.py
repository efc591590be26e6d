"""The rollout's forward passes under ``torch.inference_mode`` (the rollout's speed)
give the numbers of the plain path: the learner's actions, values and log-probabilities,
and a snapshot's logits."""

from __future__ import annotations

import numpy as np
import pytest
import torch

pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")

from art_gallery_env.training.sb3_policy import new_network_model  # noqa: E402

NETWORK = {"type": "entity", "hidden_sizes": [16], "token_dim": 8, "pointer_dim": 8}


def test_the_learner_forward_in_inference_mode_equals_the_grad_path() -> None:
    model = new_network_model(NETWORK, seed=0, n_steps=8, batch_size=8)
    policy = model.policy
    env = model.env
    obs = torch.as_tensor(env.reset())
    masks = np.stack(env.env_method("action_masks"))
    outputs = []
    for grad in (False, True):
        torch.manual_seed(1)  # the same sampling draw
        with torch.set_grad_enabled(grad):
            outputs.append(policy(obs, action_masks=masks))
    (a, v, p), (a2, v2, p2) = outputs
    assert v.is_inference() and not v2.is_inference(), "the rollout path ran"
    assert torch.equal(a, a2) and torch.equal(v, v2.detach()) and torch.equal(p, p2.detach())
    model.learn(16)  # a rollout (stored in the buffer) and an update run on from it
