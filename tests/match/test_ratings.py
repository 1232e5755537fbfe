"""The FIBS rating formula (gammon.match.ratings, docs/ratings.md)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon.match.ratings import (
    START_RATING,
    RatedPlayer,
    experience_factor,
    rate,
    upset_probability,
    win_probability,
)

ratings = st.floats(min_value=500, max_value=2500, allow_nan=False)
lengths = st.integers(min_value=1, max_value=25)
experience = st.integers(min_value=0, max_value=5000)


@pytest.mark.parametrize(
    ("difference", "length", "expected"),
    [
        (0, 1, 0.5),
        (100, 1, 1 / (10 ** (100 / 2000) + 1)),
        (100, 9, 1 / (10 ** (300 / 2000) + 1)),
        (400, 7, 1 / (10 ** (400 * math.sqrt(7) / 2000) + 1)),
        (-400, 7, 1 / (10 ** (400 * math.sqrt(7) / 2000) + 1)),
    ],
)
def test_upset_probability_is_the_published_formula(
    difference: float, length: int, expected: float
) -> None:
    assert upset_probability(difference, length) == pytest.approx(expected, rel=1e-12)


def test_start_and_experience_factor() -> None:
    assert RatedPlayer() == RatedPlayer(START_RATING, 0) == RatedPlayer(1500.0, 0)
    assert [experience_factor(e) for e in (0, 100, 399, 400, 401, 9999)] == [
        5.0,
        4.0,
        pytest.approx(1.01),
        1.0,
        1.0,
        1.0,
    ]


def test_a_worked_example_by_hand() -> None:
    # 1600 (experience 120) beats 1450 (experience 30) in a 5-point match
    p_loser = 1 / (10 ** (150 * math.sqrt(5) / 2000) + 1)
    base = 4 * math.sqrt(5) * p_loser
    r = rate(RatedPlayer(1600.0, 120), RatedPlayer(1450.0, 30), 5)
    assert r.winner_delta == pytest.approx(base * 3.8)
    assert r.loser_delta == pytest.approx(-base * 4.7)
    assert r.winner.rating == pytest.approx(1600 + base * 3.8)
    assert r.winner.experience == 125
    assert r.loser.experience == 35


@given(ratings, ratings, lengths)
def test_probabilities_are_complementary(a: float, b: float, n: int) -> None:
    assert win_probability(a, b, n) + win_probability(b, a, n) == pytest.approx(1.0)
    if a - b > 1e-9:  # a difference of 6e-14 rounds to an even chance: 0.5 exactly
        assert win_probability(a, b, n) > 0.5


@given(ratings, ratings, lengths)
def test_veterans_trade_equal_points_and_expectation_is_zero(a: float, b: float, n: int) -> None:
    pa, pb = RatedPlayer(a, 400), RatedPlayer(b, 400)
    a_wins, b_wins = rate(pa, pb, n), rate(pb, pa, n)
    assert a_wins.winner_delta == pytest.approx(-a_wins.loser_delta)
    expected = (
        win_probability(a, b, n) * a_wins.winner_delta
        + win_probability(b, a, n) * b_wins.loser_delta
    )
    assert expected == pytest.approx(0.0, abs=1e-9)


@given(ratings, ratings, lengths, experience, experience)
def test_winner_never_loses_and_upsets_pay_more(
    a: float, b: float, n: int, ea: int, eb: int
) -> None:
    r = rate(RatedPlayer(a, ea), RatedPlayer(b, eb), n)
    assert r.winner_delta > 0 > r.loser_delta
    assert r.winner.experience == ea + n and r.loser.experience == eb + n
    if a < b:  # an upset pays more than the favourite's win would have
        assert r.winner_delta / experience_factor(ea) > rate(
            RatedPlayer(b, ea), RatedPlayer(a, eb), n
        ).winner_delta / experience_factor(ea)


@pytest.mark.parametrize("length", [0, -1, 1.5, "3"])
def test_bad_lengths_are_refused(length: object) -> None:
    with pytest.raises(ValueError, match="length of at least 1"):
        rate(RatedPlayer(), RatedPlayer(), length)  # type: ignore[arg-type]


@pytest.mark.parametrize(("rating", "exp"), [(math.nan, 0), (math.inf, 0), (1500.0, -1)])
def test_bad_players_are_refused(rating: float, exp: int) -> None:
    with pytest.raises(ValueError):
        RatedPlayer(rating, exp)
