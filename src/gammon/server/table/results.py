"""What a finished table's ``end`` entry records, and who may sit at a table: a rated one
(the accounts' age, record and pair limit), any one (no account with one it blocks).

Pure functions of a :class:`~gammon.server.table.state.TableState`: the actor hands the
result to the store with the ``end`` entry, so the result and the rating update
commit in the transaction that ends the table (docs/ratings.md, "When a match
is rated").

>>> from gammon.match import TableOptions
>>> from gammon.server.table.state import Seat, initial_state, reduce
>>> t = initial_state("t1", {"by": "ann", "options": TableOptions(match_length=1, rated=True).to_dict()}, 0)
>>> t, _ = reduce(t, "sit", {"seat": 0, "name": "ann", "kind": "user", "user": 1}, 1)
>>> t, _ = reduce(t, "sit", {"seat": 1, "name": "bob", "kind": "user", "user": 2}, 2)
>>> t, _ = reduce(t, "start", {"commitment": "c", "players": ["ann", "bob"]}, 3)
>>> r = match_result(t, {"reason": "left", "winner": 1})
>>> r.rated, r.winner, r.unrated   # left before anyone moved: not rated
(False, 1, 'not_played')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from gammon.match import MatchState, TableOptions
from gammon.match.ratings import rating_pool
from gammon.server.infra.settings import Settings
from gammon.server.protocol import ServerError
from gammon.server.table.state import TableState
from gammon.storage import Database, MatchResult, ResultSeat, Standings, UserRow
from gammon.storage.moderation import Moderation
from gammon.storage.standings import PAIR_WINDOW_MS

__all__ = [
    "BOT_RATINGS",
    "GNUBG_ANCHOR",
    "RatedRules",
    "check_rated_account",
    "check_rated_pair",
    "check_rated_seat",
    "check_rated_sitters",
    "check_unblocked",
    "match_result",
    "played",
]

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
    """Whether the match really began: a checker was played in any of its games (the
    one in play or one that ended), or a game was decided by something other than a
    forfeit (a resignation, a dropped double, a borne-off game).

    Every game counts, whatever the match length: a forfeit in game 1 of a 5-point
    match after moves scores that game and starts game 2 before the table ends, so
    the game in play is fresh then, and game 1's own plies say the match began.

    >>> from gammon.match import TableOptions, new_match
    >>> played(new_match(TableOptions(match_length=3)))
    False
    """
    if match.game.plies > 0:
        return True
    return any(g.plies > 0 or g.reason not in _FORFEITS for g in match.games)


def match_result(state: TableState, end: dict[str, Any]) -> MatchResult | None:
    """The result the ``end`` entry ``end`` records (None: the match never started).

    A result is rated when the table is rated, there is a winner, both seats are
    signed-in accounts, and the match had begun (:func:`played`): a forfeit before
    either player moved is not rated; one after counts as a loss.  An unrated result
    says why (``unrated``: ``casual``, ``no_winner``, ``not_accounts``, ``not_played``);
    the store may still keep a rated one unrated past the pair limit (``pair_limit``,
    :func:`gammon.storage.standings.record_result`).
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
    unrated = (
        "casual"
        if not state.options.rated
        else "no_winner"
        if winner is None
        else "not_accounts"
        if not accounts
        else "not_played"
        if not played(match)
        else None
    )
    return MatchResult(
        state.options.variant,
        state.options.match_length,
        (seats[0], seats[1]),
        winner,
        (match.score[0], match.score[1]),
        unrated is None,
        str(end.get("reason", "")),
        unrated,
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


@dataclass(frozen=True, slots=True)
class RatedRules:
    """Who may play rated, against whom how often (docs/ratings.md, "Who plays rated"):
    an account at least ``min_age_ms`` old with ``min_matches`` finished matches, and
    at most ``pair_limit`` rated matches between the same two accounts in a pool in 24
    hours (0: no such rule)."""

    min_age_ms: int = 0
    min_matches: int = 0
    pair_limit: int = 0

    @classmethod
    def from_settings(cls, settings: Settings) -> RatedRules:
        """The rules ``--rated-min-age``, ``--rated-min-matches`` and ``--rated-pair-limit`` set.

        >>> RatedRules.from_settings(Settings())
        RatedRules(min_age_ms=86400000, min_matches=5, pair_limit=3)
        """
        return cls(
            round(settings.rated_min_age * 3600 * 1000),
            settings.rated_min_matches,
            settings.rated_pair_limit,
        )


def check_rated_account(rules: RatedRules, created_at: int, finished: int, now: int) -> None:
    """Refuse (``invalid_options``) a seat at a rated table to an account younger than
    ``rules.min_age_ms`` or with fewer than ``rules.min_matches`` finished matches.

    >>> rules = RatedRules(24 * 3600 * 1000, 5, 3)
    >>> check_rated_account(rules, 0, 5, 24 * 3600 * 1000)   # a day old, 5 matches: in
    >>> check_rated_account(rules, 0, 2, 7 * 3600 * 1000)
    Traceback (most recent call last):
    ...
    gammon.server.protocol.ServerError: an account plays rated matches once it is 24 hours old and has finished 5 matches (yours: 7 hours, 2 matches): play casual matches or against the bots until then
    """
    age = now - created_at
    if age >= rules.min_age_ms and finished >= rules.min_matches:
        return
    raise ServerError(
        "invalid_options",
        f"an account plays rated matches once it is {_hours(rules.min_age_ms)} hours old "
        f"and has finished {rules.min_matches} matches (yours: {_hours(max(0, age))} hours, "
        f"{finished} matches): play casual matches or against the bots until then",
    )


def _hours(ms: int) -> int:
    return ms // (3600 * 1000)


def check_rated_pair(rules: RatedRules, played_today: int, opponent: str) -> None:
    """Refuse (``invalid_options``) a rated match between two accounts that already
    played ``rules.pair_limit`` rated matches against each other in the pool in 24 hours.

    >>> check_rated_pair(RatedRules(pair_limit=3), 2, "bob")
    >>> check_rated_pair(RatedRules(pair_limit=3), 3, "bob")
    Traceback (most recent call last):
    ...
    gammon.server.protocol.ServerError: you and bob have played 3 rated matches against each other in the last 24 hours, the most that count: play this one at a casual table
    """
    if rules.pair_limit <= 0 or played_today < rules.pair_limit:
        return
    raise ServerError(
        "invalid_options",
        f"you and {opponent} have played {played_today} rated matches against each other "
        "in the last 24 hours, the most that count: play this one at a casual table",
    )


async def check_rated_sitters(
    db: Database,
    settings: Settings,
    options: TableOptions,
    users: tuple[UserRow, UserRow | None],
    now: int,
) -> None:
    """Check an account about to sit at a rated table (``users[0]``), and its pair with
    the account already seated or about to be (``users[1]``), against the rules of
    ``settings`` (:class:`RatedRules`): one database read, off the event loop.  A table
    that is not rated, and a guest (refused by :func:`check_rated_seat`), are let be."""
    if not options.rated:
        return
    rules = RatedRules.from_settings(settings)
    if rules == RatedRules():
        return
    me, other = users
    if me.guest or (other is not None and other.guest):
        return
    since = now - PAIR_WINDOW_MS
    standings = Standings(db)
    other_id = other.id if other is not None and rules.pair_limit else None
    finished, pair = await db.run(
        standings.rated_standing, me.id, other_id, rating_pool(options.variant), since
    )
    check_rated_account(rules, me.created_at, finished, now)
    if other is not None:
        check_rated_pair(rules, pair, other.name)


async def check_unblocked(db: Database, user: UserRow, other_id: int, other_name: str) -> None:
    """Refuse (``forbidden``) to seat ``user`` with the account ``other_id`` when either
    blocks the other (docs/moderation.md): a table, a quick pairing, an accepted challenge
    or a rematch never brings them together.  Checked where they would be seated, so a
    block made after a seek, a challenge or a match still holds; a tournament's pairings
    are its bracket's and do not ask."""
    if await db.run(Moderation(db).between, user.id, other_id):
        raise ServerError(
            "forbidden", f"{other_name} and you cannot play together: one of you blocks the other"
        )
