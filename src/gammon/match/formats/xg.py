"""eXtreme Gammon files: ``.xg`` matches and ``.xgp`` positions, read and written.

The container (rich header, zlib archive) is :mod:`~gammon.match.formats.xgarchive`.
Its member ``temp.xg`` is the game: fixed 2,560-byte records (match header, game
header, cube, move, game footer, match footer); ``temp.xgi`` repeats its first
and last record.  Offsets follow the public declarations of the format
(extremegammon.com/xgformat.aspx, Delphi record alignment; see
``docs/formats.md``).  Only the standard library is used.

XG's player 1 (the bottom player, ``ActiveP`` = 1) is our seat 0 and player 2
(``ActiveP`` = -1) seat 1.  A board is 26 signed bytes seen from one player:
index 1..24 are that player's points (positive: its checkers, negative: the
opponent's), 25 its bar (positive), 0 the opponent's bar (negative).

:func:`xg_to_record` replays every move, cube action and game end through the
engine, as the ``.mat`` reader does: what does not replay is kept as a warning
(:mod:`~gammon.match.formats.notes`), and XG's own equities for each analysed move
and cube decision are kept in ``meta["xg_analysis"]``
(:mod:`~gammon.match.formats.xganalysis`).  :func:`record_to_xg` writes a record
with no analysis, in a shape stock xgdatatools reads: beavers, raccoons, automatic
doubles, Jacoby and the cube limit as XG writes them.  ``.xgp`` holds one position: :func:`xgp_to_gnubg` and
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
from dataclasses import dataclass, replace
from typing import Any, Final

from gammon.dice import Dice
from gammon.errors import GammonError, InvalidOptionsError
from gammon.match.actions import Beaver, Double, Drop, Play, Raccoon, Roll, Take
from gammon.match.engine import apply
from gammon.match.formats.notes import ImportWarning, with_warnings
from gammon.match.formats.replay import Replayer, ReplayError, reroll_inferred
from gammon.match.formats.xganalysis import cube_analysis, move_analysis, move_text
from gammon.match.formats.xgarchive import (  # noqa: F401 (the container's names, as before)
    REGISTRY_ENTRY,
    RICH_HEADER,
    TRAILER,
    read_archive,
    write_archive,
)
from gammon.match.formats.xgarchive import bad as _bad
from gammon.match.formats.xgarchive import crc32 as _crc  # noqa: F401 (tests/hostilekit.py)
from gammon.match.options import TableOptions
from gammon.match.record import MatchRecord
from gammon.match.state import GameOutcome
from gammon.move import Step
from gammon.notation.matchid import MatchIDRecord
from gammon.position import Position
from gammon.variants import get_variant

__all__ = ["gnubg_to_xgp", "record_to_xg", "xg_to_record", "xgp_to_gnubg"]

RECORD: Final = 2560
#: The opponent's numbering of the mover's points (XG boards are backgammon boards).
_THEIR: Final = get_variant("standard").point_map
MAGIC_MATCH: Final = 0x494C4D44  # "DMLI"
VERSION: Final = 30
#: XG's match length for money play.
MONEY: Final = 99999
#: Not analysed (XG's value for an error or an equity that was not computed).
NOT_ANALYSED: Final = -1000.0
#: XG's cube limit (log2) for no limit: 10, a cube of 1024.
NO_LIMIT: Final = 10
#: Not applicable (XG's value in a cube record's Take, BeaverR and RaccoonR).
NOT_APPLICABLE: Final = -1

HEADER_MATCH, HEADER_GAME, CUBE, MOVE, FOOTER_GAME, FOOTER_MATCH = range(6)

_VARIATIONS: Final = {"standard": 0, "nackgammon": 1}
_FROM_VARIATION: Final = {code: name for name, code in _VARIATIONS.items()}

Board = tuple[int, ...]


# --------------------------------------------------------------------------- boards


def to_frame(position: Position) -> Board:
    """XG's 26 signed bytes for a position, seen from its player on roll."""
    me, them, their = position.player, position.opponent, _THEIR
    points = tuple(me[i] - them[their[i]] for i in range(1, 25))
    return (-them[25], *points, me[25])


def from_frame(board: Board) -> Position:
    """The position that :func:`to_frame` writes as ``board``."""
    me = [0] * 26
    them = [0] * 26
    for i in range(1, 25):
        if board[i] > 0:
            me[i] = board[i]
        else:
            them[_THEIR[i]] = -board[i]
    me[25], them[25] = abs(board[25]), abs(board[0])
    me[0] = 15 - sum(me)
    them[0] = 15 - sum(them)
    try:
        return Position(tuple(me), tuple(them))
    except GammonError as exc:
        raise _bad(f"impossible board {list(board)} ({exc})") from None


def _xg_point(point: int) -> int:
    return -1 if point == 0 else point - 1


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
    rec.byte(100, o.crawford).byte(101, o.jacoby).byte(102, o.beaver)
    rec.byte(103, o.automatic_doubles > 0)
    rec.i32(268, 0, -1, -1).i32(548, 0, VERSION, MAGIC_MATCH)
    rec.i32(576, -1, -1).byte(584, o.match_length == 0)
    rec.i32(612, _log2(o.cube_limit) if o.cube_limit else NO_LIMIT, o.automatic_doubles)
    rec.unicode(880, record.players[0]).unicode(1138, record.players[1])
    return bytes(rec.data)


def _game_header(number: int, score: tuple[int, int], crawford: bool, start: Board) -> _Rec:
    rec = _Rec(HEADER_GAME).i32(12, *score).byte(20, crawford).board(21, start)
    return rec.i32(48, number).i32(56, -1, -1)


def _move(
    seat: int,
    before: Position,
    after: Position,
    dice: Dice | None,
    steps: tuple[Step, ...],
    cube: int,
    autos: int = 0,
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
    rec.i32(2344, *([-1] * 32)).i32(2472, -1, -1).i32(2524, -1).i32(2540, autos)
    return bytes(rec.data)


def _cube(
    seat: int, position: Position, cube_before: int, answers: tuple[int, int, int], autos: int
) -> bytes:
    """A cube record; ``answers`` are XG's Take (0 drop, 1 take, 2 beaver), BeaverR
    (0 drop, 1 take, 2 raccoon) and RaccoonR (0 drop, 1 take), -1 where none was given."""
    p1 = position if seat == 0 else position.flipped()
    rec = _Rec(CUBE).i32(12, _actif(seat), 1, *answers, cube_before)
    rec.board(36, to_frame(p1)).board(64, to_frame(position)).i32(64 + 28, -1)
    struct.pack_into("<h", rec.data, 64 + 56, -100)
    rec.f64(200, NOT_ANALYSED).f64(216, NOT_ANALYSED).i32(224, -1, -1, -1)
    rec.f64(240, NOT_ANALYSED, NOT_ANALYSED).i32(256, -1).i32(292, -1).i32(300, autos)
    return bytes(rec.data)


def _answers(answers: list[type]) -> tuple[int, int, int]:
    """XG's Take, BeaverR and RaccoonR for the answers to a double (Beaver, Raccoon,
    then Take or Drop)."""
    fields = [NOT_APPLICABLE] * 3
    last = 1 if answers[-1] is Take else 0
    if Beaver in answers:
        fields[0] = 2
        fields[1] = 2 if Raccoon in answers else last
        if Raccoon in answers:
            fields[2] = last
    else:
        fields[0] = last
    return fields[0], fields[1], fields[2]


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
    timeouts are written as resignations, as XG records them.  A beaver is written
    as XG does (Take = 2, then BeaverR: 1 taken, 0 dropped, 2 raccooned); an
    automatic double as XG counts it (the game header's number of automatic doubles,
    the cube written without them).  No cube limit is written as 10 (1024), as XG
    writes it.

    >>> from gammon.dice import Dice
    >>> from gammon.match import Match, Roll, TableOptions
    >>> m = Match(TableOptions(automatic_doubles=1))
    >>> for action in (Roll(0, Dice(4, 4)), Roll(0, Dice(3, 1))):
    ...     _ = m.push(action)
    >>> stream = read_archive(record_to_xg(m.record()))["temp.xg"]
    >>> struct.unpack_from("<i", stream, RECORD + 64)[0]  # the game's automatic doubles
    1
    """
    if record.options.variant not in _VARIATIONS:
        raise InvalidOptionsError(f"an XG file cannot describe {record.options.variant}")
    records: list[bytes | _Rec] = [_match_header(record)]
    state = record.initial_state()
    open_game = 0
    header = _Rec(HEADER_GAME)
    autos = 0
    # while a double is answered: doubler, board, cube before, the answers so far
    doubled: tuple[int, Position, int, list[type]] | None = None
    for action in record.actions:
        before = state
        transition = apply(before, action)
        state = transition.state
        g = before.game
        if open_game != g.number:
            open_game, autos = g.number, 0
            start = to_frame(Position.initial(record.options.variant))
            header = _game_header(g.number, before.score, g.crawford, start)
            records.append(header)
        events = {event.kind: event for event in transition.events}
        if "automatic_double" in events:
            autos += 1
            header.i32(64, autos)
        cube = _cube_code(g.cube.value >> autos, g.cube.owner)
        dance = events.get("no_move")
        if isinstance(action, Roll) and dance is not None and dance.player is not None:
            d1, d2 = dance.data["dice"]
            move = _move(dance.player, g.position, g.position, Dice(d1, d2), (), cube, autos)
            records.append(move)
        elif isinstance(action, Play):
            assert g.dice is not None
            played = g.position.parse_move(action.move, g.dice)
            after = g.position.apply(played).flipped()
            seat = action.player
            records.append(_move(seat, g.position, after, g.dice, played.steps, cube, autos))
        elif isinstance(action, Double):
            doubled = (action.player, g.position, cube, [])
        elif isinstance(action, Beaver | Raccoon | Take | Drop) and doubled is not None:
            doubled[3].append(type(action))
            if isinstance(action, Take | Drop):
                seat, board, was, answers = doubled
                records.append(_cube(seat, board, was, _answers(answers), autos))
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
    stream = b"".join(bytes(r.data) if isinstance(r, _Rec) else r for r in records)
    xgi = stream[:RECORD] + stream[-RECORD:]
    members = {"temp.xgi": xgi, "temp.xg": stream}
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


def _read_header(rec: bytes, raccoon: bool = False) -> _Header:
    """The players and table of a match header; ``raccoon`` when the file holds one
    (XG has no raccoon option: a beaver table allows them)."""
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
    # v8: log2 of the highest cube; XG writes 10 (1024) for none, more than ours (64)
    limit = _i32(rec, 612) if version >= 8 else 0
    cube_limit = 1 << limit if 1 <= limit <= 6 else None
    autos = 0
    if money and rec[103]:
        most = _log2(cube_limit or 64)
        autos = min(_i32(rec, 616), most) if version >= 8 and _i32(rec, 616) > 0 else most
    try:
        options = TableOptions(
            variant=variant,
            match_length=0 if money else length,
            crawford=bool(rec[100]) if not money else True,
            jacoby=bool(rec[101]) and money,
            beaver=bool(rec[102]) and money,
            raccoon=raccoon and bool(rec[102]) and money,
            cube_limit=cube_limit,
            automatic_doubles=autos,
        )
    except GammonError as exc:
        raise _bad(f"unusable table options ({exc})") from None
    return _Header((names[0], names[1]), options)


def _dice(rec: bytes, offset: int, where: str) -> Dice:
    d1, d2 = struct.unpack_from("<2i", rec, offset)
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise _bad(f"{where}: dice {d1}-{d2}")
    return Dice(d1, d2)


_ANSWER: Final = {0: "drop", 1: "take"}


def _cube_words(rec: bytes) -> list[tuple[bool, str]]:
    """A cube record's actions: (by the doubler?, word), none when nobody doubled.

    XG writes Take 0 drop, 1 take, 2 beaver; after a beaver, BeaverR 0 drop, 1 take,
    2 raccoon; after a raccoon, RaccoonR 0 drop, 1 take; -1 where nothing was
    answered.  gammon before 2025 wrote a beaver as BeaverR = 1 beside the answer
    in Take (RaccoonR = 1 for a raccoon): read as such."""
    if _i32(rec, 16) != 1:
        return []  # a decision not to double, or no access to the cube
    take, beaver, raccoon = _i32(rec, 20), _i32(rec, 24), _i32(rec, 28)
    if take in (0, 1) and beaver == 1:
        take, beaver, raccoon = (2, 2, take) if raccoon == 1 else (2, take, NOT_APPLICABLE)
    words = [(True, "double")]
    if take == 2:
        words.append((False, "beaver"))
        if beaver == 2:
            words.append((True, "raccoon"))
            if raccoon in _ANSWER:
                words.append((False, _ANSWER[raccoon]))
        elif beaver in _ANSWER:
            words.append((True, _ANSWER[beaver]))
    elif take in _ANSWER:
        words.append((False, _ANSWER[take]))
    return words


class _Reader:
    """Replays the records of ``temp.xg``; lenient unless ``strict``: a record that
    does not replay is a warning and the rest of its game is left out, the game's
    end being taken from its footer, as the ``.mat`` reader does."""

    def __init__(self, recs: list[bytes], options: TableOptions, strict: bool) -> None:
        self.recs, self.options, self.strict = recs, options, strict
        self.replayer: Replayer | None = None
        self.start: tuple[int, int] = (0, 0)
        self.crawford: bool | None = None
        self.warnings: list[ImportWarning] = []
        self.analysis: list[dict[str, Any]] = []
        self.number = 0  # the file's game being read
        self.current = 0  # the engine's number of that game
        self.skipping = False

    def warn(self, k: int, message: str, *, exact: bool = False) -> None:
        self.warnings.append(ImportWarning(k, self.current or None, message, exact))

    def run(self) -> Replayer:
        for k, rec in enumerate(self.recs, start=1):
            kind = rec[8]
            where = f"record {k} (game {self.number})"
            if kind == HEADER_GAME:
                self.game_header(k, rec)
            elif self.replayer is None or kind not in (CUBE, MOVE, FOOTER_GAME):
                continue
            elif kind == FOOTER_GAME:
                self.footer(k, rec, where)
            elif not self.skipping:
                done = len(self.replayer.actions)
                try:
                    self.entry(k, rec, where)
                except ReplayError as exc:
                    if self.strict:
                        raise
                    while len(self.replayer.actions) > done:
                        self.replayer.pop()  # the roll of a move that does not replay
                    self.skipping = True
                    self.warn(k, f"{exc}; the rest of game {self.number} is not replayed")
        if self.replayer is None:
            raise _bad("no game in the file")
        return self.replayer

    def game_header(self, k: int, rec: bytes) -> None:
        self.number += 1
        self.skipping = False
        score = (_i32(rec, 12), _i32(rec, 16))
        opts = self.options
        if self.replayer is None:
            self.start = score
            at_point = opts.is_match and opts.crawford and opts.match_length - 1 in score
            self.crawford = bool(rec[20]) if at_point and score != (0, 0) else None
            self.replayer = Replayer(opts, score, self.crawford)
        elif self.replayer.state.score != score and opts.is_match:
            raise _bad(
                f"record {k} (game {self.number}): the game starts at {score}, the games "
                f"before give {self.replayer.state.score}"
            )
        replayer = self.replayer
        self.current = replayer.state.game.number
        autos = _i32(rec, 64) if opts.automatic_doubles else 0
        for i in range(min(max(autos, 0), opts.automatic_doubles)):
            tie = Dice(i % 6 + 1, i % 6 + 1)
            replayer.push(Roll(0, tie), f"record {k}: automatic double {i + 1}")

    def entry(self, k: int, rec: bytes, where: str) -> None:
        replayer = self.replayer
        assert replayer is not None
        if rec[8] == CUBE:
            seat = _seat(_i32(rec, 12))
            at = len(replayer.actions)
            for by_doubler, word in _cube_words(rec):
                replayer.cube(seat if by_doubler else 1 - seat, word, None, where)
            found = cube_analysis(rec)
            if found is not None:
                self.analysis.append({"at": at, "kind": "cube", "player": seat, **found})
            return
        seat = _seat(_i32(rec, 64))
        dice = _dice(rec, 100, where)
        text = move_text(struct.unpack_from("<8i", rec, 68))
        before = from_frame(_board(rec, 9))
        before = before if seat == 0 else before.flipped()
        if not rec[2308]:  # Played = 0: rolled, then the game ended (a resignation)
            following = self.recs[k][8] if k < len(self.recs) else None
            if following != FOOTER_GAME:
                self.warn(k, f"{where}: the roll {dice} was not played; left out", exact=True)
                return
            replayer.roll(seat, dice, where)
            return
        replayer.move(seat, dice, text, where)
        found = move_analysis(rec, before, dice)
        if found is not None:
            at = len(replayer.actions) - 1
            self.analysis.append({"at": at, "kind": "move", "player": seat, **found})

    def footer(self, k: int, rec: bytes, where: str) -> None:
        replayer = self.replayer
        assert replayer is not None
        actif, points = _i32(rec, 24), _i32(rec, 28)
        if replayer.finished(self.current) or actif not in (1, -1):
            return
        winner = _seat(actif)
        try:
            note = replayer.concede(winner, points, where)
        except ReplayError:
            note = self._unplayed(winner, points, where)
        if note:
            self.warn(k, f"{where}: {note}")

    def _unplayed(self, winner: int, points: int, where: str) -> str | None:
        """The game's end when a resignation cannot follow the last roll: before that
        roll (left unplayed), else (lenient) as :meth:`Replayer.force_result` records it."""
        replayer = self.replayer
        assert replayer is not None
        last = replayer.actions[-1] if replayer.actions else None
        if isinstance(last, Roll) and replayer.state.game.phase == "moving":
            replayer.pop()
            try:
                return replayer.concede(winner, points, where)
            except ReplayError:
                replayer.push(last, where)
        if self.strict:
            return replayer.concede(winner, points, where)
        return replayer.force_result(winner, points, where)


def _first_game_double(recs: list[bytes]) -> tuple[int, Dice] | None:
    """The record number and dice of game 1's first roll when it is a double."""
    start = next((k for k, r in enumerate(recs) if r[8] == HEADER_GAME), len(recs))
    k = next((k for k in range(start + 1, len(recs)) if recs[k][8] in (MOVE, HEADER_GAME)), -1)
    d1, d2 = struct.unpack_from("<2i", recs[k], 100) if recs[k][8] == MOVE and k > 0 else (0, 1)
    return (k + 1, Dice(d1, d2)) if d1 == d2 and 1 <= d1 <= 6 else None


def xg_to_record(
    data: bytes, *, options: TableOptions | None = None, strict: bool = False
) -> MatchRecord:
    """Read an ``.xg`` file: every game replayed through the engine.

    A game that a resignation ends (or a drop, or a footer where the board did not
    end it) is closed as the ``.mat`` reader closes a ``Wins`` line; a roll XG marks
    unplayed just before is kept rolled (the player resigned after it).  A game the
    file leaves unfinished stays in progress.  A record that does not replay (a move
    XG itself flags invalid, say) is kept as an
    :class:`~gammon.match.formats.notes.ImportWarning` and the rest of its game is
    left out, the game's result taken from its footer; ``strict`` refuses the file
    instead.  XG's analysis of each move and cube decision is kept in
    ``meta["xg_analysis"]``: a list of ``{"at": n, "kind": "move" | "cube", ...}``,
    ``n`` the number of actions before the decision (``at`` of a move is its Play's
    index), with XG's candidates and equities (see
    :mod:`~gammon.match.formats.xganalysis`).  Without ``options``, a game 1 that starts
    with a double is read with ``opening`` ``reroll`` (as :func:`mat_to_record` reads it).
    """
    members = read_archive(data, only=("temp.xg",))
    stream = members.get("temp.xg")
    if stream is None:
        raise _bad("the archive has no temp.xg")
    recs = _split(stream)
    header = next((r for r in recs if r[8] == HEADER_MATCH), None)
    if header is None:
        raise _bad("no match header record")
    raccoon = any(word == "raccoon" for r in recs if r[8] == CUBE for _, word in _cube_words(r))
    head = _read_header(header, raccoon)
    table = options or head.options
    first = None if options or table.opening == "reroll" else _first_game_double(recs)
    reader = _Reader(recs, replace(table, opening="reroll") if first else table, strict)
    if first:  # XG has no opening rule: game 1's double says it
        reader.warnings.append(reroll_inferred(first[0], f"record {first[0]} (game 1)", first[1]))
    replayer = reader.run()
    meta: dict[str, Any] = {"source": "xg"}
    if reader.analysis:
        meta["xg_analysis"] = reader.analysis
    record = MatchRecord(
        reader.options,
        tuple(replayer.actions),
        head.players,
        meta=meta,
        start_score=reader.start,
        start_crawford=reader.crawford,
    )
    return with_warnings(record, reader.warnings)


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
    game = bytes(_game_header(1, rec.score, rec.crawford, to_frame(p1)).data)
    dice = Dice(*rec.dice) if rec.dice else None
    cube = _cube_code(rec.cube_value, rec.cube_owner)
    move = _move(seat, position, position, dice, (), cube)
    stream = head + game + move
    members = {"temp.xgi": head + move, "temp.xg": stream}
    return write_archive(members, "position")


def xgp_to_gnubg(data: bytes) -> tuple[Position, MatchIDRecord]:
    """The position of an ``.xgp`` file (seen from the player on roll) and its match
    state: the board and dice of its last move or cube record, else of the game header."""
    recs = _split(read_archive(data, only=("temp.xg",)).get("temp.xg", b""))
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
