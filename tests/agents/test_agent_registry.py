"""Agent specs: names, options converted from strings, clear errors."""

from __future__ import annotations

import pytest

from art_gallery_env.agents import ISMCTSAgent, RandomAgent, agent_names, make_agent, registry
from art_gallery_env.agents.registry import agent_versions, parse_spec, register
from art_gallery_env.games.art_gallery.heuristic import (
    HeuristicAgent,
    HeuristicParams,
    HeuristicPolicy,
    HeuristicV1Params,
    HeuristicV1Policy,
)


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


def test_heuristic_versions() -> None:
    """Plain ``heuristic`` is the latest version; ``heuristic:v1`` the frozen first one;
    options work for both, each with its own weights."""
    assert agent_versions("heuristic") == ("v1", "v2")
    assert agent_versions("random") == ()
    latest = make_agent("heuristic")
    assert type(latest.policy) is HeuristicPolicy and latest.policy.params == HeuristicParams()
    assert make_agent("heuristic:v2").policy.params == HeuristicParams()
    assert make_agent("heuristic:version=v2").policy.params == HeuristicParams()
    old = make_agent("heuristic:v1")
    assert isinstance(old, HeuristicAgent) and type(old.policy) is HeuristicV1Policy
    assert old.policy.params == HeuristicV1Params()
    tuned = make_agent("heuristic:v1,card_cost=0.4,tile_later=1")
    assert tuned.policy.params == HeuristicV1Params(card_cost=0.4, tile_later=1.0)
    tuned = make_agent("heuristic:card_cost=0.4,end_weight=2")
    assert tuned.policy.params == HeuristicParams(card_cost=0.4, end_weight=2.0)
    # The tag may come after options too.
    assert make_agent("heuristic:card_cost=0.4,v1").policy.params == HeuristicV1Params(
        card_cost=0.4
    )


def test_versions_of_a_registered_agent(monkeypatch) -> None:
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    monkeypatch.setattr(registry, "_VERSIONS", dict(registry._VERSIONS))
    seen = []

    def factory(seed=None, version=None, **options):
        seen.append(version)
        return RandomAgent(seed)

    register("versioned-test", factory, versions=("v1", "v2", "v3"), latest="v2")
    make_agent("versioned-test")
    make_agent("versioned-test:v3")
    assert seen == [None, "v3"]  # no tag: the factory picks its latest
    with pytest.raises(ValueError, match=r"versions: v1, v2, v3 \(without a version: v2\)"):
        make_agent("versioned-test:v4")
    register("versioned-test", factory)  # registered again without versions
    assert agent_versions("versioned-test") == ()
    with pytest.raises(ValueError, match="agent 'versioned-test' has no versions"):
        make_agent("versioned-test:v1")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nobody", "unknown agent 'nobody' for Art Gallery; known agents: heuristic, ismcts, pol"),
        ("ismcts:budget=3", "valid options: iters, seconds, c, rollout, rounds, scale"),
        ("ismcts:iters=lots", "iters='lots' must be an integer"),
        ("ismcts:iters=0", "iters must be a positive int"),
        ("ismcts:seconds=-1", "seconds must be a positive number"),
        ("ismcts:rollout=smart", "must be one of random, heuristic"),
        ("ismcts:c=wide", "c='wide' must be a number"),
        ("heuristic:aggression=1", "valid options: potential, denial"),
        ("heuristic:tile_later=1", "for agent 'heuristic'; valid options: .*tile_bonus"),
        ("heuristic:v1,end_weight=1", "for agent 'heuristic:v1'; valid options: .*tile_later"),
        ("heuristic:v3", "unknown version 'v3' of agent 'heuristic'; versions: v1, v2"),
        ("heuristic:v1,v2", "'version' is given twice"),
        ("heuristic:card_cost=wide", "card_cost='wide' must be a number"),
        ("random:v1", "agent 'random' has no versions .* agents with versions: heuristic"),
        ("ismcts:v2,iters=3", "agent 'ismcts' has no versions"),
        ("heuristic:latest", "must look like key=value \\(or be a version tag such as v1\\)"),
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
    assert parse_spec("heuristic:v1, card_cost=0.4") == (
        "heuristic",
        {"version": "v1", "card_cost": "0.4"},
    )


def test_ismcts_rollout_versions() -> None:
    assert type(make_agent("ismcts:iters=2").policy) is HeuristicPolicy
    agent = make_agent("ismcts:iters=2,rollout=heuristic:v1")
    assert agent.rollout == "heuristic:v1" and type(agent.policy) is HeuristicV1Policy
    with pytest.raises(ValueError, match="rollout=heuristic:v1 needs HeuristicV1Params"):
        ISMCTSAgent(iters=2, rollout="heuristic:v1", rollout_params=HeuristicParams())
    tuned = ISMCTSAgent(iters=2, rollout="heuristic", rollout_params=HeuristicV1Params())
    assert type(tuned.policy) is HeuristicV1Policy  # the version the parameters belong to


def test_policies_refuse_the_other_versions_parameters() -> None:
    with pytest.raises(TypeError, match="needs HeuristicParams, got HeuristicV1Params"):
        HeuristicPolicy(HeuristicV1Params())
    with pytest.raises(TypeError, match="needs HeuristicV1Params, got HeuristicParams"):
        HeuristicV1Policy(HeuristicParams())
    assert repr(HeuristicAgent(params=HeuristicV1Params())) == "HeuristicAgent('heuristic:v1')"
    assert repr(HeuristicAgent()) == "HeuristicAgent('heuristic')"
