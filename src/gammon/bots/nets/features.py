"""The input encoding of the variant nets: one vector per position, per family.

A position is always encoded for its player on roll: the first half of the vector
describes that side, the second half the other side, each in its own numbering
(point ``p`` counts from that side's 24-point start down to its 1-point), so the
encoding of :meth:`~gammon.Position.flipped` is the same vector with its halves
swapped.  Each half holds, TD-Gammon style:

* four units per point 1..24: one, two, three or more checkers, and the excess
  over three (truncated unary counts);
* the checkers borne off, on the bar and still to enter (acey-deucey);
* the pip count and the checkers in the home board (1-6 and off);
* per family a few cheap expert features: plakoto's pinned checkers (one unit per
  point) and the blots in reach of an opposing checker; the hitting game's blots in
  reach; the blocking games' (fevga, long nardy, jacquet) longest row of held points
  in front of the other side's rearmost checker, the held points within six of it,
  and how many of the six points ahead of each opposing checker are held.

Only the public Position API is read: ``player``, ``opponent``, ``variant`` and the
variant positions' pinned and waiting checkers (read in :func:`side_extras`).

>>> from gammon import Position
>>> start = Position.initial("fevga")
>>> x = encode([start])
>>> x.shape == (1, input_size("fevga"))
True
>>> bool((x[0, : x.shape[1] // 2] == x[0, x.shape[1] // 2 :]).all())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from gammon.position import Position
from gammon.variants import get_variant

__all__ = [
    "FAMILIES",
    "Family",
    "encode",
    "encode_sides",
    "family_of",
    "input_size",
    "side_extras",
]

Family = Literal["pin", "block", "hit"]
Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

#: The variants with a net, and their family (by the variant's landing rule).
FAMILIES: Final[dict[str, Family]] = {
    "plakoto": "pin",
    "fevga": "block",
    "long-nardy": "block",
    "jacquet": "block",
    "acey-deucey": "hit",
}

_POINTS: Final = 24
#: Per side: 4 units a point, off, bar, waiting, pips, home.
_BASE: Final = 4 * _POINTS + 5
_EXTRA: Final[dict[Family, int]] = {"pin": _POINTS + 2, "hit": 2, "block": 3}
#: My point p (index 1..24) as the other side numbers it, per direction.
_SAME: Final = np.array(get_variant("fevga").point_map[:25])
_OPPOSITE: Final = np.array(get_variant("standard").point_map[:25])


def family_of(variant: str) -> Family:
    """The family of a variant with a net (``KeyError`` for the others).

    >>> family_of("jacquet")
    'block'
    """
    return FAMILIES[get_variant(variant).name]


def input_size(variant: str) -> int:
    """The length of the encoding of a ``variant`` position.

    >>> input_size("plakoto"), input_size("fevga"), input_size("acey-deucey")
    (254, 208, 206)
    """
    return 2 * (_BASE + _EXTRA[family_of(variant)])


def side_extras(position: Position) -> tuple[int, int, int, int]:
    """Pinned bit masks and waiting checkers: (my pins, their pins, my waiting, their waiting).

    The one place that reads the variant positions' extra state; positions without
    it (the backgammon geometry) have none.
    """
    pinned = getattr(position, "pinned", (0, 0))
    waiting = getattr(position, "waiting", (0, 0))
    return pinned[0], pinned[1], waiting[0], waiting[1]


def _window(marks: Array, lo: int, hi: int) -> Array:
    """``out[:, p]`` = sum of ``marks[:, p - hi .. p - lo]`` (indices below 0 count 0)."""
    c = np.concatenate([np.zeros((marks.shape[0], 1)), np.cumsum(marks, axis=1)], axis=1)
    n = marks.shape[1]
    idx = np.arange(n)
    top = np.clip(idx - lo + 1, 0, n)
    bottom = np.clip(idx - hi, 0, n)
    return np.asarray(c[:, top] - c[:, bottom], dtype=np.float64)


def _reach(mine: Array, theirs: Array, their_entry: Array, pins: Ints | None) -> Array:
    """My free blots within 1-6 and 7-12 pips of an opposing checker (opposite directions).

    An opposing checker on my point ``x`` moves up my numbering; one entering (bar or
    waiting) comes from my 0-point.  Returns two columns scaled to about 0..1.
    """
    attackers = np.zeros((mine.shape[0], 25))
    attackers[:, 1:] = theirs[:, _OPPOSITE[1:]] > 0
    attackers[:, 0] = their_entry > 0
    blots = mine[:, 1:25] == 1
    if pins is not None:
        blots &= pins == 0
    direct = _window(attackers, 1, 6)[:, 1:] > 0
    indirect = (_window(attackers, 7, 12)[:, 1:] > 0) & ~direct
    return np.stack([(blots & direct).sum(1) / 4.0, (blots & indirect).sum(1) / 4.0], axis=1)


def _blocking(mine: Array, theirs: Array) -> Array:
    """My blockade against the other side (same direction): three columns about 0..1."""
    b = mine.shape[0]
    held = np.zeros((b, 25))
    held[:, 1:] = mine[:, _SAME[1:]] > 0  # in the other side's numbering
    occupied = theirs[:, 1:25] > 0
    rear = np.where(occupied.any(1), 24 - np.argmax(occupied[:, ::-1], axis=1), 0)
    # the longest row of held points ahead of the rearmost checker: index minus the last gap
    points = np.arange(1, 25)
    row = (held[:, 1:] > 0) & (points < rear[:, None])
    gap = np.maximum.accumulate(np.where(row, 0, points), axis=1)
    best = (points - gap).max(1)
    ahead = _window(held, 1, 6)
    near = ahead[np.arange(b), rear] * (rear > 0)
    walls = (theirs[:, 1:25] * ahead[:, 1:]).sum(1)
    return np.stack([best / 6.0, near / 6.0, walls / 45.0], axis=1)


def _half(
    mine: Array, theirs: Array, family: Family, pins: tuple[Ints, Ints], wait: tuple[Array, Array]
) -> Array:
    """The half of the encoding that describes ``mine`` (against ``theirs``)."""
    b = mine.shape[0]
    c = mine[:, 1:25]
    units = np.stack(
        [c >= 1, c >= 2, c >= 3, np.maximum(c - 3, 0) / 4.0], axis=2, dtype=np.float64
    ).reshape(b, 4 * _POINTS)
    pips = (mine * np.arange(26)).sum(1) + 25 * wait[0]
    home = mine[:, 0] + mine[:, 1:7].sum(1)
    cols = [
        units,
        np.stack(
            [mine[:, 0] / 15.0, mine[:, 25] / 2.0, wait[0] / 15.0, pips / 200.0, home / 15.0],
            axis=1,
        ),
    ]
    if family == "pin":
        bits = (pins[0][:, None] >> np.arange(1, 25)) & 1
        cols += [bits.astype(np.float64), _reach(mine, theirs, theirs[:, 25], bits)]
    elif family == "hit":
        cols.append(_reach(mine, theirs, theirs[:, 25] + wait[1], None))
    else:
        cols.append(_blocking(mine, theirs))
    return np.concatenate(cols, axis=1)


def encode(positions: Sequence[Position]) -> Array:
    """The encodings of ``positions`` (all of one variant with a net), one row each."""
    me = np.array([p.player for p in positions], dtype=np.float64)
    them = np.array([p.opponent for p in positions], dtype=np.float64)
    extras = np.array([side_extras(p) for p in positions], dtype=np.int64).reshape(-1, 4)
    return encode_sides(positions[0].variant.name, me, them, extras)


def encode_sides(variant: str, me: Array, them: Array, extras: Ints) -> Array:
    """The encodings of boards given as arrays, one row each: the counts of the player on
    roll (``me``) and of the other side (``them``), 26 a row in each side's numbering
    (0 off, 1..24, 25 bar) as :attr:`Position.player`, and :func:`side_extras`' four
    numbers a row.  :func:`encode` of positions; boards that are not positions yet (a
    search's) are encoded without building them.

    >>> from gammon import Position
    >>> start = Position.initial("acey-deucey")
    >>> me = np.array([start.player], dtype=np.float64)
    >>> them = np.array([start.opponent], dtype=np.float64)
    >>> extras = np.array([side_extras(start)])
    >>> bool((encode_sides("acey-deucey", me, them, extras) == encode([start])).all())
    True
    """
    family = family_of(variant)
    pins = (extras[:, 0], extras[:, 1])
    wait = (extras[:, 2].astype(np.float64), extras[:, 3].astype(np.float64))
    return np.concatenate(
        [
            _half(me, them, family, pins, wait),
            _half(them, me, family, pins[::-1], wait[::-1]),
        ],
        axis=1,
    )
