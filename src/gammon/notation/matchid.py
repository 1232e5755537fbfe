"""gnubg Match IDs and the combined ``PositionID:MatchID`` form, bit-exact with gnubg.

A Match ID is 72 bits (9 bytes, filled from the least significant bit of byte 0)
written as 12 characters of plain base64.  Bit offsets:

====== ===== ==========================================================
bits   width field
====== ===== ==========================================================
0-3    4     log2 of the cube value
4-5    2     cube owner: 0 = player 0, 1 = player 1, 3 = centred
6      1     player on roll (gnubg's ``fMove``)
7      1     Crawford game
8-10   3     game state: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
11     1     player who must act now (``fTurn``)
12     1     double offered
13-14  2     resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
15-17  3     first die (gnubg writes the larger die here), 0 = not rolled
18-20  3     second die
21-35  15    match length, 0 = money
36-50  15    score of player 0
51-65  15    score of player 1
66     1     set when the Jacoby rule is **off**
67-71  5     zero
====== ===== ==========================================================

Players are numbered as gnubg numbers them.  In the Position ID that goes with a
Match ID, the second block of bits belongs to the player on roll (bit 6).

>>> rec = decode_match_id("UQngADAAEAAE")
>>> rec.cube_value, rec.cube_owner, rec.player_on_roll, rec.match_length, rec.score
(2, 1, 1, 7, (3, 2))
>>> encode_match_id(rec)
'UQngADAAEAAE'
>>> xgid_to_gnubg_id("XGID=-b----E-C---eE---c-e----B-:0:0:-1:52:0:0:0:0:10")
'4HPwATDgc/ABMA:MIEKAAAAAAAE'
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypeGuard

from gammon.errors import InvalidNotationError, InvalidPositionError

if TYPE_CHECKING:
    from gammon.position import Position
    from gammon.variants import Variant

__all__ = [
    "MatchIDRecord",
    "decode_match_id",
    "encode_match_id",
    "format_gnubg_id",
    "parse_gnubg_id",
    "xgid_to_gnubg_id",
]

_ID_RE: Final = re.compile(r"^[A-Za-z0-9+/]{12}$")
_GAME_STATES: Final = ("none", "playing", "over", "resigned", "dropped")
_MAX_15: Final = (1 << 15) - 1
_CENTRED: Final = 3

# (offset, width) of each field in the 72-bit key
_CUBE: Final = (0, 4)
_OWNER: Final = (4, 2)
_MOVE: Final = (6, 1)
_CRAWFORD: Final = (7, 1)
_STATE: Final = (8, 3)
_TURN: Final = (11, 1)
_DOUBLED: Final = (12, 1)
_RESIGN: Final = (13, 2)
_DIE1: Final = (15, 3)
_DIE2: Final = (18, 3)
_LENGTH: Final = (21, 15)
_SCORE0: Final = (36, 15)
_SCORE1: Final = (51, 15)
_NO_JACOBY: Final = (66, 1)
_UNUSED: Final = (67, 5)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_range(name: str, value: object, lo: int, hi: int) -> int:
    if not _is_int(value) or not lo <= value <= hi:
        raise InvalidNotationError(
            f"invalid Match ID record: {name} {value!r} is not an integer in {lo}..{hi}"
        )
    return value


def _check_player(name: str, value: object) -> int:
    if not _is_int(value) or value not in (0, 1):
        raise InvalidNotationError(f"invalid Match ID record: {name} {value!r} is not 0 or 1")
    return value


def _check_bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidNotationError(f"invalid Match ID record: {name} {value!r} is not a bool")
    return value


def _check_pair(name: str, value: object, lo: int, hi: int) -> tuple[int, int]:
    if isinstance(value, (tuple, list)) and len(value) == 2:
        a, b = value
        if _is_int(a) and _is_int(b) and lo <= a <= hi and lo <= b <= hi:
            return (a, b)
    raise InvalidNotationError(
        f"invalid Match ID record: {name} {value!r} is not a pair of integers in {lo}..{hi}"
    )


@dataclass(frozen=True, slots=True, init=False)
class MatchIDRecord:
    """Every field of a gnubg Match ID, players numbered 0 and 1 as gnubg numbers them.

    All arguments are keyword-only.  The defaults describe a money game in
    progress, cube 1 centred, player 0 on roll before rolling, Jacoby on.
    ``turn`` defaults to ``player_on_roll``; it differs from it only while a
    double or a resignation waits for an answer.  ``dice`` is stored with the
    larger die first, as gnubg writes it.

    >>> MatchIDRecord(player_on_roll=1, dice=(2, 5)).dice
    (5, 2)
    >>> MatchIDRecord(cube_value=3)
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidNotationError: invalid Match ID record: cube value 3 is not a power of two in 1..32768
    """

    cube_value: int
    #: 0 or 1, or ``None`` when the cube is centred (gnubg writes 3).
    cube_owner: int | None
    #: The player on roll, owner of the dice (gnubg's ``fMove``, bit 6).
    player_on_roll: int
    crawford: bool
    #: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped.
    game_state: int
    #: The player who must act now (gnubg's ``fTurn``, bit 11).
    turn: int
    double_offered: bool
    #: 0 none, 1 single, 2 gammon, 3 backgammon.
    resignation: int
    #: ``None`` before the roll, else ``(larger, smaller)``.
    dice: tuple[int, int] | None
    #: 0 = money session.
    match_length: int
    #: ``(player 0, player 1)``.
    score: tuple[int, int]
    jacoby: bool

    def __init__(
        self,
        *,
        cube_value: int = 1,
        cube_owner: int | None = None,
        player_on_roll: int = 0,
        crawford: bool = False,
        game_state: int = 1,
        turn: int | None = None,
        double_offered: bool = False,
        resignation: int = 0,
        dice: tuple[int, int] | None = None,
        match_length: int = 0,
        score: tuple[int, int] = (0, 0),
        jacoby: bool = True,
    ) -> None:
        if (
            not _is_int(cube_value)
            or not 1 <= cube_value <= 1 << 15
            or cube_value & (cube_value - 1)
        ):
            raise InvalidNotationError(
                f"invalid Match ID record: cube value {cube_value!r} is not a power of two in 1..32768"
            )
        if cube_owner is not None:
            _check_player("cube owner", cube_owner)
        player_on_roll = _check_player("player on roll", player_on_roll)
        turn = player_on_roll if turn is None else _check_player("turn", turn)
        if dice is not None:
            d1, d2 = _check_pair("dice", dice, 1, 6)
            dice = (max(d1, d2), min(d1, d2))
        values = {
            "cube_value": cube_value,
            "cube_owner": cube_owner,
            "player_on_roll": player_on_roll,
            "crawford": _check_bool("crawford", crawford),
            "game_state": _check_range("game state", game_state, 0, 4),
            "turn": turn,
            "double_offered": _check_bool("double offered", double_offered),
            "resignation": _check_range("resignation", resignation, 0, 3),
            "dice": dice,
            "match_length": _check_range("match length", match_length, 0, _MAX_15),
            "score": _check_pair("score", score, 0, _MAX_15),
            "jacoby": _check_bool("jacoby", jacoby),
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    @property
    def is_money(self) -> bool:
        """Whether this is a money session rather than a match."""
        return self.match_length == 0

    @property
    def game_state_name(self) -> str:
        """``"none"``, ``"playing"``, ``"over"``, ``"resigned"`` or ``"dropped"``."""
        return _GAME_STATES[self.game_state]

    def to_match_id(self) -> str:
        """The 12-character Match ID of this record."""
        return encode_match_id(self)


def encode_match_id(rec: MatchIDRecord) -> str:
    """The 12-character gnubg Match ID of a record.

    >>> encode_match_id(MatchIDRecord(player_on_roll=1, dice=(5, 2), jacoby=False))
    'cIkKAAAAAAAE'
    >>> encode_match_id(MatchIDRecord(match_length=7, score=(6, 4), crawford=True, dice=(1, 6)))
    'sAHnAGAAIAAA'
    """
    d1, d2 = rec.dice if rec.dice is not None else (0, 0)
    fields = (
        (_CUBE, rec.cube_value.bit_length() - 1),
        (_OWNER, _CENTRED if rec.cube_owner is None else rec.cube_owner),
        (_MOVE, rec.player_on_roll),
        (_CRAWFORD, int(rec.crawford)),
        (_STATE, rec.game_state),
        (_TURN, rec.turn),
        (_DOUBLED, int(rec.double_offered)),
        (_RESIGN, rec.resignation),
        (_DIE1, d1),
        (_DIE2, d2),
        (_LENGTH, rec.match_length),
        (_SCORE0, rec.score[0]),
        (_SCORE1, rec.score[1]),
        (_NO_JACOBY, int(not rec.jacoby)),
    )
    key = 0
    for (offset, _), value in fields:
        key |= value << offset
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def decode_match_id(text: str) -> MatchIDRecord:
    """Decode a 12-character gnubg Match ID.

    Dice written smaller first are accepted and stored larger first, so the
    ID re-encodes in gnubg's order.

    >>> decode_match_id("QhGgABAAGAAE")
    MatchIDRecord(cube_value=4, cube_owner=0, player_on_roll=1, crawford=False, game_state=1, turn=0, double_offered=True, resignation=0, dice=None, match_length=5, score=(1, 3), jacoby=False)
    >>> decode_match_id("cAkAAAAAAAAM")
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidNotationError: invalid Match ID 'cAkAAAAAAAAM': bits 67..71 must be zero
    """
    if not isinstance(text, str) or not _ID_RE.match(text):
        raise InvalidNotationError(
            f"invalid Match ID {text!r}: expected 12 characters of A-Z a-z 0-9 + /"
        )
    try:
        raw = base64.b64decode(text, validate=True)
    except binascii.Error as exc:  # pragma: no cover - the regex already checked
        raise InvalidNotationError(f"invalid Match ID {text!r}: {exc}") from None
    key = int.from_bytes(raw, "little")

    def get(field: tuple[int, int]) -> int:
        offset, width = field
        return (key >> offset) & ((1 << width) - 1)

    if get(_UNUSED):
        raise InvalidNotationError(f"invalid Match ID {text!r}: bits 67..71 must be zero")
    owner = get(_OWNER)
    if owner == 2:
        raise InvalidNotationError(
            f"invalid Match ID {text!r}: cube owner 2 (expected 0, 1 or 3 for centred)"
        )
    state = get(_STATE)
    if state >= len(_GAME_STATES):
        raise InvalidNotationError(f"invalid Match ID {text!r}: game state {state} (expected 0..4)")
    d1, d2 = get(_DIE1), get(_DIE2)
    if d1 > 6 or d2 > 6 or (d1 == 0) != (d2 == 0):
        raise InvalidNotationError(
            f"invalid Match ID {text!r}: dice {d1}-{d2} (expected 0-0 or two of 1..6)"
        )
    return MatchIDRecord(
        cube_value=1 << get(_CUBE),
        cube_owner=None if owner == _CENTRED else owner,
        player_on_roll=get(_MOVE),
        crawford=bool(get(_CRAWFORD)),
        game_state=state,
        turn=get(_TURN),
        double_offered=bool(get(_DOUBLED)),
        resignation=get(_RESIGN),
        dice=(d1, d2) if d1 else None,
        match_length=get(_LENGTH),
        score=(get(_SCORE0), get(_SCORE1)),
        jacoby=not get(_NO_JACOBY),
    )


def parse_gnubg_id(
    text: str, variant: str | Variant = "standard"
) -> tuple[Position, MatchIDRecord]:
    """Split gnubg's ``PositionID:MatchID`` into a position and a Match ID record.

    The position is seen from the player on roll, who is player
    ``rec.player_on_roll`` in gnubg's numbering.

    >>> position, rec = parse_gnubg_id("4HPwATDgc/ABMA:cIkKAAAAAAAE")
    >>> position.position_id(), rec.player_on_roll, rec.dice, rec.jacoby
    ('4HPwATDgc/ABMA', 1, (5, 2), False)
    >>> parse_gnubg_id("4HPwATDgc/ABMA")
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidNotationError: invalid gnubg ID '4HPwATDgc/ABMA': expected PositionID:MatchID
    """
    from gammon.position import Position

    if not isinstance(text, str):
        raise InvalidNotationError(f"invalid gnubg ID {text!r}: expected text")
    parts = text.strip().split(":")
    if len(parts) != 2:
        raise InvalidNotationError(f"invalid gnubg ID {text!r}: expected PositionID:MatchID")
    pid, mid = parts
    try:
        rec = decode_match_id(mid)
        position = Position.from_position_id(pid, variant)
    except InvalidNotationError as exc:
        raise InvalidNotationError(f"invalid gnubg ID {text!r}: {exc}") from None
    except InvalidPositionError as exc:
        raise InvalidPositionError(f"invalid gnubg ID {text!r}: {exc}") from None
    return position, rec


def format_gnubg_id(position: Position, rec: MatchIDRecord) -> str:
    """gnubg's ``PositionID:MatchID``; ``position`` is seen from player ``rec.player_on_roll``.

    >>> from gammon import Position
    >>> format_gnubg_id(Position.initial(), MatchIDRecord(match_length=7, score=(3, 2),
    ...     cube_value=2, cube_owner=1, player_on_roll=1, jacoby=False))
    '4HPwATDgc/ABMA:UQngADAAEAAE'
    """
    return f"{position.position_id()}:{encode_match_id(rec)}"


def xgid_to_gnubg_id(
    xgid_text: str, variant: str | Variant = "standard", *, seat_on_roll: bool = False
) -> str:
    """The ``PositionID:MatchID`` that gnubg prints after importing an XGID.

    The XGID's bottom player is gnubg's player 1 and the top player is player 0;
    the first XGID score is the bottom player's.  These are fixed seats, as in
    the ``gnubg`` Python module's ``setgnubgid`` (the vectors in
    ``docs/formats.md``).  GNU Backgammon 1.07 (Debian's 1.07.001, command
    ``set xgid``) differs when the top player is on roll (turn -1): it seats the
    player on roll as player 1, so the top player becomes player 1 and the
    bottom player 0, which swaps the score, the cube owner and bit 6 of the Match
    ID (the Position ID is the same).  ``seat_on_roll=True`` gives that form.
    The game state is 1 (playing);
    Jacoby comes from the rules field in money play and is off in a match.  The
    XGID's maximum cube and beaver flag have no place in a Match ID and are lost.
    Like gnubg, this refuses an XGID with a double pending (dice ``D``, ``B``, ``R``).

    >>> xgid_to_gnubg_id("XGID=-BDB-------------a------e-:1:-1:-1:42:0:0:0:5:8")
    'ewMAAD4gAAAAAA:AQGqAAAAAAAE'
    >>> xgid_to_gnubg_id("XGID=-BDB-------------a------e-:1:-1:-1:42:0:0:0:5:8", seat_on_roll=True)
    'ewMAAD4gAAAAAA:UQmqAAAAAAAE'
    >>> xgid_to_gnubg_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:0:10")
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidNotationError: cannot convert XGID 'XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:0:10' to a gnubg ID: a double is pending (gnubg cannot import it)
    """
    from gammon.notation.xgid_record import parse_xgid

    xg = parse_xgid(xgid_text, variant)
    if xg.dice in ("D", "B", "R"):
        raise InvalidNotationError(
            f"cannot convert XGID {xgid_text!r} to a gnubg ID: a double is pending"
            " (gnubg cannot import it)"
        )
    bottom = 0 if seat_on_roll and xg.turn == -1 else 1  # the bottom player's gnubg seat
    on_roll = bottom if xg.turn == 1 else 1 - bottom
    owner = {1: bottom, -1: 1 - bottom}.get(xg.cube_owner)
    dice = None if xg.dice == "00" else (int(xg.dice[0]), int(xg.dice[1]))
    scores = (xg.score_top, xg.score_bottom) if bottom == 1 else (xg.score_bottom, xg.score_top)
    rec = MatchIDRecord(
        cube_value=xg.cube_value,
        cube_owner=owner,
        player_on_roll=on_roll,
        crawford=xg.is_crawford,
        game_state=1,
        turn=on_roll,
        dice=dice,
        match_length=xg.match_length,
        score=scores,
        jacoby=xg.jacoby,
    )
    return format_gnubg_id(xg.position, rec)
