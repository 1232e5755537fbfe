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
        (lambda: MET.pre_crawford(0, 3), "outside this table"),
        (lambda: MET.pre_crawford(3, 26), "outside this table"),
        (lambda: MET.post_crawford(26), "outside this table"),
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
