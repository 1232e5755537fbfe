from __future__ import annotations

from typing import Any

import pytest

from conftest import load_json
from gammon import InvalidNotationError, InvalidPositionError, Position
from gammon.notation.xgid import format_xgid
from gammon.notation.xgid_record import parse_xgid

VECTORS = load_json("format-vectors.json")["xgid"]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["xgid"] for v in VECTORS])
def test_vectors(vector: dict[str, Any]) -> None:
    rec = parse_xgid(vector["xgid"])
    info = vector["info"]
    assert rec.position == Position.from_board(vector["sage26_on_roll_view"])
    assert rec.position.position_id() == vector["gnubgid_from_gnubg"].split(":")[0]
    assert (rec.cube_value, rec.cube_owner, rec.turn, rec.dice) == (
        info["cube"],
        info["cube_pos"],
        info["turn"],
        info["dice"],
    )
    assert (rec.score_bottom, rec.score_top, rec.rules, rec.match_length, rec.max_cube) == (
        info["score_bottom"],
        info["score_top"],
        info["flags"],
        info["match_len"],
        info["max_cube"],
    )
    assert rec.to_xgid() == vector["xgid"]


def test_position_round_trip_and_flags() -> None:
    p = Position.from_points({6: 5, 25 - 22: 0}, {1: 2}, player_bar=2, opponent_bar=1)
    assert Position.from_xgid(p.to_xgid()) == p
    top = format_xgid(p, turn=-1)
    assert Position.from_xgid(top) == p
    money = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10")
    assert money.jacoby and money.beaver and not money.is_crawford
    match = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:D:4:6:1:7:10")
    assert match.is_crawford and not match.jacoby and match.dice == "D"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1", "expected 10 fields"),
        ("XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10", "26 characters"),
        ("XGID=-b----E-C---eE---c-e----B?:0:0:1:00:0:0:0:0:10", "bad board character"),
        ("XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10", "not a number"),
        ("XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10", "outside"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10", "turn is 1 or -1"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:71:0:0:0:0:10", "dice"),
        ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "bar"),
    ],
)
def test_malformed(text: str, message: str) -> None:
    with pytest.raises(InvalidNotationError, match=message):
        parse_xgid(text)


def test_impossible_positions() -> None:
    with pytest.raises(InvalidPositionError, match="26 checkers for one side"):
        parse_xgid("XGID=-b----P-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
    with pytest.raises(InvalidNotationError, match="power of two"):
        format_xgid(Position.initial(), cube_value=3)
