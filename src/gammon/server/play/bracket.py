"""Tournament pairings, as pure functions: seeding, knockout brackets with byes, round-robin
schedules and standings.  Entrants are any hashable values (the server uses entrant ids).

A knockout bracket has room for the next power of two; the places left over are byes,
given to the top seeds, and the seeds are spread so that the top two can only meet in the
final (seed 1 plays the lowest seed, and so on):

>>> knockout_first_round(["A", "B", "C", "D", "E"])
[('A', None), ('D', 'E'), ('B', None), ('C', None)]
>>> next_round(["A", "D", "B", "C"])
[('A', 'D'), ('B', 'C')]
>>> knockout_rounds(5)
3

A round robin (small groups) pairs everyone with everyone once; with an odd number each
round one entrant has a bye:

>>> for pairs in round_robin(["A", "B", "C"]):
...     print(pairs)
[('A', None), ('B', 'C')]
[('C', 'A'), (None, 'B')]
[('A', 'B'), ('C', None)]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

__all__ = [
    "Result",
    "Seedable",
    "bracket_order",
    "knockout_first_round",
    "knockout_rounds",
    "next_round",
    "round_robin",
    "seeding",
    "standings",
]

T = TypeVar("T", bound=Hashable)

Pair = tuple[T | None, T | None]


@dataclass(frozen=True, slots=True)
class Seedable:
    """An entrant to seed: its key, its rating (None: unrated) and registration order."""

    key: Hashable
    rating: float | None
    order: int


def seeding(entrants: Iterable[Seedable]) -> list[Hashable]:
    """Keys from the top seed down: rated entrants by rating (highest first), then the
    unrated ones, each group in registration order where ratings tie.

    >>> seeding([Seedable("a", None, 1), Seedable("b", 1600.0, 2), Seedable("c", None, 0),
    ...          Seedable("d", 1700.0, 3)])
    ['d', 'b', 'c', 'a']
    """
    ordered = sorted(
        entrants,
        key=lambda e: (e.rating is None, -(e.rating if e.rating is not None else 0.0), e.order),
    )
    return [e.key for e in ordered]


def _size(n: int) -> int:
    size = 2
    while size < n:
        size *= 2
    return size


def bracket_order(size: int) -> list[int]:
    """The seeds (1-based) in bracket order for a power-of-two ``size``: neighbours meet in
    round 1, and seeds 1 and 2 only in the final.

    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket size is a power of two, not {size}")
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def knockout_rounds(n: int) -> int:
    """How many rounds a knockout of ``n`` entrants has (at least one).

    >>> [knockout_rounds(n) for n in (2, 3, 4, 5, 8, 9)]
    [1, 2, 2, 3, 3, 4]
    """
    return _size(n).bit_length() - 1


def knockout_first_round(seeded: Sequence[T]) -> list[Pair[T]]:
    """Round 1 of a knockout of entrants listed from the top seed down; None is a bye.

    >>> knockout_first_round([1, 2, 3])
    [(1, None), (2, 3)]
    >>> knockout_first_round([1, 2, 3, 4, 5, 6, 7])
    [(1, None), (4, 5), (2, 7), (3, 6)]
    """
    if len(seeded) < 2:
        raise ValueError("a knockout needs two entrants or more")
    size = _size(len(seeded))
    at = [seeded[s - 1] if s <= len(seeded) else None for s in bracket_order(size)]
    return [(at[i], at[i + 1]) for i in range(0, size, 2)]


def next_round(winners: Sequence[T]) -> list[Pair[T]]:
    """The next knockout round: the winners of slots 0 and 1 meet, of 2 and 3, and so on."""
    if len(winners) % 2:
        raise ValueError("a knockout round has an even number of winners to pair")
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]


def round_robin(entrants: Sequence[T]) -> list[list[Pair[T]]]:
    """Every round of a round robin (the circle method): each entrant meets each other one
    exactly once; with an odd number, one bye (None) per round.

    >>> [len(r) for r in round_robin(list("ABCD"))]
    [2, 2, 2]
    """
    if len(entrants) < 2:
        raise ValueError("a round robin needs two entrants or more")
    ring: list[T | None] = list(entrants)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds = []
    for r in range(n - 1):
        pairs: list[Pair[T]] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            pairs.append((a, b) if (i > 0 or r % 2 == 0) else (b, a))
        rounds.append(pairs)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


@dataclass(frozen=True, slots=True)
class Result:
    """A finished round-robin match: its two entrants and the winner (None: nobody)."""

    a: Hashable
    b: Hashable
    winner: Hashable | None


def standings(seeded: Sequence[T], results: Iterable[Result]) -> list[tuple[T, int, int]]:
    """``(entrant, wins, losses)`` from first to last: most wins, then the results between
    the entrants tied on wins, then the better seed.

    >>> standings(["A", "B", "C"], [Result("A", "B", "B"), Result("B", "C", "C"),
    ...                             Result("A", "C", "A")])
    [('A', 1, 1), ('B', 1, 1), ('C', 1, 1)]
    >>> standings(["A", "B", "C"], [Result("A", "B", "B"), Result("B", "C", "B")])
    [('B', 2, 0), ('A', 0, 1), ('C', 0, 1)]
    """
    wins = dict.fromkeys(seeded, 0)
    losses = dict.fromkeys(seeded, 0)
    beat: dict[Hashable, set[Hashable]] = {e: set() for e in seeded}
    for result in results:
        if result.winner is None:
            continue
        loser = result.b if result.winner == result.a else result.a
        if result.winner in wins:
            wins[result.winner] += 1
            beat[result.winner].add(loser)
        if loser in losses:
            losses[loser] += 1

    def key(entrant: T) -> tuple[int, int, int]:
        tied = [e for e in seeded if wins[e] == wins[entrant] and e != entrant]
        head_to_head = sum(1 for e in tied if e in beat[entrant])
        return (-wins[entrant], -head_to_head, seeded.index(entrant))

    return [(e, wins[e], losses[e]) for e in sorted(seeded, key=key)]
