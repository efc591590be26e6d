"""The one PettingZoo AEC base env every game's ``raw_env`` derives from.

:class:`TurnBasedAEC` owns what every turn-based game does the same way, as Pgx's
``core.Env`` and RLCard's ``Env`` own stepping and the finished game: ``reset`` (its seed
checks and the atomic seed stream: a reset that fails changes nothing, not even the seed
stream), ``options={"state": ...}`` with the checks that the saved game fits the env,
``options={"start_player": k}``, the calls made before any reset, the illegal-action
policy (``terminate`` with -1 to the offender, PettingZoo's convention and the default, or
``raise``), ``step``, the finish (final rewards through the game's
:attr:`GameSpec.final_rewards <.registry.GameSpec>`, scores in infos),
``last``/``agent_iter``/``observe``/``action_mask`` and the render dispatch.

The contract every game's env keeps (tests/conformance/test_env_contract.py checks it for
each registered game): ``last()`` works after the end, also once every agent has taken
its dead step; after termination ``step`` takes only ``None`` (PettingZoo's dead step),
through :func:`wrap` as well; an unknown agent is an :class:`~.errors.UnknownAgentError`
naming the agents; a seed is any integer (NumPy's too), never a bool; a saved state is
checked field by field (the game's :attr:`GameSpec.check_state <.registry.GameSpec>`) and a
finished one terminates every agent at reset with its final rewards.

A game's ``raw_env`` names its registered game (``game_name``) and adds only what is its
own: its seat observer (observation and mask), its spaces if they are not the usual
``Dict(observation=Box, action_mask=Box)``, its drawn render modes and its constructor
options (card sets, component data). Rewards come only at the end of a game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from .env_checks import (
    ILLEGAL_ACTION_MODES,
    ILLEGAL_ACTION_REWARD,
    RENDER_FPS,
    check_choice,
    check_options,
    check_saved_state,
    check_seed,
)
from .errors import IllegalActionError, UnknownAgentError, check_num_players
from .registry import GameSpec, get_game
from .scoring import final_rewards

TEXT_RENDER_MODES = ("ansi", "human")
DEFAULT_ILLEGAL_ACTION = "terminate"  # PettingZoo's convention; "raise" is the strict mode
AFTER_THE_END = (
    "the game is over: after termination the only action is None (PettingZoo's dead step); "
    "call reset() for a new game"
)


class TurnBasedAEC(AECEnv):
    """A registered game as a PettingZoo AEC env; subclass it per game (see the module)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(TEXT_RENDER_MODES),
        "name": "turn_based_v0",
        "is_parallelizable": False,
        "render_fps": RENDER_FPS,
    }
    game_name: ClassVar[str] = ""  # the game's name in the registry

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A game's own ``metadata`` keeps what it says and gets the base's keys it leaves
        out (``render_fps``, ``is_parallelizable``), so a new game need not repeat them."""
        super().__init_subclass__(**kwargs)
        cls.metadata = {**TurnBasedAEC.metadata, **cls.metadata}

    info_key: ClassVar[str] = "phase"  # the infos' key naming the pending decision's kind
    # how a saved state's data mismatch reads: "card set", and the fix ("card_set=state.cards")
    data_label: ClassVar[str] = "data"
    data_hint: ClassVar[str] = ""

    def __init__(
        self,
        num_players: int = 2,
        *,
        variants: Mapping[str, Any] | None = None,
        reward_mode: str | None = None,
        render_mode: str | None = None,
        illegal_action: str = DEFAULT_ILLEGAL_ACTION,
        render_viewer: int | str | None = "current",
    ) -> None:
        super().__init__()
        game = self.game_spec
        self.num_players = check_num_players(num_players, game.min_players, game.max_players)
        self.reward_mode = self._check_reward_mode(reward_mode)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        if render_mode is not None:
            check_choice("render_mode", render_mode, self.metadata["render_modes"])
        if render_viewer not in ("current", None) and not (
            isinstance(render_viewer, int) and 0 <= render_viewer < num_players
        ):
            raise ValueError(
                f"render_viewer must be 'current', None (spectator) or a seat in "
                f"0..{num_players - 1}, got {render_viewer!r}"
            )
        self.variants = game.check_variants(variants)  # every variant, defaults filled in
        self.render_mode = render_mode
        self.render_viewer = render_viewer
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.seats: Any = None  # the game's seat observer, made with the first game
        obs_space, action_space = self._observation_space(), self._action_space()
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: action_space for a in self.possible_agents}
        self._seed_rng = random.Random()
        self.state: Any = None
        self._end_infos: dict[str, dict[str, Any]] = {}  # what last() shows once agents left

    # -- what a game adds --------------------------------------------------------------
    @property
    def game_spec(self) -> GameSpec:
        """The game's spec (looked up, not stored: an env stays picklable)."""
        return get_game(self.game_name)

    def _make_seats(self, state: Any) -> Any:
        """The game's seat observer (observation and mask) for the env's games."""
        return self.game_spec.make_observer(state)

    def _setup_options(self) -> dict[str, Any]:
        """Keyword arguments of the game's ``new_game`` besides the variants (its data)."""
        return {}

    def _data_fingerprint(self) -> tuple[str, str] | None:
        """(name, fingerprint) of the env's data, which a saved state must share; None:
        the game has no data to check."""
        return None

    def _observation_space(self) -> spaces.Space:
        game = self.game_spec
        return spaces.Dict(
            {
                "observation": game.observation_box(),
                "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
            }
        )

    def _action_space(self) -> spaces.Space:
        return spaces.Discrete(self.game_spec.num_actions)

    def _render_frame(self, mode: str, viewer: int | None) -> Any:
        """A render mode other than text: the game's drawing (its spec's ``render_frame``)."""
        frame = self.game_spec.render_frame
        if frame is None:
            raise NotImplementedError(f"{type(self).__name__} does not draw render_mode={mode!r}")
        return frame(self.state, viewer, mode)

    # -- construction checks -----------------------------------------------------------
    def _check_reward_mode(self, reward_mode: str | None) -> str:
        """None: the game's first mode at this table size."""
        game = self.game_spec
        modes = game.reward_modes_for(self.num_players)
        if reward_mode is None:
            return modes[0]
        if reward_mode not in modes:
            at = f" for {self.num_players} player(s)" if game.reward_modes_at else ""
            raise ValueError(f"reward_mode{at} must be one of {list(modes)}, got {reward_mode!r}")
        return reward_mode

    def _seat(self, agent: object) -> int:
        """The seat of ``agent``; an UnknownAgentError naming the env's agents else."""
        try:
            return self.agent_name_mapping[agent]  # type: ignore[index]
        except (KeyError, TypeError):
            raise UnknownAgentError(
                f"unknown agent {agent!r}; this env's agents are {', '.join(self.possible_agents)}"
            ) from None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    # -- AEC API ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """New game; ``seed`` fixes it entirely. ``options={"start_player": k}`` names the
        start player, ``options={"state": state}`` continues a saved game (one of this env's
        player count, variants and data; a finished one leaves every agent terminated with
        its final reward); other keys are ignored (PettingZoo's API test passes its own).
        A reset that fails changes nothing, not even the seed stream."""
        seed = check_seed(seed)
        options = check_options(options)
        seed_rng = random.Random(seed) if seed is not None else self._seed_rng
        if "state" in options:
            state = check_saved_state(
                self.game_spec,
                options["state"],
                [self.num_players],
                self.variants,
                self._data_fingerprint(),
                self.data_label,
                self.data_hint,
            )
        else:
            # On a copy of the seed stream: it moves on only once the game is set up.
            trial_rng = random.Random()
            trial_rng.setstate(seed_rng.getstate())
            game_seed = seed if seed is not None else trial_rng.getrandbits(63)
            state = self._new_game(game_seed, options.get("start_player"))
            seed_rng.setstate(trial_rng.getstate())
        self._seed_rng = seed_rng
        self.state = state
        self._start()

    def _new_game(self, seed: int, start_player: int | None) -> Any:
        options = self._setup_options()
        if start_player is not None:
            options["start_player"] = start_player
        return self.game_spec.new_game(self.num_players, seed, **self.variants, **options)

    def _start(self) -> None:
        """Fresh rewards, flags and infos for the game in ``self.state``."""
        if self.seats is None:
            self.seats = self._make_seats(self.state)
        self.seats.reset()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._info_phase: str | None = None
        self._end_infos = {}
        if self.state.is_over:  # a finished saved game: as after its last step
            self._finish()
        else:
            self._after_action()

    def _require_reset(self, call: str) -> None:
        if self.state is None:
            raise RuntimeError(f"call reset() before {call}(): the env has no game yet")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``; once every agent has taken its dead step, the end as the
        selected agent saw it (reward 0: its final reward was paid before)."""
        self._require_reset("last")
        agent = self.agent_selection
        observation = self._observe(self.agent_name_mapping[agent]) if observe else None
        if agent in self.terminations:  # AECEnv's last, its observe call inlined
            return (
                observation,
                self._cumulative_rewards[agent],
                self.terminations[agent],
                self.truncations[agent],
                self.infos[agent],
            )
        return observation, 0.0, True, False, self._end_infos.get(agent, {})

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        self._require_reset("agent_iter")
        return super().agent_iter(max_iter)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._require_reset("observe")
        return self._observe(self._seat(agent))

    def _observe(self, player: int) -> dict[str, np.ndarray]:
        """``observe`` of a known seat (``last`` reads it once a decision)."""
        state, seats = self.state, self.seats
        return {
            "observation": seats.observation(state, player),
            "action_mask": seats.action_mask(state, player),
        }

    def action_mask(self, agent: str) -> np.ndarray:
        """1 for each legal action of ``agent``; all 0 when it is not its turn. An alias:
        the documented mask is ``observe(agent)["action_mask"]`` (PettingZoo's place)."""
        player = self._seat(agent)
        if self.state is None:
            return np.zeros(self.game_spec.num_actions, dtype=np.int8)
        return self.seats.action_mask(self.state, player)

    def step(self, action: int | None) -> None:
        self._require_reset("step")
        agent = self.agent_selection
        if agent not in self.terminations:  # every agent has taken its dead step
            if action is not None:
                raise ValueError(AFTER_THE_END)
            return
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"{agent} is terminated: {AFTER_THE_END}")
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        try:
            self.state.apply(action)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._end_on_illegal_action(agent)
            return
        # Rewards come only at the end (they stay 0 until then, so there is nothing to
        # clear or accumulate at the other steps).
        if self.state.is_over:
            self._finish()
        else:
            self._after_action()
        if self.render_mode == "human":
            self.render()

    def _final_rewards(self, breakdown: list[dict[str, Any]]) -> list[float]:
        rewards = self.game_spec.final_rewards or final_rewards
        return rewards(breakdown, self.reward_mode)

    def _finish(self) -> None:
        """The game is over: final rewards, every agent terminated, the breakdown in infos."""
        breakdown = self.state.score_breakdown()
        for a, r in zip(self.possible_agents, self._final_rewards(breakdown)):
            self.rewards[a] = r
            self.terminations[a] = True
        for a, b in zip(self.possible_agents, breakdown):
            self.infos[a] = {self.info_key: "game_over", "score": b, "breakdown": breakdown}
        self._end_infos = dict(self.infos)
        self._after_action()
        self._accumulate_rewards()

    def _after_action(self) -> None:
        self.agent_selection = self.possible_agents[self.state.current_player]
        phase = self.state.phase_name
        if not self.state.is_over and phase != self._info_phase:  # new dicts only on change
            self._info_phase = phase
            for a in self.agents:
                self.infos[a] = {self.info_key: phase}

    def _end_on_illegal_action(self, agent: str) -> None:
        """PettingZoo's convention: the offender gets -1, everybody else 0, the game ends."""
        for a in self.agents:
            self.rewards[a] = ILLEGAL_ACTION_REWARD if a == agent else 0.0
            self.terminations[a] = True
            self.infos[a] = {self.info_key: self.state.phase_name, "illegal_action": agent}
        self._end_infos = dict(self.infos)
        self._accumulate_rewards()

    def render(self) -> Any:
        """``ansi``: text; ``human``: prints the text; other modes are the game's drawings.
        Each shows what ``render_viewer`` may see: the seat to act by default, everything
        once the game is over."""
        self._require_reset("render")
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode=")
            return None
        viewer = self.render_viewer
        if viewer == "current":
            viewer = None if self.state.is_over else self.state.current_player
        if self.render_mode not in TEXT_RENDER_MODES:
            return self._render_frame(self.render_mode, viewer)
        game = self.game_spec
        text = game.render_text(self.state, viewer)
        if self.state.is_over:
            text += "\n" + game.render_breakdown(self.state.score_breakdown())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class OrderEnforcingAEC(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order-enforcing wrapper (what ``env()`` returns), keeping the contract
    once every agent has left: ``last()`` works, ``step(None)`` warns as PettingZoo's does,
    and any other action is refused instead of being dropped without a word."""

    def _require_reset(self, call: str) -> None:
        """The raw env's one-line error (PettingZoo's wrapper raises an AssertionError)."""
        if not self._has_reset:
            raise RuntimeError(f"call reset() before {call}(): the env has no game yet")

    # The loop's hot attributes, read from the env directly: PettingZoo's wrapper reaches
    # them through two __getattr__ calls each, and a decision reads them three times (its
    # iterator twice, step once). Before reset they raise, and PettingZoo's __getattr__
    # then raises its own "cannot be accessed before reset".
    @property
    def agents(self) -> list[Any]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents

    @property
    def agent_selection(self) -> Any:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        """PettingZoo's order-enforcing iteration, each turn read from the env in one call."""
        self._require_reset("agent_iter")
        return _OrderEnforcingTurns(self, max_iter)

    def step(self, action: Any) -> None:
        """PettingZoo's wrapper's ``step`` (the dead step after the end warns), in one call."""
        self._require_reset("step")
        if not self.env.agents:
            if action is not None:
                raise ValueError(AFTER_THE_END)
            super().step(action)  # PettingZoo's warning
            return
        self._has_updated = True
        self.env.step(action)

    def observe(self, agent: Any) -> Any:
        self._require_reset("observe")
        return super().observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The env's own ``last`` (which works after the end), not AECEnv's on the wrapper."""
        self._require_reset("last")
        return self.env.last(observe)


class _OrderEnforcingTurns(AECOrderEnforcingIterable):
    """PettingZoo's order-enforcing iterable, iterated by :class:`_OrderEnforcingTurn`."""

    def __iter__(self) -> AECOrderEnforcingIterator:
        return _OrderEnforcingTurn(self.env, self.max_iter)


class _OrderEnforcingTurn(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing iterator (a ``step`` between turns), reading the wrapped
    env's agents and selection directly: PettingZoo's goes through two more ``__next__``
    levels and the wrapper's properties, a microsecond a decision."""

    def __next__(self) -> Any:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection


def wrap(raw: TurnBasedAEC) -> AECEnv:
    """A game's raw env as users get it from ``env()``."""
    return OrderEnforcingAEC(raw)
