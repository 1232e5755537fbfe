"""Queries of challenges and of the players' challenge settings.

Answering a challenge is a conditional update (``WHERE status = 'pending'``), so of
two answers racing (two tabs, two processes) exactly one wins.  Accepting one
(:meth:`ChallengeStore.accept`) is one transaction: the answer, the new table with both
players seated, and both players' escrow; if either balance falls short, nothing of it
is written and the challenge stays pending.  Making one (:meth:`ChallengeStore.create`)
counts the pending challenges of both players in the transaction that inserts it, so
no burst of requests, in one process or several, gets past the caps.

>>> from gammon.storage import Database, Store
>>> db = Database("sqlite://"); db.migrate(); store = Store(db); challenges = ChallengeStore(db)
>>> ann = store.create_user("ann", "x", guest=False, balance=0, now=1)
>>> bob = store.create_user("bob", "x", guest=False, balance=0, now=1)
>>> challenges.create("c1", ann.id, bob.id, '{"match_length": 3}', 0, now=5)
>>> challenges.create("c2", ann.id, bob.id, '{"match_length": 3}', 0, now=5, max_from=1)
Traceback (most recent call last):
...
gammon.storage.challenges.ChallengeCapError: too many of your challenges wait for an answer
>>> [c.from_name for c in challenges.incoming(bob.id)]
['ann']
>>> challenges.answer("c1", "declined", None, now=6), challenges.answer("c1", "accepted", "t", 7)
(True, False)
>>> challenges.incoming(bob.id)
[]
>>> db.close()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from gammon.errors import GammonError
from gammon.storage.contest_models import Challenge, ChallengeSetting
from gammon.storage.db import Database
from gammon.storage.models import Entry, Table, User
from gammon.storage.store import TableUpdate, _settle

__all__ = ["ChallengeCapError", "ChallengeRow", "ChallengeStore", "NewTable"]

#: Pending challenges one player may have made, and may be waiting to answer.
MAX_FROM = 10
MAX_TO = 20


class ChallengeCapError(GammonError, ValueError):
    """Too many pending challenges from the challenger, or to the player challenged."""

    code = "rate_limited"


@dataclass(frozen=True, slots=True)
class NewTable:
    """The table an accepted challenge makes, as written in the same transaction: its
    row's values and its first journal entries ``(kind, data, TableUpdate)`` (entry 1 is
    ``created``; the others seat the players and hold their escrow)."""

    id: str
    created_by: int
    options: str
    seats: str
    at: int
    entries: tuple[tuple[str, str, TableUpdate], ...]


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    """A challenge with both players' names."""

    id: str
    from_user: int
    from_name: str
    to_user: int
    to_name: str
    options: str
    seat: int
    status: str
    table_id: str | None
    created_at: int


_FROM = aliased(User)
_TO = aliased(User)
_COLUMNS = (
    Challenge.id,
    Challenge.from_user,
    _FROM.name.label("from_name"),
    Challenge.to_user,
    _TO.name.label("to_name"),
    Challenge.options,
    Challenge.seat,
    Challenge.status,
    Challenge.table_id,
    Challenge.created_at,
)


def _row(r: Any) -> ChallengeRow:
    return ChallengeRow(
        r.id,
        r.from_user,
        r.from_name,
        r.to_user,
        r.to_name,
        r.options,
        r.seat,
        r.status,
        r.table_id,
        r.created_at,
    )


def _query() -> Any:
    return (
        select(*_COLUMNS)
        .join(_FROM, _FROM.id == Challenge.from_user)
        .join(_TO, _TO.id == Challenge.to_user)
    )


class ChallengeStore:
    """Every query about challenges, on one :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.engine = db.engine

    def create(
        self,
        challenge_id: str,
        from_user: int,
        to_user: int,
        options: str,
        seat: int,
        now: int,
        *,
        max_from: int = MAX_FROM,
        max_to: int = MAX_TO,
    ) -> None:
        """A new pending challenge, unless the challenger has ``max_from`` pending already
        or the player challenged waits to answer ``max_to`` (:class:`ChallengeCapError`,
        nothing written).

        Requests racing (in one process or several) never get past the caps: on
        PostgreSQL both players' rows are locked first (in id order); on SQLite the
        insert takes the one write lock before the challenges are counted.
        """
        with self.engine.begin() as conn:
            conn.execute(
                select(User.id)
                .where(User.id.in_(sorted({from_user, to_user})))
                .order_by(User.id)
                .with_for_update()
            ).all()
            conn.execute(
                insert(Challenge).values(
                    id=challenge_id,
                    from_user=from_user,
                    to_user=to_user,
                    options=options,
                    seat=seat,
                    status="pending",
                    table_id=None,
                    created_at=now,
                    answered_at=None,
                )
            )
            if _pending_count(conn, Challenge.from_user == from_user) > max_from:
                raise ChallengeCapError("too many of your challenges wait for an answer")
            if _pending_count(conn, Challenge.to_user == to_user) > max_to:
                raise ChallengeCapError("too many challenges wait for this player's answer")

    def challenge(self, challenge_id: str) -> ChallengeRow | None:
        """One challenge, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(_query().where(Challenge.id == challenge_id)).first()
        return _row(row) if row is not None else None

    def incoming(self, user_id: int, limit: int = 50) -> list[ChallengeRow]:
        """The pending challenges to a player, oldest first."""
        return self._pending(Challenge.to_user == user_id, limit)

    def outgoing(self, user_id: int, limit: int = 50) -> list[ChallengeRow]:
        """The pending challenges a player made, oldest first."""
        return self._pending(Challenge.from_user == user_id, limit)

    def _pending(self, who: Any, limit: int) -> list[ChallengeRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                _query()
                .where(and_(who, Challenge.status == "pending"))
                .order_by(Challenge.created_at)
                .limit(limit)
            )
            return [_row(r) for r in rows]

    def pending_from(self, user_id: int) -> int:
        """How many of a player's challenges are still pending."""
        with self.engine.connect() as conn:
            return _pending_count(conn, Challenge.from_user == user_id)

    def accept(self, challenge_id: str, table: NewTable) -> bool:
        """Accept a pending challenge and make its table, in one transaction: False (and
        nothing written) if it was not pending any more; :class:`~gammon.storage.store.
        InsufficientFundsError` (nothing written, the challenge still pending) if a
        player's balance not held elsewhere does not cover the table's escrow."""
        with self.engine.begin() as conn:
            answered = conn.execute(
                update(Challenge)
                .where(and_(Challenge.id == challenge_id, Challenge.status == "pending"))
                .values(status="accepted", table_id=table.id, answered_at=table.at)
            )
            if answered.rowcount != 1:
                return False
            conn.execute(
                insert(Table).values(
                    id=table.id,
                    created_at=table.at,
                    created_by=table.created_by,
                    options=table.options,
                    private=True,
                    status="waiting",
                    version=len(table.entries),
                    seats=table.seats,
                    server_seed=None,
                    finished_at=None,
                    result=None,
                )
            )
            for seq, (kind, data, change) in enumerate(table.entries, start=1):
                conn.execute(
                    insert(Entry).values(
                        table_id=table.id, seq=seq, kind=kind, data=data, at=table.at
                    )
                )
                _settle(conn, table.id, table.at, change)  # raises: all is rolled back
            return True

    def answer(self, challenge_id: str, status: str, table_id: str | None, now: int) -> bool:
        """Settle a pending challenge (accepted, declined, withdrawn); False if it was not
        pending any more (someone answered first)."""
        with self.engine.begin() as conn:
            result = conn.execute(
                update(Challenge)
                .where(and_(Challenge.id == challenge_id, Challenge.status == "pending"))
                .values(status=status, table_id=table_id, answered_at=now)
            )
            return bool(result.rowcount == 1)

    def refuses_guests(self, user_id: int) -> bool:
        """Whether a player refuses challenges from guests."""
        with self.engine.connect() as conn:
            value = conn.execute(
                select(ChallengeSetting.refuse_guests).where(ChallengeSetting.user_id == user_id)
            ).scalar()
        return bool(value)

    def set_refuse_guests(self, user_id: int, refuse: bool) -> None:
        """Change a player's setting."""
        with self.engine.begin() as conn:
            changed = conn.execute(
                update(ChallengeSetting)
                .where(ChallengeSetting.user_id == user_id)
                .values(refuse_guests=refuse)
            ).rowcount
            if changed:
                return
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(ChallengeSetting).values(user_id=user_id, refuse_guests=refuse))
        except IntegrityError:  # made at the same moment: set it again
            self.set_refuse_guests(user_id, refuse)


def _pending_count(conn: Any, who: Any) -> int:
    return int(
        conn.execute(
            select(func.count()).where(and_(Challenge.status == "pending", who))
        ).scalar_one()
    )
