"""Perft for backgammon variants: distinct positions reached ply by ply for fixed rolls.

A ply plays one roll from every position of the previous ply: each legal move gives
one position (the opponent then on roll); a roll with no legal move passes the turn.
Used by tests/test_perft.py and tests/data/make_perft_variants.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from gammon import Position


def perft(variant: str, rolls: Sequence[str]) -> list[int]:
    """The number of distinct positions after each ply, from the variant's start.

    >>> perft("standard", ["21", "21"])
    [15, 227]
    """
    level = {Position.initial(variant)}
    counts = []
    for roll in rolls:
        following: set[Position] = set()
        for position in level:
            moves = position.legal_moves(roll)
            if moves:
                following.update(position.apply(m) for m in moves)
            else:
                following.add(position.flipped())
        level = following
        counts.append(len(level))
    return counts
