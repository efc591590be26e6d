"""Art Gallery as a PettingZoo AEC environment.

| | |
|---|---|
| agents | ``player_0`` .. ``player_{N-1}``, N = 2..6 |
| action space | ``Discrete(47)`` (see :mod:`art_gallery_env.rules.actions`) |
| observation space | ``Dict(observation=Box(float32), action_mask=Box(int8, (47,)))`` |
| rewards | only at the end: ``"win"`` or ``"score_margin"`` |
| render modes | ``ansi``, ``human`` (text); ``svg``, ``rgb_array`` (the drawn board) |

The env is a thin layer over :mod:`art_gallery_env.rules`; ``env.unwrapped.state`` is the
engine state (which holds hidden information: agents should use observations).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterator
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..rules.actions import NUM_ACTIONS
from ..rules.board import check_num_players
from ..rules.cards import CardSet, default_card_set
from ..rules.game import IllegalActionError
from ..rules.scoring import winners
from ..rules.state import GameState, new_game
from .observation import OBSERVATION_SIZE
from .raster import require_rasteriser, svg_to_rgb
from .render import render_breakdown, render_text
from .seat import SeatObserver
from .svg import render_svg

ENV_VERSION = "art_gallery_v0"
"""The env's name and version (PettingZoo's convention); records and checkpoints store it."""
REWARD_MODES = ("win", "score_margin")
ILLEGAL_ACTION_MODES = ("raise", "terminate")
RENDER_MODES = ("ansi", "human", "rgb_array", "svg")
RENDER_FPS = 2
SCORE_MARGIN_SCALE = 10.0
ILLEGAL_ACTION_REWARD = -1.0


def final_rewards(breakdown: list[dict[str, Any]], reward_mode: str) -> list[float]:
    """``win``: a sole winner +1, k tied winners 1/k each, everyone else -1 (R7.5).
    ``score_margin``: (own total - best other total) / 10."""
    if reward_mode == "win":
        top = winners(breakdown)
        return [1.0 / len(top) if b["player"] in top else -1.0 for b in breakdown]
    totals = [b["total"] for b in breakdown]
    return [
        (t - max(totals[:i] + totals[i + 1 :])) / SCORE_MARGIN_SCALE for i, t in enumerate(totals)
    ]


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's naming convention
    metadata = {
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
        "name": ENV_VERSION,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        num_players: int = 2,
        *,
        zero_is_ten: bool = False,
        reward_mode: str = "win",
        render_mode: str | None = None,
        illegal_action: str = "raise",
        card_set: CardSet | None = None,
        render_viewer: int | str | None = "current",
    ) -> None:
        super().__init__()
        self.num_players = check_num_players(num_players)
        _check_choice("reward_mode", reward_mode, REWARD_MODES)
        _check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        if render_mode is not None:
            _check_choice("render_mode", render_mode, RENDER_MODES)
        if render_mode == "rgb_array":
            require_rasteriser()  # a missing extra fails here, not at the first frame
        if render_viewer not in ("current", None) and not (
            isinstance(render_viewer, int) and 0 <= render_viewer < num_players
        ):
            raise ValueError(
                f"render_viewer must be 'current', None (spectator) or a seat in "
                f"0..{num_players - 1}, got {render_viewer!r}"
            )
        if not isinstance(zero_is_ten, bool):
            raise ValueError(f"zero_is_ten must be True or False, got {zero_is_ten!r}")
        self.zero_is_ten = zero_is_ten
        self.reward_mode = reward_mode
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.render_viewer = render_viewer
        self.card_set = card_set or default_card_set()
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.seats = SeatObserver(self.card_set)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, (OBSERVATION_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._seed_rng = random.Random()
        self.state: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- AEC API ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """New game; ``seed`` fixes it entirely. ``options={"start_player": k}`` names R3.4's
        start player, ``options={"state": GameState}`` continues a saved game (one of this
        env's player count, variant and card set; a finished one leaves every agent
        terminated with its final reward); other keys are ignored (PettingZoo's API test
        passes its own). A reset that fails changes nothing, not even the seed stream."""
        seed = _check_seed(seed)
        if options is None:
            options = {}
        elif not isinstance(options, dict):
            raise ValueError(f"options must be a dict or None, got {type(options).__name__}")
        seed_rng = random.Random(seed) if seed is not None else self._seed_rng
        if "state" in options:
            state = self._check_saved_state(options["state"])
        else:
            # On a copy of the seed stream: it moves on only once the game is set up.
            trial_rng = random.Random()
            trial_rng.setstate(seed_rng.getstate())
            game_seed = seed if seed is not None else trial_rng.getrandbits(63)
            state = new_game(
                self.num_players,
                game_seed,
                zero_is_ten=self.zero_is_ten,
                start_player=options.get("start_player"),
                card_set=self.card_set,
            )
            seed_rng.setstate(trial_rng.getstate())
        self._seed_rng = seed_rng
        self.state = state
        self.seats.reset()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._info_phase: str | None = None
        if state.is_over:  # a finished saved game: as after its last step
            self._finish()
        else:
            self._after_action()

    def _check_saved_state(self, state: object) -> GameState:
        """A copy of ``options["state"]`` if it is a game this env can continue."""
        if not isinstance(state, GameState) or state.num_players != self.num_players:
            raise ValueError(f"options['state'] must be a GameState for {self.num_players} players")
        if state.zero_is_ten != self.zero_is_ten:
            raise ValueError(
                f"options['state'] was played with zero_is_ten={state.zero_is_ten}, but this "
                f"env has zero_is_ten={self.zero_is_ten}; make the env with "
                f"zero_is_ten={state.zero_is_ten}"
            )
        if state.cards.fingerprint != self.card_set.fingerprint:
            raise ValueError(
                f"options['state'] uses card set {state.cards.name!r} (fingerprint "
                f"{state.cards.fingerprint}), but this env has card set {self.card_set.name!r} "
                f"({self.card_set.fingerprint}); make the env with card_set=state.cards"
            )
        return state.clone()

    def _require_reset(self, call: str) -> None:
        if self.state is None:
            raise RuntimeError(f"call reset() before {call}(): the env has no game yet")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._require_reset("last")
        return super().last(observe)

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        self._require_reset("agent_iter")
        return super().agent_iter(max_iter)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._require_reset("observe")
        player = self.agent_name_mapping[agent]
        return {
            "observation": self.seats.observation(self.state, player),
            "action_mask": self.seats.action_mask(self.state, player),
        }

    def action_mask(self, agent: str) -> np.ndarray:
        """1 for each legal action of ``agent``; all 0 when it is not its turn."""
        if self.state is None:
            return np.zeros(NUM_ACTIONS, dtype=np.int8)
        return self.seats.action_mask(self.state, self.agent_name_mapping[agent])

    def step(self, action: int | None) -> None:
        self._require_reset("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
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

    def _finish(self) -> None:
        """The game is over: final rewards, every agent terminated, the breakdown in infos."""
        breakdown = self.state.score_breakdown()
        for a, r in zip(self.possible_agents, final_rewards(breakdown, self.reward_mode)):
            self.rewards[a] = r
            self.terminations[a] = True
        for a, b in zip(self.possible_agents, breakdown):
            self.infos[a] = {"phase": "game_over", "score": b, "breakdown": breakdown}
        self._after_action()
        self._accumulate_rewards()

    def _after_action(self) -> None:
        self.agent_selection = self.possible_agents[self.state.current_player]
        phase = self.state.phase_name
        if not self.state.is_over and phase != self._info_phase:  # new dicts only on change
            self._info_phase = phase
            for a in self.agents:
                self.infos[a] = {"phase": phase}

    def _end_on_illegal_action(self, agent: str) -> None:
        """PettingZoo's convention: the offender gets -1, everybody else 0, the game ends."""
        for a in self.agents:
            self.rewards[a] = ILLEGAL_ACTION_REWARD if a == agent else 0.0
            self.terminations[a] = True
            self.infos[a] = {"phase": self.state.phase_name, "illegal_action": agent}
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        """``ansi``: text; ``human``: prints the text; ``svg``: the drawn board as SVG;
        ``rgb_array``: the same drawing as an HxWx3 uint8 array. Each shows what
        ``render_viewer`` may see (R8): the seat to act by default, everything at game over."""
        self._require_reset("render")
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode=")
            return None
        viewer = self.render_viewer
        if viewer == "current":
            viewer = None if self.state.is_over else self.state.current_player
        if self.render_mode == "svg":
            return render_svg(self.state, viewer)
        if self.render_mode == "rgb_array":
            return svg_to_rgb(render_svg(self.state, viewer))
        text = render_text(self.state, viewer)
        if self.state.is_over:
            text += "\n" + render_breakdown(self.state.score_breakdown())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> AECEnv:
    """The raw env wrapped in PettingZoo's order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


def _check_seed(seed: object) -> int | None:
    """``seed`` as a plain int (numpy integers included) or None; ValueError else."""
    if seed is None:
        return None
    if not isinstance(seed, bool):
        try:
            return operator.index(seed)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise ValueError(f"seed must be an int or None, got {seed!r} ({type(seed).__name__})")


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")
