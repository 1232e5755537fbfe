"""Variants as data: start position, checker count, hitter rule, scoring and cube.

A :class:`Variant` is a frozen value: data only.  The rules object of its family
(:func:`gammon.rules.rules_for`) reads it: the backgammon board (the fast generator
of :mod:`gammon.movegen`, reading ``hitter_rule``) or the track games (same-direction
games such as long nardy or fevga, pinning games such as plakoto, acey-deucey).
The point mapping between the two sides' numberings is written once, here
(:attr:`Variant.point_map`).

>>> get_variant("caucasian").hitter_rule
'caucasian'
>>> sorted(VARIANTS)  # doctest: +NORMALIZE_WHITESPACE
['acey-deucey', 'caucasian', 'fevga', 'hypergammon', 'jacquet', 'long-nardy', 'nackgammon',
 'plakoto', 'portes', 'standard', 'tavla']
>>> get_variant("fevga").geometry()["mapping"]
'q = p - 12 if p > 12 else p + 12'

>>> get_variant("hypergammon").checkers
3

A table may also play a *rotation*: several variants in turn, one per game.  Greek
tavli is portes, plakoto and fevga, game after game:

>>> [game_variant("tavli", n).name for n in range(1, 5)]
['portes', 'plakoto', 'fevga', 'portes']
>>> game_variant("plakoto", 7).name
'plakoto'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from gammon.errors import InvalidNotationError

__all__ = [
    "ENTRY",
    "ROTATIONS",
    "VARIANTS",
    "Family",
    "HitterRule",
    "Landing",
    "Movement",
    "Opening",
    "Variant",
    "game_variant",
    "get_variant",
    "rotation",
]

#: ``none``: standard hitting.  ``caucasian``: a checker that hits on the mover's
#: home points 1-6 may not land on a point holding the mover's own checkers for
#: the rest of the turn (rules.md D14).  ``frozen_in_home``: such a checker may not
#: move again that turn (Turkish tavla, rules.md §6.2).
HitterRule = Literal["none", "caucasian", "frozen_in_home"]

#: How checkers travel.  Both sides always move from their own 24-point towards their
#: own 1-point and bear off from their own 1..6.  ``opposite`` (backgammon geometry):
#: the two sides go round the board in opposite directions, and a side's point ``p`` is
#: the other's point ``25 - p``.  ``same`` (fevga, long nardy, jacquet): both go round
#: the same way, each starting where the other's outer quarter ends, and a side's
#: point ``p`` is the other's point ``p - 12`` (``p > 12``) or ``p + 12`` (``p <= 12``).
Movement = Literal["opposite", "same"]

#: What a checker may do to a point holding opposing checkers.  ``hit``: a lone
#: opposing checker (a blot) is sent to the bar, two or more block.  ``pin``
#: (plakoto): a lone free opposing checker is pinned under the mover and stays there
#: until the pinner leaves; two or more block, and so does a checker pinning the mover's
#: own.  ``block`` (fevga, long nardy, jacquet): any opposing checker blocks the point.
Landing = Literal["hit", "pin", "block"]

#: After the one-die roll-off: the winner plays those two numbers (``play``) or rolls
#: both dice again for the first turn (``reroll``).
Opening = Literal["play", "reroll"]

#: The two rules families: ``board`` (the backgammon board, :mod:`gammon.movegen`) and
#: ``track`` (every other geometry or restriction, :mod:`gammon.rules.track`).
Family = Literal["board", "track"]

#: The point mapping of each movement: ``_POINT_MAPS[movement][p]`` is the other side's
#: number for a side's point ``p`` (1..24); entries 0 and 25 (off, bar) are 0.
_POINT_MAPS: Final[dict[str, tuple[int, ...]]] = {
    "opposite": (0, *range(24, 0, -1), 0),  # q = 25 - p
    "same": (0, *range(13, 25), *range(1, 13), 0),  # q = p + 12 (p <= 12), p - 12 (p > 12)
}
#: Where a checker coming in with each die lands, in the mover's numbering: ``ENTRY[d]`` is
#: the bar (25) less ``d`` steps, ``25 - d`` (1..6; ``ENTRY[0]`` is the bar).  On the
#: backgammon board that is the opponent's point ``d`` (``point_map[d]``); in the other
#: geometries it is where a checker waiting to start, or on the bar, comes in.
ENTRY: Final[tuple[int, ...]] = tuple(25 - d for d in range(7))
#: The same mappings as text for clients, in the words of :attr:`Variant.point_map`.
_MAPPING_TEXT: Final = {"opposite": "q = 25 - p", "same": "q = p - 12 if p > 12 else p + 12"}


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
    landing: Landing = "hit"
    #: The largest result a game can score: 3 counts backgammons, 2 caps at gammon.
    max_result: int = 3
    #: Whether the doubling cube may be used.
    cube: bool = True
    opening: Opening = "play"
    #: Long nardy: one checker per turn may leave the head (own 24); on the first turn
    #: these doubles may take two.
    head_rule: bool = False
    head_doubles: tuple[int, ...] = ()
    #: Fevga / jacquet: until one checker has reached this point (or lower), only one
    #: checker may leave the 24-point (0: no such rule).
    first_checker_until: int = 0
    #: No six consecutive blocking points unless an opposing checker is already past them.
    prime_rule: bool = False
    #: Jacquet's form of the prime rule: six in a row only once the mover holds its own
    #: 1- and 2-points (the last two of its track), whatever the opposing checkers.
    prime_needs_last_points: bool = False
    #: Fevga: a side may not hold all six points of its starting quarter (19-24) at once.
    start_quarter_rule: bool = False
    #: Fevga: when every opposing checker left on the board sits on the point right
    #: behind six points in a row held by the mover, the mover must open one of them
    #: (when some play that the dice rules allow does).
    must_open_prime: bool = False
    #: Plakoto: a player whose last checker on the 24-point is pinned there loses 2
    #: (unless the pinner still has checkers on its own 24-point).
    mother_rule: bool = False
    #: Acey-deucey: every checker starts off the board and enters as from the bar;
    #: the 1-2 roll is followed by a double of the player's choice and another roll.
    enter_from_off: bool = False
    bonus_roll: bool = False

    @property
    def family(self) -> Family:
        """Which rules object plays the variant (:func:`gammon.rules.rules_for`).

        >>> get_variant("tavla").family, get_variant("plakoto").family
        ('board', 'track')
        """
        return "board" if self.standard_geometry else "track"

    @property
    def standard_geometry(self) -> bool:
        """Whether the fast backgammon generator plays this variant (opposite, hit, bar)."""
        return (
            self.movement == "opposite"
            and self.landing == "hit"
            and not (
                self.head_rule
                or self.first_checker_until
                or self.prime_rule
                or self.mother_rule
                or self.enter_from_off
                or self.bonus_roll
            )
        )

    def geometry(self) -> dict[str, str]:
        """What a client needs to draw the board: direction, landing and point mapping.

        ``mapping`` turns a point ``p`` of one side into the other side's number ``q``
        for the same physical point (both sides always count from their own 24 down
        to their own 1 and bear off from their own 1..6).
        """
        return {
            "direction": self.movement,
            "landing": self.landing,
            "mapping": _MAPPING_TEXT[self.movement],
        }

    @property
    def point_map(self) -> tuple[int, ...]:
        """The point mapping, written once: ``point_map[p]`` is the other side's number for
        a side's point ``p`` (1..24); ``point_map[0]`` and ``point_map[25]`` are 0.

        Both sides count from their own 24 down to their own 1.  ``opposite`` movement:
        ``q = 25 - p``; ``same`` (fevga, long nardy, jacquet): ``q = p - 12`` for
        ``p > 12``, else ``p + 12``.  The mapping is its own inverse.

        >>> get_variant("standard").point_map[1:4], get_variant("fevga").point_map[1:4]
        ((24, 23, 22), (13, 14, 15))
        """
        return _POINT_MAPS[self.movement]

    @property
    def entry_points(self) -> tuple[int, ...]:
        """:data:`ENTRY`: ``entry_points[d]`` is the mover's point that a checker coming
        in (from the bar, or waiting to start) reaches with die ``d``, ``25 - d``.

        >>> get_variant("standard").entry_points[6], get_variant("fevga").entry_points[1]
        (19, 24)
        """
        return ENTRY

    def other_point(self, point: int) -> int:
        """The other side's number for the mover's point ``point`` (1..24).

        >>> get_variant("standard").other_point(6), get_variant("long-nardy").other_point(6)
        (19, 18)
        """
        if type(point) is not int or not 1 <= point <= 24:
            raise InvalidNotationError(f"point {point!r} is not 1..24")
        return _POINT_MAPS[self.movement][point]

    def describe(self) -> dict[str, object]:
        """A JSON-ready description for clients (the lobby and the board drawing).

        >>> d = get_variant("fevga").describe()
        >>> d["geometry"]["direction"], d["cube"], d["max_result"], d["start"]
        ('same', False, 2, [[24, 15]])
        """
        return {
            "name": self.name,
            "title": self.title,
            "checkers": self.checkers,
            "start": [list(pair) for pair in self.start],
            "enter_from_off": self.enter_from_off,
            "cube": self.cube,
            "max_result": self.max_result,
            "opening": self.opening,
            "geometry": self.geometry(),
        }

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
        Variant(
            "tavla",
            "Tavla (Turkish)",
            15,
            _STANDARD_START,
            hitter_rule="frozen_in_home",
            max_result=2,
            cube=False,
        ),
        Variant(
            "portes",
            "Portes (Greek tavli)",
            15,
            _STANDARD_START,
            max_result=2,
            cube=False,
            opening="reroll",
        ),
        Variant(
            "plakoto",
            "Plakoto (Greek tavli)",
            15,
            ((24, 15),),
            landing="pin",
            max_result=2,
            cube=False,
            opening="reroll",
            mother_rule=True,
        ),
        Variant(
            "fevga",
            "Fevga (Greek tavli)",
            15,
            ((24, 15),),
            movement="same",
            landing="block",
            max_result=2,
            cube=False,
            opening="reroll",
            first_checker_until=11,
            start_quarter_rule=True,
            must_open_prime=True,
        ),
        Variant(
            "long-nardy",
            "Long nardy",
            15,
            ((24, 15),),
            movement="same",
            landing="block",
            max_result=2,
            cube=False,
            opening="reroll",
            head_rule=True,
            head_doubles=(6, 4, 3),
            prime_rule=True,
        ),
        Variant(
            "jacquet",
            "Jacquet",
            15,
            ((24, 15),),
            movement="same",
            landing="block",
            max_result=2,
            cube=False,
            opening="reroll",
            first_checker_until=6,
            prime_rule=True,
            prime_needs_last_points=True,
        ),
        Variant(
            "acey-deucey",
            "Acey-deucey",
            15,
            (),
            cube=False,
            opening="reroll",
            enter_from_off=True,
            bonus_roll=True,
        ),
    )
}


def get_variant(variant: str | Variant) -> Variant:
    """Look a variant up by name (a :class:`Variant` is returned unchanged).

    >>> get_variant("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidNotationError: unknown variant 'chess'; known: acey-deucey, caucasian, ...
    """
    if isinstance(variant, Variant):
        return variant
    try:
        return VARIANTS[variant]
    except (KeyError, TypeError):
        known = ", ".join(sorted(VARIANTS))
        raise InvalidNotationError(f"unknown variant {variant!r}; known: {known}") from None


#: Tables that play several variants in turn, one per game (a match "variant" of the
#: match engine, not a :class:`Variant`): Greek tavli is portes, plakoto and fevga, game
#: after game (docs/rules.md, "Tavli").
ROTATIONS: Final[dict[str, tuple[str, ...]]] = {"tavli": ("portes", "plakoto", "fevga")}


def rotation(name: str) -> tuple[Variant, ...]:
    """The variants a table called ``name`` plays in turn: one for a plain variant.

    >>> [v.name for v in rotation("tavli")], rotation("standard")
    (['portes', 'plakoto', 'fevga'], (get_variant('standard'),))
    """
    names = ROTATIONS.get(name)
    if names is None:
        return (get_variant(name),)
    return tuple(VARIANTS[n] for n in names)


def game_variant(name: str, number: int) -> Variant:
    """The variant of game ``number`` (1, 2, ...) at a table playing ``name``."""
    variants = rotation(name)
    return variants[(number - 1) % len(variants)]
