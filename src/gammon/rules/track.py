"""The track games' rules: plakoto, fevga, long nardy, jacquet and acey-deucey.

Their geometry or restrictions differ from the backgammon board's, so their plays
come from this module's generator; :mod:`gammon.movegen` is not used here.  It reads
the variant (:class:`gammon.variants.Variant`):

* ``movement``: ``opposite`` or ``same``, through :attr:`Variant.point_map`.
* ``landing``: ``hit`` (blots go to the bar), ``pin`` (plakoto) or ``block``.
* restrictions: ``head_rule`` (long nardy), ``first_checker_until`` (fevga, jacquet),
  ``prime_rule`` (long nardy, jacquet), ``start_quarter_rule`` and ``must_open_prime``
  (fevga),
  ``enter_from_off`` and ``bonus_roll`` (acey-deucey); ``mother_rule`` (plakoto) is
  read by :func:`gammon.rules.base.game_result`.

The generator tries every order of the dice, checks each step on the board reached so
far, records every prefix as a candidate, drops the candidates whose final board
breaks the prime or starting-quarter rule, then keeps those that use the most dice
(and the larger die when only one of two can be played): the maximal-usage rule of
rules.md R10 applied after each variant's restrictions.  Fevga's obligation to open a
prime that traps every opposing checker then chooses among those plays.

>>> from gammon import Position
>>> start = Position.initial("long-nardy")
>>> [str(m) for m in start.legal_moves("65")]
['24/13']
>>> sorted(str(m) for m in start.legal_moves("66"))
['24/18(2)']
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence
from functools import lru_cache

from gammon.dice import Dice
from gammon.errors import InvalidPositionError
from gammon.notation.movetext import Path, format_move
from gammon.rules.base import (
    LazyPlays,
    PositionLike,
    RawPlay,
    RawStep,
    Sides,
    StepLike,
    StepSearch,
    VariantRules,
    check_counts,
    path_ends,
    search_steps,
)
from gammon.rules.bonus import _BYTE, _HIT, BonusPlays, _pack, _unpack
from gammon.variants import Variant

__all__ = ["TrackRules"]

# The generator's board, seen from the mover: m and o are 26 counts, each side in its own
# numbering (0 off, 1..24, 25 bar); mp / op are bit masks of the points (own numbering)
# where that side's checker is pinned; mw / ow are checkers still to enter (acey-deucey).
_State = tuple[tuple[int, ...], tuple[int, ...], int, int, int, int]
# a candidate: (dice used, first die, raw steps as flat (from, to, die, hit) quadruples)
_Candidate = tuple[int, int, tuple[int, ...]]
# a board after the 1 and the 2 of acey-deucey's 1-2: (key, board, raw steps, rank)
_Mid = tuple[int, _State, tuple[int, ...], int]
# a click-to-move node: (board, dice left, head checkers left, 1-2 double still to choose)
_Node = tuple[_State, tuple[int, ...], int, bool]


def _state(pos: PositionLike) -> _State:
    return pos.player, pos.opponent, pos.pinned[0], pos.pinned[1], pos.waiting[0], pos.waiting[1]


class _Generator:
    """One variant's step rules on generator states."""

    def __init__(self, variant: Variant) -> None:
        self.v = variant
        self.their = variant.point_map

    def steps(self, st: _State, die: int, head_left: int) -> list[tuple[int, int, int]]:
        """Legal single steps ``(from, to, kind)`` with ``die``; kind 1 = hit or pin."""
        m, _, mp, _, mw, _ = st
        v = self.v
        out: list[tuple[int, int, int]] = []
        if m[25] or mw:
            t = v.entry_points[die]
            kind = self.landing(st, t)
            if kind >= 0:
                out.append((25, t, kind))
            if m[25]:
                return out
        first = v.first_checker_until
        runner_only = False
        if first:
            passed = m[0] > 0 or any(m[1 : first + 1])
            runner_only = not passed and m[24] < v.checkers
        # every checker home and (plakoto) none of them pinned
        home = not any(m[7:26]) and not mw and not mp
        for s in range(24, 0, -1):
            n = m[s]
            if not n or (mp >> s & 1 and n == 1):
                continue
            if s == 24 and (runner_only or (v.head_rule and not head_left)):
                continue
            t = s - die
            if t > 0:
                kind = self.landing(st, t)
                if kind >= 0:
                    out.append((s, t, kind))
            elif home and (t == 0 or not any(m[s + 1 : 7])):
                out.append((s, 0, 0))
        return out

    def landing(self, st: _State, t: int) -> int:
        """-1 if the mover may not land on ``t``; 1 for a hit or a new pin; else 0."""
        _, o, mp, op, _, _ = st
        q = self.their[t]
        n = o[q]
        if not n:
            return 0
        landing = self.v.landing
        if landing == "block" or n >= 2:
            return -1
        if landing == "hit":
            return 1
        # pin: a lone opposing checker, unless it pins one of ours
        if mp >> t & 1:
            return -1
        return 0 if op >> q & 1 else 1

    def play(self, st: _State, s: int, t: int, kind: int) -> _State:
        m, o, mp, op, mw, ow = st
        ml = list(m)
        if s == 25 and not m[25]:
            mw -= 1
        else:
            ml[s] -= 1
        ml[t] += 1
        if s != 25 and not ml[s] and self.v.landing == "pin":
            op &= ~(1 << self.their[s])  # the pinned checker under it is free again
        if kind:
            q = self.their[t]
            if self.v.landing == "hit":
                ol = list(o)
                ol[q] -= 1
                ol[25] += 1
                o = tuple(ol)
            else:
                op |= 1 << q
        return tuple(ml), o, mp, op, mw, ow

    def prime_ok(self, st: _State) -> bool:
        """No six consecutive blocked points unless an opposing checker is past them.

        Jacquet: unless the mover holds its own 1- and 2-points.
        """
        m, o = st[0], st[1]
        if self.v.prime_needs_last_points and m[1] and m[2]:
            return True
        blocked = [False] * 26
        for p in range(1, 25):
            if m[p]:
                blocked[self.their[p]] = True
        run = 0
        for q in range(24, 0, -1):  # the opponent's numbering, the way it travels
            run = run + 1 if blocked[q] else 0
            if run >= 6 and (self.v.prime_needs_last_points or not any(o[1:q])):
                return False
        return True

    def trapping_prime(self, st: _State) -> tuple[int, ...]:
        """Fevga: the mover's six points in a row right in front of every opposing checker
        left on the board (all on one point), in the mover's numbering; else ``()``.
        """
        m, o = st[0], st[1]
        on_board = [q for q in range(1, 26) if o[q]]
        if len(on_board) != 1 or on_board[0] < 7 or on_board[0] == 25:
            return ()
        q0 = on_board[0]
        span = tuple(self.their[q] for q in range(q0 - 6, q0))
        return span if all(m[p] for p in span) else ()

    def head_allowance(self, st: _State, dice: Sequence[int]) -> int:
        if not self.v.head_rule:
            return 4
        m = st[0]
        if m[24] == self.v.checkers and dice[0] == dice[-1] and dice[0] in self.v.head_doubles:
            return 2
        return 1

    def plays(self, st: _State, d1: int, d2: int) -> dict[int, tuple[int, ...]]:
        """Every legal play of one roll (without acey-deucey's bonus): key -> raw steps."""
        hi, lo = max(d1, d2), min(d1, d2)
        orders: list[tuple[int, ...]] = [(d1,) * 4] if d1 == d2 else [(hi, lo), (lo, hi)]
        heads = self.head_allowance(st, (d1, d2))
        leaves: dict[int, _Candidate] = {}
        finals: dict[int, _State] = {}
        seen: set[tuple[int, int, _State, int]] = set()

        def walk(
            oi: int, seq: tuple[int, ...], i: int, cur: _State, raw: tuple[int, ...], head_left: int
        ) -> None:
            marker = (oi, i, cur, head_left)
            if marker in seen:
                return
            seen.add(marker)
            if i:
                key = _pack(cur)
                first = raw[2]
                old = leaves.get(key)
                if old is None or (i, first) > (old[0], old[1]):
                    leaves[key] = (i, first, raw)
                    finals[key] = cur
            if i == len(seq):
                return
            d = seq[i]
            for s, t, kind in self.steps(cur, d, head_left):
                nxt = self.play(cur, s, t, kind)
                more = (*raw, s, t, d, kind)
                walk(oi, seq, i + 1, nxt, more, head_left - (s == 24))  # noqa: F821 (del below)

        for oi, seq in enumerate(orders):
            walk(oi, seq, 0, st, (), heads)
        del walk  # a closure that refers to itself: free it now
        if self.v.prime_rule:
            leaves = {k: c for k, c in leaves.items() if self.prime_ok(finals[k])}
        if self.v.start_quarter_rule:
            leaves = {k: c for k, c in leaves.items() if not all(finals[k][0][19:25])}
        most = max((c[0] for c in leaves.values()), default=0)
        if not most:
            return {}
        best = {k: c for k, c in leaves.items() if c[0] == most}
        if most == 1 and d1 != d2:
            high = max(d1, d2)
            if any(c[1] == high for c in best.values()):
                best = {k: c for k, c in best.items() if c[1] == high}
        prime = self.trapping_prime(st) if self.v.must_open_prime else ()
        if prime:
            opened = {k: c for k, c in best.items() if not all(finals[k][0][p] for p in prime)}
            best = opened or best
        return {k: c[2] for k, c in sorted(best.items(), key=lambda kc: kc[1][2])}

    def all_plays(self, st: _State, d1: int, d2: int) -> dict[int, tuple[int, ...]]:
        """Every legal play, acey-deucey's 1-2 (then a double of one's choice) included."""
        first = self.plays(st, d1, d2)
        if not (self.v.bonus_roll and {d1, d2} == {1, 2}):
            return first
        if any(len(raw) < 8 for raw in first.values()):
            return first  # the 1-2 itself could not be played in full: the rest is lost
        return self.bonus_plays(first)

    def bonus_plays(self, first: dict[int, tuple[int, ...]]) -> dict[int, tuple[int, ...]]:
        """The 1-2 plays ``first`` (in order), each followed by the double of each number.

        A play's double is played as far as it can be from the board the 1-2 left
        (:meth:`plays` with that double, every step of it).  Rather than search once per
        1-2 play and double, each double is searched breadth-first from all the 1-2
        boards at once, so a board that several of them reach is expanded once; the
        last layer needs board keys only (:meth:`double_steps`).  A final board keeps the
        longest play that reaches it and, among those, the first in the order of
        ``first`` then of the doubles (1 to 6), with that 1-2 play's first path.  The
        boards come in the order of the search per 1-2 play and double: by the first of
        them that reaches the board, then by the steps of the double.
        """
        mids = [(key, _unpack(key), raw, rank) for rank, (key, raw) in enumerate(first.items())]
        best: dict[int, tuple[int, int, int, tuple[int, ...]]] = {}
        seen: dict[int, tuple[int, int, tuple[int, ...]]] = {}  # the first reach of a board
        for n in range(1, 7):
            depth = self._double_depths(mids, n)
            for j in sorted(set(depth)):
                group = [mid for mid, d in zip(mids, depth, strict=True) if d == j]
                for key, (_, raw, rank) in self._double_layer(group, n, j).items():
                    old = best.get(key)
                    if old is None:
                        best[key] = (len(raw), rank, n, raw)
                        seen[key] = (rank, n, raw[8:])
                        continue
                    if (-len(raw), rank, n) < (-old[0], old[1], old[2]):
                        best[key] = (len(raw), rank, n, raw)
                    if (rank, n) < seen[key][:2]:
                        seen[key] = (rank, n, raw[8:])
        return {key: best[key][3] for key in sorted(best, key=seen.__getitem__)}

    def double_steps(
        self, key: int, st: _State, die: int, bound: int
    ) -> list[tuple[int, int, int, int]]:
        """Acey-deucey's steps of ``die`` from points at or below ``bound``, as
        ``(from, to, kind, key after)``: :meth:`steps` on a board of hits with no pins,
        head or runner rule, computing the key after without building the board.

        Every play of a double reaches its board also with its steps taken from the
        highest point down, and the first play in :meth:`steps` order is such a one;
        so a search that starts each step at or below the previous one misses no board
        and keeps the same first play.
        """
        m, o, _, _, mw, _ = st
        their = self.their
        out: list[tuple[int, int, int, int]] = []
        if bound == 25 and (m[25] or mw):
            t = self.v.entry_points[die]
            c = o[their[t]]
            if c < 2:
                gone = _BYTE[25] if m[25] else _BYTE[52]
                out.append((25, t, c, key - gone + _BYTE[t] + (_HIT[their[t]] if c else 0)))
            if m[25]:
                return out
        top = bound if bound < 24 else 24
        for s in range(top, die, -1):  # steps to a point (they come from above the die)
            if m[s]:
                t = s - die
                q = their[t]
                c = o[q]
                if c < 2:
                    out.append((s, t, c, key - _BYTE[s] + _BYTE[t] + (_HIT[q] if c else 0)))
        if not mw and not any(m[7:26]):  # every checker home: bear off, from the die's point down
            for s in range(min(top, die), 0, -1):
                if m[s] and (s == die or not any(m[s + 1 : 7])):
                    out.append((s, 0, 0, key - _BYTE[s] + 1))
        return out

    def _double_depths(self, mids: list[_Mid], n: int) -> list[int]:
        """How many steps of ``n`` (0..4) each board of ``mids`` can play."""
        memo: dict[tuple[int, int, int], int] = {}

        def reach(key: int, st: _State, k: int, bound: int) -> int:
            found = memo.get((key, k, bound))
            if found is None:
                found = 0
                for s, t, kind, after in self.double_steps(key, st, n, bound):
                    got = 1
                    if k > 1:
                        nxt = self.play(st, s, t, kind)
                        got += reach(after, nxt, k - 1, s)  # noqa: F821 (del below)
                    found = max(found, got)
                    if found == k:
                        break
                memo[key, k, bound] = found
            return found

        depths = [reach(key, st, 4, 25) for key, st, _, _ in mids]
        del reach  # a closure that refers to itself: free it now
        return depths

    def _double_layer(
        self, mids: list[_Mid], n: int, depth: int
    ) -> dict[int, tuple[_State | None, tuple[int, ...], int]]:
        """The boards ``depth`` steps of ``n`` away from ``mids`` (all of which can play
        exactly that many), each with its first path (``mids`` order, then the order of
        :meth:`steps`) and the rank of the 1-2 play it starts from (the board itself is
        left out, None, after the last step)."""
        layer: dict[int, tuple[_State | None, tuple[int, ...], int]] = {
            key: (st, raw, rank) for key, st, raw, rank in mids
        }
        play = self.play
        for i in range(depth):
            last = i == depth - 1
            nxt: dict[int, tuple[_State | None, tuple[int, ...], int]] = {}
            for key, (st, raw, rank) in layer.items():
                assert st is not None
                bound = raw[-4] if i else 25  # the previous step's point
                for s, t, kind, k2 in self.double_steps(key, st, n, bound):
                    if k2 not in nxt:
                        nxt[k2] = (
                            None if last else play(st, s, t, kind),
                            (*raw, s, t, n, kind),
                            rank,
                        )
            layer = nxt
        return layer


@lru_cache(maxsize=64)
def _bonus(gen: _Generator, st: _State) -> BonusPlays | None:
    # a 1-2 whose 1 and 2 can both be played (else its plays are those of the 1 and the 2)
    first = gen.plays(st, 2, 1)
    if not first or any(len(raw) < 8 for raw in first.values()):
        return None
    return BonusPlays(gen, st, first)


@lru_cache(maxsize=64)
def _all_plays(gen: _Generator, st: _State, d1: int, d2: int) -> dict[int, RawPlay]:
    # a few recent answers are kept: the engine, the server and parse_move ask again
    return gen.all_plays(st, d1, d2)


class TrackRules(VariantRules):
    """The rules of the track family for one variant."""

    __slots__ = ("_gen",)

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self._gen = _Generator(variant)

    # ------------------------------------------------------------------ positions

    def validate(self, pos: PositionLike) -> None:
        """Counts (waiting checkers included), pins only where something pins, no bar
        unless blots are hit."""
        variant = self._variant
        player, opponent, pinned, waiting = pos.player, pos.opponent, pos.pinned, pos.waiting
        n = variant.checkers
        for name, value in (("pinned", pinned), ("waiting", waiting)):
            if (
                not isinstance(value, tuple)
                or len(value) != 2
                or any(type(x) is not int or x < 0 for x in value)
            ):
                raise InvalidPositionError(
                    f"{name} must be two non-negative integers, got {value!r}"
                )
        if any(waiting) and not variant.enter_from_off:
            raise InvalidPositionError(f"{variant.name} has no checkers waiting to enter")
        if any(pinned) and variant.landing != "pin":
            raise InvalidPositionError(f"{variant.name} has no pinned checkers")
        sides = (("player", player, waiting[0]), ("opponent", opponent, waiting[1]))
        check_counts(variant, sides)
        for name, side, _ in sides:
            if side[25] and variant.landing != "hit":
                raise InvalidPositionError(
                    f"{variant.name} has no bar, but {name} has {side[25]} there"
                )
        their = variant.point_map
        for p in range(1, 25):
            q = their[p]
            a, b = player[p], opponent[q]
            mine_pinned, theirs_pinned = pinned[0] >> p & 1, pinned[1] >> q & 1
            if mine_pinned and not (a == 1 and b >= 1):
                raise InvalidPositionError(
                    f"the player's checker on {p} is marked pinned, but nothing pins it"
                )
            if theirs_pinned and not (b == 1 and a >= 1):
                raise InvalidPositionError(
                    f"the opponent's checker on {q} is marked pinned, but nothing pins it"
                )
            if a and b and not (mine_pinned ^ theirs_pinned):
                raise InvalidPositionError(
                    f"point {p} holds checkers of both sides ({a} and {b}) with no pin"
                )
        if pinned[0] >> 25 or pinned[1] >> 25 or pinned[0] & 1 or pinned[1] & 1:
            raise InvalidPositionError("pins are on points 1..24")
        if player[0] == n and opponent[0] == n:
            raise InvalidPositionError("both sides have borne off every checker")

    def is_race(self, pos: PositionLike) -> bool:
        """Whether no checker can meet an opposing one any more.

        Opposite movement: the back checkers' points (25 on the bar or waiting to
        enter) add up to under 25.  Same movement: a checker on its own 13..24 still
        has to pass the other side's starting half, and one on its 1..12 only meets
        checkers that are still there; so no contact is left once neither side has a
        checker on its own 13..24.
        """
        if self._variant.movement == "same":
            return not any(pos.player[13:25]) and not any(pos.opponent[13:25])
        backs = []
        for side, wait in ((pos.player, pos.waiting[0]), (pos.opponent, pos.waiting[1])):
            backs.append(25 if wait else max((p for p in range(25, 0, -1) if side[p]), default=0))
        return backs[0] + backs[1] < 25

    def blots(self, pos: PositionLike) -> frozenset[int]:
        """Points a checker may hit or pin on (none where any opposing checker blocks)."""
        if self._variant.landing == "block":
            return frozenset()
        theirs, their = pos.opponent, self._variant.point_map
        return frozenset(p for p in range(1, 25) if theirs[their[p]] == 1)

    # ------------------------------------------------------------------ plays

    def raw_plays(self, pos: PositionLike, dice: Dice) -> dict[int, RawPlay]:
        """Every legal play with its steps; acey-deucey's 1-2 gives up to six steps."""
        return _all_plays(self._gen, _state(pos), dice.d1, dice.d2)

    def lazy_plays(self, pos: PositionLike, dice: Dice) -> LazyPlays | None:
        """Acey-deucey's 1-2 (when its 1 and 2 can both be played): :class:`BonusPlays`."""
        if not (self._variant.bonus_roll and {dice.d1, dice.d2} == {1, 2}):
            return None
        return _bonus(self._gen, _state(pos))

    def plays(self, pos: PositionLike, dice: Dice) -> tuple[Iterable[int], dict[int, RawPlay]]:
        """The keys of :meth:`raw_plays`, with their steps."""
        found = self.raw_plays(pos, dice)
        return tuple(found), dict(found)

    def after(self, pos: PositionLike, key: int) -> Sides:
        """The key packs the whole board after the play: unpack it and turn it round."""
        m, o, mp, op, mw, ow = _state(pos) if not key else _unpack(key)
        return o, m, (op, mp), (ow, mw)

    def hits(self, pos: PositionLike, key: int) -> int:
        """Checkers sent to the bar (hit) or newly pinned by the play ``key``."""
        if not key:
            return 0
        _, o, _, op, _, _ = _unpack(key)
        if self._variant.landing == "hit":
            return o[25] - pos.opponent[25]
        return (op & ~pos.pinned[1]).bit_count()

    # ------------------------------------------------------------------ move text

    def max_paths(self) -> int:
        """Six checker paths for acey-deucey's 1-2 and its double, else four."""
        return 6 if self._variant.bonus_roll else 4

    def match_paths(
        self, pos: PositionLike, paths: list[Path], dice: Dice, keys: Sequence[int]
    ) -> list[int]:
        """Paths are matched by where they start and end; stopovers are not needed.

        ``*`` marks a hit or a pin and picks between plays that differ only there.
        """
        delta, stars = path_ends(paths)
        raws = self.raw_plays(pos, dice)
        exact: list[int] = []
        loose: list[int] = []
        for key in keys:
            raw = raws[key]
            got = [0] * 26
            hits = set()
            for i in range(0, len(raw), 4):
                got[raw[i]] -= 1
                got[raw[i + 1]] += 1
                if raw[i + 3]:
                    hits.add(raw[i + 1])
            if got == delta and stars <= hits:
                (exact if hits == stars else loose).append(key)
        return exact or loose

    def why_illegal(
        self, pos: PositionLike, paths: list[Path], dice: Dice, keys: Sequence[int]
    ) -> str:
        """The variant's rules, with an example of a legal move."""
        lazy = self.lazy_plays(pos, dice)
        raw = self.raw_plays(pos, dice)[keys[0]] if lazy is None else lazy.raw(keys[0])
        example = format_move(raw, self.blots(pos))
        return f"the {self._variant.name} rules do not allow it; legal moves include {example}"

    # ------------------------------------------------------------------ click to move

    def step_search(
        self,
        pos: PositionLike,
        dice: Dice,
        legal: Container[int],
        need: int,
        played: Sequence[StepLike],
    ) -> StepSearch:
        """The shared search; acey-deucey's 1-2 goes on with any double once played (with
        :class:`BonusPlays` as ``legal``, a node that can play all its dice is not searched)."""
        gen = self._gen
        st = _state(pos)
        left = (dice.d1,) * 4 if dice.is_double else (dice.d1, dice.d2)
        bonus = self._variant.bonus_roll and {dice.d1, dice.d2} == {1, 2}
        start: _Node = (st, left, gen.head_allowance(st, left), bonus)
        where = f"with {dice} in position {pos.position_id()}"
        settled = legal.settled if isinstance(legal, BonusPlays) else None
        walk = _Walk(gen)
        return search_steps(walk, [start], legal, need, played, where, exact=False, settled=settled)


class _Walk:
    """Single steps on click-to-move nodes (the generator's steps, one die at a time)."""

    __slots__ = ("gen",)

    def __init__(self, gen: _Generator) -> None:
        self.gen = gen

    def key(self, node: _Node) -> int:
        return _pack(node[0])

    def left(self, node: _Node) -> tuple[int, ...]:
        return node[1]

    def successors(self, node: _Node) -> list[tuple[RawStep, _Node]]:
        st, left, heads, bonus = node
        choices: list[tuple[int, tuple[int, ...], bool]] = []
        if not left and bonus:
            choices = [(n, (n, n, n), False) for n in range(1, 7)]
        for die in sorted(set(left), reverse=True):
            others = list(left)
            others.remove(die)
            choices.append((die, tuple(others), bonus))
        out: list[tuple[RawStep, _Node]] = []
        gen = self.gen
        for die, rest, still in choices:
            for s, t, kind in gen.steps(st, die, heads):
                nxt: _Node = (gen.play(st, s, t, kind), rest, heads - (s == 24), still)
                out.append(((s, t, die, kind), nxt))
        return out
