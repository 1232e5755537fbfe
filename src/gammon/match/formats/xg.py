"""eXtreme Gammon files: ``.xg`` matches and ``.xgp`` positions, read and written.

An XG file is a 8,232-byte rich header (magic ``RGMH``), an optional JPEG
thumbnail, then a zlib archive: compressed members, a compressed registry of
532-byte entries and a 36-byte trailer whose CRC-32 covers members and registry.
The member ``temp.xg`` is the game: fixed 2,560-byte records (match header, game
header, cube, move, game footer, match footer); ``temp.xgi`` repeats its first
and last record.  Offsets follow the public declarations of the format
(extremegammon.com/xgformat.aspx, Delphi record alignment; see
``docs/formats.md``).  Only the standard library is used.

XG's player 1 (the bottom player, ``ActiveP`` = 1) is our seat 0 and player 2
(``ActiveP`` = -1) seat 1.  A board is 26 signed bytes seen from one player:
index 1..24 are that player's points (positive: its checkers, negative: the
opponent's), 25 its bar (positive), 0 the opponent's bar (negative).

:func:`xg_to_record` replays every move, cube action and game end through the
engine, as the ``.mat`` reader does; :func:`record_to_xg` writes a record with no
analysis.  ``.xgp`` holds one position: :func:`xgp_to_gnubg` and
:func:`gnubg_to_xgp` read and write it as a Position and a gnubg Match ID record.

>>> from gammon.dice import Dice
>>> from gammon.match import Match, Play, Roll, Double, Drop, TableOptions
>>> m = Match(TableOptions(match_length=3), players=("Alice", "Bob"))
>>> for action in (Roll(0, Dice(3, 1)), Play(0, "8/5 6/5"), Roll(1, Dice(4, 2)),
...                Play(1, "13/11 13/9"), Double(0), Drop(1)):
...     _ = m.push(action)
>>> data = record_to_xg(m.record())
>>> data[:4], len(data) > 8232
(b'RGMH', True)
>>> back = xg_to_record(data)
>>> back.players, back.actions == m.record().actions
(('Alice', 'Bob'), True)
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from typing import Final

from gammon.dice import Dice
from gammon.errors import GammonError, InvalidNotationError, InvalidOptionsError
from gammon.match.actions import Beaver, Double, Drop, Play, Raccoon, Roll, Take
from gammon.match.engine import apply
from gammon.match.formats.replay import Replayer
from gammon.match.options import TableOptions
from gammon.match.record import MatchRecord
from gammon.match.state import GameOutcome
from gammon.move import Step
from gammon.notation.matchid import MatchIDRecord
from gammon.position import Position

__all__ = ["gnubg_to_xgp", "record_to_xg", "xg_to_record", "xgp_to_gnubg"]

RICH_HEADER: Final = 8232
RECORD: Final = 2560
REGISTRY_ENTRY: Final = 532
TRAILER: Final = 36
MAGIC_RICH: Final = b"RGMH"
MAGIC_MATCH: Final = 0x494C4D44  # "DMLI"
VERSION: Final = 30
#: XG's match length for money play.
MONEY: Final = 99999
#: Not analysed (XG's value for an error or an equity that was not computed).
NOT_ANALYSED: Final = -1000.0

HEADER_MATCH, HEADER_GAME, CUBE, MOVE, FOOTER_GAME, FOOTER_MATCH = range(6)

_VARIATIONS: Final = {"standard": 0, "nackgammon": 1}
_FROM_VARIATION: Final = {code: name for name, code in _VARIATIONS.items()}

Board = tuple[int, ...]


def _bad(message: str) -> InvalidNotationError:
    return InvalidNotationError(f"not a valid XG file: {message}")


# --------------------------------------------------------------------------- container


def _crc(data: bytes) -> int:
    """CRC-32 as the signed 32-bit integer the archive stores."""
    crc = zlib.crc32(data) & 0xFFFFFFFF
    return crc - (1 << 32) if crc >= 1 << 31 else crc


def read_archive(data: bytes) -> dict[str, bytes]:
    """The members of an XG file (``temp.xg``, ``temp.xgi``, ...), uncompressed.

    >>> read_archive(b"RGMH")
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidNotationError: not a valid XG file: 4 bytes is too short
    """
    if len(data) < RICH_HEADER + TRAILER:
        raise _bad(f"{len(data)} bytes is too short")
    if data[:4] != MAGIC_RICH:
        raise _bad(f"the file starts with {data[:4]!r}, not {MAGIC_RICH!r}")
    end = len(data) - TRAILER
    crc, count, _version, reg_size, data_size, packed = struct.unpack_from("<6i", data, end)
    reg_start = end - reg_size
    start = reg_start - data_size
    if min(count, reg_size, data_size) < 0 or start < RICH_HEADER:
        raise _bad("the archive trailer does not fit the file")
    if _crc(data[start:end]) != crc:
        raise _bad("the archive's CRC-32 does not match its content")
    try:
        registry = data[reg_start:end]
        if packed & 0xFF:
            registry = zlib.decompress(registry)
        members: dict[str, bytes] = {}
        for i in range(count):
            entry = registry[i * REGISTRY_ENTRY : (i + 1) * REGISTRY_ENTRY]
            if len(entry) < REGISTRY_ENTRY:
                raise _bad("the archive registry is cut short")
            name = entry[1 : 1 + entry[0]].decode("latin-1")
            _size, csize, offset, _crc32 = struct.unpack_from("<4i", entry, 512)
            blob = data[start + offset : start + offset + csize]
            members[name] = zlib.decompress(blob) if entry[528] == 0 else blob
    except zlib.error as exc:
        raise _bad(f"a compressed part does not inflate ({exc})") from None
    return members


def _rich_header(name: str) -> bytes:
    """The 8,232-byte header: magic, version, size, no thumbnail, a zero GUID, names."""
    head = struct.pack("<4sIIqI16s", MAGIC_RICH, 1, RICH_HEADER, 0, 0, bytes(16))
    game = name.encode("utf-16-le")[:2046].ljust(2048, b"\0")
    return head + game + bytes(3 * 2048)


def write_archive(members: dict[str, bytes], name: str = "") -> bytes:
    """An XG file holding ``members`` (each compressed), with no thumbnail."""
    blobs = bytearray()
    registry = bytearray()
    for member, content in members.items():
        packed = zlib.compress(content)
        entry = bytearray(REGISTRY_ENTRY)
        raw = member.encode("latin-1")
        entry[0] = len(raw)
        entry[1 : 1 + len(raw)] = raw
        struct.pack_into("<4i", entry, 512, len(content), len(packed), len(blobs), _crc(content))
        entry[528], entry[529] = 0, 2  # compressed, default level
        registry += entry
        blobs += packed
    reg = zlib.compress(bytes(registry))
    stream = bytes(blobs) + reg
    trailer = struct.pack("<5i", _crc(stream), len(members), 1, len(reg), len(blobs))
    trailer += b"\x01".ljust(TRAILER - len(trailer), b"\0")
    return _rich_header(name) + stream + trailer


# --------------------------------------------------------------------------- boards


def to_frame(position: Position) -> Board:
    """XG's 26 signed bytes for a position, seen from its player on roll."""
    me, them = position.player, position.opponent
    points = tuple(me[i] - them[25 - i] for i in range(1, 25))
    return (-them[25], *points, me[25])


def from_frame(board: Board) -> Position:
    """The position that :func:`to_frame` writes as ``board``."""
    me = [0] * 26
    them = [0] * 26
    for i in range(1, 25):
        if board[i] > 0:
            me[i] = board[i]
        else:
            them[25 - i] = -board[i]
    me[25], them[25] = abs(board[25]), abs(board[0])
    me[0] = 15 - sum(me)
    them[0] = 15 - sum(them)
    try:
        return Position(tuple(me), tuple(them))
    except GammonError as exc:
        raise _bad(f"impossible board {list(board)} ({exc})") from None


def _xg_point(point: int) -> int:
    return -1 if point == 0 else point - 1


def _our_point(code: int) -> int:
    return 0 if code < 0 else code + 1


# --------------------------------------------------------------------------- records


class _Rec:
    """A 2,560-byte record being written."""

    def __init__(self, kind: int) -> None:
        self.data = bytearray(RECORD)
        self.data[8] = kind

    def i32(self, offset: int, *values: int) -> _Rec:
        struct.pack_into(f"<{len(values)}i", self.data, offset, *values)
        return self

    def f64(self, offset: int, *values: float) -> _Rec:
        struct.pack_into(f"<{len(values)}d", self.data, offset, *values)
        return self

    def board(self, offset: int, board: Board) -> _Rec:
        struct.pack_into("<26b", self.data, offset, *board)
        return self

    def byte(self, offset: int, value: int) -> _Rec:
        self.data[offset] = value & 0xFF
        return self

    def short_string(self, offset: int, text: str, size: int) -> _Rec:
        raw = text.encode("latin-1", errors="replace")[:size]
        self.data[offset] = len(raw)
        self.data[offset + 1 : offset + 1 + len(raw)] = raw
        return self

    def unicode(self, offset: int, text: str) -> _Rec:
        raw = text.encode("utf-16-le")[:256]
        self.data[offset : offset + len(raw)] = raw
        return self


def _i32(rec: bytes, offset: int) -> int:
    value: int = struct.unpack_from("<i", rec, offset)[0]
    return value


def _board(rec: bytes, offset: int) -> Board:
    return tuple(struct.unpack_from("<26b", rec, offset))


def _short_string(rec: bytes, offset: int) -> str:
    return rec[offset + 1 : offset + 1 + rec[offset]].decode("latin-1")


def _unicode(rec: bytes, offset: int) -> str:
    return rec[offset : offset + 258].decode("utf-16-le", errors="replace").split("\0")[0]


def _actif(seat: int) -> int:
    return 1 if seat == 0 else -1


def _seat(actif: int) -> int:
    return 0 if actif == 1 else 1


def _log2(value: int) -> int:
    return value.bit_length() - 1


def _match_header(record: MatchRecord) -> bytes:
    o = record.options
    rec = _Rec(HEADER_MATCH)
    rec.short_string(9, record.players[0], 40).short_string(50, record.players[1], 40)
    rec.i32(92, o.match_length or MONEY, _VARIATIONS[o.variant])
    rec.byte(100, o.crawford).byte(101, o.jacoby).byte(102, o.beaver).byte(103, 0)
    rec.i32(268, 0, -1, -1).i32(548, 0, VERSION, MAGIC_MATCH)
    rec.i32(576, -1, -1).byte(584, o.match_length == 0)
    rec.i32(612, _log2(o.cube_limit) if o.cube_limit else 0)
    rec.unicode(880, record.players[0]).unicode(1138, record.players[1])
    return bytes(rec.data)


def _game_header(number: int, score: tuple[int, int], crawford: bool, start: Board) -> bytes:
    rec = _Rec(HEADER_GAME).i32(12, *score).byte(20, crawford).board(21, start)
    return bytes(rec.i32(48, number).i32(56, -1, -1).data)


def _move(
    seat: int,
    before: Position,
    after: Position,
    dice: Dice | None,
    steps: tuple[Step, ...],
    cube: int,
) -> bytes:
    """A move record: ``before`` and ``after`` are seen from the mover (``after`` is
    ``before`` for a dance); no dice for a position before the roll (``.xgp``)."""
    p1 = before if seat == 0 else before.flipped()
    d1, d2 = (dice.d1, dice.d2) if dice is not None else (0, 0)
    codes: list[int] = []
    for step in steps[:4]:
        codes += [_xg_point(step.from_point), _xg_point(step.to_point)]
    codes += [-1] * (8 - len(codes))
    rec = _Rec(MOVE).board(9, to_frame(p1)).board(35, to_frame(after))
    rec.i32(64, _actif(seat)).i32(68, *codes).i32(100, d1, d2, cube)
    rec.f64(112, NOT_ANALYSED).i32(120, 0)
    rec.board(124, to_frame(before)).i32(124 + 28, d1, d2, -1).i32(124 + 64, 0)
    rec.byte(2308, dice is not None).f64(2312, NOT_ANALYSED, NOT_ANALYSED).i32(2328, -1)
    rec.i32(2344, *([-1] * 32)).i32(2472, -1, -1).i32(2524, -1)
    return bytes(rec.data)


def _cube(
    seat: int, position: Position, cube_before: int, take: int, beaver: bool, raccoon: bool
) -> bytes:
    p1 = position if seat == 0 else position.flipped()
    rec = _Rec(CUBE).i32(12, _actif(seat), 1, take, int(beaver), int(raccoon), cube_before)
    rec.board(36, to_frame(p1)).board(64, to_frame(position)).i32(64 + 28, -1)
    struct.pack_into("<h", rec.data, 64 + 56, -100)
    rec.f64(200, NOT_ANALYSED).f64(216, NOT_ANALYSED).i32(224, -1, -1, -1)
    rec.f64(240, NOT_ANALYSED, NOT_ANALYSED).i32(256, -1).i32(292, -1)
    return bytes(rec.data)


def _footer(
    score: tuple[int, int], crawford_next: bool, winner: int | None, points: int, termination: int
) -> bytes:
    rec = _Rec(FOOTER_GAME).i32(12, *score).byte(20, crawford_next)
    rec.i32(24, 0 if winner is None else _actif(winner), points, termination)
    return bytes(rec.f64(40, NOT_ANALYSED, NOT_ANALYSED).data)


# --------------------------------------------------------------------------- writing


def _cube_code(value: int, owner: int | None) -> int:
    """XG's cube: log2 of the value, negative when player 2 (our seat 1) owns it."""
    log = _log2(value)
    return -log if owner == 1 else log


def _termination(outcome: GameOutcome) -> int:
    """0 a drop, 1..3 the result on the board, 100 + the result for a resignation (an
    abandon or a timeout too: XG has no other way to end a game early)."""
    if outcome.reason == "drop":
        return 0
    if outcome.reason in ("resign", "abandon", "timeout"):
        return 100 + outcome.result
    return outcome.result


def record_to_xg(record: MatchRecord) -> bytes:
    """An ``.xg`` file of a record: every move, cube action and game end, no analysis.

    Only backgammon and nackgammon boards can be written; a draw (the last-roll
    option) is written as a game that nobody won.  Resignations, abandons and
    timeouts are written as resignations, as XG records them.
    """
    if record.options.variant not in _VARIATIONS:
        raise InvalidOptionsError(f"an XG file cannot describe {record.options.variant}")
    records = [_match_header(record)]
    state = record.initial_state()
    open_game = 0
    # while a double is answered: doubler, board, cube before, beavered, raccooned
    doubled: tuple[int, Position, int, bool, bool] | None = None
    for action in record.actions:
        before = state
        transition = apply(before, action)
        state = transition.state
        g = before.game
        if open_game != g.number:
            open_game = g.number
            start = to_frame(Position.initial(record.options.variant))
            records.append(_game_header(g.number, before.score, g.crawford, start))
        events = {event.kind: event for event in transition.events}
        cube = _cube_code(g.cube.value, g.cube.owner)
        dance = events.get("no_move")
        if isinstance(action, Roll) and dance is not None and dance.player is not None:
            d1, d2 = dance.data["dice"]
            records.append(_move(dance.player, g.position, g.position, Dice(d1, d2), (), cube))
        elif isinstance(action, Play):
            assert g.dice is not None
            move = g.position.parse_move(action.move, g.dice)
            after = g.position.apply(move).flipped()
            records.append(_move(action.player, g.position, after, g.dice, move.steps, cube))
        elif isinstance(action, Double):
            doubled = (action.player, g.position, cube, False, False)
        elif isinstance(action, Beaver | Raccoon) and doubled is not None:
            seat, board, was, beaver, raccoon = doubled
            doubled = (seat, board, was, True, isinstance(action, Raccoon))
        elif isinstance(action, Take | Drop) and doubled is not None:
            seat, board, was, beaver, raccoon = doubled
            take = 0 if isinstance(action, Drop) else 1
            records.append(_cube(seat, board, was, take, beaver, raccoon))
            doubled = None
        if "game_over" in events:
            outcome = state.games[-1]
            doubled = None
            crawford_next = state.game.crawford and not state.over
            records.append(
                _footer(
                    state.score,
                    crawford_next,
                    outcome.winner,
                    outcome.points,
                    _termination(outcome),
                )
            )
    if state.over:
        winner = state.winner
        records.append(bytes(_Rec(FOOTER_MATCH).i32(12, *state.score, _actif(winner or 0)).data))
    stream = b"".join(records)
    xgi = stream[:RECORD] + stream[-RECORD:]
    members = {"temp.xgi": xgi, "temp.xgr": b"", "temp.xgc": b"", "temp.xg": stream}
    return write_archive(members, f"{record.players[0]} - {record.players[1]}")


# --------------------------------------------------------------------------- reading


def _split(stream: bytes) -> list[bytes]:
    if not stream or len(stream) % RECORD:
        raise _bad(f"temp.xg holds {len(stream)} bytes, not whole {RECORD}-byte records")
    return [stream[i : i + RECORD] for i in range(0, len(stream), RECORD)]


@dataclass(frozen=True, slots=True)
class _Header:
    players: tuple[str, str]
    options: TableOptions


def _read_header(rec: bytes) -> _Header:
    if _i32(rec, 556) != MAGIC_MATCH:
        raise _bad("the match header lacks its DMLI mark")
    version = _i32(rec, 552)
    names = [_short_string(rec, 9), _short_string(rec, 50)]
    if version >= 24:
        names = [_unicode(rec, 880) or names[0], _unicode(rec, 1138) or names[1]]
    length = _i32(rec, 92)
    money = length >= MONEY or length <= 0
    variant = _FROM_VARIATION.get(_i32(rec, 96))
    if variant is None:
        raise InvalidOptionsError(f"XG variation {_i32(rec, 96)} is not one gammon plays")
    limit = _i32(rec, 612)
    try:
        options = TableOptions(
            variant=variant,
            match_length=0 if money else length,
            crawford=bool(rec[100]) if not money else True,
            jacoby=bool(rec[101]) and money,
            beaver=bool(rec[102]) and money,
            cube_limit=1 << limit if 0 < limit < 16 else None,
        )
    except GammonError as exc:
        raise _bad(f"unusable table options ({exc})") from None
    return _Header((names[0], names[1]), options)


def _steps_text(rec: bytes) -> str:
    codes = struct.unpack_from("<8i", rec, 68)
    steps = []
    for i in range(0, 8, 2):
        if codes[i] < 0:
            break
        steps.append(f"{_our_point(codes[i])}/{_our_point(codes[i + 1])}")
    return " ".join(steps)


def _dice(rec: bytes, offset: int, where: str) -> Dice:
    d1, d2 = struct.unpack_from("<2i", rec, offset)
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise _bad(f"{where}: dice {d1}-{d2}")
    return Dice(d1, d2)


def _cube_entry(replayer: Replayer, rec: bytes, where: str) -> None:
    if _i32(rec, 16) != 1:
        return  # a decision not to double, or no access to the cube
    seat = _seat(_i32(rec, 12))
    other = 1 - seat
    take, beaver, raccoon = _i32(rec, 20), _i32(rec, 24), _i32(rec, 28)
    replayer.cube(seat, "double", None, where)
    if beaver:
        replayer.cube(other, "beaver", None, where)
        if raccoon:
            replayer.cube(seat, "raccoon", None, where)
            if take == 0:
                replayer.cube(other, "drop", None, where)
        elif take == 0:
            replayer.cube(seat, "drop", None, where)
        return
    replayer.cube(other, "take" if take else "drop", None, where)


def xg_to_record(data: bytes, *, options: TableOptions | None = None) -> MatchRecord:
    """Read an ``.xg`` file: every game replayed through the engine.

    A game that a resignation ends (or a drop, or a footer where the board did not
    end it) is closed as the ``.mat`` reader closes a ``Wins`` line.  A game the
    file leaves unfinished stays in progress.  Analysis is not read.
    """
    members = read_archive(data)
    stream = members.get("temp.xg")
    if stream is None:
        raise _bad("the archive has no temp.xg")
    recs = _split(stream)
    header = next((r for r in recs if r[8] == HEADER_MATCH), None)
    if header is None:
        raise _bad("no match header record")
    head = _read_header(header)
    opts = options or head.options
    replayer: Replayer | None = None
    start = (0, 0)
    crawford: bool | None = None
    current = 0  # the engine's number of the game being read
    number = 0
    for k, rec in enumerate(recs, start=1):
        kind = rec[8]
        where = f"record {k} (game {number})"
        if kind == HEADER_GAME:
            number += 1
            where = f"record {k} (game {number})"
            score = (_i32(rec, 12), _i32(rec, 16))
            if replayer is None:
                start = score
                at_point = opts.is_match and opts.crawford and opts.match_length - 1 in score
                crawford = bool(rec[20]) if at_point and score != (0, 0) else None
                replayer = Replayer(opts, score, crawford)
            elif replayer.state.score != score and opts.is_match:
                raise _bad(
                    f"{where}: the game starts at {score}, the games before give "
                    f"{replayer.state.score}"
                )
            current = replayer.state.game.number
        elif replayer is None or kind == HEADER_MATCH:
            continue
        elif kind == CUBE:
            _cube_entry(replayer, rec, where)
        elif kind == MOVE:
            seat = _seat(_i32(rec, 64))
            replayer.move(seat, _dice(rec, 100, where), _steps_text(rec), where)
        elif kind == FOOTER_GAME and not replayer.finished(current):
            actif, points = _i32(rec, 24), _i32(rec, 28)
            if actif in (1, -1):
                replayer.concede(_seat(actif), points, where)
    if replayer is None:
        raise _bad("no game in the file")
    return MatchRecord(
        opts,
        tuple(replayer.actions),
        head.players,
        meta={"source": "xg"},
        start_score=start,
        start_crawford=crawford,
    )


# --------------------------------------------------------------------------- positions


def gnubg_to_xgp(
    position: Position, rec: MatchIDRecord, players: tuple[str, str] = ("", "")
) -> bytes:
    """An ``.xgp`` position file: ``position`` seen from ``rec.player_on_roll``, with
    the record's dice (none before the roll), cube, score and match length."""
    seat = rec.player_on_roll
    options = TableOptions(match_length=rec.match_length, jacoby=rec.jacoby and rec.is_money)
    head = _match_header(MatchRecord(options, players=players))
    p1 = position if seat == 0 else position.flipped()
    game = _game_header(1, rec.score, rec.crawford, to_frame(p1))
    dice = Dice(*rec.dice) if rec.dice else None
    cube = _cube_code(rec.cube_value, rec.cube_owner)
    move = _move(seat, position, position, dice, (), cube)
    stream = head + game + move
    members = {"temp.xgi": head + move, "temp.xgr": b"", "temp.xgc": b"", "temp.xg": stream}
    return write_archive(members, "position")


def xgp_to_gnubg(data: bytes) -> tuple[Position, MatchIDRecord]:
    """The position of an ``.xgp`` file (seen from the player on roll) and its match
    state: the board and dice of its last move or cube record, else of the game header."""
    recs = _split(read_archive(data).get("temp.xg", b""))
    header = next((r for r in recs if r[8] == HEADER_MATCH), None)
    game = next((r for r in recs if r[8] == HEADER_GAME), None)
    if header is None or game is None:
        raise _bad("a position file needs a match header and a game header")
    options = _read_header(header).options
    seat, board, dice, cube = 0, _board(game, 21), None, 0
    for rec in recs:
        if rec[8] == MOVE:
            seat, board, cube = _seat(_i32(rec, 64)), _board(rec, 9), _i32(rec, 108)
            d1, d2 = struct.unpack_from("<2i", rec, 100)
            dice = (d1, d2) if 1 <= d1 <= 6 and 1 <= d2 <= 6 else None
        elif rec[8] == CUBE:
            seat, board, cube = _seat(_i32(rec, 12)), _board(rec, 36), _i32(rec, 32)
    p1 = from_frame(board)
    position = p1 if seat == 0 else p1.flipped()
    owner = None if cube == 0 else 0 if cube > 0 else 1
    record = MatchIDRecord(
        cube_value=1 << abs(cube),
        cube_owner=owner,
        player_on_roll=seat,
        crawford=bool(game[20]) and options.is_match,
        dice=dice,
        match_length=options.match_length,
        score=(_i32(game, 12), _i32(game, 16)),
        jacoby=options.jacoby,
    )
    return position, record
