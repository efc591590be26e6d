"""Any registered game as a single-agent Gymnasium env whose opponents may be agent specs.

The env is the core's :class:`~art_gallery_env.core.single_agent.SingleAgentEnv` (one
learner seat, the other seats played inside ``step``; a one-player game has none); this
layer adds what the arena knows: agent *specs* (``"heuristic"``, ``"ismcts:iters=50"``, a
checkpoint path), built by :func:`art_gallery_env.agents.registry.make_agent` for the
env's game. It is the env behind ``gymnasium.make("art_gallery_env/ArtGallery-v0", ...)``
(see :mod:`art_gallery_env.gym_envs`) and the trainers' self-play env
(:class:`~art_gallery_env.training.selfplay.SelfPlayEnv` only supplies an opponent pool).
Variants travel as a dict: ``variants={...}`` with the game's variant names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from art_gallery_env.agents.base import Agent
from art_gallery_env.agents.registry import make_agent
from art_gallery_env.core import single_agent as core
from art_gallery_env.core.single_agent import OpponentSource

__all__ = ["FixedOpponents", "OpponentSource", "SingleAgentEnv", "opponent_source"]


class FixedOpponents(core.FixedOpponents):
    """The same agents every episode, from specs or Agent objects: ``specs[k]`` sits
    ``k + 1`` seats after the learner. ``prefix=True`` (one spec for every seat at mixed
    table sizes) lets a smaller table take the first ``count`` of them."""

    def __init__(
        self,
        specs: Sequence[str | Agent],
        seed: int | None = None,
        game: str | None = None,
        prefix: bool = False,
    ) -> None:
        base = 0 if seed is None else seed
        agents = [
            spec if isinstance(spec, Agent) else make_agent(spec, base + k, game=game)
            for k, spec in enumerate(specs)
        ]
        super().__init__(agents, prefix)


OpponentsArg = OpponentSource | str | Agent | Sequence[str | Agent] | None


def opponent_source(
    opponents: OpponentsArg,
    num_players: int | Sequence[int],
    seed: int | None,
    game: str | None = None,
) -> OpponentSource:
    """``None`` (random everywhere), one spec or agent for every seat, one per seat, or a
    source with ``sample(count)`` (e.g. the trainers' opponent pool); specs are ``game``'s.
    With several table sizes (a list), one per seat is ambiguous: give one spec for all,
    or a source."""
    sizes = [num_players] if isinstance(num_players, int) else list(num_players)
    count = max(sizes) - 1
    if opponents is None:
        opponents = "random"
    if isinstance(opponents, (str, Agent)):
        return FixedOpponents([opponents] * count, seed, game, prefix=True)
    if isinstance(opponents, OpponentSource):
        return opponents
    if len(sizes) > 1:
        raise ValueError(
            f"with several table sizes {sizes}, give one opponent spec for every seat or an "
            f"object with sample(count), not a list of {len(opponents)} per-seat opponents"
        )
    if not isinstance(opponents, Sequence) or not all(
        isinstance(o, (str, Agent)) for o in opponents
    ):
        raise TypeError(
            "opponents must be agent specs (e.g. ['heuristic', 'random', "
            "'path/to/policy.safetensors']), Agent objects, or an object with sample(count), "
            f"got {opponents!r}"
        )
    if len(opponents) != count:
        raise ValueError(
            f"{num_players} players need {count} opponents (one per seat besides the "
            f"learner's), got {len(opponents)}: {list(opponents)!r}"
        )
    return FixedOpponents(opponents, seed, game)


class SingleAgentEnv(core.SingleAgentEnv):
    """One learner seat of a registered game (``game``: its name; None: the default game);
    opponents (agent specs, Agent objects or a source) move inside ``step``.

    ``reward_mode=None`` is the game's own default, as in the AEC env (``"win"``; a solo
    game's ``"level"``). ``illegal_action`` as the core env's: ``"terminate"`` (the
    default, PettingZoo's convention, so that unmasked algorithms and ``check_env`` can step
    random actions) or the strict ``"raise"`` (the trainers' choice).
    """

    def __init__(
        self,
        num_players: int | Sequence[int] = 2,
        opponents: OpponentsArg = None,
        *,
        player_weights: Sequence[float] | None = None,
        variants: Mapping[str, Any] | None = None,
        reward_mode: str | None = None,
        seed: int | None = None,
        learner_seat: int | None = None,
        illegal_action: str = core.DEFAULT_ILLEGAL_ACTION,
        render_mode: str | None = None,
        game: str | None = None,
    ) -> None:
        super().__init__(
            game,
            num_players,
            opponents=opponents,
            variants=variants,
            player_weights=player_weights,
            reward_mode=reward_mode,
            seed=seed,
            learner_seat=learner_seat,
            illegal_action=illegal_action,
            render_mode=render_mode,
        )

    def _opponent_source(self, opponents: Any, seed: int | None) -> OpponentSource:
        """Agent specs too (built for this env's game), and None: random everywhere."""
        sizes = self.table_sizes
        return opponent_source(
            opponents, sizes if len(sizes) > 1 else sizes[0], seed, self.game.name
        )
