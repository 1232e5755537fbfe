"""The fair-play checks of rated matches (``fairplay_checks``) and the system's flags in
the moderators' log (``mod_log``): docs/fairplay.md.

One row per account and analysed rated match: its non-forced decisions, error rate, the
baseline it was compared with, its agreement with the analyser's first choice, the
statistic and whether it was flagged.  A flagged row is also a ``mod_log`` row (action
``flag``, no moderator: the system), written in the same transaction, for the moderators'
pages to list (``Moderation.flags`` and ``Moderation.mod_log`` read them); nothing else
happens to the account.

>>> from gammon.storage import Database, Store
>>> db = Database("sqlite://"); db.migrate(); store = Store(db)
>>> ann = store.create_user("ann", "h", guest=False, balance=0, now=1)
>>> checks = FairPlayChecks(db)
>>> checks.record(CheckRow("t1", ann.id, 10, 60, 12.0, None, 0.7, -1.0, False))
True
>>> checks.record(CheckRow("t1", ann.id, 11, 60, 12.0, None, 0.7, -1.0, False))  # once
False
>>> checks.record(CheckRow("t2", ann.id, 20, 80, 1.0, 12.0, 0.99, 6.5, True), {"z": 1})
True
>>> [(r.table_id, r.decisions, r.error_rate) for r in checks.history(ann.id)]
[('t2', 80, 1.0), ('t1', 60, 12.0)]
>>> [(r.table_id, r.user_name, r.flagged) for r in checks.for_table("t2")]
[('t2', 'ann', True)]
>>> checks.checked("t2")
{1}
>>> db.close()
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    Integer,
    String,
    and_,
    exists,
    insert,
    literal,
    select,
    text,
)

from gammon.storage.db import Database
from gammon.storage.models import Result, User
from gammon.storage.moderation_models import FairPlayCheck, ModLog

__all__ = ["HISTORY_MATCHES", "CheckRow", "FairPlayChecks", "FairPlayRow"]

#: The baseline is taken over a player's last this many checks that were not flagged.
HISTORY_MATCHES: Final = 20


@dataclass(frozen=True, slots=True)
class CheckRow:
    """What one check stores (the columns of ``fairplay_checks`` but its id)."""

    table_id: str
    user_id: int
    at: int
    decisions: int
    error_rate: float
    baseline: float | None
    bot_agreement: float
    score: float
    flagged: bool


@dataclass(frozen=True, slots=True)
class FairPlayRow:
    """A stored check, with its id and the account's name."""

    id: int
    table_id: str
    user_id: int
    user_name: str
    at: int
    decisions: int
    error_rate: float
    baseline: float | None
    bot_agreement: float
    score: float
    flagged: bool


_COLUMNS: Final = (
    FairPlayCheck.id,
    FairPlayCheck.table_id,
    FairPlayCheck.user_id,
    User.name,
    FairPlayCheck.at,
    FairPlayCheck.decisions,
    FairPlayCheck.error_rate,
    FairPlayCheck.baseline,
    FairPlayCheck.bot_agreement,
    FairPlayCheck.score,
    FairPlayCheck.flagged,
)


def _row(r: Any) -> FairPlayRow:
    return FairPlayRow(
        int(r.id),
        str(r.table_id),
        int(r.user_id),
        str(r.name),
        int(r.at),
        int(r.decisions),
        float(r.error_rate),
        None if r.baseline is None else float(r.baseline),
        float(r.bot_agreement),
        float(r.score),
        bool(r.flagged),
    )


class FairPlayChecks:
    """The queries of ``fairplay_checks`` (and the system's ``flag`` rows of ``mod_log``)."""

    def __init__(self, db: Database) -> None:
        self.engine = db.engine

    def record(self, check: CheckRow, detail: Mapping[str, Any] | None = None) -> bool:
        """Store a check, once per table and account (False: one was stored already);
        a flagged one adds a ``flag`` row to ``mod_log`` with ``detail`` (JSON), in the
        same transaction.  Two processes recording the same check at once (both found the
        match unchecked on start) store it once: on PostgreSQL the transaction first takes
        a lock of that table and account (SQLite has one writer at a time)."""
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                key = f"fairplay:{check.table_id}:{check.user_id}"
                conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": key})
            # one statement that inserts only where no row is: atomic on SQLite
            values = {
                "table_id": literal(check.table_id, String),
                "user_id": literal(check.user_id, Integer),
                "at": literal(check.at, BigInteger),
                "decisions": literal(check.decisions, Integer),
                "error_rate": literal(check.error_rate, Float),
                "baseline": literal(check.baseline, Float),
                "bot_agreement": literal(check.bot_agreement, Float),
                "score": literal(check.score, Float),
                "flagged": literal(check.flagged, Boolean),
            }
            stored = exists().where(
                and_(
                    FairPlayCheck.table_id == check.table_id,
                    FairPlayCheck.user_id == check.user_id,
                )
            )
            columns: list[Any] = list(values.values())
            added = conn.execute(
                insert(FairPlayCheck)
                .from_select(list(values), select(*columns).where(~stored))
                .returning(FairPlayCheck.id)
            ).first()
            if added is None:
                return False
            if check.flagged:
                conn.execute(
                    insert(ModLog).values(
                        at=check.at,
                        moderator_id=None,
                        action="flag",
                        target_user=check.user_id,
                        table_id=check.table_id,
                        detail=json.dumps(
                            dict(detail or {}), separators=(",", ":"), sort_keys=True
                        ),
                    )
                )
        return True

    def history(
        self, user_id: int, *, limit: int = HISTORY_MATCHES, before: int | None = None
    ) -> list[FairPlayRow]:
        """A player's last ``limit`` checks (before time ``before``), newest first: what a
        new check is compared with (``gammon.bots.fairplay.check_against``).  The flagged
        ones count too: a flag is for a moderator to judge, and an honest player's one
        flag must not leave their next matches compared with the population's prior."""
        query = (
            select(*_COLUMNS)
            .join(User, User.id == FairPlayCheck.user_id)
            .where(FairPlayCheck.user_id == user_id)
        )
        if before is not None:
            query = query.where(FairPlayCheck.at < before)
        query = query.order_by(FairPlayCheck.at.desc(), FairPlayCheck.id.desc()).limit(limit)
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(query)]

    def checked(self, table_id: str) -> set[int]:
        """The accounts whose check of ``table_id`` is stored."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(FairPlayCheck.user_id).where(FairPlayCheck.table_id == table_id)
            )
            return {int(r.user_id) for r in rows}

    def for_table(self, table_id: str) -> list[FairPlayRow]:
        """The checks of one table, by account id."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(*_COLUMNS)
                .join(User, User.id == FairPlayCheck.user_id)
                .where(FairPlayCheck.table_id == table_id)
                .order_by(FairPlayCheck.user_id)
            )
            return [_row(r) for r in rows]

    def rated_accounts(self, table_id: str) -> tuple[int | None, int | None] | None:
        """The accounts in each seat of a table's rated result (None in a seat that is
        not an account's; None: no rated result)."""
        with self.engine.connect() as conn:
            r = conn.execute(
                select(Result.user0, Result.user1, Result.kind0, Result.kind1).where(
                    and_(Result.table_id == table_id, Result.rated.is_(True))
                )
            ).first()
        if r is None:
            return None
        return (
            r.user0 if r.kind0 == "user" else None,
            r.user1 if r.kind1 == "user" else None,
        )

    def unchecked(self, since: int, variants: Collection[str], limit: int = 200) -> list[str]:
        """Rated results of ``variants`` ended at ``since`` or later with no check stored
        (a process stopped before it checked them), newest first."""
        checked = exists().where(FairPlayCheck.table_id == Result.table_id)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(Result.table_id)
                .where(
                    and_(
                        Result.rated.is_(True),
                        Result.ended_at >= since,
                        Result.variant.in_(sorted(variants)),
                        ~checked,
                    )
                )
                .order_by(Result.ended_at.desc(), Result.id.desc())
                .limit(limit)
            )
            return [str(r.table_id) for r in rows]
