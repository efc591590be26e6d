"""The compiled engine agrees with the Python engine decision by decision.

Both engines start from the same Python deals and get the same random legal actions; at
every decision the legal masks, current players, ``to_state`` states and observations
must be equal, and at the end the rewards and R7 totals (see
art_gallery_env/games/art_gallery/vector/differential.py). The 300-game run covers 2-6 players and
both
variants; benchmarks/vector_differential.py runs 10,000 games (docs/vector.md).
"""

from __future__ import annotations

import pytest

pytest.importorskip("numba", reason="the compiled engine needs the [fast] extra")

from art_gallery_env.games.art_gallery.rules.cards import card_set_from_dict, default_card_set  # noqa: E402
from art_gallery_env.games.art_gallery.vector.differential import play_differential  # noqa: E402

TABLES = [(n, z) for n in range(2, 7) for z in (False, True)]


@pytest.mark.parametrize(("players", "zero_is_ten"), TABLES)
def test_every_seat_agrees_in_a_few_games(players: int, zero_is_ten: bool) -> None:
    stats = play_differential(
        players, zero_is_ten, 2, seed=7 * players + zero_is_ten, all_seats=True
    )
    assert stats.games == 2 and stats.decisions > 400
    assert stats.observations >= stats.decisions * players


@pytest.mark.parametrize("players", [2, 5])
def test_score_margin_rewards_agree(players: int) -> None:
    stats = play_differential(players, False, 4, seed=players, reward_mode="score_margin")
    assert stats.games == 4


def test_another_card_set_agrees() -> None:
    """Card data reaches the kernels as arrays, so any valid set works: here each
    painting carries the rows of the next one."""
    data = default_card_set().to_dict()
    rows = [p["rows"] for p in data["paintings"]]
    for i, painting in enumerate(data["paintings"]):
        painting["rows"] = rows[(i + 1) % len(rows)]
    cards = card_set_from_dict(data)
    assert cards.fingerprint != default_card_set().fingerprint
    stats = play_differential(4, True, 3, seed=5, all_seats=True, card_set=cards)
    assert stats.games == 3


@pytest.mark.slow
@pytest.mark.parametrize(("players", "zero_is_ten"), TABLES)
def test_300_random_games_agree_at_every_decision(players: int, zero_is_ten: bool) -> None:
    """30 games per table size and variant: 300 in all."""
    stats = play_differential(players, zero_is_ten, 30, seed=1000 + 10 * players + zero_is_ten)
    assert stats.games == 30
    assert stats.decisions > 30 * 200  # random games take 240-450 decisions
    assert stats.observations >= 2 * stats.decisions
