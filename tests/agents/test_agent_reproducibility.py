"""Seeded agents replay the same game."""

from __future__ import annotations

import pytest
from agent_test_helpers import play_seeded

from art_gallery_env.agents import make_agent


@pytest.mark.parametrize(
    ("specs", "num_players"),
    [
        (["random", "heuristic"], 2),
        (["heuristic", "random", "heuristic"], 3),
        (["heuristic", "heuristic:v1", "random", "heuristic", "heuristic:v1", "random"], 6),
        (["ismcts:iters=6,rollout=heuristic", "heuristic"], 2),
        (["ismcts:iters=4,rollout=random", "random", "heuristic", "random"], 4),
    ],
)
def test_same_seeds_same_game(specs: list[str], num_players: int) -> None:
    def run(agent_seed_base: int) -> list[int]:
        agents = [make_agent(spec, seed=agent_seed_base + i) for i, spec in enumerate(specs)]
        return play_seeded(agents, seed=11, max_decisions=150).actions

    first = run(100)
    assert run(100) == first
    if any(not spec.startswith("heuristic") for spec in specs):
        assert run(200) != first  # the seeds matter


def test_reset_restarts_the_random_stream() -> None:
    agents = [make_agent("heuristic", seed=4), make_agent("ismcts:iters=5", seed=5)]
    first = play_seeded(agents, seed=2, agent_seeds=[4, 5], max_decisions=100).actions
    second = play_seeded(agents, seed=2, agent_seeds=[4, 5], max_decisions=100).actions
    assert first == second
