"""The compiled heuristic (VectorGame.heuristic_actions) decides as the Python one.

Decision by decision on games of heuristic and random play at 2-6 players and both
variants, the set of top-scoring actions of the compiled policy must equal the set the
Python ``HeuristicPolicy`` draws from on a determinized world of the acting seat
(art_gallery_env/games/art_gallery/vector/heuristic_differential.py);
benchmarks/vector_heuristic.py runs 100k decisions. Also: the information set alone decides,
ties are drawn from the game's
action stream, other parameters and version 1, the compiled play-out.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba", reason="the compiled engine needs the [fast] extra")

from art_gallery_env.games.art_gallery.heuristic import (  # noqa: E402
    HeuristicAgent,
    HeuristicParams,
    HeuristicPolicy,
)
from art_gallery_env.games.art_gallery.heuristic_v1 import HeuristicV1Params  # noqa: E402
from art_gallery_env.games.art_gallery.rules.hidden import determinize  # noqa: E402
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game  # noqa: E402
from art_gallery_env.games.art_gallery.vector import VectorGame  # noqa: E402
from art_gallery_env.games.art_gallery.vector.heuristic_differential import (  # noqa: E402
    agreement,
    play_agreement,
)

# One game per table size, each size once with each kind of play, the variants alternating.
FAST = [(n, n % 2 == 0, "heuristic") for n in range(2, 7)] + [
    (n, n % 2 == 1, "random") for n in range(2, 7)
]


def _report(stats) -> str:
    return "\n".join(
        f"{e.num_players}p zero_is_ten={e.zero_is_ten} {e.phase}: python {e.python}, "
        f"compiled {e.compiled}, scores {e.scores}"
        for e in stats.examples[:5]
    )


@pytest.mark.parametrize(("players", "zero_is_ten", "play"), FAST)
def test_top_sets_agree_decision_by_decision(players: int, zero_is_ten: bool, play: str) -> None:
    stats = play_agreement(players, zero_is_ten, 1, seed=31 * players + zero_is_ten, play=play)
    assert stats.decisions > 50
    assert stats.agreed == stats.decisions, _report(stats)


@pytest.mark.parametrize(("players", "play"), [(3, "heuristic"), (5, "random")])
def test_version_1_agrees_too(players: int, play: str) -> None:
    stats = play_agreement(
        players, players == 5, 1, seed=players, play=play, params=HeuristicV1Params()
    )
    assert stats.agreed == stats.decisions > 100, _report(stats)


def test_other_weights_reach_the_kernel() -> None:
    params = HeuristicParams(bid_cost=0.0, tile_bonus=3.0, end_weight=2.0, threat=1.0)
    stats = play_agreement(4, False, 1, seed=3, params=params)
    assert stats.agreed == stats.decisions > 100, _report(stats)
    states = [_mid_game(4, 3, k) for k in range(0, 200, 7)]
    _, tuned, _ = VectorGame.from_states(states, seed=1).heuristic_scores(params=params)
    _, default, _ = VectorGame.from_states(states, seed=1).heuristic_scores()
    assert not np.array_equal(tuned, default)  # the weights change the scores


@pytest.mark.slow
def test_top_sets_agree_in_many_games() -> None:
    stats = agreement(games=5, seed=11)
    assert stats.decisions > 25_000
    assert stats.agreed == stats.decisions, _report(stats)


def _mid_game(players: int, seed: int, decisions: int) -> GameState:
    state = new_game(players, seed)
    policy, rng = HeuristicPolicy(), random.Random(seed)
    for _ in range(decisions):
        state.apply(policy.choose(state, rng))
    return state


def test_the_information_set_alone_decides() -> None:
    """Worlds of the acting seat's information set (hidden cards, pile orders resampled)
    get exactly the same scores: the compiled policy needs no sampling."""
    rng = random.Random(5)
    for players, decisions in [(2, 30), (4, 57), (6, 101), (5, 140)]:
        state = _mid_game(players, players, decisions)
        worlds = [state] + [determinize(state, state.current_player, rng) for _ in range(5)]
        game = VectorGame.from_states(worlds, seed=1)
        _, scores, top = game.heuristic_scores()
        assert np.isfinite(scores[0]).sum() > 1
        for i in range(1, len(worlds)):
            np.testing.assert_array_equal(scores[i], scores[0])
            np.testing.assert_array_equal(top[i], top[0])


def test_ties_are_drawn_from_the_action_stream() -> None:
    """The same seed gives the same draws; every draw is one of the tied best."""
    states = [_mid_game(4, 9, k) for k in range(0, 120, 3)]
    first = VectorGame.from_states(states, seed=4)
    again = VectorGame.from_states(states, seed=4)
    drawn = set()
    for _ in range(20):
        actions, _, top = first.heuristic_scores()
        np.testing.assert_array_equal(again.heuristic_actions(), actions)
        assert top[np.arange(len(states)), actions].all()
        drawn.update((i, int(a)) for i, a in enumerate(actions) if top[i].sum() > 1)
    tied_games = {i for i, _ in drawn}
    assert tied_games, "no position with a tie: pick others"
    assert len(drawn) > len(tied_games)  # some tie was drawn both ways


def test_left_out_and_finished_games_get_minus_one() -> None:
    game = VectorGame(4, 3, seed=2, auto_reset=False)
    actions = game.heuristic_actions(active=np.array([True, False, True, False]))
    assert actions[1] == actions[3] == -1 and actions[0] >= 0 and actions[2] >= 0
    game.play_out(active=np.array([True, False, False, False]), policy="heuristic")
    assert game.heuristic_actions()[0] == -1


def test_bad_params_are_one_clear_error() -> None:
    game = VectorGame(2, 2, seed=0)
    with pytest.raises(TypeError, match="HeuristicParams .*HeuristicV1Params, got dict"):
        game.heuristic_actions(params={"denial": 0.5})
    with pytest.raises(ValueError, match="policy must be 'random' or 'heuristic'"):
        game.play_out(policy="greedy")


def test_heuristic_play_out_is_heuristic_actions_to_the_end() -> None:
    states = [_mid_game(n, n, 40) for n in (3, 3, 3)]
    rolled = VectorGame.from_states(states, seed=8, auto_reset=False)
    stepped = VectorGame.from_states(states, seed=8, auto_reset=False)
    rewards, totals = rolled.play_out(policy="heuristic")
    ends = np.zeros_like(totals)
    while not stepped.done.all():
        active = ~stepped.done
        stepped.step(np.maximum(stepped.heuristic_actions(active), 0), active=active)
        ended = stepped.done & active
        ends[ended] = stepped.final_scores[ended]
    np.testing.assert_array_equal(totals, ends)
    assert (rewards.max(axis=1) > 0).all()
    for i in range(3):
        np.testing.assert_array_equal(rolled.state.tiles_held[i], stepped.state.tiles_held[i])


def test_threads_decide_as_one_thread() -> None:
    one = VectorGame(1024, 2, seed=6, threads=1)
    two = VectorGame(1024, 2, seed=6, threads=2)
    for _ in range(30):
        a = one.heuristic_actions()
        np.testing.assert_array_equal(two.heuristic_actions(), a)
        one.step(a)
        two.step(a)
    assert two._run.threads == 2


def test_plays_compiled_names_the_heuristic_agents() -> None:
    assert VectorGame.plays_compiled(HeuristicAgent(0))
    assert VectorGame.plays_compiled(HeuristicAgent(0, params=HeuristicV1Params()))

    class Tweaked(HeuristicPolicy):  # a changed policy is not the compiled one
        pass

    agent = HeuristicAgent(0)
    agent.policy = Tweaked()
    assert not VectorGame.plays_compiled(agent)
    assert not VectorGame.plays_compiled(object())
