"""Helpers for the rule scenario tests: build positions as JSON states, load and play them.

A scenario is a JSON state (``GameState.to_dict()``) edited so that it shows the position a
rule is about; ``GameState.from_dict`` then checks that it is a position the rules allow
(every action card value exactly once per player, every tile and painting exactly once,
hand sizes matching the turn). Positions worth reading on their own are stored in
``states/*.json``; they are produced by the builders in ``STATE_BUILDERS`` below, and
``python tests/rules/conftest.py`` rewrites them (a test checks they are up to date).

The helpers reach the tests as fixtures (``last_turn``, ``edit``, ``load_state``, ``play``,
``finish_round``, ``custom_cards``): test modules never import this file.
"""

from __future__ import annotations

import copy
import inspect
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from art_gallery_env.games.art_gallery.rules.actions import str_to_action
from art_gallery_env.games.art_gallery.rules.board import PILE_SIZES
from art_gallery_env.games.art_gallery.rules.cards import (
    CardSet,
    card_set_from_dict,
    default_card_set,
)
from art_gallery_env.games.art_gallery.rules.phases import GAME_OVER, MOVE, PICK, SHOP
from art_gallery_env.games.art_gallery.rules.state import GameState, new_game

STATES_DIR = Path(__file__).parent / "states"
PILE_OF_MARK = {1: 0, 3: 1, 5: 2, 7: 3}

Bids = dict[int, list[tuple[int, int]]]


# -- building positions ----------------------------------------------------------------
def counts(values: list[int]) -> list[int]:
    """Per-value counts of a list of card values (the engine's hand format)."""
    out = [0] * 9
    for v in values:
        out[v] += 1
    return out


def standard_bids(n: int, last: int) -> tuple[Bids, int]:
    """A plain complete round: player p's k-th bid is a card of value k at gallery
    1 + (p + k) % G (no gallery gets more than four markers, the Shop none). Returns the
    bids already placed and the area of ``last``'s pending fourth bid (value 3)."""
    galleries = new_game(n, 0).num_galleries
    bids: Bids = {}
    for p in range(n):
        for k in range(3 if p == last else 4):
            bids.setdefault(1 + (p + k) % galleries, []).append((p, k))
    return bids, 1 + (last + 3) % galleries


def last_turn_dict(
    n: int,
    bids: Bids | None = None,
    *,
    player: int | None = None,
    at: int | None = None,
    hand: list[int] | None = None,
    phase: str = "bid",
    keep: dict[int, int] | None = None,
    owned: dict[int, list[int]] | None = None,
    seed: int = 0,
    round_no: int = 1,
    zero_is_ten: bool = False,
    positions: dict[int, int] | None = None,
    card_set: CardSet | None = None,
) -> dict[str, Any]:
    """The last turn of a round (turn 4N-1), taken by ``player`` standing on ``at``.

    ``bids`` maps area -> [(player, value), ...] in marker-bar order: every other player
    has placed 4 markers, ``player`` 3. ``phase="bid"``: ``player`` has moved and holds
    ``hand`` = [pending bid, last card]; ``phase="move"``: ``player`` holds 3 cards.
    ``owned`` gives a player's 9 cards this round (default 0..8); ``keep`` the last card of
    the others (default their lowest card not bid). Everything else is face up (moved).
    The start card (and so the round's first turn) is with the player after ``player``.
    Defaults (``bids=None``): :func:`standard_bids` for the last seat, hand [3, 4].
    """
    player = n - 1 if player is None else player
    if bids is None:
        bids, standard_at = standard_bids(n, player)
        at = standard_at if at is None else at
        hand = [3, 4] if hand is None else hand
    assert at is not None and hand is not None
    starter = (player + 1) % n
    state = new_game(n, seed, zero_is_ten=zero_is_ten, start_player=starter, card_set=card_set)
    d = state.to_dict()
    owned_cards = {p: list(range(9)) for p in range(n)} | (owned or {})
    keep = keep or {}
    placed: dict[int, list[int]] = {p: [] for p in range(n)}
    for area in sorted(bids):
        for p, v in bids[area]:
            placed[p].append(v)
    hands, moved = [], []
    for p in range(n):
        assert len(placed[p]) == (3 if p == player else 4), f"player {p} bids {placed[p]}"
        rest = Counter(owned_cards[p])
        rest.subtract(placed[p])
        if p == player:
            in_hand = list(hand)
            assert len(in_hand) == (2 if phase == "bid" else 3), "hand size for the phase"
        else:
            in_hand = [keep.get(p, min(v for v in rest.elements()))]
        rest.subtract(in_hand)
        assert all(k >= 0 for k in rest.values()), f"player {p} does not own those cards"
        hands.append(counts(in_hand))
        moved.append(counts(list(rest.elements())))
    where = {p: 0 for p in range(n)}
    for area in sorted(bids):
        for p, _ in bids[area]:
            where[p] = area
    where[player] = at
    where.update(positions or {})
    d.update(
        phase=phase,
        current_player=player,
        round=round_no,
        turn=4 * n - 1,
        round_starter=starter,
        start_player=starter,
        position=[where[p] for p in range(n)],
        hands=hands,
        moved=moved,
        bids=[[[p, v] for p, v in bids.get(area, [])] for area in range(state.num_areas)],
    )
    return d


def _take_tile(d: dict[str, Any], tile: int) -> None:
    for place in (*d["tile_piles"], *d["tiles_held"]):
        if tile in place:
            place.remove(tile)
            return
    raise AssertionError(f"tile {tile} not found")


def _take_painting(d: dict[str, Any], number: int) -> None:
    """Remove a painting from wherever it is; a gallery space gets the pile's top instead."""
    if number in d["painting_pile"]:
        d["painting_pile"].remove(number)
    elif number in d["gallery_painting"]:
        d["gallery_painting"][d["gallery_painting"].index(number)] = d["painting_pile"].pop()
    else:
        for collection in d["collections"]:
            if number in collection:
                collection.remove(number)
                return
        raise AssertionError(f"painting {number} not found")


def apply_changes(
    d: dict[str, Any],
    *,
    collections: dict[int, list[int]] | None = None,
    tiles_held: dict[int, list[int]] | None = None,
    paintings: dict[int, int] | None = None,
    pile_tops: dict[int, int] | None = None,
    empty_piles: tuple[int, ...] = (),
    empty_to: int = 0,
    painting_pile_size: int | None = None,
    surplus_to: int = 0,
    **fields: Any,
) -> dict[str, Any]:
    """Edit a state dict in place, keeping every tile and painting exactly once.

    ``collections``/``tiles_held``: player -> numbers (taken from wherever they are; what
    the player had before goes under the painting pile / a tile pile with room);
    ``paintings``: gallery -> painting number (swapped with the painting's old place);
    ``pile_tops``: pile index (0..3 for marks 1/3/5/7) -> tile put on top (swapped);
    ``empty_piles``: pile indices whose tiles go to ``empty_to``'s souvenirs;
    ``painting_pile_size``: keep that many (top) cards, the rest go to ``surplus_to``'s
    collection; other keywords replace top-level fields.
    """
    for p, numbers in (collections or {}).items():
        returned = [c for c in d["collections"][p] if c not in numbers]
        d["collections"][p] = []
        d["painting_pile"][:0] = returned  # under the pile
        for number in numbers:
            _take_painting(d, number)
        d["collections"][p] = list(numbers)
    for p, tiles in (tiles_held or {}).items():
        returned = [t for t in d["tiles_held"][p] if t not in tiles]
        d["tiles_held"][p] = []
        for tile in returned:  # under the first pile with room
            pile = next(i for i, size in enumerate(PILE_SIZES) if len(d["tile_piles"][i]) < size)
            d["tile_piles"][pile].insert(0, tile)
        for tile in tiles:
            _take_tile(d, tile)
        d["tiles_held"][p] = list(tiles)
    for area, number in (paintings or {}).items():
        gp, pile = d["gallery_painting"], d["painting_pile"]
        old = gp[area]
        if number == 0:
            pile.insert(0, old)
        elif number in pile:
            pile[pile.index(number)] = old
        elif number in gp:
            gp[gp.index(number)] = old
        else:
            raise AssertionError(f"painting {number} is not in the pile or on a gallery")
        gp[area] = number
    for index, tile in (pile_tops or {}).items():
        for pile in d["tile_piles"]:
            if tile in pile:
                k = pile.index(tile)
                top = d["tile_piles"][index]
                pile[k], top[-1] = top[-1], pile[k]
                break
        else:
            raise AssertionError(f"tile {tile} is not in a pile")
    for index in empty_piles:
        d["tiles_held"][empty_to].extend(d["tile_piles"][index])
        d["tile_piles"][index] = []
    if painting_pile_size is not None:
        pile = d["painting_pile"]
        cut = len(pile) - painting_pile_size
        d["collections"][surplus_to].extend(pile[:cut])
        d["painting_pile"] = pile[cut:]
    d.update(fields)
    return d


# -- stored positions ------------------------------------------------------------------
def _fallback_4p() -> dict[str, Any]:
    """R4.6 with 4 players (7 areas): seat 3 on the Shop holds 1, 6, 8 on its last turn;
    areas 1 and 6 are full, and 1, 6 and 8 (either way) all land on 1 or 6."""
    bids = {
        0: [(3, 3)],
        1: [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)],
        3: [(1, 3), (2, 3)],
        6: [(0, 2), (1, 2), (2, 2), (3, 0), (3, 2), (0, 3)],
    }
    return last_turn_dict(4, bids, player=3, at=0, hand=[1, 6, 8], phase="move")


def _fallback_6p() -> dict[str, Any]:
    """R4.6 with 6 players (9 areas): seat 5 on area 2 holds 0, 4, 5 on its last turn;
    areas 2, 6 and 7 are full: 0 stays on 2, 4 and 5 land on 6 or 7 either way."""
    bids = {
        0: [(0, 3), (1, 3), (2, 3)],
        2: [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 1)],
        4: [(3, 3), (4, 3)],
        6: [(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 2)],
        7: [(0, 2), (1, 2), (2, 2), (3, 2), (4, 2), (5, 3)],
    }
    return last_turn_dict(6, bids, player=5, at=2, hand=[0, 4, 5], phase="move")


def _fallback_2p() -> dict[str, Any]:
    """R4.6 with 2 players (5 areas): a CONSTRUCTED position, not reachable in a real
    game (see docs/rules.md, R4.6: seat 0 moved with 4, 6 and 7, yet all its bids are on
    area 3). It exercises the fallback code with the 2-player board: seat 0 holds 0, 5,
    5 on its last turn, area 3 is full, and 0 and 5 (either way) land on 3."""
    bids = {
        1: [(1, 4)],
        3: [(1, 1), (0, 1), (1, 2), (0, 2), (1, 3), (0, 3)],
    }
    owned = {0: [0, 1, 2, 3, 4, 5, 5, 6, 7], 1: [0, 1, 2, 3, 4, 6, 7, 8, 8]}
    return last_turn_dict(
        2, bids, player=0, at=3, hand=[0, 5, 5], phase="move", owned=owned, round_no=2
    )


def _start_card_tie_4p() -> dict[str, Any]:
    """R4.7: seat 1 holds the start card; seats 0 and 3 keep an 8, seats 1 and 2 a 5."""
    return last_turn_dict(4, player=0, hand=[3, 8], keep={1: 5, 2: 5, 3: 8})


def _shop_six_2p() -> dict[str, Any]:
    """R5.1: the only Shop marker is seat 1's pending bid of a 6."""
    bids = {
        1: [(0, 0), (1, 0)],
        2: [(0, 1), (1, 1)],
        3: [(0, 2), (1, 2)],
        4: [(0, 3)],
    }
    return last_turn_dict(2, bids, player=1, at=0, hand=[6, 8], keep={0: 8})


def _gallery_tie_2p() -> dict[str, Any]:
    """R5.4: gallery 1 (painting 20) gets a 3 from seat 0 (marker I) and seat 1's pending 3;
    seat 1 holds tile 20. Seat 1 also has a Shop marker (a 1) and tile 21 is on pile 1."""
    bids = {
        0: [(1, 1)],
        2: [(0, 1), (1, 2)],
        3: [(0, 2), (1, 4)],
        4: [(0, 4)],
        1: [(0, 3)],
    }
    d = last_turn_dict(2, bids, player=1, at=1, hand=[3, 8], keep={0: 8})
    return apply_changes(d, paintings={1: 20}, tiles_held={1: [20]}, pile_tops={0: 21})


def _pile_cannot_refill_2p() -> dict[str, Any]:
    """R6.3(a): all four galleries will be emptied but the painting pile holds 3 cards."""
    return apply_changes(last_turn_dict(2), painting_pile_size=3)


def _exact_refill_2p() -> dict[str, Any]:
    """R6.3: all four galleries will be emptied and the painting pile holds exactly 4."""
    return apply_changes(last_turn_dict(2), painting_pile_size=4)


STATE_BUILDERS: dict[str, Callable[[], dict[str, Any]]] = {
    "R4_6_fallback_4p": _fallback_4p,
    "R4_6_fallback_6p": _fallback_6p,
    "R4_6_fallback_2p": _fallback_2p,
    "R4_7_start_card_tie_4p": _start_card_tie_4p,
    "R5_1_shop_six_2p": _shop_six_2p,
    "R5_4_gallery_tie_2p": _gallery_tie_2p,
    "R6_3_pile_cannot_refill_2p": _pile_cannot_refill_2p,
    "R6_3_exact_refill_2p": _exact_refill_2p,
}


def write_states() -> None:
    STATES_DIR.mkdir(exist_ok=True)
    for name, build in STATE_BUILDERS.items():
        d = build()
        GameState.from_dict(copy.deepcopy(d))  # only consistent positions are stored
        # One line per field, so that a position reads (and diffs) field by field.
        fields = [f"  {json.dumps(k)}: {json.dumps(d[k])}" for k in sorted(d)]
        text = "{\n" + ",\n".join(fields) + "\n}\n"
        (STATES_DIR / f"{name}.json").write_text(text, encoding="utf-8")


def read_state_dict(name: str) -> dict[str, Any]:
    return json.loads((STATES_DIR / f"{name}.json").read_text(encoding="utf-8"))


# -- playing ---------------------------------------------------------------------------
def play_actions(state: GameState, *actions: int | str) -> GameState:
    """Apply actions given as ids or names ('move 3 acw', 'bid 5', 'shop 1+3', 'pick 7')."""
    for a in actions:
        state.apply(str_to_action(a) if isinstance(a, str) else a)
    return state


def finish_round_first_legal(state: GameState) -> GameState:
    """Resolve the rest of the distribution taking the lowest legal action each time
    ('shop nothing', the lowest card) until the next round starts or the game ends."""
    while state.phase in (SHOP, PICK):
        state.apply(state.legal_actions()[0])
    assert state.phase in (MOVE, GAME_OVER) and state.turn == 0 or state.is_over
    return state


def make_card_set(rows: dict[int, list[tuple[str, int] | None]]) -> CardSet:
    """The packaged card set with the rows of some paintings replaced: number -> four
    entries (symbol name, value) or None for an empty row."""
    data = copy.deepcopy(default_card_set().to_dict())
    data["name"] = "rules-test cards"
    for painting in data["paintings"]:
        if painting["number"] in rows:
            painting["rows"] = [
                None if e is None else {"symbol": e[0], "value": e[1]}
                for e in rows[painting["number"]]
            ]
    return card_set_from_dict(data)


# -- fixtures --------------------------------------------------------------------------
@pytest.fixture
def last_turn() -> Callable[..., GameState]:
    """``last_turn(n, bids, ..., **changes)``: the state of :func:`last_turn_dict`, with
    :func:`apply_changes` keywords applied, validated by ``GameState.from_dict``."""

    def build(n: int, bids: Bids | None = None, **kwargs: Any) -> GameState:
        names = set(inspect.signature(last_turn_dict).parameters)
        own = {k: v for k, v in kwargs.items() if k in names}
        changes = {k: v for k, v in kwargs.items() if k not in names}
        d = apply_changes(last_turn_dict(n, bids, **own), **changes)
        return GameState.from_dict(d, own.get("card_set"))

    return build


@pytest.fixture
def edit() -> Callable[..., GameState]:
    """``edit(state, **changes)``: a new state with :func:`apply_changes` applied."""

    def change(state: GameState, **changes: Any) -> GameState:
        return GameState.from_dict(apply_changes(state.to_dict(), **changes), state.cards)

    return change


@pytest.fixture
def load_state() -> Callable[[str], GameState]:
    """``load_state(name)``: ``states/<name>.json`` as a GameState."""
    return lambda name: GameState.from_dict(read_state_dict(name))


@pytest.fixture
def play() -> Callable[..., GameState]:
    return play_actions


@pytest.fixture
def finish_round() -> Callable[[GameState], GameState]:
    return finish_round_first_legal


@pytest.fixture
def custom_cards() -> Callable[..., CardSet]:
    return make_card_set


@pytest.fixture
def state_builders() -> dict[str, Callable[[], dict[str, Any]]]:
    return STATE_BUILDERS


@pytest.fixture
def stored_state_dict() -> Callable[[str], dict[str, Any]]:
    return read_state_dict


if __name__ == "__main__":
    write_states()
    print(f"wrote {len(STATE_BUILDERS)} states to {STATES_DIR}")
