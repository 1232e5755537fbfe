"""gnubg Position ID and 20-letter position key, bit-exact with gnubg.

Each side is a 26-tuple in its own numbering: index 0 = borne off, 1..24 = points,
25 = bar.  The 80-bit key holds the side **not** on roll first, then the side on
roll; for each, points 1..24 then the bar, one ``1`` bit per checker followed by
a ``0``.  Bits fill bytes from the least significant bit; the ID is the base64
of the 10 bytes without padding.

>>> start = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
>>> encode_position_id(start, start)
'4HPwATDgc/ABMA'
>>> decode_position_id('4HPwATDgc/ABMA') == (start, start)
True
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Final

from gammon.errors import InvalidNotationError, InvalidPositionError

__all__ = [
    "decode_position_id",
    "decode_position_key",
    "decode_suffixed",
    "encode_position_id",
    "encode_position_key",
    "encode_suffixed",
]

_ID_RE: Final = re.compile(r"^[A-Za-z0-9+/]{14}$")
_KEY_RE: Final = re.compile(r"^[A-P]{20}$")


def _to_bytes(player: tuple[int, ...], opponent: tuple[int, ...]) -> bytes:
    value = 0
    bit = 0
    for side in (opponent, player):
        for i in range(1, 26):
            n = side[i]
            value |= ((1 << n) - 1) << bit
            bit += n + 1
    if bit > 80:
        raise InvalidPositionError("a Position ID holds at most 15 checkers per side")
    return value.to_bytes(10, "little")


def _from_bytes(raw: bytes, text: str, checkers: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    value = int.from_bytes(raw, "little")
    sides: list[tuple[int, ...]] = []
    bit = 0
    for _ in range(2):
        counts = [0] * 26
        for i in range(1, 26):
            n = 0
            while bit < 80 and (value >> bit) & 1:
                n += 1
                bit += 1
            if bit >= 80:
                raise InvalidNotationError(f"invalid Position ID {text!r}: it ends inside a point")
            bit += 1
            counts[i] = n
        on_board = sum(counts)
        if on_board > checkers:
            raise InvalidPositionError(
                f"invalid Position ID {text!r}: {on_board} checkers for one side, at most {checkers}"
            )
        counts[0] = checkers - on_board
        sides.append(tuple(counts))
    if value >> bit:
        raise InvalidNotationError(f"invalid Position ID {text!r}: bits set after the last point")
    opponent, player = sides
    return player, opponent


def encode_position_id(player: tuple[int, ...], opponent: tuple[int, ...]) -> str:
    """The 14-character gnubg Position ID, ``player`` being the side on roll."""
    return base64.b64encode(_to_bytes(player, opponent)).decode("ascii")[:14]


def decode_position_id(text: str, checkers: int = 15) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(player on roll, opponent)`` from a Position ID; ``off`` = ``checkers`` minus the rest.

    Raises :class:`InvalidNotationError` for text that is not a Position ID and
    :class:`InvalidPositionError` for one with too many checkers.

    >>> decode_position_id("4HPwATDgc/AB")
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidNotationError: invalid Position ID '4HPwATDgc/AB': expected 14 characters of A-Z a-z 0-9 + /
    """
    if not isinstance(text, str) or not _ID_RE.match(text):
        raise InvalidNotationError(
            f"invalid Position ID {text!r}: expected 14 characters of A-Z a-z 0-9 + /"
        )
    try:
        raw = base64.b64decode(text + "==", validate=True)
    except binascii.Error as exc:  # pragma: no cover - the regex already checked
        raise InvalidNotationError(f"invalid Position ID {text!r}: {exc}") from None
    return _from_bytes(raw, text, checkers)


def encode_position_key(player: tuple[int, ...], opponent: tuple[int, ...]) -> str:
    """The 20-letter position key of gnubg's training and benchmark files."""
    return "".join(chr(65 + (b >> 4)) + chr(65 + (b & 15)) for b in _to_bytes(player, opponent))


def decode_position_key(text: str, checkers: int = 15) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(player on roll, opponent)`` from a 20-letter position key."""
    if not isinstance(text, str) or not _KEY_RE.match(text):
        raise InvalidNotationError(f"invalid position key {text!r}: expected 20 letters A-P")
    raw = bytes((ord(text[i]) - 65) << 4 | (ord(text[i + 1]) - 65) for i in range(0, 20, 2))
    return _from_bytes(raw, text, checkers)


Pair = tuple[int, int]


def encode_suffixed(
    player: tuple[int, ...], opponent: tuple[int, ...], pinned: Pair, waiting: Pair
) -> str:
    """gammon's Position ID: gnubg's, then plakoto's pins (``:p<player>.<opponent>``, hex
    bit masks) or acey-deucey's checkers still to enter (``:w<player>.<opponent>``) when
    they are not zero.  ``player[0]`` counts the borne-off and the waiting checkers.

    >>> encode_suffixed((0,) * 6 + (15,) + (0,) * 19, (0,) * 6 + (15,) + (0,) * 19, (1, 0), (0, 0))
    '4P8PAADg/w8AAA:p1.0'
    """
    pid = encode_position_id(player, opponent)
    if any(pinned):
        return f"{pid}:p{pinned[0]:x}.{pinned[1]:x}"
    if any(waiting):
        return f"{pid}:w{waiting[0]}.{waiting[1]}"
    return pid


def decode_suffixed(
    text: str, checkers: int = 15
) -> tuple[tuple[int, ...], tuple[int, ...], Pair, Pair]:
    """The sides, pins and waiting checkers of :func:`encode_suffixed`'s text (the
    waiting checkers no longer counted on ``[0]``).

    >>> decode_suffixed("AADgAwAA4AMAAA:w2.0")[2:]
    ((0, 0), (2, 0))
    >>> decode_suffixed("AADgAwAA4AMAAA:x1")
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidNotationError: invalid Position ID 'AADgAwAA4AMAAA:x1': bad suffix 'x1'
    """
    base, pinned, waiting = text, (0, 0), (0, 0)
    if isinstance(text, str) and ":" in text:
        base, _, extra = text.partition(":")
        tag, values = extra[:1], extra[1:].split(".")
        pair = None
        if tag in ("p", "w") and len(values) == 2:
            try:
                pair = (
                    int(values[0], 16 if tag == "p" else 10),
                    int(values[1], 16 if tag == "p" else 10),
                )
            except ValueError:
                pair = None
        if pair is None:
            raise InvalidNotationError(f"invalid Position ID {text!r}: bad suffix {extra!r}")
        pinned, waiting = (pair, (0, 0)) if tag == "p" else ((0, 0), pair)
    player, opponent = decode_position_id(base, checkers)
    player = (player[0] - waiting[0], *player[1:])
    opponent = (opponent[0] - waiting[1], *opponent[1:])
    return player, opponent, pinned, waiting
