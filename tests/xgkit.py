"""An ``.xg`` file carrying XG's own analysis, in the shapes real XG writes them
(tests/match/formats/test_xg_shapes.py: candidates at 124 in a move record, ND/DT/DP at
64 in a cube record, a cube record with Double 0 for a decision not to double), for the
tests of XG's analysis beside gammon's (:mod:`gammon.server.analysis.xgbeside`).

:func:`analysed_xg` plays a short 5-point match (a double taken, a redouble not given),
writes it with our writer, then writes XG's analysis into its records: two candidates
per move (XG's best is the move played on even moves, another legal move on odd ones),
a double XG calls "double, take" and, before Bo's second roll, a cube record where Bo
(owning the cube) does not redouble and XG agrees.
"""

from __future__ import annotations

import re
import struct
from typing import Final

from gammon import Dice
from gammon.match import Double, Match, MatchRecord, Play, Roll, TableOptions, Take
from gammon.match.formats.xg import CUBE, MOVE, RECORD, read_archive, record_to_xg, write_archive

ROLLS: Final = ((0, 3, 1), (1, 4, 2), (0, 6, 3), (1, 5, 2), (0, 6, 4), (1, 5, 3))
#: XG's cube equities written (the doubler's): the double, and Bo's no redouble.
DOUBLE: Final = (0.6, 0.7, 1.0)
NO_REDOUBLE: Final = (0.3, 0.1, 1.0)
#: XG's equity of its best candidate and of the other one.
BEST, OTHER = 0.25, 0.125
_SIMPLE = re.compile(r"(\d+|bar)/(\d+|off)")


def _codes(text: str) -> tuple[int, ...]:
    """A move of two simple steps as XG's from/to pairs (mover's points 0..23, 24 bar, -1 off)."""
    out: list[int] = []
    for start, end in _SIMPLE.findall(text):
        out += [24 if start == "bar" else int(start) - 1, -1 if end == "off" else int(end) - 1]
    return tuple([*out, -1, 0, 0, 0, 0, 0, 0, 0][:8])


def _other(match: Match, played: str, dice: Dice) -> str:
    """A legal move of two plain steps that is not the one played."""
    position = match.state.game.position
    for move in position.legal_moves(dice):
        text = str(move)
        if text != played and re.fullmatch(r"(\d+|bar)/(\d+|off) (\d+|bar)/(\d+|off)", text):
            return text
    raise AssertionError("no other plain move")


def played_match() -> tuple[MatchRecord, list[str]]:
    """The match, and the other candidate given to XG for each move in turn."""
    match = Match(TableOptions(match_length=5), players=("Ana", "Bo"))
    others = []
    for n, (seat, d1, d2) in enumerate(ROLLS):
        if n == 2:
            match.push(Double(0))
            match.push(Take(1))
        dice = Dice(d1, d2)
        match.push(Roll(seat, dice))
        moves = [str(m) for m in match.state.game.position.legal_moves(dice)]
        plain = [m for m in moves if re.fullmatch(r"(\d+|bar)/(\d+|off) (\d+|bar)/(\d+|off)", m)]
        played = plain[0]
        others.append(_other(match, played, dice))
        match.push(Play(seat, played))
    return match.record(), others


def analysed_xg() -> tuple[MatchRecord, bytes]:
    """The match as played and its ``.xg`` file with XG's analysis written in."""
    record, others = played_match()
    stream = read_archive(record_to_xg(record))["temp.xg"]
    recs = [bytearray(stream[i : i + RECORD]) for i in range(0, len(stream), RECORD)]
    moves = [r for r in recs if r[8] == MOVE]
    assert len(moves) == len(ROLLS)
    for n, (rec, other) in enumerate(zip(moves, others, strict=True)):
        played = struct.unpack_from("<8i", rec, 68)
        struct.pack_into("<i", rec, 124 + 36, 2)  # XG 3-ply
        struct.pack_into("<i", rec, 124 + 64, 2)
        first_is_played = n % 2 == 0
        rows = [(played, bytes(rec[35:61])), (_codes(other), bytes(26))]
        equities = (BEST, OTHER) if first_is_played else (OTHER, BEST)
        for i, ((codes, board), equity) in enumerate(zip(rows, equities, strict=True)):
            rec[124 + 68 + 26 * i : 124 + 94 + 26 * i] = board
            struct.pack_into("<8b", rec, 124 + 900 + 8 * i, *codes)
            struct.pack_into("<hBb", rec, 124 + 1156 + 4 * i, 2, 0, 0)
            struct.pack_into("<7f", rec, 124 + 1284 + 28 * i, 0, 0, 0, 0, 0, 0, equity)
    cube = next(r for r in recs if r[8] == CUBE)
    _cube_equities(cube, DOUBLE, level=1002)  # XG Roller++
    # Bo owns the cube before his second roll (the 4th move record): no redouble
    quiet = bytearray(cube)
    struct.pack_into("<3i", quiet, 12, -1, 0, -1)  # actif Bo, no double, nothing answered
    _cube_equities(quiet, NO_REDOUBLE, level=2)
    recs.insert(recs.index(moves[3]), quiet)
    stream = b"".join(recs)
    data = write_archive({"temp.xgi": stream[:RECORD] + stream[-RECORD:], "temp.xg": stream})
    return record, data


def _cube_equities(rec: bytearray, equities: tuple[float, float, float], level: int) -> None:
    struct.pack_into("<i", rec, 64 + 28, level)
    struct.pack_into("<h", rec, 64 + 56, 1)
    struct.pack_into("<7f", rec, 64 + 60, 0.1, 0.2, 0.5, 0.5, 0.2, 0.1, 0.0)
    struct.pack_into("<3f", rec, 64 + 88, *equities)
