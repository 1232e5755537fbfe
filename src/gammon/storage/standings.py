"""Results, match lists, ratings and leaderboards (docs/ratings.md).

A finished table's result is written by :func:`record_result` inside the
transaction that commits its ``end`` entry (``Store.append``), and so is the
rating update of a rated match: a match is rated exactly when it ends, never
twice (``rating_changes`` is unique per table and player, ``results`` per
table, and the journal's version check lets one ``end`` in).

>>> from gammon.storage import Database, Store, TableUpdate
>>> db = Database("sqlite://"); db.migrate(); store = Store(db)
>>> ann = store.create_user("ann", "h", guest=False, balance=0, now=1)
>>> bob = store.create_user("bob", "h", guest=False, balance=0, now=1)
>>> store.create_table("t1", ann.id, "{}", False, 1, "created", "{}")
>>> seats = (ResultSeat(ann.id, "ann", "user"), ResultSeat(bob.id, "bob", "user"))
>>> won = MatchResult("standard", 5, seats, winner=0, score=(5, 2), rated=True, reason="match_over")
>>> store.append("t1", 2, "end", "{}", 10, TableUpdate(status="finished", outcome=won))
>>> standings = Standings(db)
>>> [(r.pool, round(r.rating, 3), r.wins, r.losses) for r in standings.ratings(bob.id)]
[('backgammon', 1477.639, 0, 1)]
>>> [(h.table_id, h.outcome, h.score, round(h.delta or 0, 3)) for h in standings.history(ann.id)]
[('t1', 'win', (5, 2), 22.361)]
>>> db.close()
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from sqlalchemy import and_, func, insert, select, tuple_, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import aliased

from gammon.match.ratings import RatedPlayer, rate, rating_pool
from gammon.storage.db import Database
from gammon.storage.models import History, PlayerRecord, Rating, RatingChange, Result, User

__all__ = [
    "MIN_LEADERBOARD_MATCHES",
    "PAIR_WINDOW_MS",
    "HistoryRow",
    "LeaderRow",
    "MatchResult",
    "Outcome",
    "Profile",
    "RatingRow",
    "ResultSeat",
    "Standings",
    "pair_rated_count",
    "record_result",
]

#: A player enters a pool's leaderboard after this many rated matches in it.
MIN_LEADERBOARD_MATCHES: Final = 3

#: The window of the rated matches two accounts may play against each other (24 hours).
PAIR_WINDOW_MS: Final = 24 * 3600 * 1000

#: A match as one player sees it.
Outcome = Literal["win", "loss", "none"]


@dataclass(frozen=True, slots=True)
class ResultSeat:
    """Who sat in a seat when the table ended: an account (``user``, ``guest``) or a bot."""

    user_id: int | None
    name: str
    kind: str


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished table, as its ``end`` entry settles it."""

    variant: str
    match_length: int
    seats: tuple[ResultSeat, ResultSeat]
    winner: int | None
    score: tuple[int, int]
    rated: bool
    reason: str
    #: Why it is not rated (None: rated): ``casual``, ``no_winner``, ``not_accounts``,
    #: ``not_played``; :func:`record_result` may add ``pair_limit``.
    unrated: str | None = None
    #: Rated matches the two accounts may have played against each other in the pool in
    #: the :data:`PAIR_WINDOW_MS` before this one for it to be rated (0: no limit).
    pair_limit: int = 0

    def outcome(self, seat: int) -> Outcome:
        """The result for one seat."""
        if self.winner is None:
            return "none"
        return "win" if self.winner == seat else "loss"


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's standing in one pool."""

    pool: str
    rating: float
    experience: int
    matches: int
    wins: int
    losses: int


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One match of a player's list (``score`` is the player's, then the opponent's)."""

    result_id: int
    table_id: str
    ended_at: int
    variant: str
    match_length: int
    seat: int
    opponent: str
    opponent_kind: str
    #: The opponent's name now (None: a bot or a deleted account), for the profile link.
    opponent_account: str | None
    outcome: str
    score: tuple[int, int]
    rated: bool
    reason: str
    #: The player's rating change, for a rated match.
    delta: float | None
    #: The player's error rate (mEMG per decision), once analysed.
    error: float | None


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One line of a leaderboard."""

    name: str
    rating: float
    matches: int
    wins: int
    losses: int


def _insert(conn: Any, table: Any) -> Any:
    """An ``INSERT`` with ``ON CONFLICT`` clauses, in the connection's dialect."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def _count(conn: Any, user_id: int, **counts: float) -> None:
    """Add to a player's totals (the row is made on first use)."""
    row = {"wins": 0, "losses": 0, "others": 0, "analysed": 0, "error_sum": 0.0, **counts}
    stmt = _insert(conn, PlayerRecord).values(user_id=user_id, **row)
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=["user_id"],
            set_={name: getattr(PlayerRecord, name) + stmt.excluded[name] for name in counts},
        )
    )


def record_result(conn: Any, table_id: str, at: int, result: MatchResult) -> None:
    """Write a finished table's result, its players' match lists and, for a rated match,
    both ratings, on the connection of the transaction that ends the table."""
    pool = rating_pool(result.variant)
    s0, s1 = result.seats
    result_id = conn.execute(
        insert(Result)
        .values(
            table_id=table_id,
            variant=result.variant,
            pool=pool,
            match_length=result.match_length,
            user0=s0.user_id,
            user1=s1.user_id,
            name0=s0.name[:40],
            name1=s1.name[:40],
            kind0=s0.kind,
            kind1=s1.kind,
            winner=result.winner,
            score0=result.score[0],
            score1=result.score[1],
            rated=result.rated,
            ended_at=at,
            reason=result.reason[:16],
            unrated=None if result.rated else (result.unrated or "casual")[:16],
        )
        .returning(Result.id)
    ).scalar_one()
    rows = [
        {
            "user_id": who.user_id,
            "ended_at": at,
            "result_id": result_id,
            "seat": seat,
            "variant": result.variant,
            "opponent_id": result.seats[1 - seat].user_id,
            "outcome": result.outcome(seat),
        }
        for seat, who in enumerate(result.seats)
        if who.user_id is not None and who.kind != "bot"
    ]
    if rows:
        conn.execute(insert(History), rows)
    names = {"win": "wins", "loss": "losses", "none": "others"}
    for row in sorted(rows, key=lambda r: r["user_id"]):
        _count(conn, row["user_id"], **{names[row["outcome"]]: 1})
    if result.rated:
        _rate(conn, table_id, result_id, pool, at, result)


def pair_rated_count(conn: Any, pool: str, a: int, b: int, since: int) -> int:
    """Rated (not voided) results of accounts ``a`` and ``b`` against each other in
    ``pool`` that ended at ``since`` or later: ``a``'s match list against ``b``
    (its index ``(user, opponent, ended at)``), so the count walks only their matches."""
    return int(
        conn.execute(
            select(func.count())
            .select_from(History)
            .join(Result, Result.id == History.result_id)
            .where(
                and_(
                    History.user_id == a,
                    History.opponent_id == b,
                    History.ended_at >= since,
                    Result.pool == pool,
                    Result.rated.is_(True),
                    Result.voided.is_(False),
                )
            )
        ).scalar_one()
    )


def _rate(
    conn: Any, table_id: str, result_id: int, pool: str, at: int, result: MatchResult
) -> None:
    """Both players' new ratings (the rows locked in user-id order), unless the two
    accounts already played ``result.pair_limit`` rated matches against each other in
    the pool in the last 24 hours: then the result is kept unrated (``pair_limit``).
    The count is read under the lock of both rating rows, so two of the pair's matches
    settling at once are counted one after the other."""
    winner = result.winner
    ids = [who.user_id for who in result.seats]
    if winner is None or None in ids or result.match_length < 1:
        raise ValueError(f"table {table_id}: a rated result needs a winner and two accounts")
    ordered = sorted(i for i in ids if i is not None)
    conn.execute(
        _insert(conn, Rating)
        .values(
            [
                {
                    "user_id": uid,
                    "pool": pool,
                    "rating": RatedPlayer().rating,
                    "experience": 0,
                    "matches": 0,
                    "wins": 0,
                    "losses": 0,
                    "updated_at": at,
                }
                for uid in ordered
            ]
        )
        .on_conflict_do_nothing()
    )
    found = conn.execute(
        select(Rating.user_id, Rating.rating, Rating.experience)
        .where(and_(Rating.pool == pool, Rating.user_id.in_(ordered)))
        .order_by(Rating.user_id)
        .with_for_update()
    ).all()
    if result.pair_limit > 0:
        a, b = ordered
        before = pair_rated_count(conn, pool, a, b, at - PAIR_WINDOW_MS)
        if before - 1 >= result.pair_limit:  # this result's own row is counted
            conn.execute(
                update(Result)
                .where(Result.id == result_id)
                .values(rated=False, unrated="pair_limit")
            )
            return
    now = {row.user_id: RatedPlayer(float(row.rating), int(row.experience)) for row in found}
    win_id, lose_id = ids[winner], ids[1 - winner]
    assert win_id is not None and lose_id is not None
    change = rate(now[win_id], now[lose_id], result.match_length)
    after = {win_id: change.winner, lose_id: change.loser}
    for uid in ordered:
        won = uid == win_id
        conn.execute(
            update(Rating)
            .where(and_(Rating.user_id == uid, Rating.pool == pool))
            .values(
                rating=after[uid].rating,
                experience=after[uid].experience,
                matches=Rating.matches + 1,
                wins=Rating.wins + int(won),
                losses=Rating.losses + int(not won),
                updated_at=at,
            )
        )
        conn.execute(
            insert(RatingChange).values(
                table_id=table_id,
                user_id=uid,
                pool=pool,
                at=at,
                rating_before=now[uid].rating,
                rating_after=after[uid].rating,
                experience=after[uid].experience,
            )
        )


_Opponent = aliased(User)


@dataclass(frozen=True, slots=True)
class Profile:
    """Everything a profile page shows, read on one connection."""

    user_id: int
    name: str
    guest: bool
    ratings: list[RatingRow]
    record: dict[str, Any]
    history: list[HistoryRow]
    #: Each rated pool's :meth:`Standings.rating_series`.
    series: dict[str, list[tuple[int, float]]]


class Standings:
    """The queries of the profile, history and leaderboard pages."""

    def __init__(self, db: Database) -> None:
        self.engine = db.engine
        self._bound: Any = None

    @contextlib.contextmanager
    def _conn(self) -> Iterator[Any]:
        if self._bound is not None:
            yield self._bound
            return
        with self.engine.connect() as conn:
            yield conn

    def profile(self, name: str, *, opponent: str | None = None, **filters: Any) -> Profile | None:
        """A player's page (None: no such player): ratings, totals, the page of matches
        that ``filters`` (as :meth:`history` takes them; ``opponent`` by name) select,
        and the rating graphs, on one connection."""
        with self.engine.connect() as conn:
            self._bound = conn
            try:
                users = select(User.id, User.name, User.guest)
                user = conn.execute(users.where(User.name_key == name.lower())).first()
                if user is None:
                    return None
                if opponent:
                    other = conn.execute(users.where(User.name_key == opponent.lower())).first()
                    # an unknown opponent matches nothing (no account has id 0)
                    filters["opponent_id"] = other.id if other is not None else 0
                ratings = self.ratings(user.id)
                return Profile(
                    user.id,
                    user.name,
                    bool(user.guest),
                    ratings,
                    self.record(user.id),
                    self.history(user.id, **filters),
                    {r.pool: self.rating_series(user.id, r.pool) for r in ratings},
                )
            finally:
                self._bound = None

    def ratings_in(self, pool: str, user_ids: Sequence[int]) -> dict[int, float]:
        """The ratings of these users in one pool (users who have none are left out)."""
        if not user_ids:
            return {}
        with self._conn() as conn:
            rows = conn.execute(
                select(Rating.user_id, Rating.rating).where(
                    Rating.pool == pool, Rating.user_id.in_(list(user_ids))
                )
            )
            return {r.user_id: float(r.rating) for r in rows}

    def ratings(self, user_id: int) -> list[RatingRow]:
        """A player's ratings, most played pool first."""
        with self._conn() as conn:
            rows = conn.execute(
                select(
                    Rating.pool,
                    Rating.rating,
                    Rating.experience,
                    Rating.matches,
                    Rating.wins,
                    Rating.losses,
                )
                .where(Rating.user_id == user_id)
                .order_by(Rating.matches.desc(), Rating.pool)
            )
            return [
                RatingRow(r.pool, float(r.rating), r.experience, r.matches, r.wins, r.losses)
                for r in rows
            ]

    def record(self, user_id: int) -> dict[str, Any]:
        """A player's wins, losses and other results, and the average error rate of the
        analysed matches (``error`` None when none is)."""
        with self._conn() as conn:
            row = conn.execute(
                select(
                    PlayerRecord.wins,
                    PlayerRecord.losses,
                    PlayerRecord.others,
                    PlayerRecord.analysed,
                    PlayerRecord.error_sum,
                ).where(PlayerRecord.user_id == user_id)
            ).first()
        if row is None:
            return {"wins": 0, "losses": 0, "other": 0, "error": None, "analysed": 0}
        return {
            "wins": int(row.wins),
            "losses": int(row.losses),
            "other": int(row.others),
            "error": float(row.error_sum) / row.analysed if row.analysed else None,
            "analysed": int(row.analysed),
        }

    def history(
        self,
        user_id: int,
        *,
        variant: str | None = None,
        opponent_id: int | None = None,
        outcome: str | None = None,
        before: tuple[int, int] | None = None,
        limit: int = 20,
    ) -> list[HistoryRow]:
        """A player's matches, newest first, after the keyset cursor ``before``
        (``(ended_at, result_id)`` of the last row of the previous page)."""
        query = (
            select(
                History.result_id,
                History.ended_at,
                History.seat,
                History.outcome,
                Result.table_id,
                Result.variant,
                Result.match_length,
                Result.name0,
                Result.name1,
                Result.kind0,
                Result.kind1,
                Result.score0,
                Result.score1,
                # a voided result (docs/moderation.md) is shown as not rated
                and_(Result.rated, Result.voided.is_(False)).label("rated"),
                Result.reason,
                Result.error0,
                Result.error1,
                _Opponent.name.label("opponent_account"),
                RatingChange.rating_before,
                RatingChange.rating_after,
            )
            .select_from(History)
            .join(Result, Result.id == History.result_id)
            .outerjoin(_Opponent, _Opponent.id == History.opponent_id)
            .outerjoin(
                RatingChange,
                and_(
                    RatingChange.table_id == Result.table_id,
                    RatingChange.user_id == History.user_id,
                ),
            )
            .where(History.user_id == user_id)
        )
        if variant is not None:
            query = query.where(History.variant == variant)
        if opponent_id is not None:
            query = query.where(History.opponent_id == opponent_id)
        if outcome is not None:
            query = query.where(History.outcome == outcome)
        if before is not None:
            query = query.where(tuple_(History.ended_at, History.result_id) < tuple_(*before))
        query = query.order_by(History.ended_at.desc(), History.result_id.desc()).limit(limit)
        with self._conn() as conn:
            return [_history_row(r) for r in conn.execute(query)]

    def rating_series(self, user_id: int, pool: str, limit: int = 200) -> list[tuple[int, float]]:
        """``(time, rating)`` of a player in a pool: where the last ``limit`` rated matches
        started from, then the rating after each, oldest first.

        In the order the changes were written (their ids: a player's rating row is locked
        while its change is inserted), not by their time: that time is taken before the
        transaction commits, so a match settled later may carry an earlier time, and the
        graph would then end on a stale rating (issue #33)."""
        with self._conn() as conn:
            rows = list(
                conn.execute(
                    select(RatingChange.at, RatingChange.rating_before, RatingChange.rating_after)
                    .where(and_(RatingChange.user_id == user_id, RatingChange.pool == pool))
                    .order_by(RatingChange.id.desc())
                    .limit(limit)
                ).all()
            )
        if not rows:
            return []
        rows.reverse()
        first = rows[0]
        return [(int(first.at), float(first.rating_before))] + [
            (int(r.at), float(r.rating_after)) for r in rows
        ]

    def rated_standing(
        self, user_id: int, opponent_id: int | None, pool: str, since: int
    ) -> tuple[int, int]:
        """What a seat at a rated table is checked against (docs/ratings.md, "Who plays
        rated"): the account's finished matches (any table, any opponent) and its rated
        matches against ``opponent_id`` in ``pool`` that ended at ``since`` or later."""
        with self._conn() as conn:
            row = conn.execute(
                select(PlayerRecord.wins + PlayerRecord.losses + PlayerRecord.others).where(
                    PlayerRecord.user_id == user_id
                )
            ).scalar()
            pair = (
                0
                if opponent_id is None
                else pair_rated_count(conn, pool, user_id, opponent_id, since)
            )
        return int(row or 0), pair

    def leaderboard(
        self, pool: str, *, min_matches: int = MIN_LEADERBOARD_MATCHES, limit: int = 100
    ) -> list[LeaderRow]:
        """The best-rated players of a pool with at least ``min_matches`` rated matches."""
        with self._conn() as conn:
            rows = conn.execute(
                select(User.name, Rating.rating, Rating.matches, Rating.wins, Rating.losses)
                .join(User, User.id == Rating.user_id)
                .where(and_(Rating.pool == pool, Rating.matches >= min_matches))
                .order_by(Rating.rating.desc(), Rating.user_id)
                .limit(limit)
            )
            return [LeaderRow(r.name, float(r.rating), r.matches, r.wins, r.losses) for r in rows]

    def rating_changes(self, table_id: str) -> list[tuple[int, float, float]]:
        """``(user_id, before, after)`` of a table's rated match (empty: not rated)."""
        with self._conn() as conn:
            rows = conn.execute(
                select(RatingChange.user_id, RatingChange.rating_before, RatingChange.rating_after)
                .where(RatingChange.table_id == table_id)
                .order_by(RatingChange.user_id)
            )
            return [(r.user_id, float(r.rating_before), float(r.rating_after)) for r in rows]

    def result_rated(self, table_id: str) -> bool | None:
        """Whether a table's result was rated (None: no result recorded)."""
        with self._conn() as conn:
            value = conn.execute(
                select(and_(Result.rated, Result.voided.is_(False))).where(
                    Result.table_id == table_id
                )
            ).scalar()
        return None if value is None else bool(value)

    def record_error_rates(self, table_id: str, errors: Sequence[float]) -> None:
        """Keep both seats' error rates once a match is analysed (a later analysis, at
        another level, replaces them), and the players' totals with them."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(
                    Result.user0,
                    Result.user1,
                    Result.kind0,
                    Result.kind1,
                    Result.error0,
                    Result.error1,
                )
                .where(Result.table_id == table_id)
                .with_for_update()
            ).first()
            if row is None:
                return
            conn.execute(
                update(Result)
                .where(Result.table_id == table_id)
                .values(error0=float(errors[0]), error1=float(errors[1]))
            )
            seats = ((row.user0, row.kind0, row.error0), (row.user1, row.kind1, row.error1))
            for seat, (uid, kind, old) in sorted(enumerate(seats), key=lambda s: s[1][0] or 0):
                if uid is None or kind == "bot":
                    continue
                if old is None:
                    _count(conn, uid, analysed=1, error_sum=float(errors[seat]))
                else:
                    _count(conn, uid, error_sum=float(errors[seat]) - float(old))


def _history_row(r: Any) -> HistoryRow:
    mine = r.seat
    names, kinds = (r.name0, r.name1), (r.kind0, r.kind1)
    scores, errors = (r.score0, r.score1), (r.error0, r.error1)
    delta = None
    if r.rating_after is not None:
        delta = float(r.rating_after) - float(r.rating_before)
    return HistoryRow(
        r.result_id,
        r.table_id,
        int(r.ended_at),
        r.variant,
        r.match_length,
        mine,
        names[1 - mine],
        kinds[1 - mine],
        r.opponent_account,
        r.outcome,
        (int(scores[mine]), int(scores[1 - mine])),
        bool(r.rated),
        r.reason,
        delta,
        float(errors[mine]) if errors[mine] is not None else None,
    )
