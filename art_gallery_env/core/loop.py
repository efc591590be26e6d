"""The one game loop: every caller that lets agents play uses it.

Evaluation, terminal play, the web server, the self-play training env, the agent tests
and the CLI demo all run games through :func:`play` (or :func:`play_game` for a whole
game), as OpenSpiel's ``evaluate_bots`` does. Each decision gives the acting seat exactly
what the game's :class:`~art_gallery_env.core.seat.SeatObserver` builds (observation, action mask,
PlayerView), checks the answer against the mask and applies it to the engine state.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .agent import Agent
from .protocol import EngineState as GameState
from .scoring import winners
from .seat import SeatObserver


class AgentError(RuntimeError):
    """An agent raised, or chose an action its mask does not allow; the game is unchanged."""

    def __init__(self, message: str, seat: int, agent: Agent) -> None:
        super().__init__(message)
        self.seat = seat
        self.agent = agent


@dataclass(frozen=True)
class Decision:
    """One decision as it was played (passed to ``on_decision`` after it is applied)."""

    index: int  # counted over the game's decisions played by this loop
    seat: int
    action: int
    seconds: float  # the agent's thinking time
    state: GameState  # the state after the action (the live object: do not keep it)


@dataclass
class GameResult:
    """What a finished (or stopped) game leaves: scores, every action, time per seat."""

    breakdown: list[dict[str, Any]]
    actions: list[int] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)  # per seat
    think_s: list[float] = field(default_factory=list)  # per seat
    rounds: int = 0

    @property
    def winners(self) -> list[int]:
        return winners(self.breakdown)


def play(
    state: GameState,
    agents: Mapping[int, Agent] | Sequence[Agent],
    observer: SeatObserver,
    *,
    stop: Callable[[GameState], bool] | None = None,
    on_decision: Callable[[Decision], None] | None = None,
    max_decisions: int | None = None,
) -> int:
    """Let ``agents[seat]`` decide for the seat to move until the game is over, ``stop``
    says so (checked before each decision) or ``max_decisions`` were played. Returns the
    number of decisions played. An agent that raises or plays illegally raises
    :class:`AgentError` naming it, its seat and the legal actions; the state is unchanged."""
    played = 0
    while not state.is_over and (max_decisions is None or played < max_decisions):
        if stop is not None and stop(state):
            break
        seat = state.current_player
        agent = agents[seat]
        inputs = observer.inputs(state, seat)
        start = time.perf_counter()
        try:
            action = agent.act(*inputs)
        except AgentError:
            raise
        except Exception as err:
            raise AgentError(
                f"{agent!r} in seat {seat} raised {type(err).__name__}: {err}", seat, agent
            ) from err
        seconds = time.perf_counter() - start
        if not _allowed(action, inputs.action_mask):
            legal = ", ".join(observer.action_to_str(a) for a in state.legal_actions())
            raise AgentError(
                f"{agent!r} in seat {seat} chose illegal action {action!r}; legal: {legal}",
                seat,
                agent,
            )
        state.apply(int(action))
        if on_decision is not None:
            on_decision(Decision(played, seat, int(action), seconds, state))
        played += 1
    return played


def play_game(
    state: GameState,
    agents: Mapping[int, Agent] | Sequence[Agent],
    observer: SeatObserver | None = None,
    *,
    on_decision: Callable[[Decision], None] | None = None,
    max_decisions: int | None = None,
) -> GameResult:
    """Play ``state`` to its end (or ``max_decisions``) and collect the result; the
    breakdown of a stopped game is the score so far. Without ``observer``, the state's
    registered game makes one."""
    if observer is None:
        from .registry import game_of

        observer = game_of(state).make_observer(state)
    n = state.num_players
    result = GameResult(breakdown=[], decisions=[0] * n, think_s=[0.0] * n)

    def record(decision: Decision) -> None:
        result.actions.append(decision.action)
        result.decisions[decision.seat] += 1
        result.think_s[decision.seat] += decision.seconds
        if on_decision is not None:
            on_decision(decision)

    play(state, agents, observer, on_decision=record, max_decisions=max_decisions)
    result.breakdown = state.score_breakdown()
    result.rounds = state.round
    return result


def _allowed(action: Any, mask: Any) -> bool:
    try:
        index = int(action)
    except (TypeError, ValueError):
        return False
    return index == action and 0 <= index < len(mask) and bool(mask[index])
