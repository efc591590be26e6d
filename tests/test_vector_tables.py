"""The compiled engine's tables against the rules doc (../shared/spec/RULES.md) itself.

vector/tables.py builds the move table, the R6.3(b) threshold and the Shop tables from the
Python rules' own functions, so a bug there changes both engines alike and the
differential tests cannot see it. Every expected value here is written out by hand from
RULES.md (and the action layout of rules/actions.py), never computed by the rules code.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba", reason="the compiled engine needs the [fast] extra")

from art_gallery_env.games.art_gallery.rules.actions import str_to_action  # noqa: E402
from art_gallery_env.games.art_gallery.rules.cards import default_card_set  # noqa: E402
from art_gallery_env.games.art_gallery.rules.phases import GAME_OVER, MOVE, SHOP  # noqa: E402
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game  # noqa: E402
from art_gallery_env.games.art_gallery.vector import VectorGame  # noqa: E402
from art_gallery_env.games.art_gallery.vector.tables import Tables, build_tables  # noqa: E402

STATES_DIR = Path(__file__).parent / "rules" / "states"

# R2.1: the Shop plus 4 galleries for 2-3 players, 6 for 4, 8 for 5-6.
AREAS = {2: 5, 3: 5, 4: 7, 5: 9, 6: 9}
# R6.3(b): at least 2 empty tile piles end the game with 2-3 players, 3 with 4-6.
EMPTY_PILES_TO_END = {2: 2, 3: 2, 4: 3, 5: 3, 6: 3}

# R4.3 with R2.1 (clockwise = increasing index modulo the areas): where a card of value
# 0..8 takes a piece standing on the Shop (area 0), clockwise and anticlockwise.
FROM_SHOP = {
    5: ([0, 1, 2, 3, 4, 0, 1, 2, 3], [0, 4, 3, 2, 1, 0, 4, 3, 2]),
    7: ([0, 1, 2, 3, 4, 5, 6, 0, 1], [0, 6, 5, 4, 3, 2, 1, 0, 6]),
    9: ([0, 1, 2, 3, 4, 5, 6, 7, 8], [0, 8, 7, 6, 5, 4, 3, 2, 1]),
}
# (areas, from, move, to): a few moves off the Shop, most of them across it.
MOVES = [
    (5, 4, "move 1 cw", 0),
    (5, 1, "move 2 acw", 4),
    (5, 2, "move 8 cw", 0),
    (5, 2, "move 8 acw", 4),
    (5, 3, "move 5 cw", 3),  # R4.3: a 5 on a loop of 5 areas, either way, comes back
    (5, 3, "move 5 acw", 3),
    (5, 3, "move 0 cw", 3),
    (7, 6, "move 1 cw", 0),
    (7, 3, "move 4 acw", 6),
    (7, 5, "move 7 acw", 5),
    (7, 6, "move 8 cw", 0),
    (9, 7, "move 4 cw", 2),
    (9, 1, "move 1 acw", 0),
    (9, 8, "move 8 acw", 0),
    (9, 4, "move 6 acw", 7),
]

# The Shop choices 0..10 (actions 27..37, rules/actions.py): the pile marks they take.
SHOP_MARKS = [(), (1,), (3,), (5,), (7,), (1, 3), (1, 5), (1, 7), (3, 5), (3, 7), (5, 7)]
PILE_OF_MARK = {1: 0, 3: 1, 5: 2, 7: 3}  # R2.3: piles on the spaces 1, 3, 5, 7


def tables(players: int) -> Tables:
    return build_tables(players, False, default_card_set())


def load(name: str) -> GameState:
    return GameState.from_dict(json.loads((STATES_DIR / f"{name}.json").read_text("utf-8")))


def after_move(state: GameState, move: str) -> GameState:
    """The compiled engine's state after one move action."""
    game = VectorGame.from_states([state], auto_reset=False)
    game.step(np.array([str_to_action(move)]))
    return game.to_state(0)


@pytest.mark.parametrize("players", sorted(AREAS))
def test_board_size_and_the_r6_3b_threshold_per_player_count(players: int) -> None:
    t = tables(players)
    assert (t.num_areas, t.num_galleries) == (AREAS[players], AREAS[players] - 1)
    assert t.empty_piles_to_end == EMPTY_PILES_TO_END[players]
    assert t.move_dest.shape == (AREAS[players], 18)


@pytest.mark.parametrize("areas", sorted(FROM_SHOP))
def test_moves_from_the_shop(areas: int) -> None:
    players = {5: 2, 7: 4, 9: 6}[areas]
    row = tables(players).move_dest[0]
    clockwise, anticlockwise = FROM_SHOP[areas]
    assert row[0::2].tolist() == clockwise
    assert row[3::2].tolist() == anticlockwise[1:]  # value 0 has no anticlockwise move


@pytest.mark.parametrize(("areas", "start", "move", "to"), MOVES)
def test_moves_across_the_loop(areas: int, start: int, move: str, to: int) -> None:
    players = {5: 3, 7: 4, 9: 5}[areas]
    assert tables(players).move_dest[start, str_to_action(move)] == to


def test_the_compiled_engine_moves_a_piece_where_the_table_says() -> None:
    """R4.3 end to end: 2 players, the start player on the Shop moves a 3 each way."""
    state = new_game(2, 3, start_player=0)
    assert state.phase == MOVE and state.position == [0, 0]
    assert after_move(state, "move 3 cw").position == [3, 0]
    assert after_move(state, "move 3 acw").position == [2, 0]
    assert after_move(state, "move 0 cw").position == [0, 0]


# R4.6 in the stored positions (their docstrings in tests/rules/conftest.py): where each
# move ends when it passes over full areas in its own direction.
FALLBACK_LANDINGS = {
    # 5 areas, seat 0 on area 3 (full), holding 0, 5, 5.
    "R4_6_fallback_2p": {"move 0 cw": 4, "move 5 cw": 4, "move 5 acw": 2},
    # 7 areas, seat 3 on the Shop, areas 1 and 6 full, holding 1, 6, 8.
    "R4_6_fallback_4p": {
        "move 1 cw": 2,
        "move 1 acw": 5,
        "move 6 cw": 0,
        "move 6 acw": 0,
        "move 8 cw": 2,
        "move 8 acw": 5,
    },
    # 9 areas, seat 5 on area 2, areas 2, 6 and 7 full, holding 0, 4, 5.
    "R4_6_fallback_6p": {
        "move 0 cw": 3,
        "move 4 cw": 8,
        "move 4 acw": 5,
        "move 5 cw": 8,
        "move 5 acw": 5,
    },
}


@pytest.mark.parametrize("name", sorted(FALLBACK_LANDINGS))
def test_the_compiled_r4_6_fallback_keeps_the_direction(name: str) -> None:
    state = load(name)
    landings = FALLBACK_LANDINGS[name]
    game = VectorGame.from_states([state], auto_reset=False)
    legal = np.flatnonzero(game.legal_mask()[0]).tolist()
    assert legal == sorted(str_to_action(move) for move in landings)
    player = state.current_player
    for move, area in landings.items():
        assert after_move(state, move).position[player] == area, move


def test_shop_tables_follow_r5_1() -> None:
    """Each Shop choice costs the sum of its pile marks and takes those piles."""
    t = tables(4)
    assert t.pile_sizes.tolist() == [18, 14, 10, 6]  # R2.3
    assert t.shop_cost.tolist() == [0, 1, 3, 5, 7, 4, 6, 8, 8, 10, 12]
    expected_piles = [[PILE_OF_MARK[m] for m in marks] for marks in SHOP_MARKS]
    assert [[p for p in row if p >= 0] for row in t.shop_piles.tolist()] == expected_piles
    assert t.score_points.tolist() == [3, 3, 1]  # R7.4 start card, R7.2 tiles


def test_a_six_in_the_shop_offers_the_rulebook_choices() -> None:
    """R5.1's example: with a 6 a player may take from 1, 3 or 5, or from 1 and 3, or
    from 1 and 5 (or nothing)."""
    game = VectorGame.from_states([load("R5_1_shop_six_2p")], auto_reset=False)
    game.step(np.array([str_to_action("bid 6")]))
    assert game.to_state(0).phase == SHOP
    expected = ["shop nothing", "shop 1", "shop 3", "shop 5", "shop 1+3", "shop 1+5"]
    legal = np.flatnonzero(game.legal_mask()[0]).tolist()
    assert legal == sorted(str_to_action(name) for name in expected)


def last_bid_of_round_one(players: int, empty: tuple[int, ...]) -> GameState:
    """A round-1 position at the last bid with the tile piles ``empty`` emptied into seat
    0's souvenirs. The piles left hold 10 or more tiles; a Shop marker takes at most one
    tile from a pile and a bar holds six, so this round empties no other pile."""
    rng = np.random.default_rng(players)
    state = new_game(players, players)
    while not (state.phase != MOVE and state.turn == 4 * players - 1):
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    d = state.to_dict()
    for pile in empty:
        d["tiles_held"][0].extend(d["tile_piles"][pile])
        d["tile_piles"][pile] = []
    return GameState.from_dict(d)


def play_round_out(state: GameState) -> GameState:
    """The compiled engine plays random legal actions to the end of the round."""
    game = VectorGame.from_states([state], seed=1, auto_reset=False)
    while True:
        after = game.to_state(0)
        if after.phase == GAME_OVER or after.round > state.round:
            return after
        game.step(game.random_actions())


@pytest.mark.parametrize("players", sorted(EMPTY_PILES_TO_END))
def test_the_compiled_engine_ends_the_game_at_the_r6_3b_threshold(players: int) -> None:
    """R6.3(b): one pile short of the threshold the game goes on; at it, it ends (R6.3(a)
    cannot apply: round 1 leaves 40 cards or more in the painting pile)."""
    threshold = EMPTY_PILES_TO_END[players]
    short = (3, 2, 1)[: threshold - 1]  # the 6-, 10- and 14-tile piles
    at = (3, 2, 1)[:threshold]
    going_on = play_round_out(last_bid_of_round_one(players, short))
    assert going_on.phase == MOVE and going_on.round == 2
    assert sum(not pile for pile in going_on.tile_piles) == threshold - 1
    ended = play_round_out(last_bid_of_round_one(players, at))
    assert ended.phase == GAME_OVER and ended.round == 1
    assert sum(not pile for pile in ended.tile_piles) == threshold
