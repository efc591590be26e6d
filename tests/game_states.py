"""Shared by the tests of every folder: positions reached by random play, and states that
differ from a given one only in what a seat cannot see."""

from __future__ import annotations

import random
from typing import Any

import numpy as np


def random_moves(state: Any, moves: int, seed: int) -> Any:
    """``state`` after ``moves`` uniformly random legal actions drawn with ``seed`` (fewer if
    the game ends first); any game's state."""
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def legal_mask(state: Any, num_actions: int) -> np.ndarray:
    """The action mask of the current player's legal actions."""
    mask = np.zeros(num_actions, dtype=np.int8)
    mask[state.legal_actions()] = 1
    return mask


def gallerist_twin(state: Any, seat: int) -> Any:
    """A Gallerist state of ``seat``'s information set whose hidden parts differ: the deck and
    the bag reversed, the next rival's curator swapped with one still in the box."""
    other = state.clone()
    other.deck.reverse()
    other.bag.reverse()
    q = (seat + 1) % state.num_players
    other.curator[q], other.box_curators[0] = other.box_curators[0], other.curator[q]
    return other


def bid_swapped_with_hand(state: Any, area: int, marker: int) -> Any | None:
    """An Art Gallery state where bid ``marker`` of ``area`` trades values with another card
    its owner holds (the hand-edited twin), or None when the owner holds no other value."""
    owner, value = state.bids[area][marker]
    hand = state.hands[owner]
    other = next((v for v in range(len(hand)) if hand[v] and v != value), None)
    if other is None:
        return None
    edited = state.clone()
    edited.bids[area][marker] = (owner, other)
    edited.hands[owner][other] -= 1
    edited.hands[owner][value] += 1
    edited._legal = None
    return edited


def random_observations(
    num_players: int, count: int, env_seed: int, action_seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """The observations (float32) and action masks of the first ``count`` decisions of an
    Art Gallery game through the AEC env, with uniformly random legal actions."""
    from art_gallery_env import raw_env

    env = raw_env(num_players=num_players)
    env.reset(seed=env_seed)
    rng = np.random.default_rng(action_seed)
    obs, masks = [], []
    for _ in env.agent_iter():
        o, _, term, trunc, _ = env.last()
        if term or trunc or len(obs) >= count:
            break
        obs.append(o["observation"])
        masks.append(o["action_mask"])
        env.step(int(rng.choice(np.flatnonzero(o["action_mask"]))))
    return np.stack(obs).astype(np.float32), np.stack(masks)


def play_random(e: Any, rng: random.Random, max_steps: int, check: Any = None) -> dict[str, float]:
    """Random legal play of an already reset AEC env to its end (the README loop); each
    agent's final reward. ``check(obs, reward, legal)`` sees every decision (``legal``: the
    mask's action ids); a game still going after ``max_steps`` fails the test."""
    final = {}
    for agent in e.agent_iter(max_iter=max_steps):
        obs, reward, termination, truncation, _info = e.last()
        if termination or truncation:
            final[agent] = reward
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            if check is not None:
                check(obs, reward, legal)
            action = int(rng.choice(legal.tolist()))
        e.step(action)
    assert not e.agents, f"the game did not end within {max_steps} steps"
    return final
