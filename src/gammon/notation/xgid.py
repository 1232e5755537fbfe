"""eXtreme Gammon IDs (XGID).

``XGID=<board>:<cube log2>:<cube owner>:<turn>:<dice>:<score bottom>:<score top>:<rules>:<match length>:<max cube log2>``

The board is drawn from the bottom player's side: character 0 is the top
player's bar, 1..24 the bottom player's points, 25 the bottom player's bar;
``A``..``P`` are 1..16 bottom checkers, ``a``..``p`` top checkers, ``-`` empty.
Turn 1 means the bottom player is on roll (gnubg's player 1), -1 the top.

This module reads and writes the text with plain data (:class:`XGIDFields`: each
side's counts); :func:`gammon.notation.xgid_record.parse_xgid` adds the
:class:`gammon.Position`, and :meth:`gammon.Position.from_xgid` /
:meth:`gammon.Position.to_xgid` use both directions.

>>> rec = read_xgid("XGID=-b----E-C---eE---c-e----B-:1:1:1:00:2:3:0:7:10")
>>> rec.cube_value, rec.cube_owner, rec.turn, rec.score_bottom, rec.score_top, rec.match_length
(2, 1, 1, 2, 3, 7)
>>> rec.player[6], rec.opponent[24]
(5, 2)
>>> rec.to_xgid()
'XGID=-b----E-C---eE---c-e----B-:1:1:1:00:2:3:0:7:10'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Protocol

from gammon.errors import InvalidNotationError, InvalidPositionError
from gammon.variants import Variant, get_variant

__all__ = ["Sides", "XGIDFields", "format_xgid", "read_xgid", "xgid_board"]

_DICE_WORDS: Final = frozenset({"00", "D", "B", "R"})
#: The top player's number of each of the bottom player's points (the board's mapping).
_THEIR: Final = get_variant("standard").point_map


class Sides(Protocol):
    """Each side's 26 counts, seen from the player on roll (a :class:`gammon.Position`)."""

    @property
    def player(self) -> tuple[int, ...]: ...
    @property
    def opponent(self) -> tuple[int, ...]: ...


@dataclass(frozen=True, slots=True)
class XGIDFields:
    """Every field of an XGID; ``player`` and ``opponent`` are seen from the player on roll."""

    player: tuple[int, ...]
    opponent: tuple[int, ...]
    variant: Variant
    cube_value: int
    #: 1 = bottom player owns the cube, -1 = top, 0 = centred.
    cube_owner: int
    #: 1 = bottom player on roll, -1 = top.
    turn: int
    #: ``"00"`` not rolled, ``"D"`` double offered, ``"B"`` beaver, ``"R"`` raccoon, or two digits.
    dice: str
    score_bottom: int
    score_top: int
    #: Match play: 1 = Crawford game.  Money: bit 0 = Jacoby, bit 1 = beaver.
    rules: int
    #: 0 = money session.
    match_length: int
    max_cube: int

    @property
    def is_crawford(self) -> bool:
        """Whether this is the Crawford game of a match."""
        return self.match_length > 0 and bool(self.rules & 1)

    @property
    def jacoby(self) -> bool:
        """Money play with the Jacoby rule."""
        return self.match_length == 0 and bool(self.rules & 1)

    @property
    def beaver(self) -> bool:
        """Money play with beavers allowed."""
        return self.match_length == 0 and bool(self.rules & 2)

    def to_xgid(self) -> str:
        """The XGID text of this record."""
        return format_xgid(
            self,
            turn=self.turn,
            cube_value=self.cube_value,
            cube_owner=self.cube_owner,
            dice=self.dice,
            score_bottom=self.score_bottom,
            score_top=self.score_top,
            rules=self.rules,
            match_length=self.match_length,
            max_cube=self.max_cube,
        )


def _int(field: str, name: str, text: str, lo: int, hi: int) -> int:
    try:
        value = int(field)
    except ValueError:
        raise InvalidNotationError(
            f"invalid XGID {text!r}: {name} {field!r} is not a number"
        ) from None
    if not lo <= value <= hi:
        raise InvalidNotationError(f"invalid XGID {text!r}: {name} {value} is outside {lo}..{hi}")
    return value


def read_xgid(text: str, variant: str | Variant = "standard") -> XGIDFields:
    """Read an XGID (the ``XGID=`` prefix is optional) into plain fields.

    The counts are checked per side (at most ``variant.checkers``); whether they make
    a position is for :class:`gammon.Position` to say.

    >>> read_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:7")
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidNotationError: invalid XGID 'XGID=-b----E-C---eE---c-e----B-:0:0:1:7': expected 10 fields separated by ':', got 5
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"invalid XGID {text!r}: expected text")
    body = text.strip()
    if body.startswith("XGID="):
        body = body[5:]
    fields = body.split(":")
    if len(fields) != 10:
        raise InvalidNotationError(
            f"invalid XGID {text!r}: expected 10 fields separated by ':', got {len(fields)}"
        )
    board = fields[0]
    if len(board) != 26:
        raise InvalidNotationError(f"invalid XGID {text!r}: the board has 26 characters")
    signed = []
    for ch in board:
        if ch == "-":
            signed.append(0)
        elif "A" <= ch <= "P":
            signed.append(ord(ch) - 64)
        elif "a" <= ch <= "p":
            signed.append(-(ord(ch) - 96))
        else:
            raise InvalidNotationError(f"invalid XGID {text!r}: bad board character {ch!r}")
    if signed[0] > 0 or signed[25] < 0:
        raise InvalidNotationError(
            f"invalid XGID {text!r}: the top bar is lowercase and the bottom bar uppercase"
        )
    cube_log = _int(fields[1], "cube", text, 0, 15)
    owner = _int(fields[2], "cube owner", text, -1, 1)
    turn = _int(fields[3], "turn", text, -1, 1)
    if turn == 0:
        raise InvalidNotationError(f"invalid XGID {text!r}: turn is 1 or -1")
    dice = fields[4]
    if dice not in _DICE_WORDS and not (
        len(dice) == 2 and dice[0] in "123456" and dice[1] in "123456"
    ):
        raise InvalidNotationError(f"invalid XGID {text!r}: dice {dice!r}")
    score_bottom = _int(fields[5], "score", text, 0, 32767)
    score_top = _int(fields[6], "score", text, 0, 32767)
    rules = _int(fields[7], "rules", text, 0, 255)
    length = _int(fields[8], "match length", text, 0, 32767)
    max_cube = _int(fields[9], "max cube", text, 0, 15)
    v = get_variant(variant)
    if not v.standard_geometry:
        raise InvalidPositionError(
            f"invalid XGID {text!r}: XGID describes only the backgammon board, not {v.name}"
        )
    bottom = [0] * 26
    top = [0] * 26
    for i in range(1, 25):
        if signed[i] > 0:
            bottom[i] = signed[i]
        elif signed[i] < 0:
            top[_THEIR[i]] = -signed[i]
    bottom[25] = signed[25]
    top[25] = -signed[0]
    for side in (bottom, top):
        on_board = sum(side)
        if on_board > v.checkers:
            raise InvalidPositionError(
                f"invalid XGID {text!r}: {on_board} checkers for one side, at most {v.checkers}"
            )
        side[0] = v.checkers - on_board
    player, opponent = (bottom, top) if turn == 1 else (top, bottom)
    return XGIDFields(
        tuple(player),
        tuple(opponent),
        v,
        1 << cube_log,
        owner,
        turn,
        dice,
        score_bottom,
        score_top,
        rules,
        length,
        1 << max_cube,
    )


def xgid_board(position: Sides, turn: int = 1) -> str:
    """The 26-character XGID board of a position; ``turn`` says whether the player on roll is drawn at the bottom (1) or top (-1)."""
    bottom, top = (
        (position.player, position.opponent) if turn == 1 else (position.opponent, position.player)
    )
    chars = [chr(96 + top[25]) if top[25] else "-"]
    for i in range(1, 25):
        if bottom[i]:
            chars.append(chr(64 + bottom[i]))
        elif top[_THEIR[i]]:
            chars.append(chr(96 + top[_THEIR[i]]))
        else:
            chars.append("-")
    chars.append(chr(64 + bottom[25]) if bottom[25] else "-")
    return "".join(chars)


def format_xgid(
    position: Sides,
    *,
    turn: int = 1,
    cube_value: int = 1,
    cube_owner: int = 0,
    dice: str = "00",
    score_bottom: int = 0,
    score_top: int = 0,
    rules: int = 0,
    match_length: int = 0,
    max_cube: int = 1024,
) -> str:
    """XGID text for a position seen from the player on roll, drawn at the bottom when ``turn`` is 1."""
    if cube_value < 1 or cube_value & (cube_value - 1):
        raise InvalidNotationError(f"cube value {cube_value} is not a power of two")
    if max_cube < 1 or max_cube & (max_cube - 1):
        raise InvalidNotationError(f"max cube {max_cube} is not a power of two")
    fields = [
        xgid_board(position, turn),
        str(cube_value.bit_length() - 1),
        str(cube_owner),
        str(turn),
        dice,
        str(score_bottom),
        str(score_top),
        str(rules),
        str(match_length),
        str(max_cube.bit_length() - 1),
    ]
    return "XGID=" + ":".join(fields)
