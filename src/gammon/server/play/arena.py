"""Arena pairings and standings, as pure functions (docs/tournaments.md, "Arena").

An arena lasts a fixed time. A player who is not in a match waits, and whoever waits is
paired at once with the waiting player of the nearest score (then the nearest seed), never
the opponent of their last match while anybody else may come free. A win is worth 2
points, a win after two wins in a row (a streak) 4; a loss 0. At the deadline no new match
is made; the matches in play finish, then the standings order points, then wins, then the
seed.

>>> games = [Game("A", "B", "A", 1), Game("A", "C", "A", 2), Game("A", "B", "A", 3)]
>>> [(x.entrant, x.points, x.wins) for x in arena_standings(["A", "B", "C"], games)]
[('A', 8, 3), ('B', 0, 0), ('C', 0, 0)]
>>> arena_pairs(["A", "B", "C"], games, busy=0)  # A last met B, and C last met A
[('B', 'C')]
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

__all__ = ["BOT_MATCHES", "WIN", "Game", "Line", "arena_pairs", "arena_standings"]

T = TypeVar("T", bound=Hashable)

#: Points for a win (doubled on a streak of two wins before it).
WIN = 2
#: The most matches between two bots in play at once in one arena (bots play at once and
#: would otherwise fill the server with their tables for the arena's whole length).
BOT_MATCHES = 2


@dataclass(frozen=True, slots=True)
class Game:
    """A finished arena match: its players, the winner (None: nobody) and when it ended
    (any increasing number: a player's results are read in that order)."""

    a: Hashable
    b: Hashable
    winner: Hashable | None
    at: int


@dataclass(frozen=True, slots=True)
class Line:
    """One line of an arena's standings."""

    entrant: Hashable
    points: int
    wins: int
    losses: int
    #: Wins in a row at the end (2 or more: the next win counts double).
    streak: int


def arena_standings(seeded: Sequence[T], games: Sequence[Game]) -> list[Line]:
    """The standings, first to last (``seeded``: the entrants from the top seed down)."""
    points: dict[Hashable, int] = dict.fromkeys(seeded, 0)
    wins: dict[Hashable, int] = dict.fromkeys(seeded, 0)
    losses: dict[Hashable, int] = dict.fromkeys(seeded, 0)
    streak: dict[Hashable, int] = dict.fromkeys(seeded, 0)
    for g in sorted(games, key=lambda g: g.at):
        for me in (g.a, g.b):
            if me not in points:
                continue
            if g.winner == me:
                points[me] += WIN * 2 if streak[me] >= 2 else WIN
                wins[me] += 1
                streak[me] += 1
            else:
                losses[me] += 1
                streak[me] = 0
    order = {e: i for i, e in enumerate(seeded)}
    ranked = sorted(seeded, key=lambda e: (-points[e], -wins[e], order[e]))
    return [Line(e, points[e], wins[e], losses[e], streak[e]) for e in ranked]


def arena_pairs(
    waiting: Sequence[T],
    games: Sequence[Game],
    busy: int,
    bots: Collection[Hashable] = (),
    bot_matches: int = 0,
) -> list[tuple[T, T]]:
    """Pairs among the ``waiting`` players (listed from the top seed down); one may be left
    to wait. ``busy``: how many players are in a match now (none: nobody else will come
    free, so a rematch is allowed rather than nobody playing); ``bots``: the players that
    are bots, ``bot_matches``: the matches between two bots in play (at most
    :data:`BOT_MATCHES`).

    >>> arena_pairs(["A", "B"], [Game("A", "B", "B", 1)], busy=2)
    []
    >>> arena_pairs(["a", "b", "c", "d", "e", "f"], [], busy=0, bots="abcdef", bot_matches=1)
    [('a', 'b')]
    """
    points = {line.entrant: line.points for line in arena_standings(waiting, games)}
    last: dict[Hashable, Hashable] = {}
    for g in sorted(games, key=lambda g: g.at):
        last[g.a], last[g.b] = g.b, g.a
    order = {e: i for i, e in enumerate(waiting)}
    queue = sorted(waiting, key=lambda e: (-points[e], order[e]))
    pairs: list[tuple[T, T]] = []
    while len(queue) >= 2:
        top = queue.pop(0)
        fresh = [e for e in queue if last.get(top) != e and last.get(e) != top]
        if not fresh and busy == 0 and len(queue) == 1:
            fresh = queue
        if top in bots and bot_matches >= BOT_MATCHES:
            fresh = [e for e in fresh if e not in bots]
        if not fresh:
            continue
        other = min(fresh, key=lambda e: (abs(points[e] - points[top]), order[e]))
        bot_matches += top in bots and other in bots
        queue.remove(other)
        pairs.append((top, other))
    return pairs
