"""Search and heuristic agents never read hidden information (R8): given two states that
differ only in what the acting seat cannot see, they decide the same for the same seed."""

from __future__ import annotations

import numpy as np
import pytest
from agent_test_helpers import mid_round_state, twin_state
from game_states import bid_swapped_with_hand

from art_gallery_env.agents import ISMCTSAgent
from art_gallery_env.games.art_gallery.env.observation import ObservationEncoder
from art_gallery_env.games.art_gallery.heuristic import HeuristicAgent, HeuristicV1Params
from art_gallery_env.games.art_gallery.rules.actions import NUM_ACTIONS
from art_gallery_env.games.art_gallery.rules.hidden import PlayerView
from art_gallery_env.games.art_gallery.rules.phases import BID, MOVE, PICK, SHOP
from art_gallery_env.games.art_gallery.rules.state import GameState


def _inputs(state: GameState) -> tuple[np.ndarray, np.ndarray, PlayerView]:
    me = state.current_player
    obs = ObservationEncoder(state.cards).encode(state, me)
    mask = np.zeros(NUM_ACTIONS, np.int8)
    mask[state.legal_actions()] = 1
    return obs, mask, PlayerView(state, me)


def _agents():
    return [
        ("heuristic", lambda seed: HeuristicAgent(seed=seed)),
        ("heuristic:v1", lambda seed: HeuristicAgent(seed=seed, params=HeuristicV1Params())),
        ("ismcts-heuristic", lambda seed: ISMCTSAgent(seed=seed, iters=12, rollout="heuristic")),
        ("ismcts-random", lambda seed: ISMCTSAgent(seed=seed, iters=12, rollout="random")),
    ]


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("phases", [(MOVE,), (BID,), (SHOP, PICK)])
def test_same_decision_in_one_information_set(num_players: int, phases) -> None:
    for case in range(2 if phases == (SHOP, PICK) else 1):
        state = mid_round_state(num_players, seed=31 * case + num_players, phases=phases)
        twin = twin_state(state, case)
        obs_a, mask_a, view_a = _inputs(state)
        obs_b, mask_b, view_b = _inputs(twin)
        # The twin really is indistinguishable to the seat: same observation, same mask.
        np.testing.assert_array_equal(obs_a, obs_b)
        np.testing.assert_array_equal(mask_a, mask_b)
        for name, build in _agents():
            for seed in (0, 1):
                a = build(seed).act(obs_a, mask_a, view_a)
                b = build(seed).act(obs_b, mask_b, view_b)
                assert a == b, f"{name} seed {seed}: {a} != {b} ({num_players}p, {phases})"


def test_twin_from_edited_hidden_bid() -> None:
    """Swap a rival's face-down bid value with a card in that rival's hand (a hand-edited
    twin, independent of determinize)."""
    state = mid_round_state(2, seed=5, phases=(MOVE, BID))
    me = state.current_player
    data = state.to_dict()
    twins = (
        bid_swapped_with_hand(state, area, marker)
        for area, bids in enumerate(state.bids)
        for marker, (owner, _) in enumerate(bids)
        if owner != me
    )
    twin = next((t for t in twins if t is not None), None)
    assert twin is not None
    assert state.to_dict() == data  # the original is untouched
    obs_a, mask_a, view_a = _inputs(state)
    obs_b, mask_b, view_b = _inputs(twin)
    np.testing.assert_array_equal(obs_a, obs_b)
    for _name, build in _agents():
        assert build(3).act(obs_a, mask_a, view_a) == build(3).act(obs_b, mask_b, view_b)
