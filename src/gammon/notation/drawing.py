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

from gammon.rules.base import PositionLike

__all__ = ["draw"]

_ROWS = 5


def _marks(position: PositionLike, point: int) -> tuple[list[str], int]:
    """The checkers of a column from the edge inwards, and the count of its top stack.

    The other side's number of ``point`` comes from the variant's point mapping.  A
    pinned checker (plakoto) is drawn in lower case at the edge, under its pinner.
    """
    q = position.variant.point_map[point]
    mine, theirs = position.player[point], position.opponent[q]
    pinned = position.pinned
    if mine and theirs:
        if pinned[0] >> point & 1:
            return ["x"] + ["O"] * theirs, theirs
        if pinned[1] >> q & 1:
            return ["o"] + ["X"] * mine, mine
    if mine:
        return ["X"] * mine, mine
    return ["O"] * theirs, theirs


def _cell(marks: list[str], top: int, row: int) -> str:
    """What a column shows in a row (0 = nearest the edge)."""
    if len(marks) > row:
        if row == _ROWS - 1 and len(marks) > _ROWS:
            return str(top)
        return marks[row]
    return " "


def _row(position: PositionLike, points: list[int], row: int) -> str:
    cells = []
    for point in points:
        marks, top = _marks(position, point)
        cells.append(_cell(marks, top, row).rjust(2))
    left = " ".join(cells[:6])
    right = " ".join(cells[6:])
    return f" |{left} |   |{right} |"


def draw(position: PositionLike) -> str:
    """Draw the board: the player on roll is X, moving from 24 down to 1 (bottom right).

    >>> from gammon import Position
    >>> fevga = draw(Position.initial("fevga")).splitlines()
    >>> fevga[1].split("|")[3].split(), fevga[11].split("|")[1].split()  # X's 24, O's start on 12
    (['X'], ['O'])
    """
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
    waiting = position.waiting
    if any(waiting):
        bars.append(f"to enter: X {waiting[0]}, O {waiting[1]}")
    lines.append(
        " |                  |BAR|                  |" + ("   " + ", ".join(bars) if bars else "")
    )
    for row in reversed(range(_ROWS)):
        lines.append(_row(position, bottom, row))
    lines.append(" +12-11-10--9--8--7-------6--5--4--3--2--1-+   X: on roll")
    lines.append(" " * 47 + f"pips {pips[0]}, off {position.player[0]}")
    return "\n".join(lines)
