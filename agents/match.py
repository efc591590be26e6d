"""A minimal game loop over the PettingZoo env, for tests and quick measurements.

The evaluation and tournament code lives in ``training/``; this is the smallest loop that
gives each seat what the :class:`~agents.base.Agent` protocol promises: the observation, the
action mask and a :class:`~art_gallery_env.rules.hidden.PlayerView` of its own seat.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from art_gallery_env.env.aec import raw_env
from art_gallery_env.rules.hidden import PlayerView

from .base import Agent


@dataclass
class GameResult:
    breakdown: list[dict[str, Any]]
    rewards: list[float]
    actions: list[int] = field(default_factory=list)
    decision_seconds: list[list[float]] = field(default_factory=list)

    @property
    def winners(self) -> list[int]:
        return [row["player"] for row in self.breakdown if row["rank"] == 1]


def play_game(
    agents: list[Agent],
    seed: int | None = None,
    *,
    agent_seeds: list[int | None] | None = None,
    timed: bool = False,
    max_decisions: int | None = None,
    **env_kwargs: Any,
) -> GameResult:
    """Play one game with ``agents[i]`` in seat ``i``; raises if any agent plays illegally.

    ``agent_seeds`` resets the agents first; ``max_decisions`` stops early (the breakdown is
    then the score so far); ``timed`` records each decision's wall-clock seconds per seat.
    """
    env = raw_env(num_players=len(agents), **env_kwargs)
    env.reset(seed=seed)
    if agent_seeds is not None:  # otherwise each agent goes on with its own random stream
        for agent, agent_seed in zip(agents, agent_seeds, strict=True):
            agent.reset(agent_seed)
    actions: list[int] = []
    seconds: list[list[float]] = [[] for _ in agents]
    while True:
        name = env.agent_selection
        if env.terminations[name] or env.truncations[name]:
            break
        if max_decisions is not None and len(actions) >= max_decisions:
            break
        seat = env.agent_name_mapping[name]
        obs = env.observe(name)
        view = PlayerView(env.state, seat)
        start = time.perf_counter() if timed else 0.0
        action = agents[seat].act(obs["observation"], obs["action_mask"], view)
        if timed:
            seconds[seat].append(time.perf_counter() - start)
        if not obs["action_mask"][action]:
            raise AssertionError(f"{agents[seat]!r} in seat {seat} chose illegal action {action}")
        actions.append(int(action))
        env.step(action)
    breakdown = env.state.score_breakdown()
    rewards = [env._cumulative_rewards[a] for a in env.possible_agents]
    return GameResult(breakdown, rewards, actions, seconds)


def main(argv: list[str] | None = None) -> int:
    """``python -m agents.match A B --games N``: spec A in one seat (rotating), B elsewhere."""
    import argparse
    import statistics

    from .registry import make_agent

    parser = argparse.ArgumentParser(prog="python -m agents.match", description=main.__doc__)
    parser.add_argument("a", help="agent spec under test, e.g. ismcts:seconds=0.18")
    parser.add_argument("b", help="agent spec in every other seat, e.g. heuristic")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--start", type=int, default=0, help="first game seed")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args(argv)
    share = 0.0
    margins: list[int] = []
    seconds: list[float] = []
    start = time.perf_counter()
    for game in range(args.start, args.start + args.games):
        seat = game % args.players
        agents = [
            make_agent(args.a if i == seat else args.b, seed=game * 10 + i)
            for i in range(args.players)
        ]
        result = play_game(agents, seed=game, timed=True)
        totals = [row["total"] for row in result.breakdown]
        won = 1.0 / len(result.winners) if seat in result.winners else 0.0
        share += won
        margins.append(totals[seat] - max(totals[:seat] + totals[seat + 1 :]))
        seconds += result.decision_seconds[seat]
        print(f"game {game} seat {seat} totals {totals} share {won:.2f}", flush=True)
    seconds.sort()
    p99 = seconds[int(len(seconds) * 0.99)]
    print(
        f"{args.a} vs {args.b} ({args.players}p, games {args.start}..{args.start + args.games - 1},"
        f" seats rotated): win share {share:g}/{args.games} = {share / args.games:.3f}; "
        f"mean margin {statistics.mean(margins):+.1f}; {args.a} decision time mean "
        f"{statistics.mean(seconds) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
        f"max {seconds[-1] * 1000:.0f} ms over {len(seconds)} decisions; "
        f"{time.perf_counter() - start:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
