"""Correspondence tables as the database finds them, with no actor loaded
(docs/notifications.md): those whose deadline is due (the sweep's), those a player is to
move at (the "Your turn" list), and the tables in play a restart resumes (every one but
the correspondence tables waiting on a person).

>>> from gammon.storage import Database, Store, TableUpdate
>>> db = Database("sqlite://"); db.migrate(); store = Store(db); turns = Turns(db)
>>> ann = store.create_user("ann", "x", guest=False, balance=0, now=1)
>>> store.create_table("t1", ann.id, "{}", False, 1, "created", "{}")
>>> store.append("t1", 2, "start", "{}", 2, TableUpdate(status="playing", wake_at=500, turn_user=ann.id))
>>> turns.due(499, 10), turns.due(500, 10), turns.awake()
([], ['t1'], [])
>>> [(t.id, t.wake_at) for t in turns.waiting_on(ann.id, 10)]
[('t1', 500)]
>>> store.append("t1", 3, "chat", "{}", 3, TableUpdate(wake_at=0, turn_user=0))
>>> turns.due(1000, 10), turns.awake(), turns.waiting_on(ann.id, 10)
([], ['t1'], [])
>>> db.close()
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, select

from gammon.storage.db import Database
from gammon.storage.models import Table

__all__ = ["Turn", "Turns"]


@dataclass(frozen=True, slots=True)
class Turn:
    """A correspondence table waiting on one player: its id, seats (JSON) and deadline."""

    id: str
    seats: str
    wake_at: int


class Turns:
    """The queries of correspondence tables (``tables.wake_at``, ``tables.turn_user``)."""

    def __init__(self, db: Database) -> None:
        self.engine = db.engine

    def due(self, now: int, limit: int) -> list[str]:
        """Tables in play whose deadline has come, the earliest first (at most ``limit``)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(Table.id)
                .where(and_(Table.wake_at <= now, Table.status == "playing"))
                .order_by(Table.wake_at)
                .limit(limit)
            )
            return [str(r) for r in rows.scalars()]

    def awake(self) -> list[str]:
        """The tables in play that are not correspondence tables waiting on a person:
        those a restarted server resumes at once."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(Table.id).where(and_(Table.status == "playing", Table.wake_at.is_(None)))
            )
            return [str(r) for r in rows.scalars()]

    def waiting_on(self, user_id: int, limit: int) -> list[Turn]:
        """The correspondence tables where it is ``user_id``'s move, most urgent first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(Table.id, Table.seats, Table.wake_at)
                .where(and_(Table.turn_user == user_id, Table.status == "playing"))
                .order_by(Table.wake_at)
                .limit(limit)
            )
            return [Turn(str(r.id), str(r.seats), int(r.wake_at or 0)) for r in rows]
