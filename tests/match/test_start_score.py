"""Matches that start part-way: the engine, the action log, .mat and SGF excerpts."""

from __future__ import annotations

from pathlib import Path

import pytest

from gammon import Dice, IllegalActionError, InvalidNotationError
from gammon.match import (
    AcceptResign,
    Double,
    Drop,
    Match,
    Play,
    Resign,
    Roll,
    TableOptions,
    allowed_actions,
    read_log,
    replay,
    write_log,
)
from gammon.match.engine import apply, new_match
from gammon.match.formats import mat_to_record, match_to_mat, match_to_sgf, sgf_to_record

DATA = Path(__file__).resolve().parents[1] / "data"
FIVE = TableOptions(match_length=5)


@pytest.mark.parametrize(
    ("score", "crawford", "first_is_crawford", "post_crawford"),
    [
        ((0, 0), None, False, False),
        ((2, 3), None, False, False),
        ((4, 2), None, True, False),
        ((1, 4), None, True, False),
        ((4, 2), True, True, False),
        ((4, 2), False, False, True),
        ((4, 4), None, False, True),
        ((4, 4), False, False, True),
    ],
)
def test_the_first_game_and_the_crawford_rule(
    score: tuple[int, int], crawford: bool | None, first_is_crawford: bool, post_crawford: bool
) -> None:
    state = new_match(FIVE, score=score, crawford=crawford)
    assert state.score == score
    assert state.game.crawford is first_is_crawford
    assert state.post_crawford is post_crawford
    assert state.game.number == 1


@pytest.mark.parametrize(
    ("options", "score", "crawford", "message"),
    [
        (FIVE, (5, 2), None, "each score must be below 5"),
        (FIVE, (-1, 2), None, "at least 0"),
        (FIVE, (1.0, 2), None, "whole numbers"),
        (FIVE, (1, 2, 3), None, "two whole numbers"),
        (FIVE, (4, 4), True, "past its Crawford game"),
        (FIVE, (3, 2), True, "cannot start with a Crawford game"),
        (FIVE, (0, 0), True, "cannot start with a Crawford game"),
        (TableOptions(match_length=5, crawford=False), (4, 1), True, "without the Crawford rule"),
        (TableOptions(), (3, 1), True, "money session has no Crawford game"),
        (FIVE, (1, 2), "yes", "crawford must be"),
        (FIVE, (1, 2), 1, "crawford must be"),
    ],
)
def test_impossible_starts_are_refused(
    options: TableOptions, score: object, crawford: object, message: str
) -> None:
    with pytest.raises(IllegalActionError, match=message):
        new_match(options, score=score, crawford=crawford)  # type: ignore[arg-type]


def test_a_one_point_match_still_starts_without_a_crawford_game() -> None:
    state = new_match(TableOptions(match_length=1))
    assert (state.game.crawford, state.crawford_reached) == (False, False)


def test_the_crawford_game_then_post_crawford_from_a_start_score() -> None:
    state = new_match(FIVE, score=(4, 2))
    state = apply(state, Roll(0, Dice(3, 1))).state
    state = apply(state, Play(0, "8/5 6/5")).state
    assert "double" not in allowed_actions(state).get(1, ())  # the Crawford game
    state = apply(state, Roll(1, Dice(6, 5))).state
    state = apply(state, Play(1, "24/13")).state
    assert "double" not in allowed_actions(state).get(0, ())
    # the trailer wins a single (the leader resigns): 4-3, and the next game is post-Crawford
    state = apply(state, Resign(0, 1)).state
    state = apply(state, AcceptResign(1)).state
    assert state.score == (4, 3)
    assert state.post_crawford and not state.game.crawford
    state = apply(state, Roll(0, Dice(3, 1))).state
    state = apply(state, Play(0, "8/5 6/5")).state
    assert "double" in allowed_actions(state)[1]


def test_a_started_match_round_trips_through_the_action_log() -> None:
    match = Match(FIVE, players=("Ann", "Ben"), score=(4, 2), crawford=False)
    match.push(Roll(0, Dice(3, 1)))
    match.push(Play(0, "8/5 6/5"))
    match.push(Double(1))
    match.push(Drop(0))
    text = match.to_log()
    assert '"start": {"crawford": false, "score": [4, 2]}' in text
    back = Match.from_log(text)
    assert back.state == match.state
    assert back.state.score == (4, 3)
    assert write_log(back.record()) == text
    # a log without a start is a match from 0-0, as before
    plain = Match(FIVE).to_log()
    assert '"start"' not in plain
    assert read_log(plain).start_score == (0, 0)


@pytest.mark.parametrize(
    ("start", "message"),
    [
        ('{"score": [5, 0]}', "each score must be below 5"),
        ('{"score": [1]}', "bad start score"),
        ('{"score": [1, 2], "crawford": 1}', "bad start crawford"),
        ('{"score": [2, 2], "crawford": true}', "cannot start with a Crawford game"),
        ('"4-2"', "bad start"),
    ],
)
def test_a_bad_start_in_a_log_is_refused(start: str, message: str) -> None:
    header = Match(FIVE).to_log().rstrip("\n")
    broken = header[:-1] + f', "start": {start}}}\n'
    with pytest.raises(InvalidNotationError, match=message):
        read_log(broken)


def _excerpt(number: int) -> str:
    """Game ``number`` of the gnubg sample alone, with the match header."""
    text = (DATA / "mat" / "gnubg_cube.mat").read_text()
    header, *games = text.split("\n Game ")
    return header + "\n Game " + next(g for g in games if g.startswith(f"{number}\n"))


def test_a_mat_excerpt_starts_at_its_score() -> None:
    whole = replay(mat_to_record((DATA / "mat" / "gnubg_cube.mat").read_text()))[-1]
    record = mat_to_record(_excerpt(2))
    assert record.start_score == (2, 0)
    states = replay(record)
    assert states[-1].score == (3, 0)
    assert states[-1].games[0].points == whole.games[1].points
    exported = match_to_mat(record)
    assert "gnubg : 2" in exported
    assert mat_to_record(exported).start_score == (2, 0)


def test_a_mat_excerpt_at_the_crawford_score() -> None:
    # game 5 starts at 4-1 in a 5-point match: the Crawford game (nobody doubles)
    record = mat_to_record(_excerpt(5))
    assert (record.start_score, record.start_crawford) == ((4, 1), None)
    assert replay(record)[0].game.crawford
    assert replay(record)[-1].over
    # the same score with a double in the game must be after the Crawford game
    doubled = (
        " 5 point match\n\n Game 7\n gnubg : 4                            Tanja : 1\n"
        "  1)                                  42: 8/4 6/4\n"
        "  2) 31: 8/5 6/5                      Doubles => 2\n"
        "  3)  Drops\n"
        "                                      Wins 1 point\n"
    )
    record = mat_to_record(doubled)
    assert (record.start_score, record.start_crawford) == ((4, 1), False)
    assert replay(record)[-1].score == (4, 2)


def test_a_mat_excerpt_past_the_end_is_refused() -> None:
    text = _excerpt(2).replace("gnubg : 2", "gnubg : 7")
    with pytest.raises(InvalidNotationError, match="cannot start at 7-0"):
        mat_to_record(text)


@pytest.mark.parametrize("crawford", [None, False])
def test_an_sgf_excerpt_keeps_its_score_and_crawford_state(crawford: bool | None) -> None:
    match = Match(FIVE, score=(1, 4), crawford=crawford)
    match.push(Roll(0, Dice(3, 1)))
    match.push(Play(0, "8/5 6/5"))
    if crawford is False:
        match.push(Double(1))
        match.push(Drop(0))
    record = sgf_to_record(match_to_sgf(match.record()))
    assert record.start_score == (1, 4)
    assert bool(record.start_crawford) is (crawford is None)
    assert replay(record)[-1].score == match.state.score
