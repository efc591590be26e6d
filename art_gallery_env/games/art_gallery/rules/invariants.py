"""Consistency checks on a state: what R1-R6 guarantee at every decision point.

Used to reject inconsistent saved games and, in the tests, as invariants of random play.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .actions import NUM_CARD_VALUES
from .board import MARKER_BAR_SIZE, MARKERS_PER_PLAYER, SHOP_AREA, TURNS_PER_ROUND
from .hidden import is_distributing
from .phases import BID, GAME_OVER, MOVE, PICK, SHOP, STAGE_PICK, STAGE_REVEAL, STAGE_SHOP

if TYPE_CHECKING:
    from .state import GameState


class InconsistentStateError(ValueError):
    """A state that no legal game could reach; the message names the field."""


def check_invariants(state: GameState) -> None:
    """Raise InconsistentStateError naming the first field that breaks a rule."""
    _check_components(state)
    placed = Counter(owner for bids in state.bids for owner, _ in bids)
    for player, count in placed.items():
        if count > MARKERS_PER_PLAYER:
            _fail("bids", f"player {player} has {count} markers out; each has 4 (R1.4)")
    if state.phase in (MOVE, BID):
        _check_turns(state, placed)
    elif is_distributing(state):
        _check_distribution(state, placed)
    elif state.phase == GAME_OVER and any(sum(h) != 9 for h in state.hands):
        _fail("hands", "every hand holds 9 cards when the game ends (R6.1)")
    if state.phase != GAME_OVER and not state.legal_actions():
        _fail("phase", "the current player has no legal action")


def _check_components(state: GameState) -> None:
    """R1: cards, tiles and paintings conserved; marker bars within their 6 spaces."""
    _check_cards_conserved(state)
    _check_numbers_conserved(
        "tiles (R1.2)",
        [t for held in state.tiles_held for t in held] + [t for p in state.tile_piles for t in p],
        state,
    )
    _check_numbers_conserved(
        "paintings (R1.1)",
        [p for p in state.gallery_painting if p]
        + state.painting_pile
        + [c for col in state.collections for c in col],
        state,
    )
    if state.gallery_painting[SHOP_AREA] != 0:
        _fail("gallery_painting[0]", "the Shop (area 0) has no painting space; use 0")
    for area, bids in enumerate(state.bids):
        if len(bids) > MARKER_BAR_SIZE:
            _fail(f"bids[{area}]", f"{len(bids)} markers; a marker bar holds at most 6 (R4.5)")


def _check_turns(state: GameState, placed: Counter[int]) -> None:
    """R4: whose turn, and one face-up card, marker and two cards from hand per turn."""
    n = state.num_players
    if not 0 <= state.turn < TURNS_PER_ROUND * n:
        _fail("turn", f"{state.turn} is not in 0..{TURNS_PER_ROUND * n - 1}")
    if state.dist_stage != STAGE_REVEAL or state.dist_area != SHOP_AREA:
        _fail("distribution", "must be at area 0, stage 'reveal' during the turns")
    expected = (state.round_starter + state.turn) % n
    if state.current_player != expected:
        _fail("current_player", f"turn {state.turn} belongs to player {expected}")
    for p in range(n):
        turns_done = (state.turn - (p - state.round_starter) % n + n - 1) // n
        started = turns_done + (p == state.current_player and state.phase == BID)
        if sum(state.moved[p]) != started:
            _fail(
                f"moved[{p}]",
                f"{sum(state.moved[p])} face-up cards, expected {started} "
                f"(one per move this round, R4.3)",
            )
        if placed.get(p, 0) != turns_done:
            _fail(
                "bids",
                f"player {p} has {placed.get(p, 0)} markers out, expected "
                f"{turns_done} (one per completed turn, R4.4)",
            )
        in_hand = sum(state.hands[p])
        expected_hand = 9 - turns_done - started
        if in_hand != expected_hand:
            _fail(f"hands[{p}]", f"holds {in_hand} cards, expected {expected_hand} (R4.2)")


def _check_distribution(state: GameState, placed: Counter[int]) -> None:
    """R5: the cursor on a marker awaiting a decision, and the cards in hand so far."""
    bids = state.bids[state.dist_area] if state.dist_area < state.num_areas else []
    _check_cursor(state, bids)
    for p in range(state.num_players):
        _check_distribution_cards(state, bids, placed, p)
    if state.current_player != bids[state.dist_marker][0]:
        _fail("current_player", "is not the owner of the marker being resolved (R5)")


def _check_cursor(state: GameState, bids: list[tuple[int, int]]) -> None:
    """The cursor points at a marker of the area being resolved, in a stage the phase fits."""
    if state.dist_stage == STAGE_REVEAL or not 0 <= state.dist_marker < len(bids):
        _fail("distribution", "the cursor does not point at a marker awaiting a decision")
    if state.phase == SHOP and (state.dist_area != SHOP_AREA or state.dist_stage != STAGE_SHOP):
        _fail("phase", "'shop' is only for the Shop's tile stage (area 0, stage 'shop')")
    if state.phase == PICK and state.dist_stage != STAGE_PICK:
        _fail("phase", "'pick' needs distribution stage 'pick'")


def _check_distribution_cards(
    state: GameState, bids: list[tuple[int, int]], placed: Counter[int], p: int
) -> None:
    """Player ``p`` played all 4 face-up cards and holds its last card plus its picks."""
    if sum(state.moved[p]) != TURNS_PER_ROUND:
        _fail(f"moved[{p}]", f"{sum(state.moved[p])} face-up cards, expected 4 (R4.3)")
    # One card kept after the turns (R4.7) plus one per marker already resolved.
    picked_here = state.dist_stage == STAGE_PICK and sum(
        1 for owner, _ in bids[: state.dist_marker] if owner == p
    )
    expected = 1 + MARKERS_PER_PLAYER - placed.get(p, 0) + picked_here
    if sum(state.hands[p]) != expected:
        _fail(
            f"hands[{p}]",
            f"holds {sum(state.hands[p])} cards, expected {expected} "
            f"(its last card plus one pick per resolved marker, R4.7/R5.2)",
        )


def card_counts_in_play(state: GameState) -> list[int]:
    """Per value, the action cards in hands, face up, on action spaces (R1.3)."""
    counts = [0] * NUM_CARD_VALUES
    for cards in (*state.hands, *state.moved):
        for value, k in enumerate(cards):
            counts[value] += k
    resolving = is_distributing(state) and state.dist_stage != STAGE_REVEAL
    for area, bids in enumerate(state.bids):
        if resolving and area == state.dist_area:
            continue  # its cards are counted in space_cards or already picked
        for _, value in bids:
            counts[value] += 1
    if resolving:
        for value, k in enumerate(state.space_cards):
            counts[value] += k
    return counts


def _check_cards_conserved(state: GameState) -> None:
    counts = card_counts_in_play(state)
    for value, k in enumerate(counts):
        if k != state.num_players:
            _fail(
                "hands/moved/bids",
                f"{k} action cards of value {value} in play; there must be exactly "
                f"{state.num_players}, one per player (R1.3)",
            )


def _check_numbers_conserved(what: str, numbers: list[int], state: GameState) -> None:
    expected = sorted(p.number for p in state.cards.paintings)
    if sorted(numbers) != expected:
        seen = Counter(numbers)
        duplicated = sorted(k for k, c in seen.items() if c > 1)
        missing = sorted(set(expected) - set(seen))
        unknown = sorted(set(seen) - set(expected))
        _fail(what, f"duplicated {duplicated}, missing {missing}, unknown {unknown}")


def _fail(field: str, problem: str) -> None:
    raise InconsistentStateError(f"{field}: {problem}")
