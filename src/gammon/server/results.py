"""What a finished table's ``end`` entry records, and who may sit at a rated table.

Pure functions of a :class:`~gammon.server.table.TableState`: the actor hands the
result to the store with the ``end`` entry, so the result and the rating update
commit in the transaction that ends the table (docs/ratings.md, "When a match
is rated").

>>> from gammon.match import TableOptions
>>> from gammon.server.table import Seat, initial_state, reduce
>>> t = initial_state("t1", {"by": "ann", "options": TableOptions(match_length=1, rated=True).to_dict()}, 0)
>>> t, _ = reduce(t, "sit", {"seat": 0, "name": "ann", "kind": "user", "user": 1}, 1)
>>> t, _ = reduce(t, "sit", {"seat": 1, "name": "bob", "kind": "user", "user": 2}, 2)
>>> t, _ = reduce(t, "start", {"commitment": "c", "players": ["ann", "bob"]}, 3)
>>> r = match_result(t, {"reason": "left", "winner": 1})
>>> r.rated, r.winner   # left before anyone moved: not rated
(False, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from gammon.match import MatchState, TableOptions
from gammon.server.protocol import ServerError
from gammon.server.table import TableState
from gammon.storage import MatchResult, ResultSeat

__all__ = ["BOT_RATINGS", "GNUBG_ANCHOR", "check_rated_seat", "match_result", "played"]

#: The FIBS rating given to gnubg-nn's 0-ply, the anchor of the bots' scale: gnubg's
#: README puts its 0-ply (GGraccoon on GamesGrid) at "about 1900".
GNUBG_ANCHOR: Final = 1900.0

#: The bots' fixed ratings in the backgammon pool, never updated: calibrated in
#: 1-point matches against each other and against gnubg-nn (benchmarks/bot_levels.py,
#: benchmarks/bot_vs_gnubg.py) and turned into FIBS differences with the formula
#: (docs/ratings.md, "The bots' ratings").
#:
#: grandmaster (docs/bots.md, "Calibration"): no single-game win rate against gnubg-nn
#: 0-ply exists for it, so it is placed against world-class through gnubg-nn 2-ply
#: (cubeless, luck-adjusted, about 500 pairs each): +0.016 ppg [+0.007, +0.025] against
#: world-class's +0.001 [-0.008, +0.010], +0.015 [+0.002, +0.028] ahead; at 1.27 points a
#: game that is a single game won 50.58% of the time, +20 [+2, +38] (docs/ratings.md).
BOT_RATINGS: Final[Mapping[str, float]] = MappingProxyType(
    {
        "beginner": 1166.0,
        "intermediate": 1574.0,
        "expert": 1976.0,
        "world-class": 2015.0,
        "grandmaster": 2035.0,
    }
)

#: How a game ends without anyone deciding to end it.
_FORFEITS = frozenset({"abandon", "timeout"})


def played(match: MatchState) -> bool:
    """Whether the match really began: a checker was played, or a game was decided by
    something other than a forfeit (a resignation, a dropped double, a borne-off game).

    >>> from gammon.match import TableOptions, new_match
    >>> played(new_match(TableOptions(match_length=3)))
    False
    """
    if match.game.plies > 0 or len(match.games) > 1:
        return True
    return any(g.reason not in _FORFEITS for g in match.games)


def match_result(state: TableState, end: dict[str, Any]) -> MatchResult | None:
    """The result the ``end`` entry ``end`` records (None: the match never started).

    A result is rated when the table is rated, there is a winner, both seats are
    signed-in accounts, and the match had begun (:func:`played`): a forfeit before
    either player moved is not rated; one after counts as a loss.
    """
    match = state.match
    if match is None:
        return None
    seats = []
    for who in state.seats:
        if who is None:  # pragma: no cover - a started table keeps both seats
            return None
        seats.append(ResultSeat(who.user_id, who.name, who.kind))
    winner = end.get("winner")
    winner = winner if winner in (0, 1) else None
    accounts = all(s.kind == "user" and s.user_id is not None for s in seats)
    rated = state.options.rated and winner is not None and accounts and played(match)
    return MatchResult(
        state.options.variant,
        state.options.match_length,
        (seats[0], seats[1]),
        winner,
        (match.score[0], match.score[1]),
        rated,
        str(end.get("reason", "")),
    )


def check_rated_seat(options: TableOptions, kind: str) -> None:
    """Refuse a guest or a bot at a rated table (``invalid_options``).

    >>> check_rated_seat(TableOptions(match_length=3, rated=True), "guest")
    Traceback (most recent call last):
    ...
    gammon.server.protocol.ServerError: a rated match is played between two signed-in accounts: sign up or sign in to sit at a rated table
    """
    if not options.rated:
        return
    if kind == "guest":
        raise ServerError(
            "invalid_options",
            "a rated match is played between two signed-in accounts: "
            "sign up or sign in to sit at a rated table",
        )
    if kind == "bot":
        raise ServerError(
            "invalid_options",
            "a rated match is played between two signed-in accounts: no bot sits at a rated table",
        )
