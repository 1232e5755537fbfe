"""Move generation for the variants whose geometry is not backgammon's.

Internal module: positions of these variants are :class:`VariantPosition` values, made
by the usual constructors (``Position.initial("fevga")``), and answer the same API as
backgammon positions.  The standard fast generator (:mod:`gammon.movegen`) is not used
or touched here.

A variant is data (:class:`gammon.variants.Variant`); this module reads it:

* ``movement``: ``opposite`` (a point ``p`` is the opponent's ``25 - p``) or ``same``
  (the opponent's ``p - 12`` / ``p + 12``): see :func:`mapping`.
* ``landing``: ``hit`` (blots go to the bar), ``pin`` (plakoto) or ``block``.
* restrictions: ``head_rule`` (long nardy), ``first_checker_until`` (fevga, jacquet),
  ``prime_rule`` (the same-direction games), ``start_quarter_rule`` (fevga),
  ``enter_from_off`` and ``bonus_roll`` (acey-deucey), ``mother_rule`` (plakoto, read
  by :meth:`VariantPosition.result`).

The generator tries every order of the dice, checks each step on the board reached so
far, records every prefix as a candidate, drops the candidates whose final board
breaks the prime or starting-quarter rule, then keeps those that use the most dice (and the larger die
when only one of two can be played): the maximal-usage rule of rules.md R10 applied
after each variant's restrictions.

>>> from gammon import Position
>>> start = Position.initial("long-nardy")
>>> [str(m) for m in start.legal_moves("65")]
['24/13']
>>> sorted(str(m) for m in start.legal_moves("66"))
['24/18(2)']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from gammon.dice import Dice, DiceLike
from gammon.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidNotationError,
    InvalidPositionError,
)
from gammon.move import Move, Step
from gammon.notation.movetext import PASS_WORDS, parse_move_text
from gammon.notation.position_id import decode_position_id, encode_position_id
from gammon.position import GameResult, Position, StepOptions
from gammon.variants import Variant, get_variant

__all__ = ["VariantPosition", "mapping"]

_make_move = tuple.__new__


def mapping(variant: Variant) -> Callable[[int], int]:
    """The opponent's number of the mover's point ``p`` (1..24).

    >>> f = mapping(get_variant("fevga"))
    >>> f(24), f(12), f(1), f(13)
    (12, 24, 13, 1)
    """
    if variant.movement == "same":
        return lambda p: p - 12 if p > 12 else p + 12
    return lambda p: 25 - p


# The generator's board, seen from the mover: m and o are 26 counts, each side in its own
# numbering (0 off, 1..24, 25 bar); mp / op are bit masks of the points (own numbering)
# where that side's checker is pinned; mw / ow are checkers still to enter (acey-deucey).
_State = tuple[tuple[int, ...], tuple[int, ...], int, int, int, int]
# a candidate: (dice used, first die, raw steps as flat (from, to, die, hit) quadruples)
_Candidate = tuple[int, int, tuple[int, ...]]


def _pack(state: _State) -> int:
    """A non-zero integer that identifies a board (the key of a Move)."""
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


class _Rules:
    """One variant's step rules on generator states."""

    def __init__(self, variant: Variant) -> None:
        self.v = variant
        self.opp = mapping(variant)
        self.their = tuple([0] + [self.opp(p) for p in range(1, 25)] + [0])

    def steps(self, st: _State, die: int, head_left: int) -> list[tuple[int, int, int]]:
        """Legal single steps ``(from, to, kind)`` with ``die``; kind 1 = hit or pin."""
        m, _, mp, _, mw, _ = st
        v = self.v
        out: list[tuple[int, int, int]] = []
        if m[25] or mw:
            t = 25 - die
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
                walk(oi, seq, i + 1, nxt, (*raw, s, t, d, kind), head_left - (s == 24))

        for oi, seq in enumerate(orders):
            walk(oi, seq, 0, st, (), heads)
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
        return {k: c[2] for k, c in sorted(best.items(), key=lambda kc: kc[1][2])}

    def all_plays(self, st: _State, d1: int, d2: int) -> dict[int, tuple[int, ...]]:
        """Every legal play, acey-deucey's 1-2 (then a double of one's choice) included."""
        first = self.plays(st, d1, d2)
        if not (self.v.bonus_roll and {d1, d2} == {1, 2}):
            return first
        if any(len(raw) < 8 for raw in first.values()):
            return first  # the 1-2 itself could not be played in full: the rest is lost
        out: dict[int, tuple[int, ...]] = {}
        for key, raw in first.items():
            mid = _unpack(key)
            for n in range(1, 7):
                more = self.plays(mid, n, n)
                if not more:
                    out.setdefault(key, raw)
                for k2, raw2 in more.items():
                    old = out.get(k2)
                    if old is None or len(raw) + len(raw2) > len(old):
                        out[k2] = raw + raw2
        return out


_RULES: dict[str, _Rules] = {}


def _rules(variant: Variant) -> _Rules:
    r = _RULES.get(variant.name)
    if r is None or r.v is not variant:
        r = _RULES[variant.name] = _Rules(variant)
    return r


@lru_cache(maxsize=64)
def _all_plays(variant: Variant, st: _State, d1: int, d2: int) -> dict[int, tuple[int, ...]]:
    # a few recent answers are kept: the engine, the server and parse_move ask again
    return _rules(variant).all_plays(st, d1, d2)


def _check(
    player: object,
    opponent: object,
    variant: Variant,
    pinned: object,
    waiting: object,
) -> None:
    n = variant.checkers
    for name, value in (("pinned", pinned), ("waiting", waiting)):
        if (
            not isinstance(value, tuple)
            or len(value) != 2
            or any(type(x) is not int or x < 0 for x in value)
        ):
            raise InvalidPositionError(f"{name} must be two non-negative integers, got {value!r}")
    assert isinstance(pinned, tuple) and isinstance(waiting, tuple)
    if any(waiting) and not variant.enter_from_off:
        raise InvalidPositionError(f"{variant.name} has no checkers waiting to enter")
    if any(pinned) and variant.landing != "pin":
        raise InvalidPositionError(f"{variant.name} has no pinned checkers")
    sides = []
    for name, side, wait in (("player", player, waiting[0]), ("opponent", opponent, waiting[1])):
        if not isinstance(side, tuple) or len(side) != 26:
            raise InvalidPositionError(f"{name} must be a tuple of 26 counts (off, 1..24, bar)")
        for c in side:
            if type(c) is not int or c < 0:
                raise InvalidPositionError(f"{name} has a bad count {c!r}")
        if sum(side) + wait != n:
            raise InvalidPositionError(
                f"{name} has {sum(side) + wait} checkers (counting those off and waiting), "
                f"{variant.name} needs {n}"
            )
        if side[25] and variant.landing != "hit":
            raise InvalidPositionError(
                f"{variant.name} has no bar, but {name} has {side[25]} there"
            )
        sides.append(side)
    mine, theirs = sides
    f = mapping(variant)
    for p in range(1, 25):
        q = f(p)
        a, b = mine[p], theirs[q]
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
    if mine[0] == n and theirs[0] == n:
        raise InvalidPositionError("both sides have borne off every checker")


@dataclass(frozen=True, slots=True)
class VariantPosition(Position):
    """A position of a variant with its own geometry (see the module docstring).

    ``pinned`` are bit masks (bit ``p`` = own point ``p``) of the player's and the
    opponent's pinned checkers (plakoto); ``waiting`` the checkers each side still has
    to enter from off the board (acey-deucey).  Pinned checkers are counted on their
    point; waiting ones are not on the board (``sum(side) + waiting = 15``).
    """

    pinned: tuple[int, int] = (0, 0)
    waiting: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            object.__setattr__(self, "variant", get_variant(self.variant))
        _check(self.player, self.opponent, self.variant, self.pinned, self.waiting)

    @classmethod
    def _make(cls, st: _State, variant: Variant) -> VariantPosition:
        m, o, mp, op, mw, ow = st
        pos = object.__new__(cls)
        for name, value in (
            ("player", m),
            ("opponent", o),
            ("variant", variant),
            ("pinned", (mp, op)),
            ("waiting", (mw, ow)),
        ):
            object.__setattr__(pos, name, value)
        return pos

    def _state(self) -> _State:
        return (
            self.player,
            self.opponent,
            self.pinned[0],
            self.pinned[1],
            self.waiting[0],
            self.waiting[1],
        )

    # ------------------------------------------------------------------ constructors

    @classmethod
    def initial(cls, variant: str | Variant = "fevga") -> Position:
        v = get_variant(variant)
        side = v.start_counts()
        wait = v.checkers if v.enter_from_off else 0
        return cls(side, side, v, waiting=(wait, wait))

    @classmethod
    def from_position_id(cls, text: str, variant: str | Variant = "fevga") -> Position:
        """A Position ID, with the variant's suffix for pins or waiting checkers.

        Plakoto: ``<ID>:p<player pins>.<opponent pins>`` (hex bit masks); acey-deucey:
        ``<ID>:w<player waiting>.<opponent waiting>``; the suffix is left out when zero.
        """
        v = get_variant(variant)
        if not isinstance(text, str):
            raise InvalidNotationError(f"invalid Position ID {text!r}")
        base, _, extra = text.partition(":")
        pinned = waiting = (0, 0)
        if extra:
            try:
                tag, a, b = extra[0], *extra[1:].split(".")
                values = (int(a, 16), int(b, 16)) if tag == "p" else (int(a), int(b))
            except ValueError:
                raise InvalidNotationError(
                    f"invalid Position ID {text!r}: bad suffix {extra!r}"
                ) from None
            if tag == "p":
                pinned = values
            elif tag == "w":
                waiting = values
            else:
                raise InvalidNotationError(f"invalid Position ID {text!r}: bad suffix {extra!r}")
        player, opponent = decode_position_id(base, v.checkers)
        player = (player[0] - waiting[0], *player[1:])
        opponent = (opponent[0] - waiting[1], *opponent[1:])
        try:
            return cls(player, opponent, v, pinned=pinned, waiting=waiting)
        except InvalidPositionError as exc:
            raise InvalidPositionError(f"invalid Position ID {text!r}: {exc}") from None

    def position_id(self) -> str:
        """The gnubg Position ID of each side's counts in its own numbering, plus a suffix.

        Same-direction games reuse gnubg's encoding with their own mapping; pins and
        checkers still waiting to enter, which gnubg cannot express, go in a suffix
        (see :meth:`from_position_id`).
        """
        pid = encode_position_id(self.player, self.opponent)
        if any(self.pinned):
            return f"{pid}:p{self.pinned[0]:x}.{self.pinned[1]:x}"
        if any(self.waiting):
            return f"{pid}:w{self.waiting[0]}.{self.waiting[1]}"
        return pid

    def position_key(self) -> str:
        """gnubg's 20-letter key has no room for pins or waiting checkers: the ID instead."""
        return self.position_id()

    def to_xgid(self) -> str:
        raise InvalidPositionError(
            f"XGID cannot describe {self.variant.name} positions; use position_id()"
        )

    @property
    def board(self) -> tuple[int, ...]:
        """bgsage's 26-int board: only for the backgammon geometry, so refused here."""
        raise InvalidPositionError(
            f"a {self.variant.name} position has no backgammon board layout; "
            "read player, opponent, pinned and waiting"
        )

    def flipped(self) -> Position:
        m, o, mp, op, mw, ow = self._state()
        return VariantPosition._make((o, m, op, mp, ow, mw), self.variant)

    def __repr__(self) -> str:
        return f"Position.from_position_id({self.position_id()!r}, variant={self.variant.name!r})"

    # ------------------------------------------------------------------ facts

    def pip_count(self) -> tuple[int, int]:
        """Pips still to travel; checkers on the bar or still to enter count 25."""
        return (
            sum(p * c for p, c in enumerate(self.player)) + 25 * self.waiting[0],
            sum(p * c for p, c in enumerate(self.opponent)) + 25 * self.waiting[1],
        )

    def _mother_pinned(self, mine: bool) -> bool:
        pins = self.pinned[0] if mine else self.pinned[1]
        return bool(pins >> 24 & 1)

    def is_drawn(self) -> bool:
        """Plakoto: both mothers (last checkers on the 24-points) pinned."""
        return self.variant.mother_rule and self._mother_pinned(True) and self._mother_pinned(False)

    def result(self) -> GameResult | None:
        """As :meth:`Position.result`, plus plakoto's mother rule (2 points).

        A checker still waiting to enter counts like one on the bar (acey-deucey).
        """
        n = self.variant.checkers
        if self.player[0] == n and self.opponent[0] == n:
            return None
        v = self.variant
        for winner, loser in (("player", self.opponent), ("opponent", self.player)):
            side = self.player if winner == "player" else self.opponent
            if side[0] == n:
                wait = self.waiting[1] if winner == "player" else self.waiting[0]
                if loser[0]:
                    points = 1
                elif any(loser[19:26]) or wait:
                    points = 3 if v.movement == "opposite" else 2
                else:
                    points = 2
                return GameResult(winner, min(points, v.max_result))  # type: ignore[arg-type]
        if v.mother_rule and not self.is_drawn():
            for winner, lost, pinner in (
                ("player", self._mother_pinned(False), self.player),
                ("opponent", self._mother_pinned(True), self.opponent),
            ):
                if lost and not pinner[24]:
                    return GameResult(winner, min(2, v.max_result))  # type: ignore[arg-type]
        return None

    # ------------------------------------------------------------------ moves

    def legal_moves(self, dice: DiceLike) -> tuple[Move, ...]:
        """Every legal move for a roll, one per distinct resulting position (stable order).

        Acey-deucey's 1-2 gives moves of up to six steps: the 1 and the 2, then four
        steps of the double the player chooses (see :meth:`earns_bonus_roll`).
        """
        d = Dice.coerce(dice)
        plays = _all_plays(self.variant, self._state(), d.d1, d.d2)
        memo = dict(plays)
        return tuple(_make_move(Move, (self, d, key, memo)) for key in plays)

    def _raw_plays(self, dice: Dice) -> dict[int, tuple[int, ...]]:
        return _all_plays(self.variant, self._state(), dice.d1, dice.d2)

    def _hit_points(self, key: int) -> int:
        """A bit mask with one bit per checker the move hits (or pins)."""
        if not key:
            return 0
        _, o, _, op, _, _ = _unpack(key)
        if self.variant.landing == "hit":
            count = o[25] - self.opponent[25]
        else:
            count = (op & ~self.pinned[1]).bit_count()
        return (1 << count) - 1

    def _notation_blots(self) -> frozenset[int]:
        f = mapping(self.variant)
        theirs = self.opponent
        if self.variant.landing == "block":
            return frozenset()
        return frozenset(p for p in range(1, 25) if theirs[f(p)] == 1)

    def apply(self, move: Move) -> Position:
        if not isinstance(move, Move):
            raise IllegalMoveError(f"expected a Move, got {move!r}; position {self.position_id()}")
        origin = move.origin
        if origin is not self and origin != self:
            raise IllegalMoveError(
                f"move {move} was made for position {origin.position_id()}, "
                f"not for {self.position_id()}"
            )
        key: int = tuple.__getitem__(move, 2)
        st = self._state() if not key else _unpack(key)
        m, o, mp, op, mw, ow = st
        return VariantPosition._make((o, m, op, mp, ow, mw), self.variant)

    def earns_bonus_roll(self, move: Move) -> bool:
        """Acey-deucey: a 1-2 whose chosen double was played in full rolls again."""
        return self.variant.bonus_roll and move.dice.d1 + move.dice.d2 == 3 and len(move) == 6

    def parse_move(self, text: str, dice: DiceLike) -> Move:
        """The legal move ``text`` describes: paths are matched by where they start and end.

        Stopovers are not needed; ``*`` marks a hit (acey-deucey) or a pin (plakoto) and
        picks between moves that differ only there.
        """
        d = Dice.coerce(dice)
        legal = self.legal_moves(d)
        pid = self.position_id()
        if not isinstance(text, str):
            raise InvalidNotationError(f"invalid move {text!r}: expected text; position {pid}")
        if text.strip().lower() in PASS_WORDS:
            if legal:
                raise IllegalMoveError(
                    f"illegal move {text!r} with {d} in position {pid}: "
                    f"{len(legal)} legal moves exist, such as {legal[0]}"
                )
            return self.pass_move(d)
        try:
            paths = parse_move_text(text, 6 if self.variant.bonus_roll else 4)
        except InvalidNotationError as exc:
            raise InvalidNotationError(f"{exc}; position {pid}") from None
        delta = [0] * 26
        stars: set[int] = set()
        for path in paths:
            delta[path.points[0]] -= 1
            delta[path.points[-1]] += 1
            stars |= {pt for pt, hit in zip(path.points, path.hits, strict=True) if hit}
        matches = []
        for mv in legal:
            raw = mv._raw()
            got = [0] * 26
            hits = set()
            for i in range(0, len(raw), 4):
                got[raw[i]] -= 1
                got[raw[i + 1]] += 1
                if raw[i + 3]:
                    hits.add(raw[i + 1])
            if got == delta and stars <= hits:
                matches.append((mv, hits == stars))
        exact = [mv for mv, same in matches if same]
        found = exact or [mv for mv, _ in matches]
        if len(found) == 1:
            return found[0]
        if found:
            options = ", ".join(str(m) for m in found)
            raise AmbiguousMoveError(
                f"ambiguous move {text!r} with {d} in position {pid}: it can mean {options}"
            )
        if not legal:
            reason = "no move is possible with this roll (write 'pass')"
        else:
            reason = (
                f"the {self.variant.name} rules do not allow it; legal moves include {legal[0]}"
            )
        raise IllegalMoveError(f"illegal move {text!r} with {d} in position {pid}: {reason}")

    def step_options(self, dice: DiceLike, played: Iterable[Step] = ()) -> StepOptions:
        """For click-to-move clients, as :meth:`Position.step_options`.

        The steps offered are those from which some legal move can still be reached;
        acey-deucey's 1-2 goes on with any double once the 1 and the 2 are played.
        """
        d = Dice.coerce(dice)
        legal = {m.key: m for m in self.legal_moves(d)}
        pid = self.position_id()
        done = list(played)
        if not legal:
            if done:
                raise IllegalMoveError(f"no move is possible with {d} in position {pid}")
            return StepOptions((), True, self.pass_move(d), ())
        rules = _rules(self.variant)
        left = (d.d1,) * 4 if d.is_double else (d.d1, d.d2)
        bonus = self.variant.bonus_roll and {d.d1, d.d2} == {1, 2}
        nodes: list[_Node] = [
            (self._state(), left, rules.head_allowance(self._state(), left), bonus)
        ]
        for count, step in enumerate(done):
            found = [
                (s, n)
                for node in nodes
                for s, n in _successors(rules, node)
                if (s[0], s[1]) == (step.from_point, step.to_point)
            ]
            exact = [n for s, n in found if s[2] == step.die]
            nodes = list(dict.fromkeys(exact or [n for _, n in found]))
            if not nodes:
                text = " ".join(map(str, done[: count + 1]))
                raise IllegalMoveError(f"illegal steps {text} with {d} in position {pid}")
        memo: dict[_Node, frozenset[int]] = {}
        steps: dict[tuple[int, int, int], Step] = {}
        complete: Move | None = None
        left_now: tuple[int, ...] = left
        for node in nodes:
            key = _pack(node[0])
            if done and key in legal and complete is None:
                complete = legal[key]
            for (s, t, die, kind), nxt in _successors(rules, node):
                if _reachable(rules, nxt, memo) & legal.keys():
                    steps.setdefault((s, t, die), Step(s, t, die, bool(kind)))
                    left_now = node[1]
        if done and complete is None and not steps:
            raise IllegalMoveError(
                f"steps {' '.join(map(str, done))} cannot be completed into a legal move "
                f"with {d} in position {pid}"
            )
        if not steps:
            left_now = ()
        return StepOptions(tuple(steps.values()), complete is not None, complete, left_now)


# a click-to-move node: (board, dice left, head checkers left, 1-2 double still to choose)
_Node = tuple[_State, tuple[int, ...], int, bool]


def _successors(rules: _Rules, node: _Node) -> list[tuple[tuple[int, int, int, int], _Node]]:
    st, left, heads, bonus = node
    choices: list[tuple[int, tuple[int, ...], bool]] = []
    if not left and bonus:
        choices = [(n, (n, n, n), False) for n in range(1, 7)]
    for die in sorted(set(left), reverse=True):
        others = list(left)
        others.remove(die)
        choices.append((die, tuple(others), bonus))
    out: list[tuple[tuple[int, int, int, int], _Node]] = []
    for die, rest, still in choices:
        for s, t, kind in rules.steps(st, die, heads):
            nxt: _Node = (rules.play(st, s, t, kind), rest, heads - (s == 24), still)
            out.append(((s, t, die, kind), nxt))
    return out


def _reachable(rules: _Rules, node: _Node, memo: dict[_Node, frozenset[int]]) -> frozenset[int]:
    """Keys of every board reachable from ``node`` (itself included)."""
    found = memo.get(node)
    if found is None:
        keys = {_pack(node[0])}
        for _, nxt in _successors(rules, node):
            keys |= _reachable(rules, nxt, memo)
        found = memo[node] = frozenset(keys)
    return found
