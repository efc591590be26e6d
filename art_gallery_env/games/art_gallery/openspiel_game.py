"""Art Gallery as an OpenSpiel Python game, ``python_art_gallery``: the game's own bridge
(its spec's ``openspiel`` extension; :mod:`art_gallery_env.bridges.openspiel` registers it
with every other game).

Importing this module registers the game with ``pyspiel`` (the ``[openspiel]`` extra)::

    import pyspiel
    import art_gallery_env.bridges.openspiel  # noqa: F401 - registers python_<game> for each
    game = pyspiel.load_game("python_art_gallery", {"players": 4, "zero_is_ten": False})

**Chance.** The engine shuffles everything at ``new_game(seed)``; OpenSpiel wants the
randomness as chance nodes, so here a card is dealt when it is first seen, which gives the
same distribution (an unseen card is equally likely to be any of the unseen ones):

* the deal: the start player (R3.4), the painting on each gallery (R3.1) and the top tile
  of each pile (R3.2), one chance node each;
* refills: after a player's action that ends a round, one chance node per gallery refilled
  from the painting pile (R6.2), and one per pile whose new top tile came into view after
  a Shop purchase (R5.1), uniform over the cards nobody has seen.

The engine draws its own card at those points and the chance outcome then swaps the card
in (nothing in the rules depends on which card it was until it is seen). Chance outcome ids
are ``number - 1`` for paintings and tiles (``0..47``) and the seat for the start player.

**What a player knows.** ``information_state_string`` is perfect recall: the seat, every
chance outcome, and the engine's event log with other players' bid values left out (a bid
shows its value to its owner; the Shop/gallery reveal events show all values once public).
``observation_string`` is the text board of the seat's view (:func:`render_text`). Both
tensors are the env's observation vector (2221 floats,
:mod:`art_gallery_env.games.art_gallery.env.observation`):
it encodes the seat's knowledge (R8) but is not a full history.

**Returns** are the env's ``"win"`` rewards (R7.5): +1 a sole winner, ``1/k`` each for k
tied winners, -1 everybody else; the game is general-sum.

``resample_from_infostate`` is :func:`~art_gallery_env.games.art_gallery.rules.hidden.determinize`
(the
R8 resampling the project's own ISMCTS uses); the resampled state keeps the original's
OpenSpiel ``history()`` (stored in C++), while its engine state and information strings
are the resampled world's.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from art_gallery_env.games.art_gallery.env.aec import final_rewards
from art_gallery_env.games.art_gallery.env.observation import OBSERVATION_SIZE
from art_gallery_env.games.art_gallery.env.render import render_text
from art_gallery_env.games.art_gallery.env.seat import SeatObserver
from art_gallery_env.games.art_gallery.rules.actions import NUM_ACTIONS, PILE_MARKS, action_to_str
from art_gallery_env.games.art_gallery.rules.board import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PILE_SIZES,
    galleries_for,
)
from art_gallery_env.games.art_gallery.rules.cards import CardSet, default_card_set
from art_gallery_env.games.art_gallery.rules.hidden import bid_is_hidden, determinize
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game

GAME_NAME = "python_art_gallery"
MAX_ROUNDS = 48
"""At least one painting is won per round (4N bids, and the Shop bar holds 6), so the 48
paintings bound the rounds; a round has at most 16N decisions (8N turn actions, at most
one Shop choice and one card pick per bid)."""

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Art Gallery",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "zero_is_ten": False},
)


class ArtGalleryGame(pyspiel.Game):
    """The game for ``players`` seats (2..6), with the ``zero_is_ten`` variant (R5.6)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {"players": 2, "zero_is_ten": False, **(params or {})}
        players = params["players"]
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be an int in 2..6, got {players!r}")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be in {MIN_PLAYERS}..{MAX_PLAYERS}, got {players}")
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=max(players, len(default_card_set().paintings)),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=16 * players * MAX_ROUNDS,
        )
        super().__init__(_GAME_TYPE, info, params)
        self.zero_is_ten = bool(params["zero_is_ten"])
        self.cards: CardSet = default_card_set()
        self.seats = SeatObserver(self.cards)  # one cached encoder for every state

    def new_initial_state(self) -> ArtGalleryState:
        return ArtGalleryState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> ArtGalleryObserver | None:
        """The seat's own view (perfect recall or not); None for any other observation type
        or for observation parameters: OpenSpiel's way of saying that a game does not
        provide one (``generate_playthrough`` asks for the public and private-only views)."""
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if params or not _own_view(obs_type):
            return None
        return ArtGalleryObserver(obs_type, params, self)


def _own_view(obs_type: pyspiel.IIGObservationType) -> bool:
    """Whether ``obs_type`` is the seat's own view: public information plus the seat's own
    private information, the only type this game's observer provides."""
    return obs_type.public_info and obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER


class _Table:
    """Everything a state holds, copied cheaply (``GameState.clone``) when OpenSpiel
    clones a state: it deep-copies the Python attributes one by one."""

    __slots__ = ("deal", "engine", "pending", "log", "strings")

    def __init__(self) -> None:
        self.deal: list[int] = []  # chance outcomes of the deal until the engine exists
        self.engine: GameState | None = None
        self.pending: list[tuple[str, int]] = []  # ("gallery", area) / ("pile", index)
        self.log: list[tuple[str, Any]] = []  # ("event", index) / ("chance", text)
        self.strings: dict[int, tuple[int, str]] = {}  # per seat: (log length, info string)

    def __deepcopy__(self, memo: dict) -> _Table:
        other = _Table()
        other.deal = self.deal[:]
        other.engine = None if self.engine is None else self.engine.clone()
        other.pending = self.pending[:]
        other.log = self.log[:]
        other.strings = dict(self.strings)
        return other


class ArtGalleryState(pyspiel.State):
    """One game: the engine state plus the chance nodes that deal and refill it."""

    def __init__(self, game: ArtGalleryGame) -> None:
        super().__init__(game)
        self._t = _Table()

    # -- whose turn -------------------------------------------------------------------
    @property
    def engine(self) -> GameState | None:
        """The engine state (None until the deal is complete). It holds hidden information."""
        return self._t.engine

    def current_player(self) -> int:
        t = self._t
        if t.engine is None or t.pending:
            return pyspiel.PlayerId.CHANCE
        if t.engine.is_over:
            return pyspiel.PlayerId.TERMINAL
        return t.engine.current_player

    def is_terminal(self) -> bool:
        t = self._t
        return t.engine is not None and not t.pending and t.engine.is_over

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._t.engine.legal_actions())

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.get_game().num_players()
        return final_rewards(self._t.engine.score_breakdown(), "win")

    # -- chance -----------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        kind, _ = self._next_chance()
        if kind == "start":
            outcomes = list(range(self.get_game().num_players()))
        elif kind == "gallery_deal" or kind == "gallery":
            outcomes = [number - 1 for number in sorted(self._unseen_paintings())]
        else:
            outcomes = [number - 1 for number in sorted(self._unseen_tiles())]
        p = 1.0 / len(outcomes)
        return [(o, p) for o in outcomes]

    def _next_chance(self) -> tuple[str, int]:
        """The chance node to resolve: ("start"|"gallery_deal"|"pile_deal"|"gallery"|"pile", i)."""
        t = self._t
        if t.engine is None:
            galleries = galleries_for(self.get_game().num_players())
            k = len(t.deal)
            if k == 0:
                return "start", 0
            if k <= galleries:
                return "gallery_deal", k
            return "pile_deal", k - galleries - 1
        return t.pending[0]

    def _unseen_paintings(self) -> set[int]:
        t = self._t
        if t.engine is None:
            numbers = {p.number for p in self.get_game().cards.paintings}
            return numbers - set(t.deal[1:])
        state = t.engine
        return set(state.painting_pile) | {
            state.gallery_painting[area] for kind, area in t.pending if kind == "gallery"
        }

    def _unseen_tiles(self) -> set[int]:
        t = self._t
        if t.engine is None:
            galleries = galleries_for(self.get_game().num_players())
            numbers = {p.number for p in self.get_game().cards.paintings}
            return numbers - set(t.deal[galleries + 1 :])
        piles = t.engine.tile_piles
        below = {tile for pile in piles for tile in pile[:-1]}
        return below | {piles[i][-1] for kind, i in t.pending if kind == "pile"}

    def _apply_chance(self, outcome: int) -> None:
        t = self._t
        kind, index = self._next_chance()
        text = self._chance_text(kind, index, outcome)
        if t.engine is None:
            t.deal.append(outcome if kind == "start" else outcome + 1)
            t.log.append(("chance", text))
            if len(t.deal) == 1 + galleries_for(self.get_game().num_players()) + len(PILE_SIZES):
                self._build_engine()
            return
        state = t.engine
        number = outcome + 1
        if kind == "gallery":
            placeholder = state.gallery_painting[index]
            if number in state.painting_pile:
                state.painting_pile[state.painting_pile.index(number)] = placeholder
            else:  # the card another refilled gallery holds until its own chance node
                other = state.gallery_painting.index(number)
                state.gallery_painting[other] = placeholder
            state.gallery_painting[index] = number
            _rewrite_refills(state)
        else:
            piles = state.tile_piles
            where = next((i, pile.index(number)) for i, pile in enumerate(piles) if number in pile)
            piles[where[0]][where[1]], piles[index][-1] = piles[index][-1], number
        state.public_changed()  # the observation encoder caches on public data
        t.pending.pop(0)
        t.log.append(("chance", text))

    def _build_engine(self) -> None:
        """The state after the deal: the engine's own setup, then the dealt cards put in place
        (the painting pile's order does not matter: each refill is a chance node)."""
        t = self._t
        game = self.get_game()
        n = game.num_players()
        galleries = galleries_for(n)
        start, paintings, tops = t.deal[0], t.deal[1 : galleries + 1], t.deal[galleries + 1 :]
        state = new_game(
            n, 0, zero_is_ten=game.zero_is_ten, start_player=start, card_set=game.cards
        )
        numbers = sorted(p.number for p in game.cards.paintings)
        state.gallery_painting = [0, *paintings]
        state.painting_pile = [x for x in numbers if x not in paintings]
        rest = [x for x in numbers if x not in tops]
        for i, size in enumerate(PILE_SIZES):
            state.tile_piles[i] = [*rest[: size - 1], tops[i]]
            del rest[: size - 1]
        state.events[0] = ("setup", {"seed": None, "start_player": start})
        state.public_changed()
        t.engine = state
        t.log.extend(("event", i) for i in range(len(state.events)))

    def _chance_text(self, kind: str, index: int, outcome: int) -> str:
        if kind == "start":
            return f"start player {outcome}"
        if kind in ("gallery_deal", "gallery"):
            return f"painting {outcome + 1} to gallery {index}"
        return f"tile {outcome + 1} on top of pile {PILE_MARKS[index]}"

    # -- player actions ---------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._apply_chance(int(action))
            return
        t = self._t
        state = t.engine
        events_before = len(state.events)
        piles_before = [len(pile) for pile in state.tile_piles]
        round_before = state.round
        state.apply(int(action))
        t.log.extend(("event", i) for i in range(events_before, len(state.events)))
        for i, (pile, before) in enumerate(zip(state.tile_piles, piles_before)):
            if pile and len(pile) < before:
                t.pending.append(("pile", i))
        if state.round > round_before and not state.is_over:
            kind, data = state.events[-1]
            assert kind == "round_start"
            t.pending.extend(("gallery", area) for area, _ in data["refilled"])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.is_chance_node():
                return self._chance_text(*self._next_chance(), int(action))
            return f"chance outcome {action}"
        return action_to_str(int(action))

    # -- information ------------------------------------------------------------------
    def information_text(self, player: int) -> str:
        """Perfect recall for ``player``: chance outcomes and the event log, others' bid
        values left out (built incrementally: the log only grows)."""
        t = self._t
        done, text = t.strings.get(player, (0, f"seat {player}"))
        if done < len(t.log):
            events = t.engine.events if t.engine is not None else []
            parts = [text]
            for kind, item in t.log[done:]:
                parts.append(item if kind == "chance" else _event_text(events[item], player))
            text = "\n".join(parts)
            t.strings[player] = (len(t.log), text)
        return text

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> ArtGalleryState:
        """A state of ``player_id``'s information set, drawn with
        :func:`~art_gallery_env.games.art_gallery.rules.hidden.determinize` (seeded from the
        sampler)."""
        if self.is_chance_node() or self.is_terminal():
            raise ValueError("resample_from_infostate needs a decision node")
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        world = determinize(self._t.engine, player_id, rng)
        _fill_hidden_bids(world)
        other = self.clone()
        other._t.engine = world
        other._t.strings = {p: s for p, s in self._t.strings.items() if p == player_id}
        return other

    def __str__(self) -> str:
        t = self._t
        if t.engine is None:
            return "dealing: " + ", ".join(text for _, text in t.log)
        text = render_text(t.engine, viewer=None)
        if t.pending:
            text += "\nto reveal: " + ", ".join(f"{k} {i}" for k, i in t.pending)
        return text


class ArtGalleryObserver:
    """OpenSpiel's PyObserver: the env's observation vector for both tensors; the strings
    are :meth:`ArtGalleryState.information_text` (perfect recall) or the seat's board."""

    def __init__(self, iig_obs_type, params, game: ArtGalleryGame) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if not _own_view(iig_obs_type):
            raise ValueError(
                "only the seat's own view is supported (public_info=True, "
                "private_info=SINGLE_PLAYER), as perfect recall or not"
            )
        self.perfect_recall = iig_obs_type.perfect_recall
        self.seats = game.seats
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ArtGalleryState, player: int) -> None:
        engine = state.engine
        if engine is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.seats.observation(engine, player)

    def string_from(self, state: ArtGalleryState, player: int) -> str:
        if self.perfect_recall:
            return state.information_text(player)
        if state.engine is None:
            return f"seat {player}: dealing"
        return render_text(state.engine, viewer=player)


def _event_text(event: tuple[str, dict[str, Any]], viewer: int) -> str:
    kind, data = event
    if kind == "bid" and data["player"] != viewer:
        data = {**data, "value": "?"}
    elif kind == "setup":
        data = {"start_player": data["start_player"]}
    elif kind == "round_start":
        data = {k: v for k, v in data.items() if k != "refilled"}  # chance lines show them
    return kind + " " + " ".join(f"{k}={v}" for k, v in data.items())


def _rewrite_refills(state: GameState) -> None:
    """The round_start event names the paintings now on the refilled galleries (a new event
    object: clones share the old one)."""
    for i in range(len(state.events) - 1, -1, -1):
        kind, data = state.events[i]
        if kind == "round_start":
            refilled = [[area, state.gallery_painting[area]] for area, _ in data["refilled"]]
            state.events[i] = (kind, {**data, "refilled": refilled})
            return


def _fill_hidden_bids(world: GameState) -> None:
    """``determinize`` leaves hidden bid values out of the world's event log; put the
    world's own values in, so every seat's information string in it is consistent."""
    for i in range(len(world.events) - 1, -1, -1):
        kind, data = world.events[i]
        if kind == "round_start":
            return
        if kind == "bid" and data["value"] is None and bid_is_hidden(world, data["area"]):
            value = world.bids[data["area"]][data["marker"]][1]
            world.events[i] = (kind, {**data, "value": value})


pyspiel.register_game(_GAME_TYPE, ArtGalleryGame)
