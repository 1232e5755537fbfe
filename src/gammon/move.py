"""Steps (one checker, one die) and moves (a whole turn).

>>> from gammon import Position
>>> start = Position.initial()
>>> move = start.parse_move("13/11 24/18", (6, 2))
>>> str(move), [str(step) for step in move]
('24/18 13/11', ['24/18', '13/11'])
>>> move.dice, len(move)
(Dice(6, 2), 2)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from gammon.dice import Dice

if TYPE_CHECKING:
    from gammon.position import Position

__all__ = ["BAR", "OFF", "Move", "Step", "point_text"]

#: The bar as a "from" point, in the mover's numbering.
BAR = 25
#: Borne off, as a "to" point.
OFF = 0


def point_text(point: int) -> str:
    """``25`` is written ``bar`` and ``0`` is ``off``; other points as numbers."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die, in the mover's numbering (25 = bar, 0 = off).

    >>> str(Step(13, 8, 5, hit=True)), str(Step(25, 22, 3)), str(Step(3, 0, 6))
    ('13/8*', 'bar/22', '3/off')
    """

    from_point: int
    to_point: int
    die: int
    hit: bool = False

    def __str__(self) -> str:
        star = "*" if self.hit else ""
        return f"{point_text(self.from_point)}/{point_text(self.to_point)}{star}"


_get = tuple.__getitem__


class Move(tuple):  # type: ignore[type-arg]
    """A whole turn: the steps played with one roll, from a given position.

    Moves come from :meth:`Position.legal_moves` or :meth:`Position.parse_move`,
    so a Move is always legal in the position it was made for.  Two moves are
    equal when they start from the same position and reach the same position,
    whatever the order or notation of their steps.  A Move is a sequence of
    :class:`Step` (``len(move)``, ``move[0]``, ``for step in move``) and its ``str``
    is the canonical notation.
    """

    __slots__ = ()

    # content: (origin Position, Dice, key, memo of steps shared by the moves of one roll)
    @property
    def origin(self) -> Position:
        """The position the move is played from."""
        result: Position = _get(self, 0)
        return result

    @property
    def dice(self) -> Dice:
        """The roll the move plays."""
        result: Dice = _get(self, 1)
        return result

    @property
    def steps(self) -> tuple[Step, ...]:
        """The single-die steps, in the order they are played (built on first use)."""
        raw = self._raw()
        return tuple(
            Step(raw[i], raw[i + 1], raw[i + 2], bool(raw[i + 3])) for i in range(0, len(raw), 4)
        )

    def _raw(self) -> tuple[int, ...]:
        memo: dict[int, tuple[int, ...]] = _get(self, 3)
        key: int = _get(self, 2)
        raw = memo.get(key)
        if raw is None:
            memo.update(_get(self, 0)._raw_plays(_get(self, 1)))
            raw = memo[key]
        return raw

    @property
    def key(self) -> int:
        """An integer that identifies the resulting position among this position's moves."""
        result: int = _get(self, 2)
        return result

    @property
    def hits(self) -> int:
        """How many opposing checkers the move sends to the bar."""
        return self.origin._hit_points(_get(self, 2)).bit_count()

    def is_pass(self) -> bool:
        """Whether the move plays no checker (no legal move existed)."""
        return not _get(self, 2)

    def position_after(self) -> Position:
        """The position after the move, with the opponent on roll (``origin.apply(self)``)."""
        return self.origin.apply(self)

    def __len__(self) -> int:
        return len(self._raw()) // 4

    @overload  # type: ignore[override]
    def __getitem__(self, index: int) -> Step: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Step, ...]: ...
    def __getitem__(self, index: int | slice) -> Step | tuple[Step, ...]:
        return self.steps[index]

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __contains__(self, item: object) -> bool:
        return item in self.steps

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return _get(self, 2) == _get(other, 2) and (
            _get(self, 0) is _get(other, 0) or _get(self, 0) == _get(other, 0)
        )

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return hash((_get(self, 0), _get(self, 2)))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (tuple.__iter__(self),)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_move, (_get(self, 0), _get(self, 1), _get(self, 2)))

    def __str__(self) -> str:
        from gammon.notation.movetext import format_move

        return format_move(self._raw(), _get(self, 0)._notation_blots())

    def __repr__(self) -> str:
        return f"{_get(self, 0)!r}.parse_move({str(self)!r}, {str(_get(self, 1))!r})"


def _rebuild_move(origin: Position, dice: Dice, key: int) -> Move:
    return tuple.__new__(Move, (origin, dice, key, {} if key else {0: ()}))
