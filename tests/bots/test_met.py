"""The Kazaross-XG2 match equity table and formats.md's Crawford handling."""

from __future__ import annotations

from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon.bots.met import DEFAULT_MET, MatchEquityTable, score_after_game

MET = MatchEquityTable.default()
aways = st.integers(min_value=1, max_value=25)


def test_numbers_quoted_in_formats_md() -> None:
    assert MET.length == 25
    assert MET.pre_crawford(1, 1) == 0.5
    assert MET.pre_crawford(1, 2) == 0.67736
    assert MET.pre_crawford(2, 3) == 0.59947
    assert MET.pre_crawford(3, 2) == 0.40053
    assert MET.post_crawford(1) == 0.5
    assert MET.post_crawford(2) == 0.48803
    assert MET.pre_crawford(1, 25) == 0.99905


def test_shipped_file_keeps_its_notice() -> None:
    text = resources.files("gammon.bots").joinpath("data", DEFAULT_MET).read_text(encoding="utf-8")
    assert "Copyright (C) 2011 Neil Kazaross" in text
    assert "Copying and distribution of this file, with or without modification" in text
    assert MatchEquityTable.from_xml(text).pre_crawford(5, 7) == MET.pre_crawford(5, 7)


@given(aways, aways)
def test_antisymmetric(a: int, b: int) -> None:
    assert MET.pre_crawford(a, b) + MET.pre_crawford(b, a) == pytest.approx(1.0, abs=1e-9)


@given(aways, aways)
def test_monotone(a: int, b: int) -> None:
    """Needing more points never helps; the opponent needing more never hurts."""
    if a < 25:
        assert MET.pre_crawford(a + 1, b) <= MET.pre_crawford(a, b)
    if b < 25:
        assert MET.pre_crawford(a, b + 1) >= MET.pre_crawford(a, b)


def test_post_crawford_never_rises_with_the_trailers_away() -> None:
    values = [MET.post_crawford(n) for n in range(1, 26)]
    assert values == sorted(values, reverse=True)


long_aways = st.integers(min_value=1, max_value=255)


@given(long_aways, long_aways)
def test_beyond_the_table_antisymmetric_and_monotone(a: int, b: int) -> None:
    """Matches may be 255 points long: the extrapolation keeps the table's laws."""
    value = MET.pre_crawford(a, b)
    assert 0.0 <= value <= 1.0
    assert value + MET.pre_crawford(b, a) == pytest.approx(1.0, abs=1e-9)
    assert MET.pre_crawford(a + 1, b) <= value + 1e-12
    assert MET.pre_crawford(a, b + 1) >= value - 1e-12


def test_the_extrapolation_meets_the_table() -> None:
    # the model the extrapolation follows is within 0.0053 of the table from 8- to 25-away
    from statistics import NormalDist

    worst = max(
        abs(NormalDist().cdf((b - a) / (1.78 * (a + b) ** 0.5)) - MET.pre_crawford(a, b))
        for a in range(8, 26)
        for b in range(8, 26)
    )
    assert worst < 0.0053
    # one step past the edge moves about as much as one step inside it
    for b in range(1, 26):
        inside = abs(MET.pre_crawford(25, b) - MET.pre_crawford(24, b))
        assert abs(MET.pre_crawford(26, b) - MET.pre_crawford(25, b)) <= inside + 0.005
    post = [MET.post_crawford(n) for n in range(1, 61)]
    assert post == sorted(post, reverse=True)
    assert 0 < post[-1] < post[24]


def test_a_bot_plays_a_long_match() -> None:
    from gammon import Position
    from gammon.bots import Bot, PipCountEvaluator, ScoreContext

    bot = Bot(PipCountEvaluator())
    ctx = ScoreContext.for_match(61, 10, 3)
    assert bot.should_double(Position.initial(), ctx) is False
    assert bot.respond_to_double(Position.initial(), ctx) in ("take", "drop")
    assert bot.choose_move(Position.initial(), (3, 1), ctx) in Position.initial().legal_moves(
        (3, 1)
    )
    assert -1.0 < bot.cube_decision(Position.initial(), ctx).no_double < 1.0


def test_crawford_handling() -> None:
    mwc = MET.match_winning_chance
    # Crawford game: the pre-Crawford entries with a 1-away player
    assert mwc(1, 2, crawford_game=True, post_crawford=False) == 0.67736
    assert mwc(2, 1, crawford_game=True, post_crawford=False) == pytest.approx(0.32264)
    # after the Crawford game: the post-Crawford vector, from either side
    assert mwc(2, 1, crawford_game=False, post_crawford=True) == 0.48803
    assert mwc(1, 2, crawford_game=False, post_crawford=True) == pytest.approx(0.51197)
    assert mwc(1, 1, crawford_game=False, post_crawford=True) == 0.5
    # no Crawford rule: a 1-away score has a live cube, as post-Crawford
    assert mwc(1, 3, crawford_game=False, post_crawford=False, crawford_rule=False) == (
        pytest.approx(1 - MET.post_crawford(3))
    )
    # terminal states
    assert mwc(0, 4, crawford_game=False, post_crawford=False) == 1.0
    assert mwc(-2, 1, crawford_game=False, post_crawford=True) == 1.0
    assert mwc(3, 0, crawford_game=False, post_crawford=False) == 0.0
    assert mwc(5, 7, crawford_game=False, post_crawford=False) == MET.pre_crawford(5, 7)


def test_after_game_picks_the_next_games_table() -> None:
    # newly 1-away: the Crawford game comes next (pre-Crawford entry)
    assert MET.after_game(3, 4, 2) == MET.pre_crawford(1, 4)
    assert MET.after_game(4, 3, -2) == MET.pre_crawford(4, 1)
    # the Crawford game, or any later game, leads to post-Crawford
    assert MET.after_game(1, 4, -1, crawford_game=True) == pytest.approx(1 - MET.post_crawford(3))
    assert MET.after_game(4, 1, 2, post_crawford=True) == MET.post_crawford(2)
    # a won match, whatever the excess
    assert MET.after_game(2, 3, 4) == 1.0
    assert MET.after_game(2, 3, -6) == 0.0
    # without the Crawford rule, a 1-away score plays with a live cube
    assert MET.after_game(3, 4, 2, crawford_rule=False) == pytest.approx(1 - MET.post_crawford(4))


def test_score_after_game() -> None:
    assert score_after_game(5, 5, 2, crawford_game=False, post_crawford=False) == (
        3,
        5,
        False,
        False,
    )
    assert score_after_game(2, 1, 1, crawford_game=True, post_crawford=False) == (1, 1, False, True)
    assert score_after_game(2, 1, -1, crawford_game=False, post_crawford=True)[1] == 0
    assert score_after_game(4, 4, 0, crawford_game=False, post_crawford=False) == (
        4,
        4,
        False,
        False,
    )


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: MET.pre_crawford(0, 3), "at least 1"),
        (lambda: MET.pre_crawford(3, 2.5), "whole number"),
        (lambda: MET.post_crawford(True), "whole number"),
        (
            lambda: MatchEquityTable([[0.5]], [0.5]).post_crawford(2),
            "beyond this 1-away table",
        ),
        (
            lambda: MET.match_winning_chance(1, 3, crawford_game=True, post_crawford=True),
            "both",
        ),
        (
            lambda: MET.match_winning_chance(1, 3, crawford_game=False, post_crawford=False),
            "Crawford game or post-Crawford",
        ),
        (
            lambda: MET.match_winning_chance(2, 3, crawford_game=True, post_crawford=False),
            "needs a 1-away player",
        ),
        (
            lambda: MET.match_winning_chance(2, 3, crawford_game=False, post_crawford=True),
            "needs a 1-away player",
        ),
        (
            lambda: MET.match_winning_chance(0, 0, crawford_game=False, post_crawford=False),
            "both players",
        ),
    ],
)
def test_errors(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]


def test_bad_xml() -> None:
    with pytest.raises(ValueError, match="not a match equity table"):
        MatchEquityTable.from_xml("<table/>")
    with pytest.raises(ValueError, match="only explicit"):
        MatchEquityTable.from_xml(
            '<met><pre-crawford-table type="parameters"/><post-crawford-table/></met>'
        )
    with pytest.raises(ValueError, match="square"):
        MatchEquityTable([[0.5, 0.6]], [0.5])
    with pytest.raises(ValueError, match=r"not in 0\.\.1"):
        MatchEquityTable([[1.5]], [0.5])
