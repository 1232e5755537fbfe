"""Seeded random positions, for tests, benchmarks and training data.

Every function takes a :class:`random.Random`, so a seed always gives the same
positions.

>>> import random
>>> rng = random.Random(7)
>>> len(list(game_positions(rng, games=2))) > 20
True
>>> random_placement(rng).variant.name
'standard'
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from gammon.dice import Dice
from gammon.position import Position
from gammon.variants import Variant, get_variant

__all__ = [
    "game_positions",
    "random_bearoff",
    "random_dice",
    "random_placement",
]

#: The opponent's points in the player's numbering (the backgammon board's mapping).
_THEIR = get_variant("standard").point_map


def random_dice(rng: random.Random) -> Dice:
    """A fair roll."""
    return Dice(rng.randint(1, 6), rng.randint(1, 6))


def game_positions(
    rng: random.Random,
    games: int = 1,
    *,
    hit_bias: float = 0.0,
    variant: str | Variant = "standard",
) -> Iterator[tuple[Position, Dice]]:
    """``(position, dice)`` for every turn of random games played to the end.

    With ``hit_bias`` > 0, that share of the turns picks a move that hits the most
    checkers, which gives many positions with checkers on the bar.  Acey-deucey's 1-2,
    whose plays can number 224,158, plays its first legal move without listing them.

    >>> turns = list(game_positions(random.Random(2), variant="acey-deucey"))
    >>> turns[-1][0].is_game_over(), any({d.d1, d.d2} == {1, 2} for _, d in turns)
    (False, True)
    """
    v = get_variant(variant)
    for _ in range(games):
        position = Position.initial(v)
        while not position.is_game_over():
            dice = random_dice(rng)
            yield position, dice
            if position.rules.lazy_plays(position, dice) is not None:
                first = position.first_legal_move(dice)
                assert first is not None  # a lazy roll always has plays
                position = position.apply(first)
                continue
            moves = position.legal_moves(dice)
            if not moves:
                position = position.apply(position.pass_move(dice))
                continue
            if hit_bias and rng.random() < hit_bias:
                most = max(m.hits for m in moves)
                move = rng.choice([m for m in moves if m.hits == most])
            else:
                move = rng.choice(moves)
            position = position.apply(move)


def _scatter(rng: random.Random, n: int, points: list[int]) -> list[int]:
    counts = [0] * 26
    for _ in range(n):
        counts[rng.choice(points)] += 1
    return counts


def random_placement(rng: random.Random, *, bar: bool = True) -> Position:
    """Checkers thrown at random on free points (and the bar), some of them off.

    The opponent is placed first; the player on roll then uses the points left.
    """
    while True:
        theirs_on = rng.randint(1, 15)
        mine_on = rng.randint(1, 15)
        their_points = rng.sample(range(1, 25), rng.randint(1, 8))
        if bar and rng.random() < 0.3:
            their_points.append(25)
        theirs = _scatter(rng, theirs_on, their_points)
        taken = {_THEIR[q] for q in range(1, 25) if theirs[q]}
        free = [p for p in range(1, 25) if p not in taken]
        my_points = rng.sample(free, min(len(free), rng.randint(1, 8)))
        if bar and rng.random() < 0.3:
            my_points.append(25)
        mine = _scatter(rng, mine_on, my_points)
        mine[0] = 15 - mine_on
        theirs[0] = 15 - theirs_on
        return Position(tuple(mine), tuple(theirs))


def random_bearoff(rng: random.Random, *, outside: int = 2) -> Position:
    """A bear-off: the player on roll has its checkers home except up to ``outside``.

    The opponent has a few checkers in the player's home and outer boards, so that
    hits during the bear-off happen.
    """
    while True:
        their_points = rng.sample(range(13, 25), rng.randint(0, 4)) + rng.sample(
            range(1, 13), rng.randint(1, 4)
        )
        theirs = _scatter(rng, rng.randint(1, 15), their_points)
        taken = {_THEIR[q] for q in range(1, 25) if theirs[q]}
        home = [p for p in range(1, 7) if p not in taken]
        outer = [p for p in range(7, 13) if p not in taken]
        if not home:
            continue
        mine = _scatter(rng, rng.randint(1, 15), home)
        for _ in range(rng.randint(0, outside)):
            if outer:
                mine[rng.choice(outer)] += 1
        on = sum(mine)
        if on > 15:
            continue
        mine[0] = 15 - on
        theirs[0] = 15 - sum(theirs)
        return Position(tuple(mine), tuple(theirs))
