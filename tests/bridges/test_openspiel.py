"""The OpenSpiel game ``python_art_gallery``: OpenSpiel's own random simulation test, chance
nodes for the deal and the refills, information states and resampling (R8), and
OpenSpiel's ISMCTS bot playing it through ``evaluate_bots``."""

from __future__ import annotations

import re

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402

from art_gallery_env.bridges.openspiel_bots import (  # noqa: E402
    AgentBot,
    openspiel_ismcts_bot,
)
from art_gallery_env.games.art_gallery.openspiel_game import GAME_NAME  # noqa: E402
from art_gallery_env.games.art_gallery.rules.board import PILE_SIZES, galleries_for  # noqa: E402
from art_gallery_env.games.art_gallery.rules.invariants import check_invariants  # noqa: E402


def _load(players: int, zero_is_ten: bool = False):
    return pyspiel.load_game(GAME_NAME, {"players": players, "zero_is_ten": zero_is_ten})


def _random_step(state, rng: np.random.Generator) -> None:
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("players", [2, pytest.param(4, marks=pytest.mark.slow)])
def test_openspiel_random_sim_test(players: int) -> None:
    """OpenSpiel's API consistency checks, serialization included."""
    game = _load(players, zero_is_ten=players == 4)
    pyspiel.random_sim_test(game, num_sims=6 // players, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 5, 6])
def test_openspiel_random_sim_test_other_table_sizes(players: int) -> None:
    """One whole game per table size (every state's checks, ~200 states): 3 games each were
    a minute of the suite on a busy machine for no check that one game lacks."""
    pyspiel.random_sim_test(_load(players), num_sims=1, serialize=True, verbose=False)


def test_game_parameters_and_sizes() -> None:
    game = _load(4)
    assert game.num_players() == 4 and game.num_distinct_actions() == 47
    assert game.information_state_tensor_shape() == [2221]
    assert game.observation_tensor_shape() == [2221]
    assert game.max_chance_outcomes() == 48
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    with pytest.raises(ValueError, match="players must be in 2..6"):
        _load(7)


def test_the_deal_is_chance_nodes() -> None:
    """R3: start player, then one painting per gallery, then each pile's top tile, each
    uniform over what is still unseen; the dealt engine state is a legal setup."""
    players = 3
    state = _load(players).new_initial_state()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [0, 1, 2] and sum(p for _, p in outcomes) == 1.0
    state.apply_action(2)
    dealt = []
    for k in range(galleries_for(players)):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 48 - k and pytest.approx(1.0) == sum(p for _, p in outcomes)
        assert not set(dealt) & {a for a, _ in outcomes}, "a dealt painting cannot come again"
        dealt.append(outcomes[-1 - k][0])
        state.apply_action(dealt[-1])
    tops = []
    for k in range(len(PILE_SIZES)):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 48 - k
        tops.append(outcomes[k][0])
        state.apply_action(tops[-1])
    assert not state.is_chance_node() and state.current_player() == 2
    engine = state.engine
    check_invariants(engine)
    assert engine.gallery_painting[1:] == [a + 1 for a in dealt]
    assert [pile[-1] for pile in engine.tile_piles] == [a + 1 for a in tops]
    assert [len(pile) for pile in engine.tile_piles] == list(PILE_SIZES)


def test_refills_and_new_pile_tops_are_chance_nodes() -> None:
    """R6.2 refills and R5.1's newly visible pile tops come from chance nodes over the unseen
    cards, and the engine state and its event log show the drawn cards."""
    game = _load(2)
    rng = np.random.default_rng(4)
    state = game.new_initial_state()
    refills = tops = 0
    while not state.is_terminal():
        if state.is_chance_node() and state.engine is not None:
            engine = state.engine
            kind, index = state._next_chance()
            outcomes = [a + 1 for a, _ in state.chance_outcomes()]
            if kind == "gallery":
                unseen = set(engine.painting_pile) | {
                    engine.gallery_painting[a] for k, a in state._t.pending if k == "gallery"
                }
                assert sorted(unseen) == outcomes
                choice = outcomes[int(rng.integers(len(outcomes)))]
                state.apply_action(choice - 1)
                assert state.engine.gallery_painting[index] == choice
                refills += 1
            else:
                below = {t for pile in engine.tile_piles for t in pile[:-1]}
                assert below <= set(outcomes)
                choice = outcomes[int(rng.integers(len(outcomes)))]
                state.apply_action(choice - 1)
                assert state.engine.tile_piles[index][-1] == choice
                tops += 1
            if kind == "gallery" and not state.is_chance_node():  # the refill is complete
                check_invariants(state.engine)
                _, data = next(e for e in reversed(state.engine.events) if e[0] == "round_start")
                assert data["refilled"], "the round started with refills"
                for area, painting in data["refilled"]:
                    assert state.engine.gallery_painting[area] == painting
        else:
            _random_step(state, rng)
    assert refills > 0 and tops > 0
    assert sum(state.returns()) in (0.0, 1.0)


def _play_to_decisions(game, seed: int, count: int):
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    seen = []
    while not state.is_terminal() and len(seen) < count:
        if not state.is_chance_node():
            seen.append(state.clone())
        _random_step(state, rng)
    return seen


@pytest.mark.parametrize("players", [2, 4])
def test_resample_from_infostate_keeps_the_information_state(players: int) -> None:
    """OpenSpiel's ResampleInfostateTest, in Python: same information state string and
    tensor and current player for the resampled seat, while hidden cards do change."""
    game = _load(players)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed_world = changed_other = 0
    for state in _play_to_decisions(game, seed=players, count=120):
        for p in range(players):
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.current_player() == state.current_player()
            assert sorted(other.legal_actions()) == sorted(other.engine.legal_actions())
            changed_world += other.engine.hands != state.engine.hands
            changed_other += any(
                other.information_state_string(q) != state.information_state_string(q)
                for q in range(players)
                if q != p
            )
    assert changed_world > 0 and changed_other > 0, "resampling must change hidden cards"


def test_information_strings_hide_other_players_bids() -> None:
    game = _load(3)
    state = _play_to_decisions(game, seed=9, count=20)[-1]
    engine = state.engine
    shown = set()
    for p in range(3):
        text = state.information_state_string(p)
        assert text.startswith(f"seat {p}\nstart player {engine.events[0][1]['start_player']}")
        bids = re.findall(r"^bid player=(\d) area=\d marker=\d value=(\S+)$", text, re.M)
        for q, value in bids:
            assert (value == "?") == (int(q) != p)
            shown.add(value == "?")
    assert shown == {True, False}, "both own (shown) and others' (hidden) bids were checked"


def test_openspiel_ismcts_searches_our_states() -> None:
    """OpenSpiel's Python ISMCTS bot returns a legal action at decisions of a real game,
    searching worlds drawn by resample_from_infostate."""
    game = _load(3)
    bot = openspiel_ismcts_bot(game, simulations=4, seed=0)
    for state in _play_to_decisions(game, seed=1, count=40)[::8]:
        policy = bot.get_policy(state)
        assert {a for a, _ in policy} == set(state.legal_actions())
        assert bot.step(state) in state.legal_actions()


def test_evaluate_bots_plays_our_agents() -> None:
    game = _load(3)
    bots = [AgentBot("heuristic", seed=s) for s in range(2)] + [AgentBot("random", seed=9)]
    state = game.new_initial_state()
    returns = evaluate_bots(state, bots, np.random.RandomState(0))
    assert state.is_terminal() and returns == state.returns()
    assert max(returns) > 0 and min(returns) == -1.0


@pytest.mark.slow
def test_openspiel_ismcts_plays_a_whole_game_through_evaluate_bots() -> None:
    """OpenSpiel's ISMCTS (few simulations) against AgentBot(heuristic), two players; the
    same seeds replay the same game."""
    game = _load(2)

    def play() -> tuple[list[float], str]:
        bots = [openspiel_ismcts_bot(game, simulations=2, seed=1), AgentBot("heuristic", seed=2)]
        state = game.new_initial_state()
        returns = evaluate_bots(state, bots, np.random.RandomState(3))
        return returns, str(state)

    returns, final = play()
    assert sorted(returns) == [-1.0, 1.0] or returns == [0.5, 0.5]
    assert play() == (returns, final), "seeded bots and chance give the same game"
