"""Swiss pairings and standings, as pure functions (docs/tournaments.md, "Swiss").

Every round pairs players with the same score, top down, never twice the same pair when
that can be avoided; a player left over (an odd number) gets a bye worth a win, the
lowest-ranked player who has not had one. Round 1 is the seeding's top half against its
bottom half (seed 1 against the first seed of the bottom half; with an odd number the
lowest seed has the bye), a simple Dutch system; later rounds pair within each score group
its top half against its bottom half, the odd one out meeting the next group down.

The standings order points (a win or a bye: 1), then Buchholz (the sum of the opponents'
points, a bye counting 0), then Sonneborn-Berger (the sum of the points of the opponents
beaten), then the seed.

>>> first = swiss_pairs(["A", "B", "C", "D", "E"], [])
>>> first
[('A', 'C'), ('B', 'D'), ('E', None)]
>>> played = [Game("A", "C", "A"), Game("B", "D", "D"), Game("E", None, "E")]
>>> swiss_pairs(["A", "B", "C", "D", "E"], played)
[('A', 'D'), ('E', 'B'), ('C', None)]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

__all__ = ["Game", "Line", "swiss_pairs", "swiss_rounds", "swiss_standings"]

T = TypeVar("T", bound=Hashable)

#: How many candidate pairings the search looks at before it allows rematches.
SEARCH_LIMIT = 20_000


@dataclass(frozen=True, slots=True)
class Game:
    """A finished pairing: its two players (``b`` None: a bye) and the winner (None:
    nobody, a double forfeit)."""

    a: Hashable
    b: Hashable | None
    winner: Hashable | None


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the standings."""

    entrant: Hashable
    points: int
    buchholz: int
    sonneborn: int
    wins: int
    losses: int


def swiss_rounds(players: int) -> int:
    """The default number of rounds: enough to tell one winner, ``ceil(log2(players))``.

    >>> [swiss_rounds(n) for n in (2, 3, 4, 5, 8, 9, 64)]
    [1, 2, 2, 3, 3, 4, 6]
    """
    return max(1, (players - 1).bit_length())


def _points(seeded: Sequence[T], games: Iterable[Game]) -> dict[Hashable, int]:
    points: dict[Hashable, int] = dict.fromkeys(seeded, 0)
    for g in games:
        if g.winner in points:
            points[g.winner] += 1
    return points


def swiss_standings(seeded: Sequence[T], games: Sequence[Game]) -> list[Line]:
    """The standings, first to last (``seeded``: the entrants from the top seed down).

    >>> lines = swiss_standings(["A", "B", "C", "D"], [Game("A", "C", "A"),
    ...     Game("B", "D", "D"), Game("A", "D", "A"), Game("B", "C", "C")])
    >>> [(x.entrant, x.points, x.buchholz, x.sonneborn) for x in lines]
    [('A', 2, 2, 2), ('C', 1, 2, 0), ('D', 1, 2, 0), ('B', 0, 2, 0)]
    """
    points = _points(seeded, games)
    buchholz: dict[Hashable, int] = dict.fromkeys(seeded, 0)
    sonneborn: dict[Hashable, int] = dict.fromkeys(seeded, 0)
    wins: dict[Hashable, int] = dict.fromkeys(seeded, 0)
    losses: dict[Hashable, int] = dict.fromkeys(seeded, 0)
    for g in games:
        if g.b is None:
            if g.winner in wins:
                wins[g.winner] += 1
            continue
        for me, other in ((g.a, g.b), (g.b, g.a)):
            if me not in points:
                continue
            buchholz[me] += points.get(other, 0)
            if g.winner == me:
                wins[me] += 1
                sonneborn[me] += points.get(other, 0)
            else:
                losses[me] += 1
    order = {e: i for i, e in enumerate(seeded)}
    ranked = sorted(seeded, key=lambda e: (-points[e], -buchholz[e], -sonneborn[e], order[e]))
    return [Line(e, points[e], buchholz[e], sonneborn[e], wins[e], losses[e]) for e in ranked]


def swiss_pairs(seeded: Sequence[T], games: Sequence[Game]) -> list[tuple[T, T | None]]:
    """The next round's pairs (a bye last, as ``(player, None)``).

    ``seeded`` lists the players from the top seed down; ``games`` are the rounds played.
    Rematches are avoided when any pairing without one exists (a bounded search, then
    rematches are allowed); a player has at most one bye while someone else has none.

    >>> swiss_pairs(["A", "B"], [Game("A", "B", "A")])  # two players: a rematch
    [('A', 'B')]
    """
    if len(seeded) < 2:
        raise ValueError("a Swiss round needs two players or more")
    if not games:
        players = list(seeded)
        first_bye = players.pop() if len(players) % 2 else None
        half = len(players) // 2
        pairs: list[tuple[T, T | None]] = list(zip(players[:half], players[half:], strict=True))
        return [*pairs, (first_bye, None)] if first_bye is not None else pairs
    ranked: list[T] = [line.entrant for line in swiss_standings(seeded, games)]  # type: ignore[misc]
    points = _points(seeded, games)
    met: set[frozenset[Hashable]] = {frozenset((g.a, g.b)) for g in games if g.b is not None}
    bye: T | None = None
    if len(ranked) % 2:
        had_bye = {g.a for g in games if g.b is None}
        bye = next((e for e in reversed(ranked) if e not in had_bye), ranked[-1])
        ranked.remove(bye)
    found = _pair(ranked, points, met) or _pair(ranked, points, set())
    assert found is not None  # without the rematch rule any order pairs
    return [*found, (bye, None)] if bye is not None else list(found)


def _pair(
    ranked: list[T], points: dict[Hashable, int], met: set[frozenset[Hashable]]
) -> list[tuple[T, T | None]] | None:
    """Pair ``ranked`` top down: each top player takes the player of the nearest score,
    in the same score group the one half a group below it (Dutch), and no rematch; None
    when that cannot be done within :data:`SEARCH_LIMIT` tries."""
    budget = [SEARCH_LIMIT]

    def candidates(rest: list[T]) -> list[T]:
        top = rest[0]
        group = [e for e in rest if points[e] == points[top]]
        half = len(group) // 2
        return sorted(
            rest[1:],
            key=lambda e: (
                abs(points[e] - points[top]),
                abs(rest.index(e) - half) if points[e] == points[top] else rest.index(e),
            ),
        )

    def search(rest: list[T]) -> list[tuple[T, T | None]] | None:
        if not rest:
            return []
        top = rest[0]
        for other in candidates(rest):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            if frozenset((top, other)) in met:
                continue
            tail = search([e for e in rest[1:] if e != other])
            if tail is not None:
                return [(top, other), *tail]
        return None

    return search(list(ranked))
