from __future__ import annotations

import pytest

from gammon import InvalidNotationError
from gammon.notation.movetext import Path, format_move, parse_move_text


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ((), "pass"),
        ((24, 18, 6, 0, 13, 11, 2, 0), "24/18 13/11"),
        ((13, 11, 2, 0, 24, 18, 6, 0), "24/18 13/11"),
        ((13, 8, 5, 1, 8, 4, 4, 0), "13/8*/4"),
        ((24, 21, 3, 0, 21, 20, 1, 0), "24/20"),
        ((25, 22, 3, 1, 6, 0, 6, 0), "bar/22* 6/off"),
        ((8, 4, 4, 0, 8, 4, 4, 0), "8/4(2)"),
        ((6, 4, 2, 0, 6, 4, 2, 0, 4, 2, 2, 0, 4, 2, 2, 0), "6/2(2)"),
        ((13, 9, 4, 1, 9, 5, 4, 0, 5, 1, 4, 0, 5, 1, 4, 0), "13/9*/1 5/1"),
    ],
)
def test_format(raw: tuple[int, ...], text: str) -> None:
    assert format_move(raw) == text


def test_parse_paths() -> None:
    assert parse_move_text("8/5 (2)") == [Path((8, 5), (False, False))] * 2
    assert parse_move_text("B/22 6/O")[0].points == (25, 22)
    assert parse_move_text("6/off, 5/OFF")[1].points == (5, 0)


@pytest.mark.parametrize(
    "text",
    ["13-8", "13/", "/8", "13/8(5)", "13/8(0)", "x/3", "26/20", "*13/8", "6/off/2", "a" * 300],
)
def test_parse_rejects(text: str) -> None:
    with pytest.raises(InvalidNotationError):
        parse_move_text(text)


def test_more_than_four_paths() -> None:
    with pytest.raises(InvalidNotationError, match="more than four"):
        parse_move_text("8/7(3) 6/5(2)")
