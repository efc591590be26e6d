"""Agent specs: names, options converted from strings, clear errors."""

from __future__ import annotations

import pytest

from art_gallery_env.agents import HeuristicAgent, ISMCTSAgent, RandomAgent, agent_names, make_agent
from art_gallery_env.agents.registry import parse_spec


def test_names() -> None:
    assert {"random", "heuristic", "ismcts", "policy"} <= set(agent_names())
    assert isinstance(make_agent("random", seed=1), RandomAgent)
    assert isinstance(make_agent("heuristic"), HeuristicAgent)


def test_ismcts_options_are_converted() -> None:
    agent = make_agent("ismcts:iters=400,c=0.5,rollout=random,rounds=0,scale=3", seed=2)
    assert isinstance(agent, ISMCTSAgent)
    assert (agent.iters, agent.c, agent.rollout, agent.rounds) == (400, 0.5, "random", 0)
    assert agent.evaluator.scale == 3.0
    timed = make_agent("ismcts:seconds=0.1")
    assert timed.seconds == 0.1 and timed.iters is None


def test_heuristic_options_are_converted() -> None:
    agent = make_agent("heuristic:card_cost=0.4,denial=0")
    assert agent.policy.params.card_cost == 0.4 and agent.policy.params.denial == 0.0


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nobody", "unknown agent 'nobody'; known agents: heuristic, ismcts, policy, random"),
        ("ismcts:budget=3", "valid options: iters, seconds, c, rollout, rounds, scale"),
        ("ismcts:iters=lots", "iters='lots' must be an integer"),
        ("ismcts:iters=0", "iters must be a positive int"),
        ("ismcts:seconds=-1", "seconds must be a positive number"),
        ("ismcts:rollout=smart", "must be one of random, heuristic"),
        ("ismcts:c=wide", "c='wide' must be a number"),
        ("heuristic:aggression=1", "valid options: potential, denial"),
        ("random:depth=1", "valid options: \\(none\\)"),
        ("random:seed=1", "'seed' is not an agent option"),
        ("ismcts:iters", "must look like key=value"),
        ("policy", "needs path=FILE"),
    ],
)
def test_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


def test_parse_spec() -> None:
    assert parse_spec("ismcts:iters=400, rollout=heuristic") == (
        "ismcts",
        {"iters": "400", "rollout": "heuristic"},
    )
    assert parse_spec("random") == ("random", {})
