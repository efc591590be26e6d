"""Agent.explain(): why a checkpoint or a search agent chose its action, and records that
keep it (``art-gallery eval --save-games DIR --insight``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from agent_test_helpers import mid_round_state

from art_gallery_env.agents import ISMCTSAgent, PolicyAgent, RandomAgent
from art_gallery_env.agents.policy import masked_softmax
from art_gallery_env.arena.records import RecordFormatError, load_record, validate_record
from art_gallery_env.cli import main
from art_gallery_env.games.art_gallery.env.seat import SeatObserver
from art_gallery_env.games.art_gallery.heuristic import HeuristicAgent

ROOT = Path(__file__).resolve().parents[2]
CHECKPOINT = ROOT / "checkpoints" / "ppo_2p.safetensors"
LEGACY = ROOT / "tests" / "legacy"


def _inputs(num_players: int = 3, seed: int = 4):
    state = mid_round_state(num_players, seed)
    return state, SeatObserver(state.cards).inputs(state, state.current_player)


def test_agents_without_insight_explain_none() -> None:
    _, inputs = _inputs()
    for agent in (RandomAgent(seed=1), HeuristicAgent(seed=1)):
        agent.act(*inputs)
        assert agent.explain() is None


@pytest.mark.parametrize("deterministic", [True, False])
def test_policy_insight_lists_legal_actions_by_probability(deterministic: bool) -> None:
    agent = PolicyAgent(CHECKPOINT, seed=3, deterministic=deterministic)
    assert agent.explain() is None  # nothing decided yet
    for seed in range(4):
        _, inputs = _inputs(2, seed)
        action = agent.act(*inputs)
        insight = agent.explain()
        assert insight["kind"] == "policy" and insight["agent"] == agent.name
        legal = set(np.flatnonzero(inputs.action_mask).tolist())
        assert insight["legal"] == len(legal)
        tops = [t["action"] for t in insight["top"]]
        assert set(tops) <= legal and len(tops) == min(5, len(legal))
        ps = [t["p"] for t in insight["top"]]
        assert ps == sorted(ps, reverse=True) and 0 < sum(ps) <= 1.0001
        # the probabilities are the masked softmax of the logits the agent played from
        logits = agent.policy.logits(inputs.observation).astype(np.float64)
        mask = inputs.action_mask.astype(bool)
        expected = masked_softmax(np.where(mask, logits, -np.inf))
        assert ps[0] == pytest.approx(expected[tops[0]], abs=1e-4)
        if deterministic:
            assert tops[0] == action
        assert insight["value"] is None  # the weights-only file has no value head
        json.dumps(insight)


def test_policy_insight_value_is_the_zip_checkpoints_critic() -> None:
    """An SB3 zip carries its critic: the insight's value is SB3's own value estimate."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from art_gallery_env.agents.run_checkpoint import load_sb3_model

    agent = PolicyAgent(LEGACY / "best.zip", seed=0)
    assert agent.policy.has_value_head
    model, _ = load_sb3_model(LEGACY / "best.zip")
    for seed in range(3):
        _, inputs = _inputs(2, seed)
        agent.act(*inputs)
        with torch.no_grad():
            expected = model.policy.predict_values(torch.from_numpy(inputs.observation[None]))
        assert agent.explain()["value"] == pytest.approx(float(expected), abs=1e-3)


def test_search_insight_counts_every_iteration_and_leads_with_the_choice() -> None:
    agent = ISMCTSAgent(seed=5, iters=60, rollout="random")
    for seed in range(3):
        _, inputs = _inputs(3, seed)
        action = agent.act(*inputs)
        insight = agent.explain(top=47)
        assert insight["kind"] == "search" and insight["iterations"] == 60
        visits = [t["visits"] for t in insight["top"]]
        assert sum(visits) == 60  # every iteration starts with one of the seat's actions
        assert visits == sorted(visits, reverse=True)
        assert insight["top"][0]["action"] == action
        assert all(0 <= t["q"] <= 1 for t in insight["top"])
        assert len(agent.explain()["top"]) == min(8, len(visits))


def test_search_insight_of_a_forced_decision_has_no_iterations() -> None:
    agent = ISMCTSAgent(seed=5, iters=30)
    state, inputs = _inputs(3, 1)
    mask = np.zeros_like(inputs.action_mask)
    mask[state.legal_actions()[0]] = 1
    agent.act(inputs.observation, mask, inputs.view)
    assert agent.explain() == {"kind": "search", "agent": "ismcts", "iterations": 0, "top": []}


@pytest.mark.slow
def test_eval_insight_records_one_entry_per_decision(tmp_path: Path, capsys) -> None:
    games = tmp_path / "games"
    argv = ["eval", "--players", "3", "--agents", str(CHECKPOINT), "ismcts:iters=10", "random"]
    argv += ["--games", "2", "--workers", "1", "--no-progress", "--save-games", str(games)]
    assert main([*argv, "--insight"]) == 0
    for path in sorted(games.glob("game_*.json")):
        record = load_record(path)
        assert len(record["insight"]) == len(record["actions"])
        kinds = {"policy": 0, "search": 0, None: 0}
        for entry in record["insight"]:
            kinds[entry["kind"] if entry else None] += 1
        assert all(kinds.values()), kinds  # checkpoint, search and random seats all played
    # without --insight the records have none, and --insight needs --save-games
    plain = [*argv[:-2], "--save-games", str(tmp_path / "plain")]
    plain[plain.index("--games") + 1] = "1"  # one record shows it
    assert main(plain) == 0
    assert "insight" not in load_record(tmp_path / "plain" / "game_0000.json")
    with pytest.raises(SystemExit):
        main([*argv[:-2], "--insight"])
    assert "--insight is stored in the game records" in capsys.readouterr().err


def test_records_without_insight_still_load_and_bad_insight_is_named() -> None:
    record = load_record(LEGACY / "record_3p.json")
    assert "insight" not in record
    with pytest.raises(RecordFormatError, match="insight: expected null or a list of"):
        validate_record({**record, "insight": [None]})
    bad = [None] * len(record["actions"])
    bad[3] = "bid 4"
    with pytest.raises(RecordFormatError, match=r"insight\[3\]: expected an object or null"):
        validate_record({**record, "insight": bad})
    validate_record({**record, "insight": [None] * len(record["actions"])})
