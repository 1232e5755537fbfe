"""A single step of a turn: one checker moved by one die (:class:`Step`).

Defined apart from :mod:`gammon.position`, which re-exports it with :class:`gammon.Move`.

>>> str(Step(24, 18, 6)), point_text(BAR), point_text(OFF)
('24/18', 'bar', 'off')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["BAR", "OFF", "Step", "point_text"]

#: The bar as a "from" point, in the mover's numbering.
BAR: Final = 25
#: Borne off, as a "to" point.
OFF: Final = 0


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
