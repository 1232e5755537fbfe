"""Dice: one roll of two dice.

>>> Dice.parse("31")
Dice(3, 1)
>>> Dice(1, 3).high, Dice(1, 3).low, Dice(4, 4).is_double
(3, 1, True)
>>> len(ALL_ROLLS), sum(r.weight for r in ALL_ROLLS)
(21, 36)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from gammon.errors import InvalidNotationError

__all__ = ["ALL_ROLLS", "Dice", "DiceLike"]


@dataclass(frozen=True, slots=True)
class Dice:
    """Two dice, each 1..6, in the order they were rolled.

    Order does not matter for the rules (``Dice(3, 1) == Dice(1, 3)`` is false as
    values, but both give the same legal moves); use :attr:`high`/:attr:`low`.
    """

    d1: int
    d2: int

    def __post_init__(self) -> None:
        for d in (self.d1, self.d2):
            if type(d) is not int or not 1 <= d <= 6:
                raise InvalidNotationError(f"a die must be an integer 1..6, got {d!r}")

    @classmethod
    def parse(cls, text: str) -> Dice:
        """Parse dice written as ``31``, ``3-1``, ``3 1``, ``3,1`` or ``(3, 1)``.

        >>> Dice.parse("6-6")
        Dice(6, 6)
        >>> Dice.parse("07")
        Traceback (most recent call last):
        ...
        gammon.errors.InvalidNotationError: invalid dice '07': write two digits 1..6 such as 31
        """
        digits = [c for c in text if not c.isspace() and c not in "-,/()xX:"]
        if len(digits) != 2 or not all(c in "123456" for c in digits):
            raise InvalidNotationError(f"invalid dice {text!r}: write two digits 1..6 such as 31")
        return cls(int(digits[0]), int(digits[1]))

    @classmethod
    def coerce(cls, dice: DiceLike) -> Dice:
        """Accept a :class:`Dice`, a ``(d1, d2)`` pair or text like ``"31"``."""
        if isinstance(dice, Dice):
            return dice
        if isinstance(dice, str):
            return cls.parse(dice)
        try:
            d1, d2 = dice
        except (TypeError, ValueError):
            raise InvalidNotationError(f"invalid dice {dice!r}: expected two values") from None
        return cls(d1, d2)

    @property
    def high(self) -> int:
        """The larger die."""
        return self.d1 if self.d1 >= self.d2 else self.d2

    @property
    def low(self) -> int:
        """The smaller die."""
        return self.d2 if self.d1 >= self.d2 else self.d1

    @property
    def is_double(self) -> bool:
        """Whether both dice show the same number (played four times)."""
        return self.d1 == self.d2

    @property
    def weight(self) -> int:
        """How many of the 36 ordered rolls give this roll: 1 for a double, else 2."""
        return 1 if self.d1 == self.d2 else 2

    @property
    def pips(self) -> int:
        """Pips the roll is worth: the sum, or four times the number for a double."""
        return 4 * self.d1 if self.d1 == self.d2 else self.d1 + self.d2

    def normalized(self) -> Dice:
        """The same roll with the larger die first."""
        return Dice(self.high, self.low)

    def __str__(self) -> str:
        return f"{self.d1}{self.d2}"

    def __repr__(self) -> str:
        return f"Dice({self.d1}, {self.d2})"


DiceLike = Dice | tuple[int, int] | str

#: The 21 distinct rolls, larger die first: 15 non-doubles (weight 2) and 6 doubles.
ALL_ROLLS: Final[tuple[Dice, ...]] = tuple(Dice(a, b) for a in range(1, 7) for b in range(1, a + 1))
