"""Bounds on reading a match file that anybody may have written: how far a compressed
part may inflate, how many members an archive may hold, how deep SGF variations may
nest, and how long reading one file may take.

A file past a bound is refused with :class:`ReadLimitError` (an
:class:`~gammon.errors.InvalidNotationError`, so a ``ValueError``) saying which bound,
before the work it asks for is done: a 60 KB ``.xg`` file can say "inflate me to
44 GB", and it is refused once the first :attr:`ReadLimits.member_bytes` are out.

:func:`inflate` is the only way the readers decompress; :func:`reading` sets the
bounds (and starts the clock) for what runs inside it, in this thread;
:func:`check_time` is called by the readers' loops, so a file that takes too long to
read stops there (a thread cannot be stopped from outside).

>>> import zlib
>>> bomb = zlib.compress(bytes(10_000_000), 9)
>>> len(bomb) < 10_000
True
>>> inflate(bomb, 1 << 20, "the member temp.xg")
Traceback (most recent call last):
...
gammon.match.formats.limits.ReadLimitError: the member temp.xg inflates to more than 1048576 bytes (1 MiB): refused
>>> len(inflate(zlib.compress(b"abc" * 1000), 3000, "a part"))
3000
>>> with reading(ReadLimits(seconds=0.0)):
...     check_time()
Traceback (most recent call last):
...
gammon.match.formats.limits.ReadTimeError: reading the file took longer than 0 s: refused
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Final

from gammon.errors import InvalidNotationError

__all__ = [
    "DEFAULT_LIMITS",
    "MAX_DIGITS",
    "ReadLimitError",
    "ReadLimits",
    "ReadTimeError",
    "check_time",
    "current_limits",
    "inflate",
    "reading",
    "small_number",
]

#: Bytes of compressed input given to the inflater at a time, and the most it may give
#: back at a time: the clock is looked at between pieces.
_PIECE: Final = 1 << 16


class ReadLimitError(InvalidNotationError):
    """A file past one of the bounds of :class:`ReadLimits` (too large inflated, too many
    members, nested too deep, too long to read)."""

    code = "file_too_large"


class ReadTimeError(ReadLimitError):
    """A file that took longer to read than :attr:`ReadLimits.seconds`."""


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """The bounds on reading one file.

    The defaults are far above what real files need (a long ``.xg`` match with its
    analysis inflates to a few megabytes) and far below what would hurt a server.
    """

    #: Bytes one compressed part (an archive member, its registry) may inflate to.
    member_bytes: int = 16 << 20
    #: Bytes all the compressed parts of one file may inflate to, together.
    total_bytes: int = 32 << 20
    #: Members an archive may hold.
    members: int = 64
    #: How deep SGF game trees (variations) may nest.
    depth: int = 100
    #: Seconds reading one file may take (``None``: no bound).
    seconds: float | None = None

    def __post_init__(self) -> None:
        if min(self.member_bytes, self.total_bytes, self.members, self.depth) < 1:
            raise ValueError("read limits must be positive")
        if self.seconds is not None and self.seconds < 0:
            raise ValueError("the read time limit must be >= 0 seconds")


#: Digits a number written in a match file may have (a length, a score, points, a game
#: or move number): no real file writes more, and Python's ``int`` of a 100,000-digit
#: text is slow, then refused.
MAX_DIGITS: Final = 9


def small_number(digits: str) -> int:
    """The value of decimal ``digits``, refused past :data:`MAX_DIGITS` digits.

    >>> small_number("25"), small_number("0" * 9)
    (25, 0)
    >>> small_number("9" * 100_000)
    Traceback (most recent call last):
    ...
    gammon.match.formats.limits.ReadLimitError: the number 999999999999... has more than 9 digits
    >>> small_number("x")
    Traceback (most recent call last):
    ...
    gammon.match.formats.limits.ReadLimitError: 'x' is not a number
    """
    if not digits.isdecimal():
        raise ReadLimitError(f"{digits[:12]!r} is not a number")
    if len(digits) > MAX_DIGITS:
        raise ReadLimitError(f"the number {digits[:12]}... has more than {MAX_DIGITS} digits")
    return int(digits)


#: The bounds when :func:`reading` sets none.
DEFAULT_LIMITS: Final = ReadLimits()


@dataclass(slots=True)
class _Reading:
    limits: ReadLimits
    deadline: float | None
    inflated: int = 0


_CURRENT: ContextVar[_Reading | None] = ContextVar("gammon_read_limits", default=None)


@contextmanager
def reading(limits: ReadLimits = DEFAULT_LIMITS) -> Iterator[ReadLimits]:
    """Read one file under ``limits``: the clock starts now, and the bytes inflated are
    counted from zero (for :attr:`ReadLimits.total_bytes`)."""
    deadline = None if limits.seconds is None else time.monotonic() + limits.seconds
    token = _CURRENT.set(_Reading(limits, deadline))
    try:
        yield limits
    finally:
        _CURRENT.reset(token)


def _current() -> _Reading:
    found = _CURRENT.get()
    if found is None:  # outside reading(): the defaults, counted for this call only
        return _Reading(DEFAULT_LIMITS, None)
    return found


def current_limits() -> ReadLimits:
    """The bounds in force (:data:`DEFAULT_LIMITS` outside :func:`reading`)."""
    return _current().limits


def check_time() -> None:
    """Refuse the file if reading it has taken longer than its bound."""
    found = _CURRENT.get()
    if found is not None and found.deadline is not None and time.monotonic() > found.deadline:
        raise ReadTimeError(
            f"reading the file took longer than {found.limits.seconds:g} s: refused"
        )


def _size(limit: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if limit >= 1 << shift and limit % (1 << shift) == 0:
            return f"{limit} bytes ({limit >> shift} {unit})"
    return f"{limit} bytes"


def inflate(blob: bytes, limit: int, what: str) -> bytes:
    """``blob`` (a zlib stream) inflated, refused with :class:`ReadLimitError` once more
    than ``limit`` bytes come out, or more than what is left of the reading's
    :attr:`~ReadLimits.total_bytes`; never more than a piece past the bound is held.
    A stream that does not inflate, or is cut short, is an
    :class:`~gammon.errors.InvalidNotationError` naming ``what``."""
    reading_now = _current()
    left = reading_now.limits.total_bytes - reading_now.inflated
    bound = min(limit, left)
    inflater = zlib.decompressobj()
    out = bytearray()
    pending = blob
    try:
        while True:
            # at most one byte past the bound comes out: that byte says "too large"
            piece = inflater.decompress(pending, max(1, min(_PIECE, bound + 1 - len(out))))
            out += piece
            if len(out) > bound:
                if bound < limit:
                    raise ReadLimitError(
                        f"{what} inflates past what is left of the "
                        f"{_size(reading_now.limits.total_bytes)} a file may inflate to: refused"
                    )
                raise ReadLimitError(f"{what} inflates to more than {_size(limit)}: refused")
            check_time()
            pending = inflater.unconsumed_tail
            if inflater.eof or (not pending and not piece):
                break
    except zlib.error as exc:
        raise InvalidNotationError(f"{what} does not inflate ({exc})") from None
    if not inflater.eof:
        raise InvalidNotationError(f"{what} is cut short (its compressed stream does not end)")
    reading_now.inflated += len(out)
    return bytes(out)
