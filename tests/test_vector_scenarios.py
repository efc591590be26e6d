"""The compiled engine agrees with the Python engine from every stored rule scenario.

Random games rarely reach the positions the rule tests are about: never R4.6 at 2
players, seldom at 3-6. So the differential check
(art_gallery_env/games/art_gallery/vector/differential.py)
also starts from each ``tests/rules/states/*.json`` and plays random legal continuations
in both engines, comparing legal actions, state and observations at every decision and
the rewards and R7 totals at the end. The fast tests play each scenario's next decisions
(the rest of the round and into the next); the slow one plays every continuation to the
end of the game.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="the compiled engine needs the [fast] extra")

from art_gallery_env.games.art_gallery.rules.actions import str_to_action  # noqa: E402
from art_gallery_env.games.art_gallery.rules.state import GameState  # noqa: E402
from art_gallery_env.games.art_gallery.vector.differential import play_differential_from  # noqa: E402

STATES_DIR = Path(__file__).parent / "rules" / "states"
SCENARIOS = sorted(path.stem for path in STATES_DIR.glob("*.json"))
FAST_SEEDS = (0, 1, 2)
COPIES = 4  # games per seed: each draws its own actions
FAST_DECISIONS = 60  # per game: past the round's distribution into the next round


def load(name: str) -> GameState:
    return GameState.from_dict(json.loads((STATES_DIR / f"{name}.json").read_text("utf-8")))


def test_every_stored_scenario_is_played() -> None:
    """The glob finds the scenarios, the R4.6 ones at 2, 4 and 6 players among them."""
    assert len(SCENARIOS) >= 8
    assert {"R4_6_fallback_2p", "R4_6_fallback_4p", "R4_6_fallback_6p"} <= set(SCENARIOS)


@pytest.mark.parametrize("name", [n for n in SCENARIOS if n.startswith("R4_6_")])
def test_the_fallback_scenarios_start_with_the_fallback(name: str) -> None:
    """So that their differential runs reach R4.6 at the first decision: every move in
    hand is legal and each one passes over a full area."""
    state = load(name)
    hand = state.hands[state.current_player]
    moves = [2 * v + d for v in range(9) if hand[v] for d in ((0,) if v == 0 else (0, 1))]
    assert state.legal_actions() == moves
    for action in moves:
        after = state.clone()
        after.apply(action)
        kind, info = after.events[-1]
        assert kind == "move" and info["fallback"], (name, action)


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_engines_agree_from_each_scenario(name: str) -> None:
    state = load(name)
    for seed in FAST_SEEDS:
        stats = play_differential_from(
            [state] * COPIES,
            seed,
            all_seats=True,
            max_decisions=FAST_DECISIONS,
            label=f"{name} seed {seed}",
        )
        assert stats.games == COPIES and stats.decisions >= COPIES
        assert stats.observations >= stats.decisions * state.num_players


def test_one_continuation_per_scenario_reaches_the_final_scores() -> None:
    """Final rewards and R7 totals are compared only at the end of a game."""
    for name in SCENARIOS:
        stats = play_differential_from([load(name)], 99, label=f"{name} to the end")
        assert stats.decisions >= 1


def test_a_scenario_cut_short_still_compares_its_last_state() -> None:
    """max_decisions stops the games, not the comparison: the decisions counted are the
    ones the cap allows."""
    state = load("R5_1_shop_six_2p")
    assert state.legal_actions() == [str_to_action("bid 6"), str_to_action("bid 8")]
    stats = play_differential_from([state] * 3, 5, max_decisions=2)
    assert stats.decisions == 3 * 2


@pytest.mark.slow
@pytest.mark.parametrize("name", SCENARIOS)
def test_the_engines_agree_to_the_end_of_the_game_from_each_scenario(name: str) -> None:
    """6 seeds x 8 games per scenario, every seat's observation at every decision."""
    state = load(name)
    for seed in range(100, 106):
        stats = play_differential_from(
            [state] * 8, seed, all_seats=True, label=f"{name} seed {seed}"
        )
        assert stats.games == 8
        assert stats.observations >= stats.decisions * state.num_players
