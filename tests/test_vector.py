"""VectorGame API: illegal actions change nothing, seeding, to_state/from_states round
trips, auto-reset and its reporting, observe's seats, and the package without numba."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("numba", reason="the compiled engine needs the [fast] extra")

from art_gallery_env.games.art_gallery.env.aec import final_rewards  # noqa: E402
from art_gallery_env.games.art_gallery.env.observation import OBSERVATION_SIZE, ObservationEncoder  # noqa: E402
from art_gallery_env.games.art_gallery.rules.actions import NUM_ACTIONS, str_to_action  # noqa: E402
from art_gallery_env.games.art_gallery.rules.game import IllegalActionError  # noqa: E402
from art_gallery_env.games.art_gallery.rules.invariants import check_invariants  # noqa: E402
from art_gallery_env.games.art_gallery.rules.phases import GAME_OVER, MOVE, PICK, SHOP  # noqa: E402
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game  # noqa: E402
from art_gallery_env.games.art_gallery.vector import VectorGame, VectorIllegalActionError  # noqa: E402
from art_gallery_env.games.art_gallery.vector.differential import comparable  # noqa: E402


def snapshot(game: VectorGame) -> list[np.ndarray]:
    return [array.copy() for array in game.state]


def same_arrays(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b))


def advance(game: VectorGame, steps: int) -> None:
    for _ in range(steps):
        game.step(game.random_actions())


def python_states(
    players: int, count: int, seed: int, zero_is_ten: bool | None = False
) -> list[GameState]:
    """Random-play states of several games: turns, Shop and pick decisions, game over.
    ``zero_is_ten=None`` mixes both variants."""
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        variant = rng.random() < 0.5 if zero_is_ten is None else zero_is_ten
        state = new_game(players, rng.getrandbits(32), zero_is_ten=variant)
        while not state.is_over:
            if rng.random() < 0.05 or state.phase in (SHOP, PICK) and rng.random() < 0.3:
                states.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


# -- illegal actions ------------------------------------------------------------------
def test_an_illegal_action_names_the_game_and_its_legal_actions_and_changes_nothing() -> None:
    game = VectorGame(6, 3, seed=1)
    advance(game, 5)
    actions = game.random_actions()
    masks = game.legal_mask()
    bad_game = 4
    illegal = int(np.flatnonzero(~masks[bad_game])[0])
    actions[bad_game] = illegal
    before, scores_before = snapshot(game), game.scores()
    with pytest.raises(VectorIllegalActionError) as info:
        game.step(actions)
    err = info.value
    assert isinstance(err, IllegalActionError)
    assert err.game == bad_game
    assert err.legal == np.flatnonzero(masks[bad_game]).tolist()
    message = str(err)
    assert message.startswith(f"game {bad_game}: action {illegal} (")
    assert "legal actions: " in message and "nothing was applied" in message
    player = int(game.current_player[bad_game])
    assert f"player {player}" in message
    assert same_arrays(before, snapshot(game))  # the other five legal actions were not applied
    assert np.array_equal(scores_before, game.scores())


@pytest.mark.parametrize("action", [-1, NUM_ACTIONS, 1000])
def test_an_action_outside_the_layout_is_refused(action: int) -> None:
    game = VectorGame(3, 2, seed=2)
    actions = game.random_actions()
    actions[1] = action
    before = snapshot(game)
    with pytest.raises(
        VectorIllegalActionError, match=rf"game 1: action must be an int in 0..46, got {action}"
    ):
        game.step(actions)
    assert same_arrays(before, snapshot(game))


def test_malformed_action_arrays_are_refused() -> None:
    game = VectorGame(4, 2, seed=3)
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        game.step([0, 0, 0])
    with pytest.raises(ValueError, match="must be ints"):
        game.step(np.zeros(4, dtype=np.float32))
    with pytest.raises(ValueError, match=r"active must have shape \(4,\)"):
        game.step(game.random_actions(), active=np.ones(3, dtype=bool))


def test_a_finished_game_without_auto_reset_must_be_left_out_or_reset() -> None:
    state = python_states(2, 1, seed=4)[-1]
    assert state.is_over
    live = new_game(2, 5)
    game = VectorGame.from_states([live, state], auto_reset=False)
    actions = game.random_actions()
    assert actions[1] == -1 and game.done.tolist() == [False, True]
    with pytest.raises(VectorIllegalActionError, match="game 1: .*the game is over"):
        game.step(np.array([actions[0], 0]))
    game.step(np.array([actions[0], 0]), active=np.array([True, False]))
    game.reset_games([False, True])
    assert game.done.tolist() == [False, False]
    assert game.to_state(1).round == 1


# -- seeding ----------------------------------------------------------------------------
def play_record(seed: int, players: int = 4, steps: int = 600) -> list[np.ndarray]:
    game = VectorGame(5, players, seed=seed)
    record = []
    for _ in range(steps):
        actions = game.random_actions()
        rewards, dones = game.step(actions)
        record += [actions, rewards, dones]
    return record + snapshot(game)


def test_the_same_seed_plays_the_same_games_through_auto_resets() -> None:
    first, second = play_record(11), play_record(11)
    assert all(np.array_equal(a, b) for a, b in zip(first, second))
    dones = sum(int(d.sum()) for d in first[2:1800:3])
    assert dones >= 3  # 600 steps of 5 games: several games ended and were dealt anew
    assert not all(np.array_equal(a, b) for a, b in zip(first, play_record(12)))


def test_reset_with_a_seed_restarts_and_without_one_deals_new_games() -> None:
    game = VectorGame(4, 3, seed=21)
    dealt = snapshot(game)
    advance(game, 30)
    game.reset(seed=21)
    assert same_arrays(dealt, snapshot(game))
    game.reset()
    assert not same_arrays(dealt, snapshot(game))
    for i in range(4):  # every slot holds a fresh, consistent game
        state = game.to_state(i)
        check_invariants(state)
        assert (state.round, state.turn, state.phase) == (1, 0, MOVE)
        assert state.current_player == state.start_player == state.round_starter


def test_unseeded_games_differ() -> None:
    a, b = VectorGame(8, 4), VectorGame(8, 4)
    assert not np.array_equal(a.state.painting_pile, b.state.painting_pile)


def test_deals_follow_setup() -> None:
    """R3: 4 galleries for 2-3 players (6 for 4, 8 for 5-6) hold paintings, the rest
    form the pile; tile piles of 18/14/10/6; start players spread over the seats."""
    for players, galleries in ((2, 4), (3, 4), (4, 6), (5, 8), (6, 8)):
        game = VectorGame(300, players, seed=players)
        states = [game.to_state(i) for i in range(game.num_envs)]
        for state in states:
            check_invariants(state)
            assert all(state.gallery_painting[1:]) and len(state.gallery_painting) == galleries + 1
            assert len(state.painting_pile) == 48 - galleries
            assert [len(p) for p in state.tile_piles] == [18, 14, 10, 6]
        starts = np.bincount([s.start_player for s in states], minlength=players)
        assert starts.min() > 300 / players / 2


# -- moving games between the engines ---------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_from_states_then_to_state_gives_the_states_back(players: int) -> None:
    states = python_states(players, 40, seed=players, zero_is_ten=None)
    phases = {s.phase for s in states}
    assert {MOVE, GAME_OVER} <= phases and phases & {SHOP, PICK}
    for variant in (False, True):
        group = [s for s in states if s.zero_is_ten == variant]
        if not group:
            continue
        game = VectorGame.from_states(group)
        for i, state in enumerate(group):
            back = game.to_state(i)
            assert comparable(back) == comparable(state)
            check_invariants(back)
            assert back.legal_actions() == state.legal_actions()
            assert np.flatnonzero(game.legal_mask()[i]).tolist() == state.legal_actions()


def test_to_state_event_log_is_one_round_start_and_the_state_plays_on() -> None:
    game = VectorGame(2, 4, seed=8)
    advance(game, 50)
    state = game.to_state(1)
    assert state.events == [
        ("round_start", {"round": state.round, "start_player": state.round_starter})
    ]
    assert GameState.from_dict(state.to_dict()).to_dict() == state.to_dict()
    mask = game.legal_mask()[1]
    action = int(np.flatnonzero(mask)[0])
    state.apply(action)  # the Python engine continues the game ...
    actions = game.random_actions()
    actions[1] = action
    game.step(actions)  # ... to the same state as the compiled one
    assert comparable(game.to_state(1)) == comparable(state)


def test_set_state_replaces_one_slot_only() -> None:
    game = VectorGame(3, 3, seed=9)
    others = [comparable(game.to_state(i)) for i in (0, 2)]
    state = python_states(3, 5, seed=10)[2]
    game.set_state(1, state)
    assert comparable(game.to_state(1)) == comparable(state)
    assert [comparable(game.to_state(i)) for i in (0, 2)] == others


def test_from_states_refuses_mixed_or_foreign_states() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        VectorGame.from_states([])
    with pytest.raises(ValueError, match="plays 2 players"):
        VectorGame.from_states([new_game(2, 1), new_game(3, 1)])
    with pytest.raises(ValueError, match="zero_is_ten"):
        VectorGame.from_states([new_game(2, 1), new_game(2, 1, zero_is_ten=True)])
    broken = new_game(2, 1)
    broken.hands[0][3] = 0  # a card vanished
    with pytest.raises(ValueError, match="hands|cards"):
        VectorGame.from_states([broken])
    with pytest.raises(IndexError, match="not in 0..1"):
        VectorGame(2, 2, seed=0).to_state(2)


# -- stepping, rewards and auto-reset --------------------------------------------------
def test_finished_games_report_rewards_and_scores_and_are_dealt_anew() -> None:
    """Rewards are nonzero only in rows of games that ended in that step; final_scores
    holds their R7 totals; the slot then holds a new game at round 1."""
    game = VectorGame(16, 3, seed=13)
    finished = 0
    for _ in range(500):
        rewards, dones = game.step(game.random_actions())
        assert np.all(rewards[~dones] == 0) and np.all(game.final_scores[~dones] == 0)
        for i in np.flatnonzero(dones):
            finished += 1
            top = rewards[i] > 0
            assert top.any() and np.allclose(rewards[i][top], 1 / top.sum())
            assert np.all(rewards[i][~top] == -1)
            best = game.final_scores[i].max()
            assert np.all(game.final_scores[i][top] == best)
            fresh = game.to_state(i)
            assert (fresh.round, fresh.turn, fresh.phase) == (1, 0, MOVE)
        assert not game.done.any()
    assert finished >= 16


def test_scores_match_the_python_score_breakdown_mid_game() -> None:
    game = VectorGame(6, 5, seed=14)
    advance(game, 200)
    scores = game.scores()
    for i in range(6):
        breakdown = game.to_state(i).score_breakdown()
        assert scores[i].tolist() == [row["total"] for row in breakdown]


def test_score_margin_rewards_match_the_env() -> None:
    state = python_states(4, 1, seed=15)[-1]
    before_end = None
    rng = random.Random(15)
    while before_end is None:  # a state one decision before the end
        s = new_game(4, rng.getrandbits(32))
        while not s.is_over:
            previous = s.clone()
            s.apply(rng.choice(s.legal_actions()))
        before_end, last = previous, s
    for mode in ("win", "score_margin"):
        game = VectorGame.from_states([before_end], auto_reset=False, reward_mode=mode)
        action = [a for a in before_end.legal_actions() if _leads_to(before_end, a, last)][0]
        rewards, dones = game.step([action])
        assert dones[0]
        expected = final_rewards(last.score_breakdown(), mode)
        assert rewards[0].tolist() == np.array(expected, dtype=np.float32).tolist()
    assert state.is_over


def _leads_to(state: GameState, action: int, end: GameState) -> bool:
    after = state.clone()
    after.apply(action)
    return comparable(after) == comparable(end)


def test_play_out_finishes_the_active_games_only_and_reports_their_results() -> None:
    states = python_states(4, 6, seed=17)[:6]
    game = VectorGame.from_states(states)
    active = np.array([True, False, True, True, False, True])
    rewards, scores = game.play_out(active)
    for i, state in enumerate(states):
        after = game.to_state(i)
        if not active[i]:
            assert comparable(after) == comparable(state)
            assert not rewards[i].any() and not scores[i].any()
            continue
        assert after.is_over
        check_invariants(after)
        breakdown = after.score_breakdown()
        assert scores[i].tolist() == [row["total"] for row in breakdown]
        expected = np.array(final_rewards(breakdown, "win"), dtype=np.float32)
        assert rewards[i].tolist() == expected.tolist()


def test_masks_and_observations_of_some_games_only() -> None:
    game = VectorGame(5, 3, seed=18)
    advance(game, 12)
    active = np.array([False, True, True, False, True])
    full_masks, full_obs = game.legal_mask(), game.observe(1)
    masks, obs = game.legal_mask(active=active), game.observe(1, active=active)
    assert np.array_equal(masks[active], full_masks[active]) and not masks[~active].any()
    assert np.array_equal(obs[active], full_obs[active]) and not obs[~active].any()
    kept = np.full((5, OBSERVATION_SIZE), 7.0, dtype=np.float32)
    game.observe(1, out=kept, active=active)
    assert np.all(kept[~active] == 7.0) and np.array_equal(kept[active], full_obs[active])


# -- observations -------------------------------------------------------------------
def test_observe_takes_one_seat_for_all_or_one_per_game() -> None:
    game = VectorGame(4, 4, seed=16)
    advance(game, 37)
    encoders = [ObservationEncoder(game.cards) for _ in range(4)]
    states = [game.to_state(i) for i in range(4)]
    acting = game.observe()
    assert acting.shape == (4, OBSERVATION_SIZE) and acting.dtype == np.float32
    for seat in range(4):
        every = game.observe(seat)
        for i in range(4):
            assert np.array_equal(every[i], encoders[i].encode(states[i], seat))
    seats = np.array([3, 0, 2, 1])
    mixed = game.observe(seats, out=np.empty((4, OBSERVATION_SIZE), np.float32))
    for i in range(4):
        assert np.array_equal(mixed[i], encoders[i].encode(states[i], int(seats[i])))
        assert np.array_equal(acting[i], encoders[i].encode(states[i], states[i].current_player))
    with pytest.raises(ValueError, match=r"seats must be in 0..3"):
        game.observe(4)
    with pytest.raises(ValueError, match="float32 array"):
        game.observe(out=np.empty((4, OBSERVATION_SIZE)))


def test_action_names_round_trip_through_the_mask() -> None:
    game = VectorGame.from_states([new_game(2, 3, start_player=0)])
    assert game.legal_mask()[0, str_to_action("move 0 cw")]
    assert not game.legal_mask()[0, str_to_action("bid 0")]


# -- without numba ----------------------------------------------------------------------
def test_the_package_works_without_numba_and_the_vector_module_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "import art_gallery_env\n"
        "from art_gallery_env import raw_env\n"
        "env = raw_env(num_players=3); env.reset(seed=1)\n"
        "try:\n"
        "    import art_gallery_env.games.art_gallery.vector\n"
        "except ImportError as err:\n"
        "    print('ImportError:', err)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert "ImportError: art_gallery_env.games.art_gallery.vector needs numba" in result.stdout
    assert "art-gallery-env[fast]" in result.stdout


def test_a_closed_game_runs_every_game_in_the_calling_thread() -> None:
    threaded = VectorGame(2048, 3, seed=4, threads=2)
    single = VectorGame(2048, 3, seed=4, threads=1)
    threaded.close()
    actions = single.random_actions()
    np.testing.assert_array_equal(threaded.random_actions(), actions)
    threaded.step(actions)
    single.step(actions)
    np.testing.assert_array_equal(threaded.legal_mask(), single.legal_mask())
