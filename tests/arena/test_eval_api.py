"""The Python evaluation API (``from art_gallery_env.arena import evaluate``): a match in a
few lines gives run_match's table, and a solo evaluation reports score and goal levels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from art_gallery_env.arena import evaluate
from art_gallery_env.arena.evaluate import MatchConfig, MatchError, MatchResult, run_match
from art_gallery_env.arena.solo import SoloResult

SOLO_CHECKPOINT = str(
    Path(__file__).resolve().parents[2] / "checkpoints/gallerist_solo.safetensors"
)


def _untimed(result: MatchResult | SoloResult) -> MatchResult | SoloResult:
    """The result with its clock readings zeroed (they differ from run to run)."""
    result.wall_s = 0.0
    for s in result.summaries:
        s.ms_per_decision = 0.0
    return result


def test_api_gives_run_match_table() -> None:
    result = evaluate(["random", "heuristic"], players=3, games=6, seed=5, notes=None)
    config = MatchConfig(num_players=3, agents=("random", "heuristic"), games=6, seed=5)
    expected = run_match(config, progress=False)
    assert isinstance(result, MatchResult)
    assert result.config == expected.config
    assert _untimed(result).table() == _untimed(expected).table()
    assert "6 games, 3 players, seed 5" in result.table()
    assert [g["breakdown"] for g in result.games] == [g["breakdown"] for g in expected.games]


def test_the_module_stays_a_module() -> None:
    """The callable module keeps every name of art_gallery_env.arena.evaluate."""
    assert evaluate.MatchConfig is MatchConfig
    assert callable(evaluate)


def test_bad_input_is_one_line() -> None:
    with pytest.raises(
        MatchError, match=r"Art Gallery has no solo game: players must be in 2\.\.6"
    ):
        evaluate(["random"], players=1, games=2)
    with pytest.raises(MatchError, match="bad agent spec 'nobody'.*known agents"):
        evaluate(["nobody", "random"], games=2, notes=None)
    with pytest.raises(MatchError, match=r"evaluate\(\.\.\., players=1\)"):
        MatchConfig(num_players=1, agents=("random",), games=2, game="gallerist")


def test_solo_checkpoint_levels(tmp_path: Path) -> None:
    from art_gallery_env.training.solo import play_solo

    result = evaluate([SOLO_CHECKPOINT], game="gallerist", players=1, games=4, seed=0)
    assert isinstance(result, SoloResult) and not result.partial
    (s,) = result.summaries
    levels = [g["breakdown"][0]["goal_level"] for g in result.games]
    assert s.games == 4 and sum(s.level_counts.values()) == 4
    assert s.goals == sum(1 for level in levels if level >= 1)  # the level reward: Apprentice+
    assert [lv.level for lv in s.at_least] == list(range(1, max(levels) + 1))
    for lv in s.at_least:
        assert lv.games == sum(1 for level in levels if level >= lv.level)
        assert lv.ci_low <= lv.share <= lv.ci_high
    # the seeds of a training run's solo evaluation: the same game, the same figures
    trained = play_solo(SOLO_CHECKPOINT, "gallerist", 0, 3, "level")
    assert trained["score"] == result.games[3]["breakdown"][0]["total"]
    assert trained["goal"] == float(levels[3] >= 1)
    text = result.table()
    assert "4 solo games of The Gallerist, seed 0" in text and "goal [95% CI]" in text
    paths = result.write(tmp_path)
    data = json.loads(paths[0].read_text())
    assert data["agents"][0]["goals"] == s.goals and len(data["games"]) == 4
    assert paths[1].read_text().splitlines()[0].startswith("agent,spec,games,goals")
    assert len(result.save_games(tmp_path / "games")) == 4


def test_config_then_run_for_callers_with_checks_between() -> None:
    from art_gallery_env.arena.evaluate import evaluation_config, run_evaluation
    from art_gallery_env.arena.solo import SoloConfig

    noted: list[str] = []
    config = evaluation_config(["random"], game="gallerist", players=1, games=2, notes=noted.append)
    assert isinstance(config, SoloConfig) and config.game == "gallerist" and noted == []
    result = run_evaluation(config)
    assert isinstance(result, SoloResult) and result.planned == 2 and not result.partial
    match = run_evaluation(evaluation_config(["random"], players=3, games=3, seed=1))
    assert isinstance(match, MatchResult) and match.planned == 3 and match.config.num_players == 3
