"""Art Gallery (or, with ``game="gallerist"``, the Gallerist: any game of :mod:`.games`) as
a single-agent Gymnasium env: one learner seat, the other seats played inside ``step`` by
agents.

This is the env behind ``gymnasium.make("art_gallery_env/ArtGallery-v0", ...)`` (see
:mod:`art_gallery_env.gym_envs`) and the trainers' self-play env
(:class:`~art_gallery_env.training.selfplay.SelfPlayEnv` only supplies an opponent pool).
The learner controls one seat per episode (fixed, or rotating every episode); every other
seat is played by an agent through :func:`~art_gallery_env.arena.loop.play`, stopped at the
learner's turn. Only the learner's decisions are steps, and the reward is the learner
seat's own final reward, never the last mover's. The legal actions come as
``info["action_mask"]`` (int8 0/1, what ``Discrete.sample(mask=...)`` takes) and from
:meth:`SingleAgentEnv.action_masks` (bool, what sb3-contrib's MaskablePPO reads).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import gymnasium as gym
import numpy as np

from art_gallery_env.agents.base import Agent
from art_gallery_env.env.aec import (
    ILLEGAL_ACTION_MODES,
    ILLEGAL_ACTION_REWARD,
    RENDER_FPS,
)
from art_gallery_env.rules.board import check_num_players

from .games import DEFAULT_GAME, get_game
from .loop import play


@runtime_checkable
class OpponentSource(Protocol):
    """Supplies the opponents of one episode (an opponent pool, or fixed agents)."""

    def sample(self, count: int) -> list[Agent]: ...


class FixedOpponents:
    """The same agents every episode: ``agents[k]`` sits ``k + 1`` seats after the learner
    (so ``agents[0]`` always moves right after it, whichever seat the learner has).
    ``prefix=True`` (one spec for every seat at mixed table sizes) lets a smaller table
    take the first ``count`` of them."""

    def __init__(
        self,
        specs: Sequence[str | Agent],
        seed: int | None = None,
        game: str = DEFAULT_GAME,
        prefix: bool = False,
    ) -> None:
        base = 0 if seed is None else seed
        make_agent = get_game(game).make_agent
        self.prefix = prefix
        self.agents = [
            spec if isinstance(spec, Agent) else make_agent(spec, base + k)
            for k, spec in enumerate(specs)
        ]

    def sample(self, count: int) -> list[Agent]:
        if self.prefix and count <= len(self.agents):
            return self.agents[:count]
        if count != len(self.agents):
            raise ValueError(
                f"{len(self.agents)} opponents were given for {count} opponent seats; "
                f"pass one agent spec per seat other than the learner's"
            )
        return list(self.agents)


OpponentsArg = OpponentSource | str | Agent | Sequence[str | Agent] | None


def opponent_source(
    opponents: OpponentsArg,
    num_players: int | Sequence[int],
    seed: int | None,
    game: str = DEFAULT_GAME,
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


def _table_sizes(
    num_players: int | Sequence[int],
    weights: Sequence[float] | None,
    check: Callable[[Any], int],
) -> tuple[list[int], list[float]]:
    """One table size, or several drawn per episode with ``weights`` (equal if None);
    ``check`` validates one size."""
    if isinstance(num_players, Sequence) and not isinstance(num_players, str):
        sizes = [check(n) for n in num_players]
        if not sizes or len(set(sizes)) != len(sizes):
            raise ValueError(f"table sizes must be a non-empty list of distinct sizes, got {sizes}")
    else:
        sizes = [check(num_players)]
    weights = [1.0] * len(sizes) if weights is None else [float(w) for w in weights]
    if len(weights) != len(sizes) or any(w < 0 for w in weights) or sum(weights) <= 0:
        raise ValueError(
            f"player_weights must give one weight >= 0 per table size {sizes} (not all 0), "
            f"got {list(weights)}"
        )
    return sizes, weights


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")


class SingleAgentEnv(gym.Env):
    """One learner seat of Art Gallery (or another game of :mod:`.games`: ``game=``);
    opponents move inside ``step``.

    ``illegal_action="raise"`` (the trainers' default: their policies are masked) raises
    the engine's :class:`~art_gallery_env.rules.game.IllegalActionError`, naming the legal
    actions; ``"terminate"`` ends the episode with reward -1 instead, PettingZoo's
    convention and what ``gymnasium.make`` registers (unmasked algorithms and
    ``check_env`` step random actions). A value that is not an action id at all (``0.7``,
    ``True``, ``48``) always raises ``ValueError``.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": RENDER_FPS}

    def __init__(
        self,
        num_players: int | Sequence[int] = 2,
        opponents: OpponentsArg = None,
        *,
        player_weights: Sequence[float] | None = None,
        zero_is_ten: bool = False,
        reward_mode: str = "score_margin",
        seed: int | None = None,
        learner_seat: int | None = None,
        illegal_action: str = "raise",
        render_mode: str | None = None,
        game: str = DEFAULT_GAME,
    ) -> None:
        super().__init__()
        self.game = get_game(game)
        self.table_sizes, self.table_weights = _table_sizes(
            num_players, player_weights, self._check_table_size
        )
        self.num_players = max(self.table_sizes)  # this episode's size once reset
        self.game.check_reward_mode(reward_mode)
        _check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        if render_mode is not None:
            _check_choice("render_mode", render_mode, tuple(self.metadata["render_modes"]))
        if learner_seat is not None and (
            isinstance(learner_seat, bool)
            or not isinstance(learner_seat, (int, np.integer))
            or not 0 <= learner_seat < min(self.table_sizes)
        ):
            raise ValueError(
                f"learner_seat must be None (rotate every episode) or a seat in "
                f"0..{min(self.table_sizes) - 1}, got {learner_seat!r}"
            )
        if not isinstance(zero_is_ten, bool):
            raise ValueError(f"zero_is_ten must be True or False, got {zero_is_ten!r}")
        self.variants = {"zero_is_ten": True} if zero_is_ten else {}
        if zero_is_ten and "zero_is_ten" not in self.game.variants:
            raise ValueError(f"{self.game.title} has no zero_is_ten variant")
        self.opponent_source = opponent_source(opponents, num_players, seed, self.game.name)
        self.zero_is_ten = zero_is_ten
        self.reward_mode = reward_mode
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.fixed_learner_seat = None if learner_seat is None else int(learner_seat)
        size, num_actions = self.game.observation_size, self.game.num_actions
        self.observation_space = gym.spaces.Box(0.0, np.inf, (size,), np.float32)
        self.action_space = gym.spaces.Discrete(num_actions)
        self._seats: Any = None  # the game's seat observer, made with the first game
        self._seed_rng = random.Random(seed)
        self._episode = 0
        self.state: Any = None
        self.learner = 0
        self.opponents: dict[int, Agent] = {}
        self._mask = np.zeros(num_actions, dtype=np.int8)
        self._ended = True  # no episode yet

    def _check_table_size(self, num_players: Any) -> int:
        if self.game.name == DEFAULT_GAME:
            return check_num_players(num_players)
        n = self.game.check_players(num_players)
        if n < 2:  # the reward modes rank the learner against others
            raise ValueError(
                f"a single-agent {self.game.title} env needs 2..{self.game.max_players} "
                f"players (the learner and opponents); the solo game has its own env "
                f"(the Gallerist: GalleristSoloEnv)"
            )
        return n

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; ``seed`` fixes it, the learner's seat and the opponents' play."""
        super().reset(seed=seed)
        if seed is not None:
            self._seed_rng = random.Random(seed)
            self._episode = 0
            reseed = getattr(self.opponent_source, "reseed", None)
            if reseed is not None:
                reseed(seed)
        game_seed = self._seed_rng.getrandbits(63)
        if len(self.table_sizes) > 1:  # mixed tables: this episode's size, seeded
            self.num_players = self._seed_rng.choices(self.table_sizes, self.table_weights)[0]
        n = self.num_players
        self.learner = (
            self._episode % n if self.fixed_learner_seat is None else self.fixed_learner_seat
        )
        self._episode += 1
        seats = [(self.learner + k) % n for k in range(1, n)]
        self.opponents = dict(zip(seats, self.opponent_source.sample(len(seats))))
        for k, agent in enumerate(self.opponents.values()):
            agent.reset(game_seed + k)
        self.state = self.game.setup(n, game_seed, **self.variants)
        if self._seats is None:
            self._seats = self.game.make_observer(self.state)
        self._seats.reset()
        self._ended = False
        self._play_opponents()
        obs = self._observe()
        return obs, {"learner_seat": self.learner, "action_mask": self._mask.copy()}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._ended:
            raise RuntimeError("the episode is over (or never started): call reset() before step()")
        action = self.game.check_action_id(action)
        if not self._mask[action] and self.illegal_action == "terminate":
            self._ended = True
            self._mask = np.zeros(self.game.num_actions, dtype=np.int8)
            info = {
                "learner_seat": self.learner,
                "illegal_action": action,
                "action_mask": self._mask.copy(),
            }
            obs = self._seats.observation(self.state, self.learner)
            return obs, ILLEGAL_ACTION_REWARD, True, False, info
        self.state.apply(action)  # an illegal action raises here and changes nothing
        self._play_opponents()
        obs = self._observe()
        if not self.state.is_over:
            return obs, 0.0, False, False, {"action_mask": self._mask.copy()}
        self._ended = True
        breakdown = self.state.score_breakdown()
        reward = self.game.final_rewards(breakdown, self.reward_mode)[self.learner]
        info = {
            "learner_seat": self.learner,
            "score": breakdown[self.learner],
            "won": breakdown[self.learner]["rank"] == 1,
            "opponents": [type(a).__name__ for a in self.opponents.values()],
            "action_mask": self._mask.copy(),
        }
        return obs, float(reward), True, False, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as bools (all False once the episode is over)."""
        return self._mask.astype(bool)

    def render(self) -> str | None:
        """``ansi``: the board as the learner's seat sees it (everything once it is over)."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        if self.state is None:
            return ""
        viewer = None if self.state.is_over else self.learner
        text = self.game.render_text(self.state, viewer)
        if self.state.is_over:
            text += "\n" + self.game.render_breakdown(self.state.score_breakdown())
        return text

    def _observe(self) -> np.ndarray:
        self._mask = self._seats.action_mask(self.state, self.learner)
        return self._seats.observation(self.state, self.learner)

    def _play_opponents(self) -> None:
        """The other seats move until it is the learner's turn or the game is over."""
        learner = self.learner
        play(
            self.state,
            self.opponents,
            self._seats,
            stop=lambda state: state.current_player == learner,
        )
