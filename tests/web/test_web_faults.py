"""The web server's faults of issue 27: bounded searches and decisions, deleting a game
while an agent thinks, uploads only as JSON with their scores recomputed, short error
bodies, JSON for every error, corrupt games named without private data, and one message
for "no such agent or file"."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from art_gallery_env.agents.registry import (
    MAX_SEARCH_ITERS,
    MAX_SEARCH_SECONDS,
    agent_spec_problem,
    make_agent,
)


# -- search budgets have upper limits, wherever a spec is parsed --------------------------------
@pytest.mark.parametrize(
    ("spec", "limit"),
    [
        ("ismcts:iters=1000000000", f"limit of {MAX_SEARCH_ITERS} iterations"),
        ("ismcts:seconds=100000", f"limit of {MAX_SEARCH_SECONDS:g} s"),
        ("ismcts:seconds=inf", f"limit of {MAX_SEARCH_SECONDS:g} s"),
        ("ismcts:seconds=nan", f"limit of {MAX_SEARCH_SECONDS:g} s"),
        ("ismcts:iters=50,seconds=1e9", f"limit of {MAX_SEARCH_SECONDS:g} s"),
    ],
)
def test_search_budgets_over_the_limits_are_refused_in_one_line(spec: str, limit: str) -> None:
    problem = agent_spec_problem(spec)
    assert problem is not None and limit in problem and "\n" not in problem
    assert "known agents" not in problem  # about the option, not the agent's name
    with pytest.raises(ValueError, match="over the limit"):
        make_agent(spec, 0)


def test_search_budgets_at_the_limits_are_accepted() -> None:
    assert agent_spec_problem(f"ismcts:iters={MAX_SEARCH_ITERS}") is None
    assert agent_spec_problem(f"ismcts:seconds={MAX_SEARCH_SECONDS:g}") is None


def test_the_server_refuses_a_search_over_the_limits(client: TestClient) -> None:
    for spec in ("ismcts:iters=1000000000", "ismcts:seconds=100000"):
        response = client.post("/api/games", json={"players": 2, "opponents": [spec]})
        assert response.status_code == 422 and "over the limit" in response.json()["error"]
    assert client.get("/api/games").json() == []
