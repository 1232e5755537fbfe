"""A two-sided bear-off database: exact values of every short bear-off, built by gammon.

A *side* of a bear-off is a player's checkers on their six home points (every other
checker borne off).  For every pair of sides with at most :data:`MAX_CHECKERS` (6)
checkers each on the six points (924 sides, 853,776 pairs, as gnubg's default two-sided
database), the database holds, for the side on roll:

* ``win``: the cubeless chance of bearing off first, both sides playing to win the race
  (no gammon is possible: fewer than 15 checkers are left, so some are off);
* the exact **money** cubeful equities with the cube ``centred``, ``owned`` by the side
  on roll and owned by the ``opponent``, before the cube action of the side on roll:
  an unlimited cube, no beavers (the Jacoby rule is moot without gammons), per unit of
  the cube (a cube at ``v`` is worth ``v`` times as much).

It is built by :func:`build` (``python -m gammon.bots.bearoff build``) in a few
seconds with numpy, and shipped as ``gammon/bots/data/bearoff6.bin``; reading it needs
only the standard library.  The build orders the pairs by their total pip count, so each
value is worked out from finished ones: one roll takes a side to fewer pips.  With ``p``
the win chance, ``E_c``, ``E_o``, ``E_x`` the three cubeful equities and a roll's plays
``a'`` of the side ``a`` on roll against ``b`` (``+1`` when ``a'`` is empty: all off)::

    p(a, b)   = avg over rolls of max over a' of 1 - p(b, a')
    ND_c      = avg max -E_c(b, a')     ND_o = avg max -E_x(b, a')
    E_x(a, b) = avg max -E_o(b, a')     (the side on roll cannot double)
    E_c(a, b) = max(ND_c, min(1, 2 E_x))    E_o(a, b) = max(ND_o, min(1, 2 E_x))

``min(1, 2 E_x)`` is a double: the opponent passes (+1) or takes and owns a cube at 2.
The win chance is stored in 32-bit fixed point (within 1.2e-10, exact for every use),
the equities in 16 bits as gnubg stores them (within 1.6e-5); the planes are
byte-shuffled and compressed with zlib (6.3 MB, read in about 0.1 s).  Written from the rules; no engine's
code was used.

>>> db = BearoffDatabase.default()
>>> db.checkers, len(db)
(6, 853776)
>>> me, them = (0, 2, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0)   # two on my 2-point, two on their ace
>>> round(db.win_chance(me, them), 6)      # 26 rolls of 36 bear both off
0.722222
>>> e = db.entry(me, them)
>>> round(e.centred, 4), round(e.owned, 4), round(e.opponent_owns, 4)
(0.8889, 0.8889, 0.4444)
"""

from __future__ import annotations

import argparse
import array
import itertools
import math
import struct
import sys
import threading
import time
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal

if TYPE_CHECKING:  # numpy is needed only to build
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "DATA_FILE",
    "EMPTY",
    "MAX_CHECKERS",
    "ROLLS",
    "BearoffDatabase",
    "BearoffEntry",
    "BearoffFormatError",
    "Side",
    "build",
    "home_side",
    "pips",
    "plays",
    "sides",
]

#: A side of a bear-off: its checkers on its points 1..6 (index 0 is point 1).
Side = tuple[int, int, int, int, int, int]
#: Who owns the cube, seen from the side on roll.
Owner = Literal["centered", "me", "opponent"]

#: The most checkers a side of the shipped database has.
MAX_CHECKERS: Final = 6
#: The shipped database's file name inside ``gammon/bots/data``.
DATA_FILE: Final = "bearoff6.bin"
#: A side with every checker borne off.
EMPTY: Final[Side] = (0, 0, 0, 0, 0, 0)
#: The 21 rolls, each with its number of ways out of 36.
ROLLS: Final = tuple(((a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7))

_MAGIC: Final = b"gammon bear-off\n"
_HEADER: Final = struct.Struct("<16sHHI")  # magic, format version, checkers, sides
_VERSION: Final = 1
_P_SCALE: Final = 4294967295.0  # win chance: 32-bit fixed point over 0..1
_E_SCALE: Final = 32767.5  # equities: 16-bit fixed point over -1..1


class BearoffFormatError(ValueError):
    """A bear-off database file that is not one (or not this format's version)."""


# ---------------------------------------------------------------------- sides and plays


def home_side(checkers: tuple[int, ...]) -> Side | None:
    """The bear-off side of a :class:`~gammon.position.Position` side (26 counts), or None.

    None when a checker is outside the home board, or when no checker is borne off yet
    (a gammon would still be possible).

    >>> from gammon.position import Position
    >>> p = Position.from_points({1: 2, 6: 1}, {3: 1})
    >>> home_side(p.player), home_side(Position.initial().player)
    ((2, 0, 0, 0, 0, 1), None)
    """
    if checkers[0] == 0 or any(checkers[7:]):
        return None
    return (checkers[1], checkers[2], checkers[3], checkers[4], checkers[5], checkers[6])


def pips(side: Side) -> int:
    """The pip count of a side.

    >>> pips((2, 0, 0, 0, 0, 1))
    8
    """
    return sum((i + 1) * n for i, n in enumerate(side))


def _one_die(side: Side, die: int) -> Iterator[Side]:
    """Every side reachable by playing one die (bear-offs by the standard rules)."""
    top = max(i for i in range(6) if side[i]) + 1  # the highest occupied point
    off = die if side[die - 1] else top if top < die else 0  # the point borne off from
    if off:
        left = list(side)
        left[off - 1] -= 1
        yield _side(left)
    for point in range(die + 1, top + 1):  # move a checker down within the home board
        if side[point - 1]:
            moved = list(side)
            moved[point - 1] -= 1
            moved[point - die - 1] += 1
            yield _side(moved)


def _side(counts: list[int]) -> Side:
    return (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])


@lru_cache(maxsize=1 << 16)
def plays(side: Side, high: int, low: int) -> tuple[Side, ...]:
    """The sides a roll can leave (:data:`EMPTY`: every checker borne off).

    With every checker home a die can always be played, so a play uses all its dice
    unless the last checker leaves first.

    >>> plays((0, 2, 0, 0, 0, 0), 2, 1)
    ((1, 0, 0, 0, 0, 0),)
    >>> plays((0, 2, 0, 0, 0, 0), 1, 1)
    ((0, 0, 0, 0, 0, 0),)
    """
    orders = [(high,) * 4] if high == low else [(high, low), (low, high)]
    found: set[Side] = set()
    for dice in orders:
        front = {side}
        for die in dice:
            nxt: set[Side] = set()
            for s in front:
                if s == EMPTY:
                    nxt.add(s)
                else:
                    nxt.update(_one_die(s, die))
            front = nxt
        found |= front
    return tuple(sorted(found, reverse=True))


def sides(most: int) -> tuple[Side, ...]:
    """Every side of at most ``most`` checkers, empty first, by pip count (the database's
    order: ``C(6 + most, 6)`` sides).

    >>> len(sides(6)), sides(1)[:3]
    (924, ((0, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0)))
    """
    out: list[Side] = []
    for n in range(most + 1):
        for points in itertools.combinations_with_replacement(range(6), n):
            counts = [0] * 6
            for p in points:
                counts[p] += 1
            out.append(_side(counts))
    out.sort(key=lambda s: (pips(s), sum(s), s))
    return tuple(out)


# ---------------------------------------------------------------------- the database


@dataclass(frozen=True, slots=True)
class BearoffEntry:
    """The values of one pair of sides for the side on roll (see the module notes).

    ``win`` is the cubeless chance of winning; ``centred``, ``owned`` and
    ``opponent_owns`` are money equities per unit of the cube, before the cube action
    of the side on roll, with the cube centred, owned by it, or owned by the opponent.
    """

    win: float
    centred: float
    owned: float
    opponent_owns: float

    def equity(self, owner: Owner) -> float:
        """The cubeful equity with the cube owned by ``owner`` (seen from the side on roll)."""
        if owner == "centered":
            return self.centred
        return self.owned if owner == "me" else self.opponent_owns


class BearoffDatabase:
    """Every pair of sides of at most :attr:`checkers` checkers (see the module notes).

    :meth:`default` reads the shipped database once per process; :func:`build` makes one.
    A pair with an empty side is the end of the game (the side on roll has won if its
    own side is empty, else lost).
    """

    def __init__(
        self,
        checkers: int,
        win: array.array[int],
        centred: array.array[int],
        owned: array.array[int],
        opponent_owns: array.array[int],
    ) -> None:
        self.checkers: Final = checkers
        self.sides: Final = sides(checkers)
        self._index: Final = {s: i for i, s in enumerate(self.sides)}
        n = len(self.sides)
        for plane in (win, centred, owned, opponent_owns):
            if len(plane) != n * n:
                raise BearoffFormatError(f"a plane of {len(plane)} values, not {n * n}")
        self._n: Final = n
        self._win: Final = win
        self._planes: Final = {"centered": centred, "me": owned, "opponent": opponent_owns}

    def __len__(self) -> int:
        return self._n * self._n

    def __repr__(self) -> str:
        return f"BearoffDatabase(checkers={self.checkers}, pairs={len(self)})"

    def covers(self, me: Side, them: Side) -> bool:
        """Whether both sides are in the database.

        >>> BearoffDatabase.default().covers((0, 0, 0, 0, 0, 7), (1, 0, 0, 0, 0, 0))
        False
        """
        return me in self._index and them in self._index

    def _at(self, me: Side, them: Side) -> int:
        try:
            return self._index[me] * self._n + self._index[them]
        except KeyError:
            raise KeyError(
                f"sides {me} and {them}: the database holds up to {self.checkers} checkers a side"
            ) from None

    def win_chance(self, me: Side, them: Side) -> float:
        """The cubeless chance that ``me``, on roll, bears off first."""
        return self._win[self._at(me, them)] / _P_SCALE

    def equity(self, me: Side, them: Side, owner: Owner) -> float:
        """The money cubeful equity of ``me`` on roll, per unit of the cube."""
        return self._planes[owner][self._at(me, them)] / _E_SCALE - 1.0

    def entry(self, me: Side, them: Side) -> BearoffEntry:
        """Every value of the pair, for ``me`` on roll."""
        i = self._at(me, them)
        c, o, x = (self._planes[k][i] / _E_SCALE - 1.0 for k in ("centered", "me", "opponent"))
        return BearoffEntry(self._win[i] / _P_SCALE, c, o, x)

    # ------------------------------------------------------------------ files

    def to_bytes(self) -> bytes:
        """The file: a header and the four byte-shuffled planes, compressed with zlib."""
        header = _HEADER.pack(_MAGIC, _VERSION, self.checkers, self._n)
        planes = [_shuffle(self._win, 4)]
        planes += [_shuffle(self._planes[k], 2) for k in ("centered", "me", "opponent")]
        return header + zlib.compress(b"".join(planes), 9)

    @classmethod
    def from_bytes(cls, data: bytes) -> BearoffDatabase:
        """Read a database written by :meth:`to_bytes`.

        >>> BearoffDatabase.from_bytes(b"not a database")
        Traceback (most recent call last):
        ...
        gammon.bots.bearoff.BearoffFormatError: not a gammon bear-off database: b'not a database'
        """
        if len(data) < _HEADER.size or not data.startswith(_MAGIC):
            raise BearoffFormatError(f"not a gammon bear-off database: {data[:16]!r}")
        _magic, version, checkers, n = _HEADER.unpack_from(data)
        if version != _VERSION:
            raise BearoffFormatError(f"bear-off database format {version}, not {_VERSION}")
        if n != math.comb(6 + checkers, 6):
            raise BearoffFormatError(f"{n} sides for {checkers} checkers")
        try:
            raw = zlib.decompress(data[_HEADER.size :])
        except zlib.error as exc:
            raise BearoffFormatError(f"a damaged bear-off database: {exc}") from None
        pairs = n * n
        if len(raw) != pairs * 10:
            raise BearoffFormatError(f"{len(raw)} bytes of values, not {pairs * 10}")
        win = _unshuffle(raw[: 4 * pairs], "I", 4)
        rest = [
            _unshuffle(raw[4 * pairs + 2 * pairs * k : 4 * pairs + 2 * pairs * (k + 1)], "H", 2)
            for k in range(3)
        ]
        return cls(checkers, win, *rest)

    @classmethod
    def load(cls, path: Path) -> BearoffDatabase:
        """Read a database file."""
        return cls.from_bytes(path.read_bytes())

    @classmethod
    def default(cls) -> BearoffDatabase:
        """The shipped database (read on first use, then kept for the process)."""
        with _DEFAULT_LOCK:
            if not _DEFAULT:
                data = resources.files("gammon.bots").joinpath("data", DATA_FILE).read_bytes()
                _DEFAULT.append(cls.from_bytes(data))
            return _DEFAULT[0]


_DEFAULT: list[BearoffDatabase] = []
_DEFAULT_LOCK: Final = threading.Lock()


def _typecode(width: int) -> str:
    for code in ("H", "I", "L"):
        if array.array(code).itemsize == width:
            return code
    raise RuntimeError(f"no {width}-byte unsigned array type")  # pragma: no cover


def _shuffle(values: array.array[int], width: int) -> bytes:
    """Little-endian bytes, all the first bytes of the values first, then the second..."""
    data = array.array(_typecode(width), values)
    if sys.byteorder == "big":  # pragma: no cover
        data.byteswap()
    raw = data.tobytes()
    return b"".join(raw[k::width] for k in range(width))


def _unshuffle(raw: bytes, kind: Literal["H", "I"], width: int) -> array.array[int]:
    n = len(raw) // width
    out = bytearray(len(raw))
    for k in range(width):
        out[k::width] = raw[k * n : (k + 1) * n]
    values = array.array(_typecode(width), bytes(out))
    if sys.byteorder == "big":  # pragma: no cover
        values.byteswap()
    return values


# ---------------------------------------------------------------------- building


def build(checkers: int = MAX_CHECKERS) -> BearoffDatabase:
    """Work out every pair of sides of at most ``checkers`` checkers (needs numpy).

    Pairs are taken by their total pip count, lowest first; each roll of the side on
    roll leads to pairs of fewer pips, so every value read is already final.  3 to 8
    seconds for 6 checkers on one core (``benchmarks/bearoff.py``).

    >>> small = build(2)
    >>> len(small), round(small.win_chance((0, 2, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0)), 6)
    (784, 0.722222)
    """
    import numpy as np

    if not 1 <= checkers <= 8:
        raise ValueError(f"a side has 1..8 checkers here, not {checkers!r}")
    table = sides(checkers)
    index = {s: i for i, s in enumerate(table)}
    n = len(table)
    pip = [pips(s) for s in table]
    weights = np.array([w for _, w in ROLLS], dtype=np.float64) / 36.0
    successors: list[npt.NDArray[np.intp]] = [np.zeros(0, dtype=np.intp)]
    starts: list[npt.NDArray[np.intp]] = [np.zeros(0, dtype=np.intp)]
    for s in table[1:]:
        after: list[int] = []
        begin: list[int] = []
        for (high, low), _ways in ROLLS:
            begin.append(len(after))
            after.extend(index[a] for a in plays(s, high, low))
        successors.append(np.array(after, dtype=np.intp))
        starts.append(np.array(begin, dtype=np.intp))
    win = np.zeros((n, n))
    centred, owned, theirs = np.zeros((n, n)), np.zeros((n, n)), np.zeros((n, n))
    win[0, :] = 1.0  # the side on roll has no checker left: it has won
    for plane in (centred, owned, theirs):
        plane[0, :], plane[1:, 0] = 1.0, -1.0  # ... and lost when the other has none
    grouped: dict[int, list[int]] = {}
    for i in range(1, n):
        grouped.setdefault(pip[i], []).append(i)
    by_pip = {total: np.array(group, dtype=np.intp) for total, group in grouped.items()}
    for total in range(2, 2 * max(pip) + 1):
        for mine in sorted(by_pip):
            other = by_pip.get(total - mine)
            if other is None:
                continue
            for a in by_pip[mine]:
                cells = np.ix_(other, successors[a])
                seg = starts[a]
                p = np.maximum.reduceat(1.0 - win[cells], seg, axis=1) @ weights
                nd_c = np.maximum.reduceat(-centred[cells], seg, axis=1) @ weights
                nd_o = np.maximum.reduceat(-theirs[cells], seg, axis=1) @ weights
                nd_x = np.maximum.reduceat(-owned[cells], seg, axis=1) @ weights
                double = np.minimum(1.0, 2.0 * nd_x)
                win[a, other] = p
                theirs[a, other] = nd_x
                centred[a, other] = np.maximum(nd_c, double)
                owned[a, other] = np.maximum(nd_o, double)
    return BearoffDatabase(
        checkers,
        _plane(np.rint(win * _P_SCALE), "I"),
        *(_plane(np.rint((e + 1.0) * _E_SCALE), "H") for e in (centred, owned, theirs)),
    )


def _plane(values: npt.NDArray[np.float64], kind: Literal["H", "I"]) -> array.array[int]:
    import numpy as np

    width = 4 if kind == "I" else 2
    native = values.astype(np.uint32 if kind == "I" else np.uint16).tobytes()
    return array.array(_typecode(width), native)


# ---------------------------------------------------------------------- command line


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gammon.bots.bearoff build [--checkers N] [--output FILE]``, or ``show``."""
    parser = argparse.ArgumentParser(prog="python -m gammon.bots.bearoff")
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("build", help="build the database (needs numpy)")
    make.add_argument("--checkers", type=int, default=MAX_CHECKERS)
    make.add_argument(
        "--output",
        type=Path,
        default=Path(__file__).parent / "data" / DATA_FILE,
        help="the file to write (default: the shipped one)",
    )
    show = sub.add_parser("show", help="the values of a pair of sides, e.g. 020000 200000")
    show.add_argument("me")
    show.add_argument("them")
    args = parser.parse_args(argv)
    if args.command == "build":
        start = time.perf_counter()
        db = build(args.checkers)
        data = db.to_bytes()
        args.output.write_bytes(data)
        took = time.perf_counter() - start
        print(f"{db!r}: {len(data):,} bytes in {args.output} ({took:.1f} s)")
        return 0
    me, them = (_parse_side(s) for s in (args.me, args.them))
    print(BearoffDatabase.default().entry(me, them))
    return 0


def _parse_side(text: str) -> Side:
    if len(text) != 6 or not text.isdigit():
        raise SystemExit(f"a side is six digits, the checkers on points 1..6: {text!r}")
    return _side([int(c) for c in text])


if __name__ == "__main__":
    raise SystemExit(main())
