"""eXtreme Gammon files in the shapes real XG writes (``gammon.match.formats.xg``).

Real files found in public repositories (none ships a licence that lets us copy
them, so their facts are kept and our files below take their shapes):

* halheinrich/BgQuiz_Blazor, ``BgQuiz_Blazor.E2eTests/Fixtures/*.xgp``: 4 real
  ``.xgp`` (XG v30), all read by gammon (all 4 refused before: cube limit 10).
  Every one has MaxCube (CubeLimit) 10; cube records with Double -1, -2 or 0 and
  Take = BeaverR = RaccoonR = -1; a move record with Played = 0 and moves all 0
  (``Opening 32 65 64 31 65.xgp``, dice 65, 25 candidates, best equity +0.083);
  members left out when empty (no ``temp.xgr`` without rollouts, no ``temp.xgc``
  without comments).  XG's cube equities: ``TooGoodAndTake.xgp`` (5-point, 3-1)
  ND +1.171 DT +0.600 DP +1.000 (rollout); ``BothAnalysis.xgp`` (money, Jacoby)
  ND +0.024 DT -0.325 (XG Roller++); ``match35253054_2_37.xgp`` (5-point, 0-1,
  cube 2 owned by player 2) ND +0.700 DT +1.092.
* Insti/xgdatatools (LGPL-2.1), ``test/fixtures/2_Cube.bin`` and ``3_Move.bin``: one
  real cube record (Double -2, Take = BeaverR = RaccoonR = -1, dice rolled 63) and
  one real move record (player 2, 63 played 24/18 13/10, 10 candidates, level 3).
* kevung/gbf (MIT): 8 real ``.xg`` matches, shipped in ``tests/data/xg/`` and read
  against stock xgdatatools in ``tests/oracle/test_xgdatatools.py``.
  kevung/blunderDB (5 ``.xg`` in ``testdata/``) and halheinrich/XgFilter_Lib (3)
  hold others that could not be fetched here (snapshot too large or none kept).
"""

from __future__ import annotations

import struct

import pytest

from gammon import Dice, InvalidNotationError
from gammon.match import (
    Double,
    Match,
    MatchRecord,
    Play,
    Roll,
    TableOptions,
    Take,
    replay,
)
from gammon.match.formats import import_warnings, unchecked_games
from gammon.match.formats.xg import (
    CUBE,
    FOOTER_GAME,
    MOVE,
    RECORD,
    read_archive,
    record_to_xg,
    write_archive,
    xg_to_record,
)

OPENING = (Roll(0, Dice(3, 1)), Play(0, "8/5 6/5"), Roll(1, Dice(4, 2)), Play(1, "13/11 13/9"))


def _record(*actions: object, **options: object) -> MatchRecord:
    match = Match(TableOptions(**options), players=("Ana", "Bo"))  # type: ignore[arg-type]
    for action in actions:
        match.push(action)  # type: ignore[arg-type]
    return match.record()


def _records(data: bytes) -> list[bytearray]:
    stream = read_archive(data)["temp.xg"]
    return [bytearray(stream[i : i + RECORD]) for i in range(0, len(stream), RECORD)]


def _file(recs: list[bytearray]) -> bytes:
    stream = b"".join(recs)
    return write_archive({"temp.xgi": stream[:RECORD] + stream[-RECORD:], "temp.xg": stream})


def test_xgs_cube_limit_10_is_no_limit() -> None:
    """XG writes MaxCube 10 (1024) in every file; it was read as a limit of 1024 and refused."""
    recs = _records(record_to_xg(_record(*OPENING)))
    assert struct.unpack_from("<i", recs[0], 612)[0] == 10
    assert xg_to_record(_file(recs)).options.cube_limit is None
    struct.pack_into("<i", recs[0], 612, 3)
    assert xg_to_record(_file(recs)).options.cube_limit == 8


def test_minus_one_is_no_beaver() -> None:
    """A double taken, Take 1 with BeaverR = RaccoonR = -1 as XG writes it: a take (it
    was read as a beaver, refused: 'player 0 cannot beaver now')."""
    record = _record(*OPENING, Double(0), Take(1), Roll(0, Dice(6, 5)), beaver=True)
    recs = _records(record_to_xg(record))
    cube = next(r for r in recs if r[8] == CUBE)
    assert struct.unpack_from("<4i", cube, 16) == (1, 1, -1, -1)
    back = xg_to_record(_file(recs))
    assert [a for a in back.actions if isinstance(a, Double | Take)] == [Double(0), Take(1)]


def test_an_unplayed_roll_before_a_resignation() -> None:
    """Played = 0, moves all 0 (as in a real .xgp): the roll is kept rolled and the
    player resigns after it (it was read as '1/1 1/1 1/1 1/1' and refused)."""
    record = _record(*OPENING)
    recs = _records(record_to_xg(record))
    move = bytearray(next(r for r in recs if r[8] == MOVE))
    struct.pack_into("<i", move, 64, 1)  # player 1 (our seat 0) rolls 6-5 ...
    struct.pack_into("<8i", move, 68, *([0] * 8))
    struct.pack_into("<2i", move, 100, 6, 5)
    move[2308] = 0  # ... and does not play it
    footer = bytearray(RECORD)
    footer[8] = FOOTER_GAME
    struct.pack_into("<6i", footer, 12, 0, 1, 0, -1, 1, 101)  # player 2 wins 1: a resignation
    back = xg_to_record(_file([*recs, move, footer]))
    assert back.actions[len(record.actions)] == Roll(0, Dice(6, 5))
    assert not any(isinstance(a, Play) and a.move.startswith("1/1") for a in back.actions)
    final = replay(back)[-1]
    assert [(o.winner, o.points, o.reason) for o in final.games] == [(1, 1, "resign")]
    assert import_warnings(back) == ()


def _invalid() -> tuple[MatchRecord, bytes]:
    record = _record(*OPENING, Roll(0, Dice(6, 4)), Play(0, "24/14"), match_length=3)
    recs = _records(record_to_xg(record))
    last = max(i for i, r in enumerate(recs) if r[8] == MOVE)
    struct.pack_into("<8i", recs[last], 68, 23, 12, -1, -1, -1, -1, -1, -1)  # 24/13 with 64
    struct.pack_into("<i", recs[last], 2480, 2)  # XG's InvalidM = 2: invalid
    footer = bytearray(RECORD)
    footer[8] = FOOTER_GAME
    struct.pack_into("<6i", footer, 12, 1, 0, 0, 1, 1, 101)
    return record, _file([*recs, footer])


def test_a_move_xg_flags_invalid_is_a_warning() -> None:
    """The file is read (it was refused whole); the game's end comes from its footer."""
    _, data = _invalid()
    back = xg_to_record(data)
    warning = import_warnings(back)[0]
    assert warning.message.startswith("record 5 (game 1): illegal move '24/13' with 64")
    assert warning.message.endswith("the rest of game 1 is not replayed")
    assert unchecked_games(back) == frozenset({1})
    assert [(o.winner, o.points) for o in replay(back)[-1].games] == [(0, 1)]
    with pytest.raises(InvalidNotationError, match="24/13"):
        xg_to_record(data, strict=True)


def test_xgs_analysis_is_kept() -> None:
    """XG's candidates and equities (the shapes of the real records above) are kept in
    meta['xg_analysis'], the played move marked; a cube record's ND/DT/DP too."""
    record = _record(*OPENING, Double(0), Take(1), Roll(0, Dice(6, 3)), Play(0, "24/18 13/10"))
    recs = _records(record_to_xg(record))
    move = next(r for r in recs if r[8] == MOVE and struct.unpack_from("<2i", r, 100) == (6, 3))
    struct.pack_into("<i", move, 124 + 64, 2)
    played, other = bytes(move[35:61]), bytes(26)
    for i, (codes, board, equity) in enumerate(
        [
            ((20, 14, 12, 9, -1, 0, 0, 0), other, 0.0123),
            ((23, 17, 12, 9, -1, 0, 0, 0), played, -0.0105),
        ]
    ):
        move[124 + 68 + 26 * i : 124 + 94 + 26 * i] = board
        struct.pack_into("<8b", move, 124 + 900 + 8 * i, *codes)
        struct.pack_into("<hBb", move, 124 + 1156 + 4 * i, 998, 0, 0)
        struct.pack_into("<7f", move, 124 + 1284 + 28 * i, 0, 0, 0, 0, 0, 0, equity)
    cube = next(r for r in recs if r[8] == CUBE)
    struct.pack_into("<i", cube, 64 + 28, 1002)
    struct.pack_into("<h", cube, 64 + 56, 1)
    struct.pack_into("<7f3f", cube, 64 + 60, 0.1, 0.2, 0.5, 0.5, 0.2, 0.1, 0.6, 0.6, 0.7, 1.0)
    back = xg_to_record(_file(recs))
    kinds = [(a["kind"], a["at"]) for a in back.meta["xg_analysis"]]
    double_at = record.actions.index(Double(0))
    assert kinds == [("cube", double_at), ("move", len(record.actions) - 1)]
    cube_found, move_found = back.meta["xg_analysis"]
    assert cube_found["level"] == 1002
    assert (cube_found["no_double"], cube_found["double_take"], cube_found["double_drop"]) == (
        pytest.approx(0.6),
        pytest.approx(0.7),
        1.0,
    )
    assert move_found["played"] == 1 and move_found["player"] == 0
    assert [c["move"] for c in move_found["candidates"]] == ["21/15 13/10", "24/18 13/10"]
    assert move_found["candidates"][1]["equity"] == pytest.approx(-0.0105)


def test_members_left_out_when_empty() -> None:
    """As XG: no empty temp.xgr / temp.xgc (stock xgdatatools refuses an empty member)."""
    assert sorted(read_archive(record_to_xg(_record(*OPENING)))) == ["temp.xg", "temp.xgi"]
