"""Every table option's range is checked in one place: ``TableOptions``."""

from __future__ import annotations

import math

import pytest

from gammon import InvalidOptionsError
from gammon.match import ClockSettings, TableOptions, new_match
from gammon.match.options import MAX_STAKE


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"automatic_doubles": 10**18}, r"automatic_doubles must be 0\.\.12"),
        (
            {"automatic_doubles": 13},
            r"automatic_doubles must be 0\.\.12 \(the cube stops at 4096\)",
        ),
        ({"automatic_doubles": 4, "cube_limit": 8}, r"0\.\.3 \(the cube stops at 8\)"),
        ({"automatic_doubles": -1}, "non-negative"),
        ({"automatic_doubles": 1, "cube": False}, "need the cube"),
        ({"stake": MAX_STAKE + 1, "cube_limit": 2}, "stake 1000001 is too large"),
        ({"stake": -5}, "non-negative"),
        ({"match_length": 256}, "at most 255"),
        ({"cube_limit": 3}, "cube_limit must be one of"),
        ({"end_setting": "all"}, "end_setting"),
    ],
)
def test_out_of_range_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionsError, match=message):
        TableOptions(**options)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [math.nan, math.inf, -1.0, 86401.0])
def test_clock_values_must_be_finite_seconds(value: float) -> None:
    with pytest.raises(InvalidOptionsError, match=r"0\.\.86400"):
        ClockSettings(delay=value)


def test_the_largest_options_still_play() -> None:
    # the bounds are where the engine stops being able to use a value, not earlier
    most = TableOptions(stake=MAX_STAKE, cube=False)
    assert most.required_balance() == 3 * MAX_STAKE
    state = new_match(TableOptions(automatic_doubles=12))
    assert state.game.cube.value == 1
    assert TableOptions(cube_limit=64, automatic_doubles=6).automatic_doubles == 6


def test_the_opening_rule_is_the_variants_unless_the_table_says() -> None:
    """``opening``: None is the variant's custom, held resolved (issue #32)."""
    assert TableOptions().opening == "play"
    assert TableOptions(variant="portes", cube=False).opening == "reroll"
    tavli = TableOptions(variant="tavli", cube=False, match_length=5)
    assert tavli.opening == "reroll"  # portes, plakoto and fevga all roll again
    assert [tavli.game_opening(n) for n in (1, 2, 3)] == ["reroll"] * 3
    assert TableOptions(opening="reroll").game_opening(4) == "reroll"
    assert TableOptions(variant="fevga", cube=False, opening="play").game_opening(1) == "play"
    with pytest.raises(InvalidOptionsError, match="opening must be play or reroll, got 'twice'"):
        TableOptions(opening="twice")  # type: ignore[arg-type]


def test_the_opening_rule_round_trips_through_the_stored_dict() -> None:
    options = TableOptions(match_length=7, opening="reroll")
    assert options.to_dict()["opening"] == "reroll"
    assert TableOptions.from_dict(options.to_dict()) == options
    old = TableOptions(match_length=7).to_dict()
    del old["opening"]  # a table stored before the option: the variant's custom
    assert TableOptions.from_dict(old).opening == "play"
