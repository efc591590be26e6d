"""This project's agents as OpenSpiel bots, so OpenSpiel's tools (``evaluate_bots``, its
ISMCTS and MCTS bots) can play them against its own.

An :class:`AgentBot` is given exactly what the arena's game loop gives a seat (the
observation, the mask and the seat's view, built by the game's seat observer), never the
OpenSpiel state's hidden information. They play every game the bridges register
(:mod:`.openspiel`): a state offers its engine state as ``state.engine`` and its game's
observer as ``state.seats`` (or its game's ``seats``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyspiel

from art_gallery_env.agents.base import Agent
from art_gallery_env.agents.registry import make_agent
from art_gallery_env.bridges.openspiel import PREFIX
from art_gallery_env.core.registry import game_names

ArtGalleryState = pyspiel.State  # any bridged game's state (the name kept for old callers)


class AgentBot(pyspiel.Bot):
    """Plays ``agent`` (an :class:`Agent` or a registry spec) for the seat it is asked about."""

    def __init__(
        self,
        agent: Agent | str,
        seed: int | None = None,
        *,
        game: str | pyspiel.Game | None = None,
    ):
        """``game``: the game a spec string is built for, as its registered name or the
        loaded pyspiel game (``pyspiel.load_game("python_gallerist")``); None: the default."""
        pyspiel.Bot.__init__(self)
        name = registered_name(game)
        self.agent = make_agent(agent, seed=seed, game=name) if isinstance(agent, str) else agent
        self.seed = seed
        self.games = 0

    def restart_at(self, state: ArtGalleryState) -> None:
        """A new game: the agent is reset with ``seed + games so far`` (reproducible)."""
        self.agent.reset(None if self.seed is None else self.seed + self.games)
        self.games += 1

    def inform_action(self, state: ArtGalleryState, player_id: int, action: int) -> None:
        """Agents read the state they are given at each decision; nothing to track."""

    def step(self, state: ArtGalleryState) -> int:
        seats = getattr(state, "seats", None) or state.get_game().seats
        inputs = seats.inputs(state.engine, state.current_player())
        return int(self.agent.act(*inputs))


def registered_name(game: str | pyspiel.Game | None) -> str | None:
    """The registry's name of ``game``: a name stays, a bridged pyspiel game
    (``python_<name>``) gives ``<name>``; anything else is a ValueError naming the games."""
    if game is None or isinstance(game, str):
        return game
    if isinstance(game, pyspiel.Game):
        short = game.get_type().short_name
        if short.startswith(PREFIX) and short[len(PREFIX) :] in game_names():
            return short[len(PREFIX) :]
        raise ValueError(
            f"AgentBot plays the bridged games ({', '.join(PREFIX + g for g in game_names())}),"
            f" not {short!r}"
        )
    raise TypeError(f"game must be a game name or a pyspiel.Game, got {type(game).__name__}")


def openspiel_ismcts_bot(
    game: pyspiel.Game, *, simulations: int, uct_c: float = 2.0, seed: int = 0
) -> pyspiel.Bot:
    """OpenSpiel's own Python ISMCTS (``open_spiel.python.algorithms.ismcts``) with random
    rollouts to the end of the game, seeded, and playable by ``evaluate_bots``."""
    from open_spiel.python.algorithms import ismcts, mcts

    class _ISMCTSBot(ismcts.ISMCTSBot):
        # OpenSpiel's Python ISMCTSBot does not implement restart_at/inform_action, which
        # evaluate_bots calls; it searches afresh at every step, so both have nothing to do.
        def restart_at(self, state: ArtGalleryState) -> None:
            self.reset()

        def inform_action(self, state: ArtGalleryState, player_id: int, action: int) -> None:
            pass

    random_state = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = _ISMCTSBot(game, evaluator, uct_c, simulations, random_state=random_state)
    bot.set_resampler(seeded_resampler(random_state))
    return bot


def seeded_resampler(
    random_state: np.random.RandomState,
) -> Callable[[ArtGalleryState, int], ArtGalleryState]:
    """A resampler for OpenSpiel's ``ISMCTSBot.set_resampler`` that draws its worlds from the
    bot's own ``random_state``, so a seeded ISMCTS bot plays the same game twice (by
    default it passes a freshly seeded ``UniformProbabilitySampler`` every time)."""

    def resample(state: ArtGalleryState, player: int) -> ArtGalleryState:
        return state.resample_from_infostate(player, random_state.uniform)

    return resample
