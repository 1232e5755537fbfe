"""FIBS-style ratings: the published formula, exactly (see docs/ratings.md).

For a rating difference ``D`` and a match of length ``N`` the lower-rated player wins with
probability ``1 / (10 ** (D * sqrt(N) / 2000) + 1)``. The winner gains, and the loser
loses, ``4 * sqrt(N) * P`` where ``P`` is the probability the formula gave the *loser*;
each player's change is then multiplied by ``max(1, 5 - experience / 100)``, experience
being the sum of the lengths of the rated matches that player has already played.
Everyone starts at 1500.

>>> r = rate(RatedPlayer(1500.0, 0), RatedPlayer(1500.0, 0), match_length=5)
>>> round(r.winner.rating, 3), round(r.loser.rating, 3)
(1522.361, 1477.639)
>>> r.winner.experience, r.loser.experience
(5, 5)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from gammon.variants import ROTATIONS, VARIANTS

__all__ = [
    "BACKGAMMON_POOL",
    "POOLS",
    "START_RATING",
    "RatedPlayer",
    "RatingChange",
    "experience_factor",
    "rate",
    "rating_pool",
    "upset_probability",
    "win_probability",
]

#: The rating of a player who has not played a rated match yet.
START_RATING: Final = 1500.0

#: The pool of backgammon itself: the games with backgammon's rules, whatever the start.
BACKGAMMON_POOL: Final = "backgammon"
#: The variants rated in the backgammon pool: the same rules, only the start differs.
_BACKGAMMON_RULES: Final = frozenset({"standard", "nackgammon"})


def rating_pool(variant: str) -> str:
    """The rating pool of a variant: ``backgammon`` for the games with backgammon's own
    rules (standard and nackgammon), else the variant's own name, a rotation such as tavli
    included (docs/ratings.md, "Pools").

    >>> rating_pool("standard"), rating_pool("nackgammon"), rating_pool("tavla")
    ('backgammon', 'backgammon', 'tavla')
    >>> rating_pool("tavli")
    'tavli'
    """
    if variant not in VARIANTS and variant not in ROTATIONS:
        raise ValueError(f"unknown variant {variant!r}")
    return BACKGAMMON_POOL if variant in _BACKGAMMON_RULES else variant


#: Every rating pool, backgammon first.
POOLS: Final = tuple(
    dict.fromkeys(rating_pool(v) for v in ("standard", *sorted(VARIANTS), *sorted(ROTATIONS)))
)


@dataclass(frozen=True, slots=True)
class RatedPlayer:
    """A player's rating and experience (the total length of their rated matches)."""

    rating: float = START_RATING
    experience: int = 0

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise ValueError(f"a rating must be a finite number, got {self.rating!r}")
        if type(self.experience) is not int or self.experience < 0:
            raise ValueError(f"experience must be a non-negative int, got {self.experience!r}")


@dataclass(frozen=True, slots=True)
class RatingChange:
    """Both players after a rated match, and what each one's rating moved by."""

    winner: RatedPlayer
    loser: RatedPlayer
    winner_delta: float
    loser_delta: float


def _check_length(match_length: int) -> None:
    if type(match_length) is not int or match_length < 1:
        raise ValueError(
            f"a rated match has a length of at least 1, got {match_length!r} "
            "(money sessions are never rated)"
        )


def upset_probability(difference: float, match_length: int) -> float:
    """The chance that the lower-rated player wins, for a rating ``difference`` (≥ 0 or not).

    >>> round(upset_probability(100, 1), 4)
    0.4712
    >>> upset_probability(0, 7)
    0.5
    """
    _check_length(match_length)
    exponent = abs(difference) * math.sqrt(match_length) / 2000.0
    return 1.0 / (math.pow(10.0, exponent) + 1.0)


def win_probability(rating: float, other: float, match_length: int) -> float:
    """The chance that a player rated ``rating`` beats one rated ``other``.

    >>> round(win_probability(1600, 1500, 1), 4)
    0.5288
    >>> round(win_probability(1500, 1600, 1) + win_probability(1600, 1500, 1), 12)
    1.0
    """
    upset = upset_probability(rating - other, match_length)
    return upset if rating < other else 1.0 - upset


def experience_factor(experience: int) -> float:
    """The multiplier of a player's change: ``max(1, 5 - experience / 100)``.

    >>> experience_factor(0), experience_factor(250), experience_factor(400), experience_factor(10_000)
    (5.0, 2.5, 1.0, 1.0)
    """
    return max(1.0, 5.0 - experience / 100.0)


def rate(winner: RatedPlayer, loser: RatedPlayer, match_length: int) -> RatingChange:
    """Both players' ratings after ``winner`` beat ``loser`` in a match of this length.

    >>> old, new = RatedPlayer(1700.0, 1000), RatedPlayer(1500.0, 0)
    >>> r = rate(new, old, match_length=3)   # the newcomer beats the veteran
    >>> round(r.winner_delta, 3), round(r.loser_delta, 3)
    (20.729, -4.146)
    """
    _check_length(match_length)
    loser_chance = win_probability(loser.rating, winner.rating, match_length)
    base = 4.0 * math.sqrt(match_length) * loser_chance
    gain = base * experience_factor(winner.experience)
    loss = base * experience_factor(loser.experience)
    return RatingChange(
        RatedPlayer(winner.rating + gain, winner.experience + match_length),
        RatedPlayer(loser.rating - loss, loser.experience + match_length),
        gain,
        -loss,
    )
