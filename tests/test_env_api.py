"""Art Gallery's PettingZoo AEC env: the README loop, illegal actions' messages, constructor
checks, rewards, infos, rendering (R8: what a seat may see), the observation decoder and the
action names. PettingZoo's API, seed and render tests, the illegal-action policies and the
decoder's layout are the conformance suite's (tests/conformance/), for every game."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from game_states import play_random

from art_gallery_env import (
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    IllegalActionError,
    action_to_str,
    decode_observation,
    env,
    raw_env,
    str_to_action,
)
from art_gallery_env.games.art_gallery.env.render import ROMAN
from art_gallery_env.games.art_gallery.rules.phases import BID, MOVE, PICK, SHOP

PLAYER_COUNTS = range(2, 7)


def _rewards_only_at_the_end(obs, reward: float, legal) -> None:
    assert reward == 0.0, "rewards come only at the end"


# -- the README quick example ----------------------------------------------------------
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_readme_quick_example_runs_to_the_end(n: int) -> None:
    e = env(num_players=n, render_mode="ansi")
    e.reset(seed=7)
    steps = 0
    for agent in e.agent_iter(max_iter=5000):
        obs, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
        else:
            action = e.action_space(agent).sample(obs["action_mask"])
        e.step(action)
        steps += 1
    assert not e.agents
    assert e.unwrapped.state.is_over
    assert steps > 4 * n * 2  # at least one full round
    text = e.render()
    assert "game over" in text and "rank" in text


def test_observation_shapes_and_spaces() -> None:
    e = raw_env(num_players=4)
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    assert obs["observation"].shape == (OBSERVATION_SIZE,) == (2221,)
    assert obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (NUM_ACTIONS,) == (47,)
    assert obs["action_mask"].dtype == np.int8
    assert e.observation_space(e.agent_selection).contains(obs)
    assert e.action_space("player_0").n == 47


def test_reset_options_start_player_and_saved_state() -> None:
    e = raw_env(num_players=3)
    e.reset(seed=2, options={"start_player": 1})
    assert e.agent_selection == "player_1" and e.state.current_player == 1
    rng = random.Random(0)
    for _ in range(20):
        e.step(rng.choice(e.state.legal_actions()))
    saved = e.state.clone()
    other = raw_env(num_players=3)
    other.reset(options={"state": saved})
    assert other.state.to_dict() == saved.to_dict()
    assert other.state is not saved
    with pytest.raises(ValueError, match="GameState for 4 players"):
        raw_env(num_players=4).reset(options={"state": saved})


# -- illegal actions -------------------------------------------------------------------
def mid_game_env(n: int, steps: int, **kwargs):
    kwargs.setdefault("illegal_action", "raise")  # the strict mode (the default terminates)
    e = raw_env(num_players=n, **kwargs)
    e.reset(seed=11)
    rng = random.Random(11)
    for _ in range(steps):
        e.step(rng.choice(e.state.legal_actions()))
    return e


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@pytest.mark.parametrize("steps", [0, 1, 60])
def test_illegal_action_raises_and_changes_nothing(n: int, steps: int) -> None:
    e = mid_game_env(n, steps)
    legal = list(e.state.legal_actions())
    illegal = next(a for a in range(NUM_ACTIONS) if a not in legal)
    before = e.state.to_dict()
    selection, rewards = e.agent_selection, dict(e.rewards)
    with pytest.raises(IllegalActionError) as info:
        e.step(illegal)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert action_to_str(illegal) in message and str(illegal) in message
    for a in legal:
        assert action_to_str(a) in message
    assert e.state.phase_name in message
    assert e.state.to_dict() == before
    assert e.state.legal_actions() == legal
    assert (e.agent_selection, e.rewards) == (selection, rewards)
    assert not any(e.terminations.values())
    # the game goes on normally afterwards
    e.step(legal[0])


@pytest.mark.parametrize("junk", [47, -1, 1000, "bid 3", 2.0, True, None, [0]])
def test_junk_actions_raise_with_the_legal_ones(junk) -> None:
    e = mid_game_env(4, 5)
    before = e.state.to_dict()
    legal = e.state.legal_actions()
    with pytest.raises(IllegalActionError, match="legal actions: ") as info:
        e.step(junk)
    assert e.state.to_dict() == before
    message = str(info.value)
    assert "0..46" in message
    assert all(action_to_str(a) in message for a in legal)


@pytest.mark.parametrize("junk", [47, -1, "bid 3", None])
def test_junk_action_message_names_the_action_given(junk) -> None:
    """The message must say what was passed (known bug: rules/game.py ``_raise_illegal``
    builds ``problem = "action must be an int in 0..46"`` and drops ``shown``)."""
    e = mid_game_env(4, 5)
    with pytest.raises(IllegalActionError) as info:
        e.step(junk)
    problem = str(info.value).split("; legal actions")[0]
    assert repr(junk) in problem, problem


def test_numpy_integer_actions_are_accepted() -> None:
    e = mid_game_env(3, 0)
    e.step(np.int64(e.state.legal_actions()[0]))
    e.step(np.int32(e.state.legal_actions()[0]))


# -- constructor checks ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"num_players": 1}, "2..6"),
        ({"num_players": 7}, "2..6"),
        ({"num_players": "4"}, "2..6"),
        ({"num_players": 4.0}, "2..6"),
        ({"num_players": True}, "2..6"),
        ({"reward_mode": "x"}, "'win', 'score_margin'"),
        ({"illegal_action": "x"}, "'raise', 'terminate'"),
        ({"render_mode": "x"}, "'ansi', 'human'"),
        ({"zero_is_ten": "yes"}, "True or False"),
    ],
)
def test_invalid_constructor_arguments(kwargs: dict, expected: str) -> None:
    name = next(iter(kwargs))
    with pytest.raises(ValueError, match=name) as info:
        raw_env(**kwargs)
    assert expected in str(info.value)
    with pytest.raises(ValueError, match=name):
        env(**kwargs)


# -- rewards and infos -----------------------------------------------------------------
def expected_rewards(breakdown: list[dict], mode: str) -> list[float]:
    totals = [b["total"] for b in breakdown]
    if mode == "win":
        best = max((b["total"], b["tiles"]) for b in breakdown)  # R7.5
        top = [b["player"] for b in breakdown if (b["total"], b["tiles"]) == best]
        return [1.0 / len(top) if p in top else -1.0 for p in range(len(breakdown))]
    return [(t - max(totals[:i] + totals[i + 1 :])) / 10.0 for i, t in enumerate(totals)]


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@pytest.mark.parametrize("mode", ["win", "score_margin"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rewards_only_at_the_end_and_infos(n: int, mode: str, seed: int) -> None:
    e = raw_env(num_players=n, reward_mode=mode, zero_is_ten=bool(seed % 2))
    e.reset(seed=seed)
    rng = random.Random(seed)
    while not e.state.is_over:
        for a in e.possible_agents:
            assert e.infos[a]["phase"] == e.state.phase_name
            assert "score" not in e.infos[a]
        assert all(r == 0.0 for r in e.rewards.values())
        assert all(r == 0.0 for r in e._cumulative_rewards.values())
        assert not any(e.terminations.values()) and not any(e.truncations.values())
        e.step(rng.choice(e.state.legal_actions()))
    breakdown = e.state.score_breakdown()
    for i, a in enumerate(e.possible_agents):
        info = e.infos[a]
        assert info["phase"] == "game_over"
        assert info["breakdown"] == breakdown
        assert info["score"] == breakdown[i]
    wanted = expected_rewards(e.infos["player_0"]["breakdown"], mode)
    assert [e.rewards[a] for a in e.possible_agents] == pytest.approx(wanted)
    final = play_random(e, rng, 5000, _rewards_only_at_the_end)
    assert [final[a] for a in e.possible_agents] == pytest.approx(wanted)
    if mode == "win":
        assert sum(r for r in wanted if r > 0) == pytest.approx(1.0)


def test_win_rewards_with_shared_and_tie_broken_wins() -> None:
    from art_gallery_env.games.art_gallery.env.aec import final_rewards

    def rows(totals, tiles):
        out = [
            {"player": p, "total": t, "tiles": k, "rank": 0}
            for p, (t, k) in enumerate(zip(totals, tiles))
        ]
        for r in out:
            r["rank"] = 1 + sum((o["total"], o["tiles"]) > (r["total"], r["tiles"]) for o in out)
        return out

    cases = [
        ((30, 20, 10), (1, 5, 5)),  # sole winner
        ((30, 30, 10), (2, 4, 9)),  # tie on total, more tiles wins
        ((30, 30, 30), (2, 2, 1)),  # two share the win
        ((25, 25, 25, 25), (3, 3, 3, 3)),  # everyone shares
    ]
    for totals, tiles in cases:
        b = rows(totals, tiles)
        assert final_rewards(b, "win") == pytest.approx(expected_rewards(b, "win"))
        assert final_rewards(b, "score_margin") == pytest.approx(
            expected_rewards(b, "score_margin")
        )
    assert final_rewards(rows((30, 30, 30), (2, 2, 1)), "win") == pytest.approx([0.5, 0.5, -1.0])
    assert final_rewards(rows((30, 20), (0, 0)), "score_margin") == pytest.approx([1.0, -1.0])


# -- render (R8) -----------------------------------------------------------------------
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_render_ansi_shows_the_board_and_only_what_the_viewer_may_see(n: int) -> None:
    e = raw_env(num_players=n, render_mode="ansi")
    e.reset(seed=3)
    rng = random.Random(3)
    checked = 0
    while not e.state.is_over:
        s = e.state
        if s.phase in (MOVE, BID) and s.turn >= n:
            viewer = s.current_player
            text = e.render()
            assert isinstance(text, str)
            assert f"view of player {viewer}" in text
            assert "Shop" in text and all(f"Gallery {g}" in text for g in range(1, s.num_areas))
            for g in range(1, s.num_areas):
                number = s.gallery_painting[g]
                if number:
                    assert s.cards.painting(number).title in text
            own = " ".join(str(v) for v in range(9) for _ in range(s.hands[viewer][v]))
            assert f"Player {viewer} (you): hand {own or '-'}" in text
            for p in range(n):
                if p != viewer:
                    assert f"Player {p}: hand {sum(s.hands[p])} cards (hidden)" in text
            for bids in s.bids:
                for k, (owner, value) in enumerate(bids):
                    if owner == viewer:
                        assert f"{ROMAN[k]}:P{owner}={value}" in text
                    else:
                        assert f"{ROMAN[k]}:P{owner}=?" in text
            checked += 1
        e.step(rng.choice(e.state.legal_actions()))
    assert checked > 0
    final = e.render()
    assert "game over" in final and "rank" in final


def test_render_human_prints_and_none_warns(capsys) -> None:
    e = raw_env(num_players=2, render_mode="human")
    e.reset(seed=1)
    assert e.render() is None
    assert "Art Gallery" in capsys.readouterr().out
    quiet = raw_env(num_players=2)
    quiet.reset(seed=1)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert quiet.render() is None


# -- decode_observation ----------------------------------------------------------------
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_decode_observation_matches_the_state(n: int) -> None:
    e = raw_env(num_players=n, zero_is_ten=n % 2 == 0)
    e.reset(seed=5)
    rng = random.Random(5)
    phases = set()
    step = 0
    while True:
        s = e.state
        if step % 5 == 0 or s.phase in (SHOP, PICK) or s.is_over:
            for p in range(n):
                check_decoded(decode_observation(e.observe(f"player_{p}")["observation"]), s, p)
            phases.add(s.phase_name)
        if s.is_over:
            break
        e.step(rng.choice(s.legal_actions()))
        step += 1
    assert {"move", "bid", "shop", "pick", "game_over"} <= phases


def counts(hand: list[int]) -> dict[int, int]:
    return {v: k for v, k in enumerate(hand) if k}


def check_decoded(decoded: dict, s, p: int) -> None:
    n = s.num_players
    summary = decoded["summary"]
    seat = [(p + r) % n for r in range(n)]  # relative seat -> player
    assert summary["num_players"] == n
    assert summary["phase"] == s.phase_name
    assert summary["round"] == min(s.round, 20)
    assert summary["positions"] == {r: s.position[seat[r]] for r in range(n)}
    assert summary["hand"] == counts(s.hands[p])
    assert summary["start_card_seat"] == (s.start_player - p) % n
    assert summary["collections"] == {r: sorted(s.collections[seat[r]]) for r in range(n)}
    assert summary["tiles"] == {r: sorted(s.tiles_held[seat[r]]) for r in range(n)}
    assert summary["pile_tops"] == {
        mark: (pile[-1] if pile else None) for mark, pile in zip((1, 3, 5, 7), s.tile_piles)
    }
    distributing = s.phase in (SHOP, PICK)
    public_hands = distributing or s.is_over
    for r in range(1, n):
        assert summary["others_hands"][r] == (counts(s.hands[seat[r]]) if public_hands else {})
    bars = {}
    for area in range(s.num_areas):
        hidden = not distributing or area > s.dist_area
        bars[area] = [
            ((owner - p) % n, value if owner == p or not hidden else None)
            for owner, value in s.bids[area]
        ]
    assert summary["marker_bars"] == bars
    if s.phase in (MOVE, BID):  # others' hand + face-down bids, as a multiset (R8)
        for r in range(1, n):
            q = seat[r]
            hidden = list(s.hands[q])
            for bids in s.bids:
                for owner, value in bids:
                    if owner == q:
                        hidden[value] += 1
            assert summary["others_hidden_cards"][r] == counts(hidden)
    fields = decoded["fields"]
    assert fields["hand"].shape == (6, 9)


@pytest.mark.parametrize("shape", [(10,), (2220,), (2222,), (1, 2221), (2221, 1)])
def test_decode_observation_rejects_a_wrong_shape(shape) -> None:
    with pytest.raises(ValueError, match="2221"):
        decode_observation(np.zeros(shape, dtype=np.float32))


# -- action names ----------------------------------------------------------------------
def test_action_names_round_trip_for_all_47_actions() -> None:
    names = [action_to_str(a) for a in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    for a, name in enumerate(names):
        assert str_to_action(name) == a
        assert str_to_action(name.upper()) == a
        assert str_to_action(f"  {name}  ") == a
        assert action_to_str(np.int64(a)) == name
    assert names[0] == "move 0 cw" and names[11] == "move 5 acw"
    assert names[18] == "bid 0" and names[27] == "shop nothing" and names[46] == "pick 8"


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("move 5 clockwise", 10),
        ("move 5 anticlockwise", 11),
        ("Move 3 CCW", 7),
        ("move 4", 8),
        ("shop 5+1", 33),
        ("shop 1, 5", 33),
        ("shop 1 5", 33),
        ("shop 3 + 7", 36),
    ],
)
def test_str_to_action_is_tolerant(text: str, action: int) -> None:
    assert str_to_action(text) == action


@pytest.mark.parametrize(
    "junk",
    [
        "",
        "fly 3",
        "move 9 cw",
        "move 3 up",
        "bid 9",
        "bid",
        "shop 2",
        "shop 1+1",
        "shop 1+3+5",
        "pick 10",
        "pick -1",
        "47",
        "bid three",
    ],
)
def test_str_to_action_rejects_junk_helpfully(junk: str) -> None:
    with pytest.raises(ValueError) as info:
        str_to_action(junk)
    message = str(info.value)
    assert repr(junk) in message
    assert "'move 5 cw'" in message and "'bid 4'" in message and "'shop 1+5'" in message


@pytest.mark.parametrize("junk", [47, 100, None, "bid"])
def test_action_to_str_rejects_junk(junk) -> None:
    with pytest.raises((ValueError, TypeError)):
        action_to_str(junk)


@pytest.mark.parametrize("junk", [-1, -18])
def test_action_to_str_rejects_negative_ids(junk) -> None:
    """Known bug: ``action_kind`` (rules/actions.py) checks ``0 <= action < BID_BASE`` for
    moves but only ``action < SHOP_BASE`` for bids, so -1 is named 'bid -19'."""
    with pytest.raises(ValueError, match="0..46"):
        action_to_str(junk)


@pytest.mark.parametrize("junk", [2.5, "3"])
def test_action_to_str_rejects_non_integer_ids(junk) -> None:
    """Known bug: ``action_to_str`` calls ``int(action)`` first, so 2.5 is named
    'move 1 cw' and "3" 'move 1 acw', though ``apply`` rejects them."""
    with pytest.raises(ValueError, match="0..46"):
        action_to_str(junk)
