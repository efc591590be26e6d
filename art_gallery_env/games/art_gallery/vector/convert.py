"""Moving single games between the engines: a VecState slot to a GameState and back.

For debugging, search and the heuristic agent, which work on GameState. Plain numpy
and Python (no numba), so these run anywhere.
"""

from __future__ import annotations

from ..rules.cards import CardSet
from ..rules.state import GameState
from .state import VecState
from .tables import Tables


def blank_game_state() -> GameState:
    """The one place this package creates a GameState: its constructor sets the rules'
    private slots (legal-action cache, observation key), whatever they are."""
    return GameState()


def read_state(s: VecState, t: Tables, b: int, cards: CardSet) -> GameState:
    """Game b as a GameState. Its event log is one ``round_start`` event for the current
    round: the compiled engine keeps no log (docs/vector.md)."""
    n, areas = t.num_players, t.num_areas
    state = blank_game_state()
    state.cards = cards
    state.num_players = n
    state.num_galleries = t.num_galleries
    state.num_areas = areas
    state.zero_is_ten = bool(t.zero_is_ten)
    state.phase = int(s.phase[b])
    state.current_player = int(s.current_player[b])
    state.round = int(s.round[b])
    state.turn = int(s.turn[b])
    state.round_starter = int(s.round_starter[b])
    state.start_player = int(s.start_player[b])
    state.position = s.position[b, :n].tolist()
    state.hands = s.hands[b, :n].tolist()
    state.moved = s.moved[b, :n].tolist()
    counts = s.bid_count[b, :areas].tolist()
    players, values = s.bid_player[b].tolist(), s.bid_value[b].tolist()
    state.bids = [
        list(zip(players[area][:count], values[area][:count])) for area, count in enumerate(counts)
    ]
    state.gallery_painting = s.gallery_painting[b, :areas].tolist()
    state.painting_pile = s.painting_pile[b, : s.painting_pile_len[b]].tolist()
    state.tile_piles = [
        pile[:length] for pile, length in zip(s.tile_piles[b].tolist(), s.tile_pile_len[b].tolist())
    ]
    state.tiles_held = [
        held[:length]
        for held, length in zip(s.tiles_held[b, :n].tolist(), s.tiles_held_len[b, :n].tolist())
    ]
    state.collections = [
        col[:length]
        for col, length in zip(s.collections[b, :n].tolist(), s.collection_len[b, :n].tolist())
    ]
    state.dist_area = int(s.dist_area[b])
    state.dist_stage = int(s.dist_stage[b])
    state.dist_marker = int(s.dist_marker[b])
    state.space_cards = s.space_cards[b].tolist()
    state.events = [("round_start", {"round": state.round, "start_player": state.round_starter})]
    return state


def write_state(s: VecState, b: int, state: GameState) -> None:
    """Overwrite slot b with ``state`` (the random streams of the slot are kept)."""
    for name, array in zip(s._fields, s):
        if not name.endswith("_rng"):
            array[b] = 0
    n = state.num_players
    s.phase[b] = state.phase
    s.current_player[b] = state.current_player
    s.round[b] = state.round
    s.turn[b] = state.turn
    s.round_starter[b] = state.round_starter
    s.start_player[b] = state.start_player
    s.position[b, :n] = state.position
    s.hands[b, :n] = state.hands
    s.moved[b, :n] = state.moved
    for area, bids in enumerate(state.bids):
        s.bid_count[b, area] = len(bids)
        for k, (player, value) in enumerate(bids):
            s.bid_player[b, area, k] = player
            s.bid_value[b, area, k] = value
    s.gallery_painting[b, : len(state.gallery_painting)] = state.gallery_painting
    _put(s.painting_pile[b], state.painting_pile)
    s.painting_pile_len[b] = len(state.painting_pile)
    for i, pile in enumerate(state.tile_piles):
        _put(s.tile_piles[b, i], pile)
        s.tile_pile_len[b, i] = len(pile)
    for p in range(n):
        _put(s.tiles_held[b, p], state.tiles_held[p])
        s.tiles_held_len[b, p] = len(state.tiles_held[p])
        _put(s.collections[b, p], state.collections[p])
        s.collection_len[b, p] = len(state.collections[p])
    s.dist_area[b] = state.dist_area
    s.dist_stage[b] = state.dist_stage
    s.dist_marker[b] = state.dist_marker
    s.space_cards[b] = state.space_cards


def _put(row, values: list[int]) -> None:
    row[: len(values)] = values
