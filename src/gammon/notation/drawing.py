"""A plain-text drawing of a position, from the side of the player on roll (X).

>>> from gammon import Position
>>> print(Position.initial())  # doctest: +NORMALIZE_WHITESPACE
 +13-14-15-16-17-18------19-20-21-22-23-24-+   O: opponent
 | X           O    |   | O              X |   pips 167, off 0
 | X           O    |   | O              X |
 | X           O    |   | O                |
 | X                |   | O                |
 | X                |   | O                |
 |                  |BAR|                  |
 | O                |   | X                |
 | O                |   | X                |
 | O           X    |   | X                |
 | O           X    |   | X              O |
 | O           X    |   | X              O |
 +12-11-10--9--8--7-------6--5--4--3--2--1-+   X: on roll
                                               pips 167, off 0
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gammon.position import Position

__all__ = ["draw"]

_ROWS = 5


def _cell(count: int, row: int, mark: str) -> str:
    """What a column shows in a row (0 = nearest the edge)."""
    if count > row:
        if row == _ROWS - 1 and count > _ROWS:
            return f"{count:>2}"[-2:].strip().rjust(1) if count < 10 else str(count)
        return mark
    return " "


def _column(position: Position, point: int) -> tuple[int, str]:
    mine = position.player[point]
    theirs = position.opponent[25 - point]
    return (mine, "X") if mine else (theirs, "O")


def _row(position: Position, points: list[int], row: int) -> str:
    cells = []
    for point in points:
        count, mark = _column(position, point)
        cells.append(_cell(count, row, mark).rjust(2))
    left = " ".join(cells[:6])
    right = " ".join(cells[6:])
    return f" |{left} |   |{right} |"


def draw(position: Position) -> str:
    """Draw the board: the player on roll is X, moving from 24 down to 1 (bottom right)."""
    pips = position.pip_count()
    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    lines = [" +13-14-15-16-17-18------19-20-21-22-23-24-+   O: opponent"]
    for row in range(_ROWS):
        line = _row(position, top, row)
        if row == 0:
            line += f"   pips {pips[1]}, off {position.opponent[0]}"
        lines.append(line)
    bars = []
    if position.opponent[25]:
        bars.append(f"O on bar: {position.opponent[25]}")
    if position.player[25]:
        bars.append(f"X on bar: {position.player[25]}")
    lines.append(
        " |                  |BAR|                  |" + ("   " + ", ".join(bars) if bars else "")
    )
    for row in reversed(range(_ROWS)):
        lines.append(_row(position, bottom, row))
    lines.append(" +12-11-10--9--8--7-------6--5--4--3--2--1-+   X: on roll")
    lines.append(" " * 47 + f"pips {pips[0]}, off {position.player[0]}")
    return "\n".join(lines)
