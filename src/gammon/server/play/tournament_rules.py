"""What each tournament format makes of its stored pairings: the standings shown on the
page, the next Swiss round or arena pairings, and the final places (the trophies).

Pure functions over :class:`gammon.storage.EntrantRow` and
:class:`gammon.storage.PairingRow` lists (docs/tournaments.md); the scheduler
(:mod:`gammon.server.play.tournaments`) writes what they return.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gammon.server.play import arena, swiss
from gammon.server.play.bracket import Result, standings
from gammon.storage import EntrantRow, PairingRow

__all__ = [
    "arena_games",
    "final_places",
    "seeded_ids",
    "standings_lines",
    "swiss_games",
]


def seeded_ids(entrants: Sequence[EntrantRow]) -> list[int]:
    """Entrant ids from the top seed down (registration order before the start)."""
    return [e.id for e in sorted(entrants, key=lambda e: (e.seed or 0, e.id))]


def swiss_games(pairings: Sequence[PairingRow]) -> list[swiss.Game]:
    """The finished pairings of a Swiss tournament (a bye: ``b`` None, won)."""
    games = []
    for p in pairings:
        if p.reason is None or p.player0 is None:
            continue
        games.append(swiss.Game(p.player0, p.player1, p.winner))
    return games


def arena_games(pairings: Sequence[PairingRow]) -> list[arena.Game]:
    """The finished matches of an arena, in the order they ended."""
    return [
        arena.Game(p.player0, p.player1, p.winner, (p.finished_at or 0) * 1000 + p.round)
        for p in pairings
        if p.reason not in (None, "deadline") and p.player0 is not None and p.player1 is not None
    ]


def _round_robin(entrants: Sequence[EntrantRow], pairings: Sequence[PairingRow]) -> Any:
    results = [
        Result(p.player0, p.player1, p.winner)
        for p in pairings
        if p.reason not in (None, "bye") and p.player0 is not None and p.player1 is not None
    ]
    return standings(seeded_ids(entrants), results)


def standings_lines(
    fmt: str, entrants: Sequence[EntrantRow], pairings: Sequence[PairingRow]
) -> list[dict[str, Any]]:
    """The standings first to last as ``{"entrant": id, "points", "wins", "losses", ...}``
    (Swiss: ``buchholz``, ``sonneborn``; arena: ``streak``); empty for a knockout."""
    seeded = seeded_ids(entrants)
    if fmt == "swiss":
        return [
            {
                "entrant": x.entrant,
                "points": x.points,
                "wins": x.wins,
                "losses": x.losses,
                "buchholz": x.buchholz,
                "sonneborn": x.sonneborn,
            }
            for x in swiss.swiss_standings(seeded, swiss_games(pairings))
        ]
    if fmt == "arena":
        return [
            {
                "entrant": x.entrant,
                "points": x.points,
                "wins": x.wins,
                "losses": x.losses,
                "streak": x.streak,
            }
            for x in arena.arena_standings(seeded, arena_games(pairings))
        ]
    if fmt == "round_robin":
        return [
            {"entrant": e, "points": w, "wins": w, "losses": lost}
            for e, w, lost in _round_robin(entrants, pairings)
        ]
    return []


def final_places(
    fmt: str, entrants: Sequence[EntrantRow], pairings: Sequence[PairingRow], winner: int | None
) -> dict[int, tuple[int | None, int | None]]:
    """Every entrant's ``(place, points)`` at the end. A knockout's: 1 the winner, 2 the
    final's loser, 3 both semi-final losers, 5 the quarter-final losers...; the others:
    their standings' order."""
    if fmt != "knockout":
        lines = standings_lines(fmt, entrants, pairings)
        return {int(x["entrant"]): (i + 1, int(x["points"])) for i, x in enumerate(lines)}
    last = max((p.round for p in pairings), default=0)
    places: dict[int, tuple[int | None, int | None]] = {e.id: (None, None) for e in entrants}
    for p in pairings:
        if p.reason in (None, "bye") or p.winner is None:
            continue
        loser = p.player1 if p.winner == p.player0 else p.player0
        if loser is not None:
            places[loser] = (2 ** (last - p.round) + 1, None)
    if winner is not None:
        places[winner] = (1, None)
    return places
