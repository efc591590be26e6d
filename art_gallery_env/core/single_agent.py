"""One single-agent Gymnasium env over any registered game and table size, 1 included.

The learner controls one seat per episode (fixed, or rotating every episode); every other
seat is played by an agent through the one game loop (:func:`~.loop.play`), stopped at the
learner's turn. Only the learner's decisions are steps, and the reward is the learner
seat's own final reward (the game's :attr:`GameSpec.final_rewards <.registry.GameSpec>`),
never the last mover's. The legal actions: :meth:`SingleAgentEnv.action_masks` (bool, what
sb3-contrib's MaskablePPO reads) is the documented accessor; ``info["action_mask"]`` (int8
0/1, what ``Discrete.sample(mask=...)`` takes) is the same mask, kept as an alias. A
one-player game (a solo game against the engine) is the same env without opponents.

The defaults are the AEC env's (one table in the README): ``illegal_action="terminate"``
(PettingZoo's -1 and the episode ends; ``"raise"`` is the strict mode) and the game's own
first reward mode (``"win"``; a solo game's ``"level"``). ``render_mode`` is ``"ansi"``,
or ``"rgb_array"``/``"svg"`` where the game draws its board (``GameSpec.render_frame``).

Opponents arrive as :class:`~.agent.Agent` objects, a factory ``(place, seed) -> Agent``
or a source with ``sample(count)`` (the trainers' opponent pool): this module knows no
agent by name; ``art_gallery_env.arena.single_agent`` adds agent specs (``"heuristic"``,
a checkpoint path) on top.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

import gymnasium as gym
import numpy as np

from .agent import Agent
from .env_checks import (
    ILLEGAL_ACTION_MODES,
    ILLEGAL_ACTION_REWARD,
    RENDER_FPS,
    check_choice,
    check_options,
    check_saved_state,
    check_seed,
    players_text,
)
from .loop import play
from .registry import GameSpec, get_game
from .scoring import final_rewards

DEFAULT_ILLEGAL_ACTION = "terminate"  # as the AEC env's: PettingZoo's convention
TEXT_RENDER_MODES = ("ansi",)
FRAME_RENDER_MODES = ("rgb_array", "svg")  # where the game draws its board
NO_DRAWING_HINT = (
    "SB3's make_vec_env passes render_mode='rgb_array' unless told otherwise: give it "
    "env_kwargs={'render_mode': None}"
)


@runtime_checkable
class OpponentSource(Protocol):
    """Supplies the opponents of one episode (an opponent pool, or fixed agents)."""

    def sample(self, count: int) -> list[Agent]: ...


class FixedOpponents:
    """The same agents every episode: ``agents[k]`` sits ``k + 1`` seats after the learner
    (so ``agents[0]`` always moves right after it, whichever seat the learner has).
    ``prefix=True`` (one agent for every seat at mixed table sizes) lets a smaller table
    take the first ``count`` of them."""

    def __init__(self, agents: Sequence[Agent], prefix: bool = False) -> None:
        self.agents = list(agents)
        self.prefix = prefix

    def sample(self, count: int) -> list[Agent]:
        if self.prefix and count <= len(self.agents):
            return self.agents[:count]
        if count != len(self.agents):
            raise ValueError(
                f"{len(self.agents)} opponents were given for {count} opponent seats; "
                f"pass one agent per seat other than the learner's"
            )
        return list(self.agents)


class FactoryOpponents:
    """Agents made by ``factory(place, seed)`` the first time a table needs them: ``place``
    1 moves right after the learner, 2 after that one, ...; ``seed`` is the env's seed
    plus ``place - 1`` (None without one). Each place keeps its agent afterwards."""

    def __init__(self, factory: Callable[[int, int | None], Agent], seed: int | None) -> None:
        self.factory = factory
        self.seed = seed
        self.agents: dict[int, Agent] = {}

    def sample(self, count: int) -> list[Agent]:
        for place in range(1, count + 1):
            if place not in self.agents:
                seed = None if self.seed is None else self.seed + place - 1
                agent = self.factory(place, seed)
                if not isinstance(agent, Agent):
                    raise TypeError(
                        f"the opponent factory must return an Agent, got {type(agent).__name__}"
                    )
                self.agents[place] = agent
        return [self.agents[place] for place in range(1, count + 1)]


OpponentsArg = OpponentSource | Agent | Sequence[Agent] | Callable[..., Agent] | None


def opponents_from(
    opponents: OpponentsArg, sizes: Sequence[int], seed: int | None = None
) -> OpponentSource:
    """A source of opponents: ``None`` (only for one-player tables), one agent for every
    seat, one agent per seat (one table size only), a factory ``(place, seed) -> Agent`` or
    a source with ``sample(count)``."""
    count = max(sizes) - 1
    if isinstance(opponents, OpponentSource):
        return opponents
    if opponents is None:
        if count:
            raise ValueError(
                f"{players_text(sizes)} need opponents: pass Agent objects, a factory "
                f"(place, seed) -> Agent or an object with sample(count)"
            )
        return FixedOpponents([])
    if isinstance(opponents, Agent):
        return FixedOpponents([opponents] * count, prefix=True)
    if callable(opponents):
        return FactoryOpponents(opponents, seed)
    if not isinstance(opponents, Sequence) or not all(isinstance(o, Agent) for o in opponents):
        raise TypeError(
            f"opponents must be Agent objects, a factory (place, seed) -> Agent, or an object "
            f"with sample(count), got {opponents!r}"
        )
    if len(sizes) > 1:
        raise ValueError(
            f"with several table sizes {list(sizes)}, give one opponent for every seat or an "
            f"object with sample(count), not a list of {len(opponents)} per-seat opponents"
        )
    if len(opponents) != count:
        raise ValueError(
            f"{players_text(sizes)} need {count} opponents (one per seat besides the "
            f"learner's), got {len(opponents)}"
        )
    return FixedOpponents(opponents)


def table_sizes(
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


def default_reward_mode(game: GameSpec, sizes: Sequence[int]) -> str:
    """The game's own default, as the AEC env's: its first mode at the (smallest) table
    size, or the first of those that every table size has."""
    for mode in game.reward_modes_for(sizes[0]):
        if all(mode in game.reward_modes_for(n) for n in sizes):
            return mode
    raise ValueError(
        f"{game.title} has no reward mode at every table size {list(sizes)}; "
        f"pass reward_mode= (at {sizes[0]}: {list(game.reward_modes_for(sizes[0]))})"
    )


def render_modes_of(game: GameSpec) -> list[str]:
    """``ansi``, and the drawn board's modes where the game has one."""
    frames = list(FRAME_RENDER_MODES) if game.render_frame is not None else []
    return [*TEXT_RENDER_MODES, *frames]


class SingleAgentEnv(gym.Env):
    """One learner seat of a registered game (``game``: its name; None: the default
    game); the opponents move inside ``step``.

    ``illegal_action="terminate"`` (the default, PettingZoo's convention: what unmasked
    algorithms and ``check_env`` need) ends the episode with reward -1; ``"raise"`` (the
    strict mode, the trainers': their policies are masked) raises the engine's
    :class:`~.errors.IllegalActionError`, naming the legal actions. A value that is not an
    action id at all (``0.7``, ``True``, one past the last id) always raises ``ValueError``.
    ``reset(options={"state": state})`` continues a saved game of this env's game, table
    sizes, variants and data; ``options={"start_player": k}`` names a new game's start player.
    """

    # every mode some game has (what gymnasium.make reads); an instance lists its game's own
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": [*TEXT_RENDER_MODES, *FRAME_RENDER_MODES],
        "render_fps": RENDER_FPS,
    }
    # the infos' key naming the pending decision's kind (None: infos carry none)
    phase_info_key: ClassVar[str | None] = None

    def __init__(
        self,
        game: str | None = None,
        num_players: int | Sequence[int] = 2,
        *,
        opponents: Any = None,
        variants: Mapping[str, Any] | None = None,
        player_weights: Sequence[float] | None = None,
        reward_mode: str | None = None,
        seed: int | None = None,
        learner_seat: int | None = None,
        illegal_action: str = DEFAULT_ILLEGAL_ACTION,
        render_mode: str | None = None,
        setup_options: Mapping[str, Any] | None = None,
    ) -> None:
        """``setup_options``: the game's own ``new_game`` arguments besides the variants
        (its data: a card set, component data)."""
        super().__init__()
        self.game = get_game(game)
        self.table_sizes, self.table_weights = table_sizes(
            num_players, player_weights, self.game.check_players
        )
        self.num_players = max(self.table_sizes)  # this episode's size once reset
        if reward_mode is None:
            reward_mode = default_reward_mode(self.game, self.table_sizes)
        for n in self.table_sizes:
            self.game.check_reward_mode(reward_mode, n)
        check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        self.metadata = {**self.metadata, "render_modes": self._render_modes()}
        self._check_render_mode(render_mode)
        self.fixed_learner_seat = self._check_learner_seat(learner_seat)
        self.variants = self.game.check_variants(variants)  # every variant, defaults filled in
        self.setup_options = dict(setup_options or {})
        self._data = self._data_fingerprint()
        self.opponent_source = self._opponent_source(opponents, seed)
        self.reward_mode = reward_mode
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.observation_space = self.game.observation_box()
        self.action_space = gym.spaces.Discrete(self.game.num_actions)
        self._seats: Any = None  # the game's seat observer, made with the first game
        self._seed_rng = random.Random(seed)
        self._episode = 0
        self.state: Any = None
        self.learner = 0
        self.opponents: dict[int, Agent] = {}
        self._mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self._ended = True  # no episode yet

    def __getstate__(self) -> dict[str, Any]:
        """The game by name (a spec holds lambdas), so that the env pickles."""
        state = self.__dict__.copy()
        state["game"] = self.game.name
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.game = get_game(state["game"])

    # -- construction ------------------------------------------------------------------
    def _render_modes(self) -> list[str]:
        """This env's render modes (the class's metadata lists every game's)."""
        modes = render_modes_of(self.game)
        return [m for m in modes if m in type(self).metadata["render_modes"]]

    def _check_render_mode(self, render_mode: str | None) -> None:
        modes = self.metadata["render_modes"]
        if render_mode is None or render_mode in modes:
            return
        hint = ""
        if render_mode in FRAME_RENDER_MODES:
            hint = f" ({self.game.title} has no drawn board; {NO_DRAWING_HINT})"
        raise ValueError(f"render_mode must be one of {modes}, got {render_mode!r}{hint}")

    def _check_learner_seat(self, learner_seat: object) -> int | None:
        if learner_seat is not None and (
            isinstance(learner_seat, bool)
            or not isinstance(learner_seat, (int, np.integer))
            or not 0 <= learner_seat < min(self.table_sizes)
        ):
            raise ValueError(
                f"learner_seat must be None (rotate every episode) or a seat in "
                f"0..{min(self.table_sizes) - 1}, got {learner_seat!r}"
            )
        return None if learner_seat is None else int(learner_seat)

    def _opponent_source(self, opponents: Any, seed: int | None) -> OpponentSource:
        """Where the episodes' opponents come from (a subclass may accept more kinds)."""
        return opponents_from(opponents, self.table_sizes, seed)

    def _data_fingerprint(self) -> tuple[str, str]:
        """(name, fingerprint) of the data this env's games use (saved states must match)."""
        if not self.setup_options:
            return self.game.default_data()
        probe = self.game.new_game(min(self.table_sizes), 0, **self.variants, **self.setup_options)
        return self.game.data_fingerprint(probe)

    # -- Gymnasium API ---------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; ``seed`` fixes it, the learner's seat and the opponents' play. A
        reset that fails changes nothing, not even the seed stream."""
        seed = check_seed(seed)
        options = check_options(options)
        saved = None
        if "state" in options:
            saved = self._check_saved_state(options["state"])
        # On a copy of the seed stream: it moves on only once the game is set up.
        rng = random.Random(seed) if seed is not None else random.Random()
        if seed is None:
            rng.setstate(self._seed_rng.getstate())
        game_seed = rng.getrandbits(63)
        if saved is not None:
            n, state = saved.num_players, saved
        else:
            n = self.num_players
            if len(self.table_sizes) > 1:  # mixed tables: this episode's size, seeded
                n = rng.choices(self.table_sizes, self.table_weights)[0]
            state = self._new_game(n, game_seed, options.get("start_player"))
        super().reset(seed=seed)
        if seed is not None:
            self._episode = 0
            reseed = getattr(self.opponent_source, "reseed", None)
            if reseed is not None:
                reseed(seed)
        self._seed_rng = rng
        self.num_players = n
        self._seat_players(game_seed)
        self.state = state
        if self._seats is None:
            self._seats = self.game.make_observer(state)
        self._seats.reset()
        self._ended = False
        self._play_opponents()
        obs = self._observe()
        return obs, self._info({"learner_seat": self.learner, "action_mask": self._mask.copy()})

    def _check_saved_state(self, state: object) -> Any:
        saved = check_saved_state(self.game, state, self.table_sizes, self.variants, self._data)
        if saved.is_over:
            raise ValueError("options['state'] is a finished game: the learner has no move left")
        return saved

    def _new_game(self, num_players: int, seed: int, start_player: int | None) -> Any:
        options = dict(self.setup_options)
        if start_player is not None:
            options["start_player"] = start_player
        return self.game.new_game(num_players, seed, **self.variants, **options)

    def _seat_players(self, game_seed: int) -> None:
        """This episode's learner seat and the opponents in the other seats, reset."""
        n = self.num_players
        self.learner = (
            self._episode % n if self.fixed_learner_seat is None else self.fixed_learner_seat
        )
        self._episode += 1
        seats = [(self.learner + k) % n for k in range(1, n)]
        self.opponents = dict(zip(seats, self.opponent_source.sample(len(seats))))
        for k, agent in enumerate(self.opponents.values()):
            agent.reset(game_seed + k)

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._ended:
            raise RuntimeError("the episode is over (or never started): call reset() before step()")
        action = self.game.check_action_id(action)
        if not self._mask[action] and self.illegal_action == "terminate":
            return self._end_on_illegal_action(action)
        self.state.apply(action)  # an illegal action raises here and changes nothing
        self._play_opponents()
        obs = self._observe()
        if not self.state.is_over:
            return obs, 0.0, False, False, self._info({"action_mask": self._mask.copy()})
        self._ended = True
        breakdown = self.state.score_breakdown()
        rewards = self.game.final_rewards or final_rewards
        reward = rewards(breakdown, self.reward_mode)[self.learner]
        info = {
            "learner_seat": self.learner,
            "score": breakdown[self.learner],
            "won": breakdown[self.learner]["rank"] == 1,
            "opponents": [type(a).__name__ for a in self.opponents.values()],
            "action_mask": self._mask.copy(),
        }
        return obs, float(reward), True, False, self._info(info)

    def _end_on_illegal_action(
        self, action: int
    ) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """``illegal_action="terminate"``: the episode ends with -1, the game unchanged."""
        self._ended = True
        self._mask = np.zeros(self.game.num_actions, dtype=np.int8)
        info = {
            "learner_seat": self.learner,
            "illegal_action": action,
            "action_mask": self._mask.copy(),
        }
        obs = self._seats.observation(self.state, self.learner)
        return obs, ILLEGAL_ACTION_REWARD, True, False, self._info(info)

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as bools (all False once the episode is over): the
        documented mask of the Gymnasium/SB3 API (``info["action_mask"]`` is an alias)."""
        return self._mask.astype(bool)

    def render(self) -> Any:
        """``ansi``: the board as the learner's seat sees it (everything once it is over);
        ``rgb_array`` (HxWx3 uint8) and ``svg``: the game's drawing of the same view."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        if self.state is None:
            return "" if self.render_mode in TEXT_RENDER_MODES else None
        viewer = None if self.state.is_over else self.learner
        if self.render_mode in FRAME_RENDER_MODES:
            return self.game.render_frame(self.state, viewer, self.render_mode)
        text = self.game.render_text(self.state, viewer)
        if self.state.is_over:
            text += "\n" + self.game.render_breakdown(self.state.score_breakdown())
        return text

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        if self.phase_info_key is not None:
            info[self.phase_info_key] = self.state.phase_name
        return info

    def _observe(self) -> np.ndarray:
        self._mask = self._seats.action_mask(self.state, self.learner)
        return self._seats.observation(self.state, self.learner)

    def _play_opponents(self) -> None:
        """The other seats move until it is the learner's turn or the game is over."""
        if not self.opponents:
            return
        learner = self.learner
        play(
            self.state,
            self.opponents,
            self._seats,
            stop=lambda state: state.current_player == learner,
        )
