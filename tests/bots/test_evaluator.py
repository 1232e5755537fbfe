"""Probabilities and the engine-free evaluator."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon import Position
from gammon.bots.evaluator import (
    Evaluator,
    MoveEvaluator,
    PipCountEvaluator,
    Probabilities,
    impossible_results_removed,
    terminal_probabilities,
)

unit = st.floats(0.0, 1.0)


@given(unit, unit, unit, unit, unit)
def test_from_sequence_is_consistent_and_flips_back(
    a: float, b: float, c: float, d: float, e: float
) -> None:
    p = Probabilities.from_sequence((a, b, c, d, e))
    assert p.win_backgammon <= p.win_gammon <= p.win
    assert p.lose_backgammon <= p.lose_gammon <= p.lose
    assert p.flipped().flipped().as_tuple() == pytest.approx(p.as_tuple())
    assert p.flipped().equity == pytest.approx(-p.equity)
    assert sum(p.outcomes()) == pytest.approx(1.0)
    assert min(p.outcomes()) >= -1e-12
    q = p.with_win(0.3)
    assert q.win == 0.3
    if p.win > 1e-9:
        assert q.win_gammon == pytest.approx(0.3 * p.win_gammon / p.win)


def test_validation() -> None:
    with pytest.raises(ValueError, match=r"not a number in 0\.\.1"):
        Probabilities(1.5)
    with pytest.raises(ValueError, match="lose_gammon"):
        Probabilities(0.9, 0.0, 0.0, 0.2)
    with pytest.raises(ValueError, match="5 probabilities"):
        Probabilities.from_sequence([0.5, 0.1])
    with pytest.raises(ValueError, match="1, 2 or 3"):
        Probabilities.certain(won=True, points=4)


def test_terminal_positions() -> None:
    # the opponent has borne everything off; the player on roll still has all 15
    gammoned = Position.from_points({6: 5, 8: 5, 13: 5}, {})
    assert terminal_probabilities(gammoned) == Probabilities.certain(won=False, points=2)
    backgammoned = Position.from_points({6: 5, 8: 5, 22: 5}, {})
    assert terminal_probabilities(backgammoned) == Probabilities.certain(won=False, points=3)
    single = Position.from_points({6: 5}, {})
    assert terminal_probabilities(single) == Probabilities.certain(won=False, points=1)
    assert terminal_probabilities(Position.initial()) is None
    # variants with other checker counts use their own scoring
    hyper = Position.from_points({24: 3}, {}, variant="hypergammon")
    assert terminal_probabilities(hyper) == Probabilities.certain(won=False, points=3)


def test_impossible_results_are_removed() -> None:
    noisy = Probabilities(0.5, 0.2, 0.05, 0.2, 0.05)
    contact = Position.initial()
    assert impossible_results_removed(contact, noisy) is noisy
    # both sides have checkers off: no gammons at all
    race = Position.from_points({1: 3, 2: 3}, {1: 3, 5: 3})
    assert impossible_results_removed(race, noisy) == Probabilities(0.5)
    # a race where nobody has borne off: gammons stay, backgammons go
    long_race = Position.from_points({6: 5, 7: 5, 8: 5}, {6: 5, 7: 5, 8: 5})
    assert impossible_results_removed(long_race, noisy) == Probabilities(0.5, 0.2, 0.0, 0.2, 0.0)


def test_pip_count_evaluator() -> None:
    ev = PipCountEvaluator()
    assert isinstance(ev, Evaluator)
    assert not isinstance(ev, MoveEvaluator)
    start = Position.initial()
    ahead = Position.from_points({6: 5, 5: 5, 4: 5}, {6: 5, 8: 5, 13: 5})
    (p_start, p_ahead, p_behind) = ev.evaluate([start, ahead, ahead.flipped()])
    assert 0.5 < p_start.win < 0.7
    assert p_ahead.win > 0.9
    assert p_behind.win < 0.1
    assert p_ahead.win_gammon > 0.0  # the opponent is far behind with nothing off
    assert ev.evaluate([]) == []
