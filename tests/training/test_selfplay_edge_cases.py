"""SelfPlayEnv refuses actions that are not action ids."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
from art_gallery_env.training.selfplay import SelfPlayEnv  # noqa: E402


@pytest.mark.parametrize("action", [0.7, 1.0, True, "3", None, 47, -1])
def test_step_rejects_what_is_not_an_action_id(action) -> None:
    env = SelfPlayEnv(2, seed=0)
    env.reset(seed=1)
    before = env.state.to_dict()
    with pytest.raises(ValueError, match=r"action must be an int in 0\.\.46"):
        env.step(action)
    assert env.state.to_dict() == before, "a refused action changes nothing"


def test_step_accepts_numpy_integers() -> None:
    env = SelfPlayEnv(2, seed=0)
    env.reset(seed=1)
    legal = np.flatnonzero(env.action_masks())
    env.step(np.int64(legal[0]))


def test_step_before_reset_says_reset_first() -> None:
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        SelfPlayEnv(2, seed=0).step(0)
