"""Every registered game as an OpenSpiel Python game, ``python_<name>``.

Importing this module (the ``[openspiel]`` extra) registers each game of the registry
with ``pyspiel``; :func:`register_games` registers the games added since::

    import pyspiel
    import art_gallery_env.bridges.openspiel  # noqa: F401 - registers python_<game> for each
    game = pyspiel.load_game("python_gallerist", {"players": 3})

A game whose spec has the ``openspiel`` capability brings its own bridge (its
``extensions["openspiel"]`` module registers it: Art Gallery's deals its cards as chance
nodes). Any other game gets the generic bridge below, which needs nothing but the engine
protocol:

- **Chance.** The engine draws everything at ``new_game(seed)``, so the generic game has
  one chance node, at its start: the seed, uniform over ``SEEDS`` values.
- **What a player knows.** ``information_state_string`` is perfect recall from the seat's
  side: its own actions, the others' actions where they are public (an action the game
  hides from other seats, :attr:`GameSpec.hidden_action_name`, reads as that name) and the
  game's narration of events for the seat (:attr:`GameSpec.describe_events`, which shows
  a viewer only what it may see). ``observation_string`` is the seat's text board. Both
  tensors are the env's observation vector.
- **Returns** are the game's ``"win"`` rewards; ``resample_from_infostate`` is the engine's
  ``determinize``.
- Game parameters: ``players`` and each of the game's variants, by name.
"""

from __future__ import annotations

import copy
import importlib
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from art_gallery_env.core.registry import GameSpec, game_names, get_game
from art_gallery_env.core.scoring import final_rewards

SEEDS = 1024  # chance outcomes of the generic deal: the seed of new_game
MAX_GAME_LENGTH = 100_000  # the generic bound; OpenSpiel needs one, no game reaches it
PREFIX = "python_"


def openspiel_name(game: str) -> str:
    return PREFIX + game


def register_games() -> list[str]:
    """Register every registered game not yet known to pyspiel; returns the short names."""
    known = set(pyspiel.registered_names())
    names = []
    for name in game_names():
        spec = get_game(name)
        short = openspiel_name(name)
        if short not in known:
            if spec.has("openspiel"):
                importlib.import_module(spec.extensions["openspiel"])
            else:
                pyspiel.register_game(_game_type(spec), _game_class(name))
        names.append(short)
    return names


def _game_type(spec: GameSpec) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=openspiel_name(spec.name),
        long_name=f"Python {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": spec.min_players, **spec.variants},
    )


def _game_class(name: str) -> type[SpecGame]:
    """A SpecGame class for one game (pyspiel registers a class per game)."""
    title = "".join(part.title() for part in name.split("_"))
    return type(f"{title}OpenSpielGame", (SpecGame,), {"spec_name": name})


class SpecGame(pyspiel.Game):
    """A registered game, ``players`` seats and its variants as game parameters."""

    spec_name = ""  # set per game by _game_class

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = get_game(self.spec_name)
        params = {"players": spec.min_players, **spec.variants, **(params or {})}
        players = spec.check_players(params["players"])
        self.variants = spec.check_variants({k: v for k, v in params.items() if k != "players"})
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_actions,
            max_chance_outcomes=SEEDS,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(spec), info, params)

    @property
    def spec(self) -> GameSpec:
        return get_game(self.spec_name)

    def new_initial_state(self) -> SpecState:
        return SpecState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> SpecObserver | None:
        """The seat's own view only; None for other observation types (OpenSpiel's way of
        saying that a game does not provide one)."""
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if (
            params
            or obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not obs_type.public_info
        ):
            return None
        return SpecObserver(obs_type.perfect_recall, self)


class _Engine:
    """The engine state and its seat observer, as one attribute of a SpecState. OpenSpiel's
    C++ ``State.clone()`` of a Python state deep-copies each attribute of the state's
    ``__dict__`` (never the state's own ``__deepcopy__``): held here, the engine is copied by
    its ``clone()`` and the observer shared, as in SpecState.__deepcopy__, instead of a
    generic deepcopy of every object in it (94% of a Gallerist random_sim_test)."""

    def __init__(self, engine: Any = None, seats: Any = None) -> None:
        self.engine = engine
        self.seats = seats

    def __deepcopy__(self, memo: dict) -> _Engine:
        return _Engine(None if self.engine is None else self.engine.clone(), self.seats)


def _held(name: str) -> property:
    """``SpecState.<name>``: the attribute of its _Engine."""
    return property(
        lambda state: getattr(state._held, name),
        lambda state, value: setattr(state._held, name, value),
    )


class SpecState(pyspiel.State):
    """One game: the seed's chance node, then the engine state."""

    engine = _held("engine")
    seats = _held("seats")

    def __init__(self, game: SpecGame) -> None:
        super().__init__(game)
        self._held = _Engine()
        self.actions: list[tuple[int, int]] = []  # (seat, action) of every decision

    def __deepcopy__(self, memo: dict) -> SpecState:  # Python's copy.deepcopy of a state
        other = SpecState(self.get_game())
        other._held = copy.deepcopy(self._held, memo)
        other.actions = self.actions[:]
        return other

    def current_player(self) -> int:
        if self.engine is None:
            return pyspiel.PlayerId.CHANCE
        if self.engine.is_over:
            return pyspiel.PlayerId.TERMINAL
        return self.engine.current_player

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.is_over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(seed, 1.0 / SEEDS) for seed in range(SEEDS)]

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.engine.legal_actions())

    def _apply_action(self, action: int) -> None:
        game = self.get_game()
        if self.engine is None:
            self.engine = game.spec.setup(game.num_players(), int(action), game.variants)
            self.seats = game.spec.make_observer(self.engine)
            return
        self.actions.append((self.engine.current_player, int(action)))
        self.engine.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        return self.get_game().spec.action_to_str(int(action))

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.get_game().num_players()
        spec = self.get_game().spec
        return (spec.final_rewards or final_rewards)(self.engine.score_breakdown(), "win")

    def information_text(self, player: int) -> str:
        """Perfect recall for ``player`` (see the module docstring)."""
        if self.engine is None:
            return f"seat {player}: dealing"
        spec = self.get_game().spec
        lines = [f"seat {player}"]
        for seat, action in self.actions:
            hidden = None if seat == player else spec.hidden_action_name(action)
            lines.append(f"P{seat}: {hidden or spec.action_to_str(action)}")
        names = [f"P{p}" for p in range(self.engine.num_players)]
        lines += spec.describe_events(self.engine, 0, player, names)
        return "\n".join(lines)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> SpecState:
        """A state of ``player_id``'s information set, drawn by the engine's determinize."""
        if self.is_chance_node() or self.is_terminal():
            raise ValueError("resample_from_infostate needs a decision node")
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        other = self.clone()
        other.engine = self.engine.determinize(player_id, rng)
        return other

    def __str__(self) -> str:
        if self.engine is None:
            return "dealing"
        return self.get_game().spec.render_text(self.engine, None)


class SpecObserver:
    """OpenSpiel's PyObserver: the env's observation vector for both tensors."""

    def __init__(self, perfect_recall: bool, game: SpecGame) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.spec.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SpecState, player: int) -> None:
        if state.engine is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = state.seats.observation(state.engine, player)

    def string_from(self, state: SpecState, player: int) -> str:
        if self.perfect_recall or state.engine is None:
            return state.information_text(player)
        return state.get_game().spec.render_text(state.engine, player)


register_games()
