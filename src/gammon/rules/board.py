"""The backgammon board's rules: standard, nackgammon, hypergammon, Caucasian, tavla, portes.

The two sides go round the board in opposite directions (a side's point ``p`` is the
other's ``25 - p``), a lone opposing checker is hit to the bar, and the legal plays
come from the fast generator :mod:`gammon.movegen` (its keys are this family's play
keys; the generator is used as it is).

>>> from gammon import Position
>>> [str(m) for m in Position.from_points({13: 1}, {17: 1}).legal_moves("54")]
['13/8*/4', '13/9/4']
"""

from __future__ import annotations

import functools
from collections.abc import Container, Iterable, Sequence
from typing import Final

from gammon import movegen
from gammon.dice import Dice
from gammon.errors import InvalidPositionError
from gammon.notation.movetext import Path
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
    search_steps,
)
from gammon.variants import Variant

__all__ = ["BoardRules", "board_layout", "sides_from_layout"]

_W: Final = movegen.W
_H: Final = movegen.H
_BOARD_MASK: Final = (1 << movegen.BOARD_BITS) - 1
_NONE: Final = (0, 0)

# A click-to-move node: (mover counts, opponent counts on the mover's points, hitters,
# key, dice left).  Under a hitter rule a point may hold hitters and plain checkers.
_Node = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]


@functools.lru_cache(maxsize=512)
def _raw_plays(
    player: tuple[int, ...], opponent: tuple[int, ...], d1: int, d2: int, hitter: str
) -> dict[int, RawPlay]:
    return movegen.generic_plays(list(player), list(opponent[::-1]), d1, d2, hitter)


class BoardRules(VariantRules):
    """The rules of the backgammon-board family for one variant."""

    __slots__ = ("_hitter",)

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self._hitter = variant.hitter_rule

    # ------------------------------------------------------------------ positions

    def validate(self, pos: PositionLike) -> None:
        """Checker counts, no shared point, no pins or waiting checkers."""
        v = self._variant
        n = v.checkers
        if pos.pinned != _NONE or pos.waiting != _NONE:
            raise InvalidPositionError(
                f"{v.name} has no pinned checkers or checkers waiting to enter, "
                f"got pinned={pos.pinned!r}, waiting={pos.waiting!r}"
            )
        check_counts(v, (("player", pos.player, 0), ("opponent", pos.opponent, 0)))
        player, opponent, their = pos.player, pos.opponent, v.point_map
        for p in range(1, 25):
            if player[p] and opponent[their[p]]:
                raise InvalidPositionError(
                    f"point {p} holds checkers of both sides ({player[p]} and {opponent[their[p]]})"
                )
        if player[0] == n and opponent[0] == n:
            raise InvalidPositionError("both sides have borne off every checker")

    def is_race(self, pos: PositionLike) -> bool:
        """The armies have passed each other: the back checkers' points add up to under 25."""
        back = max((p for p in range(25, 0, -1) if pos.player[p]), default=0)
        their_back = max((p for p in range(25, 0, -1) if pos.opponent[p]), default=0)
        return back + their_back < 25

    def blots(self, pos: PositionLike) -> frozenset[int]:
        """The mover's points holding a lone opposing checker."""
        theirs, their = pos.opponent, self._variant.point_map
        return frozenset(p for p in range(1, 25) if theirs[their[p]] == 1)

    # ------------------------------------------------------------------ plays

    def lazy_plays(self, pos: PositionLike, dice: Dice) -> LazyPlays | None:
        """None: the backgammon board's plays are listed in a millisecond."""
        return None

    def plays(self, pos: PositionLike, dice: Dice) -> tuple[Iterable[int], dict[int, RawPlay]]:
        """The fast generator's keys; their steps are found on demand."""
        keys = movegen.play_keys(
            list(pos.player), list(pos.opponent[::-1]), dice.d1, dice.d2, self._hitter
        )
        return keys, {}

    def raw_plays(self, pos: PositionLike, dice: Dice) -> dict[int, RawPlay]:
        """Every legal play with its steps (the reference generator), kept for the last
        positions asked: a server lists a roll's moves, then writes the one played, and
        each needs the steps.  The dict is shared: read it, never change it."""
        return _raw_plays(tuple(pos.player), tuple(pos.opponent), dice.d1, dice.d2, self._hitter)

    def after(self, pos: PositionLike, key: int) -> Sides:
        """The key holds the mover's new counts and, above them, the points it hit on."""
        if not key:
            return pos.opponent, pos.player, _NONE, _NONE
        value = int.from_bytes(bytes(pos.player), "little") + key
        player = tuple((value & _BOARD_MASK).to_bytes(26, "little"))
        hits = value >> movegen.BOARD_BITS
        opponent = pos.opponent
        if hits:
            theirs = list(opponent)
            while hits:
                low = hits & -hits
                theirs[26 - low.bit_length()] -= 1
                theirs[25] += 1
                hits ^= low
            opponent = tuple(theirs)
        return opponent, player, _NONE, _NONE

    def hits(self, pos: PositionLike, key: int) -> int:
        """One bit per point hit, above the mover's counts in the key."""
        value = int.from_bytes(bytes(pos.player), "little") + key
        return (value >> movegen.BOARD_BITS).bit_count()

    # ------------------------------------------------------------------ move text

    def max_paths(self) -> int:
        """Four checker paths at most (a double)."""
        return 4

    def match_paths(
        self, pos: PositionLike, paths: list[Path], dice: Dice, keys: Sequence[int]
    ) -> list[int]:
        """Every reading of the paths with these dice, stopovers and hits included."""
        found, _, _ = _candidate_keys(paths, dice, pos.opponent)
        return [k for k in keys if k in found]

    def why_illegal(
        self, pos: PositionLike, paths: list[Path], dice: Dice, keys: Sequence[int]
    ) -> str:
        """Too few dice played, a ``*`` with no blot, distances that are not the dice."""
        _, dice_counts, no_blot = _candidate_keys(paths, dice, pos.opponent)
        need = len(self.raw_plays(pos, dice)[keys[0]]) // 4
        if dice_counts and max(dice_counts) < need:
            return f"it plays {max(dice_counts)} of the {need} dice that must be played"
        if not dice_counts and no_blot:
            return f"there is no blot to hit on {', '.join(map(str, sorted(no_blot)))}"
        if not dice_counts:
            return "the distances do not match the dice"
        return "the rules do not allow it (see legal_moves)"

    # ------------------------------------------------------------------ click to move

    def step_search(
        self,
        pos: PositionLike,
        dice: Dice,
        legal: Container[int],
        need: int,
        played: Sequence[StepLike],
    ) -> StepSearch:
        """The shared search on boards that remember which checkers hit (hitter rules)."""
        left = (dice.d1,) * 4 if dice.is_double else (dice.d1, dice.d2)
        start: _Node = (pos.player, pos.opponent[::-1], (0,) * 26, 0, left)
        where = f"with {dice} in position {pos.position_id()}"
        return search_steps(_Walk(self._hitter), [start], legal, need, played, where, exact=True)


def board_layout(pos: PositionLike) -> tuple[int, ...]:
    """bgsage's 26-int board seen from the player on roll: ``[1..24]`` the player's
    points, positive for the player and negative for the opponent; ``[25]`` the
    player's bar; ``[0]`` the opponent's bar."""
    b = [0] * 26
    player, opponent, their = pos.player, pos.opponent, pos.variant.point_map
    for p in range(1, 25):
        b[p] = player[p] - opponent[their[p]]
    b[25] = player[25]
    b[0] = opponent[25]
    return tuple(b)


def sides_from_layout(
    board: Sequence[int], variant: Variant
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The player's and the opponent's counts of a :func:`board_layout` board (only the
    backgammon geometry has one)."""
    if not variant.standard_geometry:
        raise InvalidPositionError(
            f"bgsage's board layout describes only the backgammon geometry, not {variant.name} "
            f"(board {list(board)!r})"
        )
    if len(board) != 26:
        raise InvalidPositionError(f"a board has 26 entries, got {len(board)}")
    player = [0] * 26
    opponent = [0] * 26
    their = variant.point_map
    for p in range(1, 25):
        c = board[p]
        if c > 0:
            player[p] = c
        elif c < 0:
            opponent[their[p]] = -c
    if board[25] < 0 or board[0] < 0:
        raise InvalidPositionError("bar counts must not be negative")
    player[25] = board[25]
    opponent[25] = board[0]
    for side in (player, opponent):
        side[0] = variant.checkers - sum(side)
        if side[0] < 0:
            raise InvalidPositionError(f"more than {variant.checkers} checkers for one side")
    return tuple(player), tuple(opponent)


class _Walk:
    """Single steps on click-to-move nodes, under a hitter rule."""

    __slots__ = ("rule",)

    def __init__(self, rule: str) -> None:
        self.rule = rule

    def key(self, node: _Node) -> int:
        return node[3]

    def left(self, node: _Node) -> tuple[int, ...]:
        return node[4]

    def successors(self, node: _Node) -> list[tuple[RawStep, _Node]]:
        """Every single step; moving a hitter or a plain checker are separate choices."""
        m, o, hitters, key, left = node
        rule = self.rule
        out: list[tuple[RawStep, _Node]] = []
        for die in sorted(set(left), reverse=True):
            rest = list(left)
            rest.remove(die)
            for s, t in movegen.step_sources(list(m), list(o), die):
                hit = t > 0 and o[t] == 1
                kinds = [False]
                if rule != "none":
                    kinds = [
                        k for k, ok in ((False, m[s] > hitters[s]), (True, hitters[s] > 0)) if ok
                    ]
                for is_hitter in kinds:
                    if is_hitter and (rule == "frozen_in_home" or (t > 0 and m[t] > 0)):
                        continue
                    m2 = list(m)
                    m2[s] -= 1
                    m2[t] += 1
                    o2 = list(o)
                    if hit:
                        o2[t] = 0
                    h2 = list(hitters)
                    if is_hitter:
                        h2[s] -= 1
                    if rule != "none" and t > 0 and (is_hitter or (hit and t <= 6)):
                        h2[t] += 1
                    k = key + _W[t] - _W[s] + (_H[t] if hit else 0)
                    nxt = (tuple(m2), tuple(o2), tuple(h2), k, tuple(rest))
                    out.append(((s, t, die, int(hit)), nxt))
        return out


def _candidate_keys(
    paths: list[Path], dice: Dice, opponent: tuple[int, ...]
) -> tuple[set[int], set[int], set[int]]:
    """Keys of every reading of ``paths`` with these dice, the dice counts they use, and
    the points where a ``*`` was written with no blot to hit.

    A path segment may take one die or several (each stop is a landing); a
    segment ending off may overshoot with its last die.  A landing on an opposing
    blot hits it; a ``*`` written where nothing can be hit makes the reading fail.
    """
    segments: list[tuple[int, int, bool]] = []
    for path in paths:
        for i in range(len(path.points) - 1):
            segments.append((path.points[i], path.points[i + 1], path.hits[i + 1]))
    o = opponent[::-1]
    dice_pool = [dice.d1] * 4 if dice.is_double else [dice.d1, dice.d2]
    keys: set[int] = set()
    counts: set[int] = set()
    no_blot: set[int] = set()

    def cover(i: int, pool: list[int], landings: list[int], used: int) -> None:
        if i == len(segments):
            key = sum(_W[t] - _W[s] for s, t, _ in segments)
            key += sum(_H[t] for t in set(landings) if t > 0 and o[t] == 1)
            keys.add(key)
            counts.add(used)
            return
        s, t, star = segments[i]
        if star and not (t > 0 and o[t] == 1):
            no_blot.add(t)
            return
        dist = s - t

        def take(pos: int, pool: list[int], stops: list[int], n: int) -> None:
            for j, die in enumerate(pool):
                if j and die in pool[:j]:
                    continue
                nxt = pos - die
                rest = pool[:j] + pool[j + 1 :]
                if nxt == t or (t == 0 and nxt < 0):
                    ends = landings + stops + [t]
                    cover(i + 1, rest, ends, used + n + 1)  # noqa: F821 (del below)
                elif nxt > t:
                    take(nxt, rest, [*stops, nxt], n + 1)  # noqa: F821 (del below)

        if dist > 0:
            take(s, pool, [], 0)
        del take  # closures that refer to themselves: free them now

    cover(0, dice_pool, [], 0)
    del cover
    return keys, counts, no_blot
