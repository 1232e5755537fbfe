"""eXtreme Gammon's own analysis, read from the records of an ``.xg`` file.

A move record carries XG's candidate plays for the roll (up to 32, each with its
evaluation level and seven floats whose last is the equity); a cube record carries
XG's no double, double/take and double/drop equities.  :func:`move_analysis` and
:func:`cube_analysis` turn them into plain dictionaries (JSON, as the action log
keeps a record's ``meta``); the reader stores them in ``meta["xg_analysis"]``.

Offsets are those of ``EngineStructBestMove`` (at 124 in a move record) and
``EngineStructDoubleAction`` (at 64 in a cube record) in XG's published format.
Equities are the mover's (the doubler's for a cube decision), as XG shows them.

>>> cube_analysis(bytes(2560)) is None
True
"""

from __future__ import annotations

import struct
from typing import Any, Final

from gammon.dice import Dice
from gammon.errors import GammonError
from gammon.position import Position

__all__ = ["cube_analysis", "move_analysis", "move_text"]

#: XG's value for "not analysed" in a level field.
UNANALYSED: Final = -100
_BEST: Final = 124  # EngineStructBestMove in a move record
_DOUBLE: Final = 64  # EngineStructDoubleAction in a cube record


def move_text(codes: tuple[int, ...]) -> str:
    """XG's move list (from, to pairs; points 0..23, 24 the bar, negative off; a
    negative from ends it) as text from the mover's side.

    >>> move_text((23, 17, 12, 9, -1, -1, 1, -1)), move_text((24, 20, 3, -2, -1, 0, 0, 0))
    ('24/18 13/10', 'bar/21 4/off')
    """
    steps = []
    for i in range(0, len(codes) - 1, 2):
        start, end = codes[i], codes[i + 1]
        if start < 0:
            break
        steps.append(f"{_point(start)}/{_point(end)}")
    return " ".join(steps)


def _point(code: int) -> str:
    if code >= 24:
        return "bar"
    return "off" if code < 0 else str(code + 1)


def _canonical(position: Position, text: str, dice: Dice) -> str:
    try:
        return str(position.parse_move(text, dice))
    except GammonError:
        return text


def move_analysis(rec: bytes, position: Position, dice: Dice) -> dict[str, Any] | None:
    """XG's candidates for a move record (None when it holds none): each play in our
    notation for ``position`` (the mover's, before the roll ``dice``), XG's equity and
    evaluation level; ``played`` is the index of the play whose board is the record's
    final board (None when none is)."""
    count = struct.unpack_from("<i", rec, _BEST + 64)[0]
    if not 0 < count <= 32:
        return None
    after = rec[35:61]
    candidates = []
    played = None
    for i in range(count):
        codes = struct.unpack_from("<8b", rec, _BEST + 900 + 8 * i)
        level = struct.unpack_from("<h", rec, _BEST + 1156 + 4 * i)[0]
        equity = struct.unpack_from("<7f", rec, _BEST + 1284 + 28 * i)[6]
        text = _canonical(position, move_text(codes), dice)
        candidates.append({"move": text, "equity": round(equity, 6), "level": level})
        if played is None and rec[_BEST + 68 + 26 * i : _BEST + 94 + 26 * i] == after:
            played = i
    return {
        "level": struct.unpack_from("<i", rec, _BEST + 36)[0],
        "played": played,
        "candidates": candidates,
    }


def cube_analysis(rec: bytes) -> dict[str, Any] | None:
    """XG's cube equities for a cube record (None when it was not analysed): no double,
    double/take and double/drop, the doubler's, with the evaluation level."""
    level = struct.unpack_from("<i", rec, _DOUBLE + 28)[0]
    flag = struct.unpack_from("<h", rec, _DOUBLE + 56)[0]
    if UNANALYSED in (level, flag) or not any(rec[_DOUBLE + 60 : _DOUBLE + 100]):
        return None
    nd, dt, dp = struct.unpack_from("<3f", rec, _DOUBLE + 88)
    return {
        "level": level,
        "no_double": round(nd, 6),
        "double_take": round(dt, 6),
        "double_drop": round(dp, 6),
    }
