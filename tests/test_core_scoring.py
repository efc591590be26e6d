"""core.scoring.margin_values: the search agents' estimate of an unfinished game, one
value per seat from each seat's lead over its best rival."""

from __future__ import annotations

import math

import pytest

from art_gallery_env.core.scoring import margin_values


def test_level_is_one_half_and_a_lead_is_the_logistic_of_it_over_the_scale() -> None:
    assert margin_values([7, 7], 10.0) == [0.5, 0.5]
    ahead, behind, third = margin_values([30, 20, 5], 10.0)
    assert ahead == pytest.approx(1 / (1 + math.exp(-1.0)))  # 10 ahead of the best rival
    assert behind == pytest.approx(1 / (1 + math.exp(1.0)))
    assert third == pytest.approx(1 / (1 + math.exp(2.5)))


def test_one_seat_measures_its_own_value_and_far_behind_is_zero() -> None:
    assert margin_values([10.0], 10.0) == [pytest.approx(1 / (1 + math.exp(-1.0)))]
    assert margin_values([0, 10**6], 1.0) == [0.0, 1.0]  # no overflow of exp
