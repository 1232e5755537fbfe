"""rollout_decision: candidates, cube, progress, cancel, seeds."""

from __future__ import annotations

import threading

import pytest

from gammon import Position
from gammon.bots.equity import ScoreContext
from gammon.errors import IllegalActionError

pytest.importorskip("bgsage", reason="rollouts need bgsage (the dev and bot extras)")

from gammon.bots.rollout import RolloutSettings, rollout_decision

QUICK = RolloutSettings(trials=36, truncation=2, candidates=3, threshold=0.5)
RACE = Position.from_points({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {1: 3, 2: 3, 3: 3, 4: 3, 10: 3})


def test_checker_play_rolls_out_the_candidates_with_progress() -> None:
    seen: list[tuple[int, int]] = []
    result = rollout_decision(
        Position.initial(),
        ScoreContext(),
        (6, 4),
        settings=QUICK,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert result.kind == "checker" and not result.cancelled and result.cube is None
    assert len(result.moves) == 3 and result.trials_done == result.trials_total == 108
    legal = {str(m) for m in Position.initial().legal_moves((6, 4))}
    assert {m.move for m in result.moves} <= legal
    equities = [m.equity for m in result.moves]
    assert equities == sorted(equities, reverse=True)
    assert all(0 < m.std_error < 0.2 and -1 < m.equity < 1 for m in result.moves)
    assert seen and seen[-1] == (108, 108) and [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_the_same_seed_gives_the_same_result_and_include_adds_the_move_played() -> None:
    a = rollout_decision(Position.initial(), ScoreContext(), (6, 4), settings=QUICK)
    b = rollout_decision(Position.initial(), ScoreContext(), (6, 4), settings=QUICK)
    assert a.moves == b.moves
    worst = str(Position.initial().legal_moves((6, 4))[-1])
    c = rollout_decision(Position.initial(), ScoreContext(), (6, 4), settings=QUICK, include=worst)
    assert worst in {m.move for m in c.moves}


def test_cancel_returns_what_was_finished() -> None:
    cancel = threading.Event()

    def progress(done: int, total: int) -> None:
        if done > 40:  # during the second candidate
            cancel.set()

    result = rollout_decision(
        Position.initial(), ScoreContext(), (6, 4), settings=QUICK, progress=progress, cancel=cancel
    )
    assert result.cancelled and len(result.moves) == 1 and result.trials_done == 36
    cancel.set()
    before = rollout_decision(RACE, ScoreContext(), settings=QUICK, cancel=cancel)
    assert before.cancelled and before.cube is None and before.trials_done == 0


def test_cube_decision_in_a_match() -> None:
    result = rollout_decision(RACE, ScoreContext.for_match(7, 3, 4), settings=QUICK)
    assert result.kind == "cube" and result.cube is not None and not result.moves
    assert result.cube.action == "double, pass"
    assert result.cube.double_pass == pytest.approx(1.0)


def test_nothing_to_roll_out() -> None:
    with pytest.raises(IllegalActionError):
        rollout_decision(Position.from_points({1: 1}, {1: 1}), ScoreContext(), (6, 5))
    with pytest.raises(ValueError, match="trials"):
        RolloutSettings(trials=1)
