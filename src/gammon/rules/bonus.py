"""Acey-deucey's 1-2 answered without listing every play.

After the 1 and the 2 the player picks a double and plays it as far as it can, so one 1-2
can have over 100,000 legal plays (:meth:`gammon.rules.track._Generator.all_plays` lists
them all, in tenths of a second).  Checking one move, answering a click-to-move question
or telling whether there are more than a thousand plays needs far less: :class:`BonusPlays`
lists only the boards the 1 and the 2 leave (the *mids*, in the order of the full list)
and answers the rest per board, lazily:

* whether a board is a legal play: the double ``n`` and the mid it is played from are
  found by undoing steps of ``n`` from that board (:meth:`BonusPlays.sources`), pruned by
  the pips moved and by how many checkers left their starting points; a board is the
  play of mid ``A`` and double ``n`` when it is ``depth(A, n)`` steps of ``n`` from ``A``
  (the most ``A`` can play);
* the steps of a play: those the full list gives it, the 1-2 play of its first mid (among
  its longest plays) then the first play of that double from there;
* where it stands in the full list, so matches and examples come in the same order;
* how many plays there are, up to a limit (keys only, each double searched once per board
  reached, stopping at the limit).

Every answer equals the full enumeration's (``tests/rules/test_bonus.py`` compares them).

>>> from gammon import Position
>>> pos = Position.initial("acey-deucey")
>>> from gammon.dice import Dice
>>> lazy = pos.rules.lazy_plays(pos, Dice(1, 2))
>>> lazy.count(), lazy.count(limit=100), lazy.need()
(177, 101, 6)
>>> lazy.first() == pos.legal_moves((1, 2))[0].key
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final, Protocol

from gammon.notation.movetext import Path
from gammon.rules.base import RawPlay, path_ends

__all__ = ["BOARD_BYTES", "BonusPlays", "board_bytes"]

# The generator's board, seen from the mover (see gammon.rules.track): m and o are 26
# counts, mp / op pin masks (0 here), mw / ow checkers still to enter.
_State = tuple[tuple[int, ...], tuple[int, ...], int, int, int, int]
# a click-to-move node: (board, dice left, head checkers left, 1-2 double still to choose)
_Node = tuple[_State, tuple[int, ...], int, bool]
# how a board is reached: (rank of its mid, the double, steps of the double)
_Source = tuple[int, int, int]


def _pack(state: _State) -> int:
    """A non-zero integer that identifies a board (the key of a play)."""
    m, o, mp, op, mw, ow = state
    data = bytes(m) + bytes(o) + bytes((mw, ow)) + mp.to_bytes(4, "little")
    return int.from_bytes(data + op.to_bytes(4, "little") + b"\x01", "little")


def _unpack(key: int) -> _State:
    data = key.to_bytes(63, "little")
    m = tuple(data[0:26])
    o = tuple(data[26:52])
    mw, ow = data[52], data[53]
    mp = int.from_bytes(data[54:58], "little")
    op = int.from_bytes(data[58:62], "little")
    return m, o, mp, op, mw, ow


#: The bytes of a board in :func:`board_bytes`.
BOARD_BYTES: Final = 63


def board_bytes(keys: Iterable[int]) -> bytes:
    """The boards of play keys (:attr:`gammon.Move.key` of a track game), one after the
    other, :data:`BOARD_BYTES` each, seen from the mover: bytes 0-25 its counts (0 off,
    1-24, 25 bar, its own numbering), 26-51 the opponent's, 52 and 53 the checkers the
    mover and the opponent still have to enter (acey-deucey), then the pins (plakoto).
    For code that reads many boards at once (the nets' search).

    >>> from gammon import Position
    >>> start = Position.initial("acey-deucey")
    >>> key = start.legal_moves((6, 5))[0].key
    >>> data = board_bytes([key])
    >>> len(data), data[52], data[53], tuple(data[26:52]) == start.opponent
    (63, 14, 15, True)
    """
    return b"".join(key.to_bytes(BOARD_BYTES, "little") for key in keys)


#: The weight of byte ``i`` of a key (:func:`_pack`): 0..25 the mover's counts, 26..51
#: the opponent's, 52 the mover's checkers still to enter.
_BYTE: Final = tuple(1 << (8 * i) for i in range(63))
#: A hit on the opponent's point ``q``: one checker from there to its bar (byte 51).
_HIT: Final = tuple(_BYTE[51] - _BYTE[26 + q] if 1 <= q <= 24 else 0 for q in range(26))


class _Gen(Protocol):
    """What this module reads of the track generator (:class:`gammon.rules.track._Generator`)."""

    @property
    def their(self) -> tuple[int, ...]: ...
    def steps(self, st: _State, die: int, head_left: int) -> list[tuple[int, int, int]]: ...
    def play(self, st: _State, s: int, t: int, kind: int) -> _State: ...
    def plays(self, st: _State, d1: int, d2: int) -> dict[int, tuple[int, ...]]: ...
    def double_steps(
        self, key: int, st: _State, die: int, bound: int
    ) -> list[tuple[int, int, int, int]]: ...


def _pips(st: _State) -> int:
    """Pips still to travel (a checker waiting to enter counts 25)."""
    m = st[0]
    return sum(p * c for p, c in enumerate(m)) + 25 * st[4]


class BonusPlays:
    """The legal plays of an acey-deucey 1-2 whose 1 and 2 can both be played, on demand.

    ``st`` is the board before the roll and ``first`` its 1-2 plays
    (:meth:`gammon.rules.track._Generator.plays` with 2 and 1), each eight numbers long.
    A container of play keys: ``key in plays`` says whether the board ``key`` is a legal
    play.  Safe to share between threads (the memos only ever gain the same answers).
    """

    __slots__ = (
        "_count",
        "_doubles",
        "_first",
        "_gen",
        "_mids",
        "_pips",
        "_rank",
        "_reach",
        "_sources",
    )

    def __init__(self, gen: _Gen, st: _State, first: dict[int, RawPlay]) -> None:
        self._gen = gen
        self._first = first
        self._mids = [(st, 0)] + [(_unpack(key), key) for key in first]  # [0]: the start
        self._rank = {key: rank for rank, key in enumerate(first)}
        self._pips = _pips(st)
        self._reach: dict[tuple[int, int, int, int], int] = {}
        self._sources: dict[int, tuple[_Source, ...]] = {}
        self._doubles: dict[tuple[int, int], dict[int, RawPlay]] = {}
        self._count = -1  # all of them, once counted

    # ------------------------------------------------------------------ per mid

    def reach(self, key: int, st: _State, n: int, k: int, bound: int) -> int:
        """How many steps of ``n`` (at most ``k``) the board can play, each from a point
        at or below the last (``bound``: 25 for any)."""
        memo = (n, key, k, bound)
        found = self._reach.get(memo)
        if found is None:
            found = 0
            gen = self._gen
            for s, t, kind, after in gen.double_steps(key, st, n, bound):
                got = 1 + (self.reach(after, gen.play(st, s, t, kind), n, k - 1, s) if k > 1 else 0)
                if got > found:
                    found = got
                    if found == k:
                        break
            self._reach[memo] = found
        return found

    def depth(self, rank: int, n: int) -> int:
        """How many steps of the double ``n`` the mid ``rank`` plays (0..4)."""
        st, key = self._mids[rank + 1]
        return self.reach(key, st, n, 4, 25)

    def double(self, rank: int, n: int) -> dict[int, RawPlay]:
        """The plays of the double ``n`` from the mid ``rank``, in the generator's order."""
        found = self._doubles.get((rank, n))
        if found is None:
            found = self._doubles[rank, n] = self._gen.plays(self._mids[rank + 1][0], n, n)
        return found

    def mids(self) -> tuple[int, ...]:
        """The boards the 1 and the 2 leave (the keys of the 1-2 plays), in the full list's
        order: the rank of a mid is its index here.

        >>> from gammon import Position
        >>> from gammon.dice import Dice
        >>> pos = Position.initial("acey-deucey")
        >>> lazy = pos.rules.lazy_plays(pos, Dice(1, 2))
        >>> len(lazy.mids()), lazy.depth(0, 6)
        (2, 4)
        """
        return tuple(self._first)

    def double_moves(self, key: int, n: int, left: int, bound: int = 25) -> list[tuple[int, int]]:
        """The steps of the double ``n`` from the board ``key`` (from points at or below
        ``bound``) after which ``left - 1`` more steps of it can still be played, each as
        ``(from point, board after)``.  Starting from a mid ``A`` with
        ``left = depth(A, n)`` and going on from each board after with the step's point as
        the bound, every path ends on a legal play, and every play of ``A`` and ``n`` is
        the end of such a path (steps taken from the highest point down).

        >>> from gammon import Position
        >>> from gammon.dice import Dice
        >>> pos = Position.initial("acey-deucey")
        >>> lazy = pos.rules.lazy_plays(pos, Dice(1, 2))
        >>> [s for s, _ in lazy.double_moves(lazy.mids()[0], 6, 4)]
        [25]
        """
        gen = self._gen
        st = _unpack(key)
        out: list[tuple[int, int]] = []
        for s, t, kind, after in gen.double_steps(key, st, n, bound):
            if left <= 1 or self.reach(after, gen.play(st, s, t, kind), n, left - 1, s) == left - 1:
                out.append((s, after))
        return out

    def need(self) -> int:
        """The most steps a legal play takes (6 unless no mid can play a double in full)."""
        most = 0
        for rank in range(len(self._first)):
            for n in range(1, 7):
                most = max(most, self.depth(rank, n))
                if most == 4:
                    return 6
        return 2 + most

    # ------------------------------------------------------------------ one board

    def __contains__(self, key: object) -> bool:
        return isinstance(key, int) and bool(self.sources(key))

    def sources(self, key: int) -> tuple[_Source, ...]:
        """Every ``(rank, n, k)`` such that the board ``key`` is the play of the mid
        ``rank`` and the double ``n``, ``k`` steps of it (empty: not a legal play)."""
        found = self._sources.get(key)
        if found is None:
            found = self._sources[key] = tuple(self._search(key))
        return found

    def _search(self, key: int) -> Iterator[_Source]:
        """Undo steps of each double from the board until a mid that plays exactly that
        many is met.  A mid moved 2 or 3 pips (3 unless a checker bore off with the 2)
        and at most 2 checkers; each step moves 1 to ``n`` pips (``n`` unless it bears
        off) and one checker, so a board undone ``j`` times keeps at most
        ``3 + n * (4 - j)`` pips moved and ``2 + 4 - j`` checkers moved, and with no
        checker borne off the pips moved tell how many steps of ``n`` there were."""
        b = _unpack(key)
        m, o, mp, op, mw, ow = b
        m0, o0, _, _, mw0, ow0 = self._mids[0][0]
        if mp or op or ow != ow0 or o[0] != o0[0] or m[25] > m0[25] or mw > mw0:
            return
        hit = 0
        for q in range(1, 25):
            if o[q] != o0[q]:
                if o0[q] != 1 or o[q]:
                    return
                hit += 1
        if o[25] != o0[25] + hit:
            return
        moved = self._pips - _pips(b)
        spread = sum(c - c0 for c, c0 in zip(m[:25], m0[:25], strict=True) if c > c0)
        if moved < 2 or spread > 6:
            return
        off = m[0] > m0[0]  # without a checker borne off every step moves all its pips
        for n in range(1, 7):
            if moved > 3 + 4 * n or (not off and (moved < 3 or (moved - 3) % n)):
                continue
            last = 4 if off else (moved - 3) // n  # the steps of n the board is after a mid
            level: dict[int, tuple[_State, int, int]] = {key: (b, moved, spread)}
            for j in range(last + 1):
                for k2 in level if off or j == last else ():
                    rank = self._rank.get(k2)
                    if rank is not None and self.depth(rank, n) == j:
                        yield rank, n, j
                if j == last:
                    break
                level = self._undo(level, n, 3 - j)
                if not level:
                    break

    def _undo(
        self, level: dict[int, tuple[_State, int, int]], n: int, left: int
    ) -> dict[int, tuple[_State, int, int]]:
        """The boards one step of ``n`` before those of ``level`` that may still be
        ``left`` more steps after a mid (checked forwards: the step is legal there)."""
        m0, o0, _, _, mw0, _ = self._mids[0][0]
        their = self._gen.their
        top_pips = 3 + n * left
        out: dict[int, tuple[_State, int, int]] = {}
        for key, (st, moved, spread) in level.items():
            m, o, _, _, mw, _ = st
            restore = o[25] > o0[25]
            found: list[tuple[int, int, int]] = []  # (key before, pips moved, checkers moved)
            for t in range(25):
                c = m[t]
                if not c:
                    continue
                gone = spread - 1 if c > m0[t] else spread
                if t == 0:
                    if c > m0[0]:
                        for s in range(1, n + 1):
                            got = gone + (m[s] >= m0[s])
                            found.append((key - 1 + _BYTE[s], moved - s, got))
                    continue
                s = t + n
                if s > 25:
                    continue
                before = key - _BYTE[t]
                if s < 25:
                    cand = [(before + _BYTE[s], gone + (m[s] >= m0[s]))]
                else:
                    cand = []
                    if m[25] < m0[25]:
                        cand.append((before + _BYTE[25], gone))
                    if not m[25] and mw < mw0:
                        cand.append((before + _BYTE[52], gone))
                q = their[t]
                for k2, got in cand:
                    found.append((k2, moved - n, got))
                    if restore and not o[q] and o0[q] == 1:
                        found.append((k2 - _HIT[q], moved - n, got))
            for k2, pips, got in found:
                if k2 in out or pips < 2 or pips > top_pips or got > 2 + left:
                    continue
                prev = _unpack(k2)
                if any(a == key for _, _, _, a in self._gen.double_steps(k2, prev, n, 25)):
                    out[k2] = (prev, pips, got)
        return out

    def raw(self, key: int) -> RawPlay:
        """The steps of the legal play ``key`` as the full list gives them: its longest
        ways, the first mid and double among them, that double's first play from there."""
        found = self.sources(key)
        most = max(k for _, _, k in found)
        rank, n = min((r, n) for r, n, k in found if k == most)
        head = self._first[self._mids[rank + 1][1]]
        return head + self.double(rank, n)[key] if most else head

    def order(self, key: int) -> tuple[int, int, RawPlay]:
        """Where the legal play ``key`` comes in the full list (a sort key): its first mid
        and double (any length), then that double's play in the generator's order."""
        rank, n, k = min(self.sources(key))
        return rank, n, self.double(rank, n)[key] if k else ()

    def first(self) -> int:
        """The first legal play in the full list."""
        if not self.depth(0, 1):
            return self._mids[1][1]
        return next(iter(self.double(0, 1)))

    # ------------------------------------------------------------------ all of them

    def count(self, limit: int | None = None) -> int:
        """How many legal plays there are; past ``limit``, ``limit + 1``.

        Keys only: each double is searched once per board it reaches, whichever mid it
        comes from, and the search stops as soon as the count passes the limit."""
        cap = (1 << 62) if limit is None else limit
        if self._count >= 0:
            return min(self._count, cap + 1)
        keys: set[int] = set()
        for n in range(1, 7):
            seen: dict[tuple[int, int], int] = {}
            for rank, (st, key) in enumerate(self._mids[1:]):
                k = self.depth(rank, n)
                if not k:
                    keys.add(key)
                elif self._finals(keys, cap, seen, n, key, st, k, 25):
                    return cap + 1
            if len(keys) > cap:
                return cap + 1
        self._count = len(keys)
        return self._count

    def _finals(
        self,
        keys: set[int],
        cap: int,
        seen: dict[tuple[int, int], int],
        n: int,
        key: int,
        st: _State,
        k: int,
        bound: int,
    ) -> bool:
        """Add to ``keys`` the boards ``k`` steps of ``n`` from the board ``key`` (each
        step from at or below the last, the first at or below ``bound``); True once
        ``keys`` holds more than ``cap``.  ``seen``: for this double, how high a bound
        each (board, steps) was searched with; only the steps above it are new."""
        done = seen.get((key, k), -1)
        if bound <= done:
            return False
        seen[key, k] = bound
        gen = self._gen
        steps = [x for x in gen.double_steps(key, st, n, bound) if x[0] > done]
        if k == 1:
            keys.update([a for _, _, _, a in steps])
        else:
            for s, t, kind, after in steps:
                if self._finals(keys, cap, seen, n, after, gen.play(st, s, t, kind), k - 1, s):
                    return True
        return len(keys) > cap

    # ------------------------------------------------------------------ move text

    def match(self, paths: list[Path]) -> list[int]:
        """The legal plays that ``paths`` can mean, in the order of the full list
        (:meth:`gammon.rules.track.TrackRules.match_paths`): the board they reach with
        the hits written, else with more hits (where a checker could have landed)."""
        delta, stars = path_ends(paths)
        m0, o0, _, _, mw0, ow0 = self._mids[0][0]
        entered = -delta[25]
        m = [a + d for a, d in zip(m0[:25], delta[:25], strict=True)]
        if entered < 0 or min(m) < 0 or entered > m0[25] + mw0:
            return []
        m.append(max(0, m0[25] - entered))
        mw = mw0 - max(0, entered - m0[25])
        their = self._gen.their
        blots = {t for t in range(1, 25) if o0[their[t]] == 1}
        if not stars <= blots:
            return []
        o = list(o0)
        for t in stars:
            o[their[t]] -= 1
            o[25] += 1
        exact = _pack((tuple(m), tuple(o), 0, 0, mw, ow0))
        if exact in self:
            return [exact]
        found = [
            key
            for key in self._ending((tuple(m), o0, 0, 0, mw, ow0))
            if stars < {t for t in blots if not _unpack(key)[1][their[t]]}
        ]
        return sorted(found, key=self.order)

    def _ending(self, target: _State) -> set[int]:
        """The legal plays whose board has the mover's checkers of ``target`` (wherever
        they hit): each mid's doubles searched forwards, only as far as they can still
        reach those checkers (pips to go, checkers still to arrive)."""
        goal_m, goal_w = target[0], target[4]
        goal_pips = _pips(target)
        out: set[int] = set()
        gen = self._gen

        def far(st: _State, r: int, n: int) -> bool:
            """Whether ``r`` steps of ``n`` can no longer turn ``st`` into the goal."""
            m = st[0]
            pips = _pips(st) - goal_pips
            if st[4] < goal_w or pips < r or pips > r * n or (m[0] == goal_m[0] and pips != r * n):
                return True
            return sum(g - c for g, c in zip(goal_m[:25], m[:25], strict=True) if g > c) > r

        def walk(
            key: int, st: _State, n: int, r: int, bound: int, seen: set[tuple[int, int, int]]
        ) -> None:
            if not r:
                if st[0] == goal_m and st[4] == goal_w:
                    out.add(key)
                return
            if (key, r, bound) in seen or far(st, r, n):
                return
            seen.add((key, r, bound))
            for s, t, kind, after in gen.double_steps(key, st, n, bound):
                walk(after, gen.play(st, s, t, kind), n, r - 1, s, seen)  # noqa: F821 (del below)

        for n in range(1, 7):
            seen: set[tuple[int, int, int]] = set()
            for rank, (st, key) in enumerate(self._mids[1:]):
                walk(key, st, n, self.depth(rank, n), 25, seen)
        del walk  # a closure that refers to itself: free it now
        return out

    # ------------------------------------------------------------------ click to move

    def settled(self, node: _Node, depth: int) -> bool:
        """Whether a click-to-move node surely leads to a legal play without searching:
        it can play every die it has left (the 1-2 then reaches a mid, every one of
        which has plays; a double played as far as the node's dice go is as far as any
        way to play it from its mid)."""
        st, left, heads, bonus = node
        if not left:
            return True
        if bonus:
            return len(left) == 1 and bool(self._gen.steps(st, left[0], heads))
        return self.reach(_pack(st), st, left[0], len(left), 25) == len(left)
