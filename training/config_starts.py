"""The checkpoints a config starts from (``exit.init``, ``warm_start.init``): each is
loaded once on load, so a missing file, another game's policy or another network is
refused before any run folder exists, in one line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .config_exit import INIT_RANDOM, INIT_WARM_START
from .config_types import one_line, short

if TYPE_CHECKING:
    from .config import TrainConfig


def start_problems(config: TrainConfig) -> list[str]:
    """What is wrong with the checkpoints ``config`` starts from (empty: nothing)."""
    found = [_exit_init_problem(config), _warm_init_problem(config)]
    return [problem for problem in found if problem]


def _exit_init_problem(config: TrainConfig) -> str | None:
    """``exit.init`` as a checkpoint path: an entity checkpoint of the config's game whose
    network is the config's ``network:`` (its weights are loaded into that network)."""
    section = config.exit
    if section is None or section.init in (INIT_WARM_START, INIT_RANDOM):
        return None
    from art_gallery_env.agents.policy_format import CheckpointError, load_weights

    where = f"exit.init: {short(section.init)}"
    accepted = f"give {INIT_WARM_START}, {INIT_RANDOM} or an entity .safetensors checkpoint"
    try:
        policy = load_weights(section.init)
    except CheckpointError as err:
        return one_line(f"{where}: {err}; {accepted}")
    header = policy.meta
    net = header.get("network") or {}
    if net.get("type") != "entity":
        return f"{where}: not an entity network checkpoint; {accepted}"
    if policy.game != config.env.game:
        return f"{where}: a policy for the game {policy.game!r}, not {config.env.game!r}"
    want = config.network.network()
    have = {
        "hidden_sizes": net.get("hidden_sizes"),
        "activation": header.get("activation"),
        "token_dim": net.get("token_dim"),
        "pointer_dim": net.get("pointer_dim"),
        "use_pointer": net.get("pointer_group") is not None,
    }
    return _network_difference(where, have, want)


def _warm_init_problem(config: TrainConfig) -> str | None:
    """``warm_start.init``: an MLP checkpoint of the config's game whose hidden sizes and
    activation are the config's ``network:`` (its layers are copied into the actor)."""
    ws = config.warm_start
    if ws is None or ws.init is None:
        return None
    from art_gallery_env.agents.policy_format import CheckpointError, load_weights

    where = f"warm_start.init: {short(ws.init)}"
    if config.network.type != "mlp":
        return f"{where}: loads an MLP checkpoint, so network.type must be mlp"
    try:
        policy = load_weights(ws.init)
    except CheckpointError as err:
        return one_line(f"{where}: {err}; give an MLP .safetensors policy checkpoint")
    if (policy.meta.get("network") or {}).get("type", "mlp") != "mlp":
        return f"{where}: not an MLP checkpoint; give an MLP .safetensors policy checkpoint"
    if policy.game != config.env.game:
        return f"{where}: a policy for the game {policy.game!r}, not {config.env.game!r}"
    have = {"hidden_sizes": policy.meta["hidden_sizes"], "activation": policy.meta["activation"]}
    want = {"hidden_sizes": config.network.hidden_sizes, "activation": config.network.activation}
    return _network_difference(where, have, want)


def _network_difference(where: str, have: dict[str, Any], want: Mapping[str, Any]) -> str | None:
    """A checkpoint's network settings against the config's ``network:``, in one line."""
    differ = [f"{k} {have[k]!r} (network: says {want[k]!r})" for k in have if have[k] != want[k]]
    if differ:
        return f"{where}: its network differs from the config's: " + ", ".join(differ)
    return None
