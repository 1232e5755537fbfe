"""A player's inbox (``inbox``): the notices of challenges, tournament rounds, turns in
correspondence games and rematches offered (docs/notifications.md).

Each user keeps at most :data:`KEEP` notices, the newest: adding one removes the oldest
past it in the same transaction, so no sender can grow another's inbox without bound.
A notice equal to an unread one (same kind, same data: a second "your turn" at the same
table) replaces it, so a long correspondence game leaves one unread notice, not hundreds.

>>> from gammon.storage import Database, Store
>>> db = Database("sqlite://"); db.migrate(); store = Store(db); inbox = Inbox(db)
>>> ann = store.create_user("ann", "x", guest=False, balance=0, now=1)
>>> inbox.add(ann.id, "your_turn", '{"table":"t1"}', 10) > 0
True
>>> inbox.add(ann.id, "your_turn", '{"table":"t1"}', 20) > 0   # replaces the unread one
True
>>> inbox.add(ann.id, "challenge", '{"from":"bob"}', 30) > 0
True
>>> [(n.kind, n.at) for n in inbox.items(ann.id)], inbox.unread(ann.id)
([('challenge', 30), ('your_turn', 20)], 2)
>>> inbox.mark_read(ann.id, None, 40), inbox.unread(ann.id)
(2, 0)
>>> db.close()
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from sqlalchemy import (
    BigInteger,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    and_,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from gammon.storage.db import Database
from gammon.storage.models import Base

__all__ = ["KEEP", "Inbox", "InboxItem", "InboxRow"]

#: Notices kept per user (the newest).
KEEP: Final = 200


class InboxItem(Base):
    """One notice to one user; ``data`` is JSON; ``read_at`` None while unread."""

    __tablename__ = "inbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE", name="fk_inbox_user"), nullable=False
    )
    kind: Mapped[str] = mapped_column(String(16), nullable=False)
    data: Mapped[str] = mapped_column(Text, nullable=False)
    at: Mapped[int] = mapped_column(BigInteger, nullable=False)
    read_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)

    __table_args__ = (Index("ix_inbox_user_read", "user_id", "read_at"),)


@dataclass(frozen=True, slots=True)
class InboxRow:
    """A notice as read back."""

    id: int
    kind: str
    data: str
    at: int
    read_at: int | None


class Inbox:
    """The queries of ``inbox``."""

    def __init__(self, db: Database) -> None:
        self.engine = db.engine

    def add(self, user_id: int, kind: str, data: str, at: int, *, keep: int = KEEP) -> int:
        """Add a notice (replacing an unread one equal to it) and forget the user's
        oldest past ``keep``; the new notice's id."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(InboxItem).where(
                    and_(
                        InboxItem.user_id == user_id,
                        InboxItem.read_at.is_(None),
                        InboxItem.kind == kind,
                        InboxItem.data == data,
                    )
                )
            )
            new_id = conn.execute(
                insert(InboxItem)
                .values(user_id=user_id, kind=kind, data=data, at=at, read_at=None)
                .returning(InboxItem.id)
            ).scalar_one()
            oldest_kept = conn.execute(
                select(InboxItem.id)
                .where(InboxItem.user_id == user_id)
                .order_by(InboxItem.id.desc())
                .offset(keep - 1)
                .limit(1)
            ).scalar()
            if oldest_kept is not None:
                conn.execute(
                    delete(InboxItem).where(
                        and_(InboxItem.user_id == user_id, InboxItem.id < oldest_kept)
                    )
                )
            return int(new_id)

    def items(self, user_id: int, limit: int = KEEP) -> list[InboxRow]:
        """A user's notices, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    InboxItem.id, InboxItem.kind, InboxItem.data, InboxItem.at, InboxItem.read_at
                )
                .where(InboxItem.user_id == user_id)
                .order_by(InboxItem.id.desc())
                .limit(limit)
            )
            return [InboxRow(r.id, r.kind, r.data, r.at, r.read_at) for r in rows]

    def unread(self, user_id: int) -> int:
        """How many of a user's notices are unread."""
        with self.engine.connect() as conn:
            count = conn.execute(
                select(func.count()).where(
                    and_(InboxItem.user_id == user_id, InboxItem.read_at.is_(None))
                )
            ).scalar_one()
            return int(count)

    def mark_read(self, user_id: int, ids: Sequence[int] | None, now: int) -> int:
        """Mark a user's unread notices read (only ``ids``, or all with None): how many."""
        where = [InboxItem.user_id == user_id, InboxItem.read_at.is_(None)]
        if ids is not None:
            where.append(InboxItem.id.in_(list(ids)))
        with self.engine.begin() as conn:
            return int(
                conn.execute(update(InboxItem).where(and_(*where)).values(read_at=now)).rowcount
            )
