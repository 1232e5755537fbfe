"""Variants as data: start position, checker count, hitter rule, scoring and cube.

A :class:`Variant` is a frozen value.  The standard move generator reads its
``hitter_rule``; variants whose geometry differs (same-direction games such as
long nardy or fevga, pinning games such as plakoto) will plug in a generator of
their own through :attr:`Variant.movement` without touching the standard one.

>>> get_variant("caucasian").hitter_rule
'caucasian'
>>> sorted(VARIANTS)
['caucasian', 'hypergammon', 'nackgammon', 'standard']
>>> get_variant("hypergammon").checkers
3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from gammon.errors import InvalidNotationError

__all__ = ["VARIANTS", "HitterRule", "Movement", "Variant", "get_variant"]

#: ``none``: standard hitting.  ``caucasian``: a checker that hits on the mover's
#: home points 1-6 may not land on a point holding the mover's own checkers for
#: the rest of the turn (rules.md D14).  ``frozen_in_home``: such a checker may not
#: move again that turn (Turkish tavla, rules.md §6.2).
HitterRule = Literal["none", "caucasian", "frozen_in_home"]

#: How checkers travel.  Only ``opposite`` (backgammon geometry: both sides move
#: towards their own 1-point, X's point p is O's point 25-p, hitting blots) is
#: implemented; other geometries are named here so that they can be added as
#: separate generators.
Movement = Literal["opposite"]


@dataclass(frozen=True, slots=True)
class Variant:
    """The rules that change from one backgammon variant to another."""

    name: str
    title: str
    #: Checkers per side.
    checkers: int
    #: Start position of each side, as ``(point, count)`` in that side's own numbering.
    start: tuple[tuple[int, int], ...]
    hitter_rule: HitterRule = "none"
    movement: Movement = "opposite"
    #: The largest result a game can score: 3 counts backgammons, 2 caps at gammon.
    max_result: int = 3
    #: Whether the doubling cube may be used.
    cube: bool = True

    def start_counts(self) -> tuple[int, ...]:
        """One side's start position as 26 counts (0 = borne off, 1..24, 25 = bar)."""
        counts = [0] * 26
        for point, n in self.start:
            counts[point] += n
        return tuple(counts)

    def __repr__(self) -> str:
        return f"get_variant({self.name!r})"


_STANDARD_START: Final = ((24, 2), (13, 5), (8, 3), (6, 5))

VARIANTS: Final[dict[str, Variant]] = {
    v.name: v
    for v in (
        Variant("standard", "Backgammon", 15, _STANDARD_START),
        Variant("nackgammon", "Nackgammon", 15, ((24, 2), (23, 2), (13, 4), (8, 3), (6, 4))),
        Variant("hypergammon", "Hypergammon", 3, ((24, 1), (23, 1), (22, 1))),
        Variant("caucasian", "Caucasian backgammon", 15, _STANDARD_START, hitter_rule="caucasian"),
    )
}


def get_variant(variant: str | Variant) -> Variant:
    """Look a variant up by name (a :class:`Variant` is returned unchanged).

    >>> get_variant("chess")
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidNotationError: unknown variant 'chess'; known: caucasian, hypergammon, nackgammon, standard
    """
    if isinstance(variant, Variant):
        return variant
    try:
        return VARIANTS[variant]
    except (KeyError, TypeError):
        known = ", ".join(sorted(VARIANTS))
        raise InvalidNotationError(f"unknown variant {variant!r}; known: {known}") from None
