"""What moderators read of an account and a table (:class:`ModerationReads`, the reading
half of :class:`gammon.storage.moderation.Moderation`): matches, chat lines with the
removed ones marked, the fair-play flags."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Engine, and_, func, or_, select
from sqlalchemy.engine import Connection

from gammon.storage.models import Entry, Result, User
from gammon.storage.moderation_models import FairPlayCheck, Report
from gammon.storage.moderation_rows import ChatLine, FlagRow, MatchRow

__all__ = ["ModerationReads"]


class ModerationReads:
    """The moderators' reading queries (synchronous: run them through ``Database.run``)."""

    engine: Engine

    def open_reports(self) -> int:
        """How many reports are open (one COUNT on the index of the reports' status)."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(func.count()).select_from(Report).where(Report.status == "open")
            ).scalar_one()
            return int(found)

    # ------------------------------------------------------------------ what a user did

    def matches(self, user_id: int, limit: int = 50) -> list[MatchRow]:
        """An account's finished tables, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    Result.id,
                    Result.table_id,
                    Result.ended_at,
                    Result.variant,
                    Result.match_length,
                    Result.name0,
                    Result.name1,
                    Result.winner,
                    Result.score0,
                    Result.score1,
                    Result.rated,
                    Result.voided,
                    Result.reason,
                )
                .where(or_(Result.user0 == user_id, Result.user1 == user_id))
                .order_by(Result.ended_at.desc(), Result.id.desc())
                .limit(limit)
            )
            return [
                MatchRow(
                    r.id,
                    r.table_id,
                    int(r.ended_at),
                    r.variant,
                    r.match_length,
                    (r.name0, r.name1),
                    r.winner,
                    (int(r.score0), int(r.score1)),
                    bool(r.rated),
                    bool(r.voided),
                    r.reason,
                )
                for r in rows
            ]

    def chat_of(self, user_id: int, limit: int = 50) -> list[ChatLine]:
        """An account's newest chat lines, every table (a scan of the chat entries: a
        moderator's page, not a player's)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(Entry.table_id, Entry.seq, Entry.at, Entry.data)
                .where(
                    and_(
                        Entry.kind == "chat",
                        or_(
                            *(Entry.data.like(f'%"user":{sp}{int(user_id)}}}') for sp in ("", " "))
                        ),
                    )
                )
                .order_by(Entry.at.desc())
                .limit(limit)
            ).all()
            removed = self._removed(conn, {r.table_id for r in rows})
        return [_chat_line(r, removed) for r in rows]

    def chat_around(self, table_id: str, seq: int, around: int = 5) -> list[ChatLine]:
        """A table's chat line ``seq`` and up to ``around`` chat lines each side of it."""
        base = select(Entry.table_id, Entry.seq, Entry.at, Entry.data).where(
            and_(Entry.table_id == table_id, Entry.kind == "chat")
        )
        with self.engine.connect() as conn:
            before = conn.execute(
                base.where(Entry.seq <= seq).order_by(Entry.seq.desc()).limit(around + 1)
            ).all()
            after = conn.execute(
                base.where(Entry.seq > seq).order_by(Entry.seq).limit(around)
            ).all()
            removed = self._removed(conn, {table_id})
        return [_chat_line(r, removed) for r in [*reversed(before), *after]]

    def chat_line(self, table_id: str, seq: int) -> ChatLine | None:
        """One chat line of a table (None: no chat line there)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(Entry.table_id, Entry.seq, Entry.at, Entry.data).where(
                    and_(Entry.table_id == table_id, Entry.seq == seq, Entry.kind == "chat")
                )
            ).first()
            if row is None:
                return None
            removed = self._removed(conn, {table_id})
        return _chat_line(row, removed)

    @staticmethod
    def _removed(conn: Connection, table_ids: set[str]) -> set[tuple[str, int]]:
        if not table_ids:
            return set()
        rows = conn.execute(
            select(Entry.table_id, Entry.data).where(
                and_(Entry.table_id.in_(sorted(table_ids)), Entry.kind == "chat_removed")
            )
        )
        found = set()
        for r in rows:
            seq = json.loads(r.data).get("seq")
            if isinstance(seq, int):
                found.add((str(r.table_id), seq))
        return found

    def flags(self, limit: int = 100) -> list[FlagRow]:
        """The fair-play checks that flagged a player, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    FairPlayCheck.id,
                    FairPlayCheck.at,
                    User.name,
                    FairPlayCheck.table_id,
                    FairPlayCheck.decisions,
                    FairPlayCheck.error_rate,
                    FairPlayCheck.baseline,
                    FairPlayCheck.bot_agreement,
                    FairPlayCheck.score,
                )
                .join(User, User.id == FairPlayCheck.user_id)
                .where(FairPlayCheck.flagged.is_(True))
                .order_by(FairPlayCheck.at.desc(), FairPlayCheck.id.desc())
                .limit(limit)
            )
            return [
                FlagRow(
                    r.id,
                    int(r.at),
                    r.name,
                    r.table_id,
                    int(r.decisions),
                    float(r.error_rate),
                    float(r.baseline) if r.baseline is not None else None,
                    float(r.bot_agreement),
                    float(r.score),
                )
                for r in rows
            ]


def _chat_line(row: Any, removed: set[tuple[str, int]]) -> ChatLine:
    data = json.loads(row.data)
    user = data.get("user")
    return ChatLine(
        str(row.table_id),
        int(row.seq),
        int(row.at),
        str(data.get("name", "")),
        str(data.get("text", "")),
        user if isinstance(user, int) else None,
        (str(row.table_id), int(row.seq)) in removed,
    )
