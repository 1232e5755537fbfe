"""The queries of moderation (docs/moderation.md): roles, sanctions, address bans, the
addresses accounts use, reports, blocks, the moderation log, and voiding a rated result.

Every moderator's action writes its ``mod_log`` row in the transaction that does it.
Voiding a rated result recomputes the whole rating pool from scratch by replaying its
rated, non-voided results in the order they were first settled, with the very function
that settled them (:func:`gammon.match.ratings.rate`): the ratings are then exactly those
of a site where the voided match never counted.

>>> from gammon.storage import Database, Store
>>> db = Database("sqlite://"); db.migrate(); store = Store(db); mod = Moderation(db)
>>> ann = store.create_user("ann", "h", guest=False, balance=0, now=1)
>>> mod.grant("ann", by=None, now=2).role
'moderator'
>>> mod.moderators()
['ann']
>>> db.close()
"""

from __future__ import annotations

import json
from typing import Any, Final

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from gammon.storage.db import Database
from gammon.storage.models import Result, SessionToken, User
from gammon.storage.moderation_models import (
    AddressBan,
    Block,
    ModLog,
    Report,
    UserAddress,
)
from gammon.storage.moderation_reads import ModerationReads
from gammon.storage.moderation_rows import (
    AddressRow,
    ChatLine,
    FlagRow,
    LogRow,
    MatchRow,
    ModerationError,
    ReportRow,
    Sanctions,
    address_in,
    normalize_address,
)
from gammon.storage.recompute import recompute_pool

__all__ = [
    "MAX_BLOCKS",
    "MAX_OPEN_REPORTS",
    "REPORT_REASONS",
    "ROLES",
    "AddressRow",
    "ChatLine",
    "FlagRow",
    "LogRow",
    "MatchRow",
    "Moderation",
    "ModerationError",
    "ReportRow",
    "Sanctions",
    "address_in",
    "normalize_address",
]

#: The roles an account may have.
ROLES: Final = ("player", "moderator")
#: Why a player may report another.
REPORT_REASONS: Final = ("abuse", "cheating", "spam", "other")
#: Open reports one player may have made (more are refused until some are handled).
MAX_OPEN_REPORTS: Final = 20
#: Players one player may block.
MAX_BLOCKS: Final = 500
#: Longest text of a report or a reason, in characters.
TEXT_MAX: Final = 500


def _text(value: str, name: str) -> str:
    value = (value or "").strip()
    if len(value) > TEXT_MAX:
        raise ModerationError(f"{name} may be at most {TEXT_MAX} characters")
    return value


def _log(
    conn: Connection,
    at: int,
    by: int | None,
    action: str,
    *,
    target: int | None = None,
    table_id: str | None = None,
    **detail: Any,
) -> None:
    conn.execute(
        insert(ModLog).values(
            at=at,
            moderator_id=by,
            action=action,
            target_user=target,
            table_id=table_id,
            detail=json.dumps(detail, separators=(",", ":"), sort_keys=True),
        )
    )


_Reporter = aliased(User)
_Target = aliased(User)


class Moderation(ModerationReads):
    """Every moderation query, on one :class:`Database` (synchronous: run them through
    :meth:`Database.run`)."""

    def __init__(self, db: Database) -> None:
        self.engine = db.engine

    # ------------------------------------------------------------------ accounts

    def sanctions(self, user_id: int) -> Sanctions | None:
        """An account's role and sanctions."""
        with self.engine.connect() as conn:
            return self._sanctions(conn, User.id == user_id)

    def sanctions_by_name(self, name: str) -> Sanctions | None:
        """An account's role and sanctions, by name in any case."""
        with self.engine.connect() as conn:
            return self._sanctions(conn, User.name_key == (name or "").strip().lower())

    @staticmethod
    def _sanctions(conn: Connection, where: Any) -> Sanctions | None:
        row = conn.execute(
            select(
                User.id,
                User.name,
                User.guest,
                User.role,
                User.muted_until,
                User.banned_until,
                User.ban_reason,
            ).where(where)
        ).first()
        if row is None:
            return None
        return Sanctions(
            row.id,
            row.name,
            bool(row.guest),
            row.role,
            row.muted_until,
            row.banned_until,
            row.ban_reason,
        )

    def _need_user(self, conn: Connection, name_or_id: str | int) -> Sanctions:
        if isinstance(name_or_id, int):
            found = self._sanctions(conn, User.id == name_or_id)
        else:
            found = self._sanctions(conn, User.name_key == name_or_id.strip().lower())
        if found is None:
            raise ModerationError(f"no account is called {str(name_or_id)[:40]!r}", "not_found")
        return found

    def grant(self, name: str, *, by: int | None, now: int, role: str = "moderator") -> Sanctions:
        """Give an account a role (``moderator``); a guest cannot be one."""
        if role not in ROLES:
            raise ModerationError(f"a role is one of {', '.join(ROLES)}, not {role!r}")
        with self.engine.begin() as conn:
            user = self._need_user(conn, name)
            if user.guest and role != "player":
                raise ModerationError("a guest cannot be a moderator: sign the account up first")
            conn.execute(update(User).where(User.id == user.user_id).values(role=role))
            _log(conn, now, by, "grant" if role != "player" else "revoke", target=user.user_id)
            return self._need_user(conn, user.user_id)

    def revoke(self, name: str, *, by: int | None, now: int) -> Sanctions:
        """Make a moderator a player again."""
        return self.grant(name, by=by, now=now, role="player")

    def moderators(self) -> list[str]:
        """The names of the moderators, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(User.name).where(User.role == "moderator").order_by(User.name_key)
            )
            return [str(r[0]) for r in rows]

    def mute(
        self, user_id: int, until: int | None, *, by: int | None, now: int, reason: str = ""
    ) -> None:
        """No chat from an account until ``until`` (None: lift the mute)."""
        reason = _text(reason, "a reason")
        with self.engine.begin() as conn:
            user = self._need_user(conn, user_id)
            conn.execute(update(User).where(User.id == user.user_id).values(muted_until=until))
            action = "mute" if until is not None else "unmute"
            _log(conn, now, by, action, target=user.user_id, until=until, reason=reason)

    def ban(
        self, user_id: int, until: int | None, *, by: int | None, now: int, reason: str = ""
    ) -> int:
        """No sign-in or play for an account until ``until`` (None: for good): its
        sessions are deleted in the same transaction.  Returns how many there were."""
        reason = _text(reason, "a reason")
        forever = 2**62
        with self.engine.begin() as conn:
            user = self._need_user(conn, user_id)
            if user.moderator:
                raise ModerationError("a moderator cannot be banned: revoke the role first")
            conn.execute(
                update(User)
                .where(User.id == user.user_id)
                .values(banned_until=until if until is not None else forever, ban_reason=reason)
            )
            gone = conn.execute(delete(SessionToken).where(SessionToken.user_id == user.user_id))
            _log(conn, now, by, "ban", target=user.user_id, until=until, reason=reason)
            return int(gone.rowcount)

    def unban(self, user_id: int, *, by: int | None, now: int) -> None:
        """Lift an account's ban."""
        with self.engine.begin() as conn:
            user = self._need_user(conn, user_id)
            conn.execute(
                update(User)
                .where(User.id == user.user_id)
                .values(banned_until=None, ban_reason=None)
            )
            _log(conn, now, by, "unban", target=user.user_id)

    # ------------------------------------------------------------------ addresses

    def ban_address(
        self, address: str, until: int | None, *, by: int | None, now: int, reason: str = ""
    ) -> str:
        """Refuse an address or a network (CIDR) until ``until`` (None: until lifted);
        the address as stored."""
        key = normalize_address(address)
        reason = _text(reason, "a reason")
        with self.engine.begin() as conn:
            conn.execute(delete(AddressBan).where(AddressBan.address == key))
            conn.execute(
                insert(AddressBan).values(
                    address=key, until=until, reason=reason, by_user=by, at=now
                )
            )
            _log(conn, now, by, "ban-address", address=key, until=until, reason=reason)
        return key

    def unban_address(self, address: str, *, by: int | None, now: int) -> None:
        """Lift an address ban (``not_found`` when there is none)."""
        key = normalize_address(address)
        with self.engine.begin() as conn:
            gone = conn.execute(delete(AddressBan).where(AddressBan.address == key))
            if not gone.rowcount:
                raise ModerationError(f"{key} is not banned", "not_found")
            _log(conn, now, by, "unban-address", address=key)

    def address_bans(self, now: int) -> list[str]:
        """The addresses and networks banned at ``now``."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(AddressBan.address).where(
                    or_(AddressBan.until.is_(None), AddressBan.until > now)
                )
            )
            return sorted(str(r[0]) for r in rows)

    def seen(self, user_id: int, address: str, now: int, every: int) -> bool:
        """Note that an account used ``address`` at ``now``: at most one write per account
        and address per ``every`` ms (True: written)."""
        try:
            key = normalize_address(address)
        except ModerationError:
            return False
        with self.engine.begin() as conn:
            done = conn.execute(
                update(UserAddress)
                .where(
                    and_(
                        UserAddress.user_id == user_id,
                        UserAddress.address == key,
                        UserAddress.last_seen <= now - every,
                    )
                )
                .values(last_seen=now, count=UserAddress.count + 1)
            )
            if done.rowcount:
                return True
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(UserAddress).values(
                            user_id=user_id, address=key, first_seen=now, last_seen=now, count=1
                        )
                    )
            except IntegrityError:
                return False  # seen lately already
            return True

    def addresses(self, user_id: int, limit: int = 50) -> list[AddressRow]:
        """The addresses an account used, newest first, with the other accounts seen there."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    UserAddress.address,
                    UserAddress.first_seen,
                    UserAddress.last_seen,
                    UserAddress.count,
                )
                .where(UserAddress.user_id == user_id)
                .order_by(UserAddress.last_seen.desc())
                .limit(limit)
            ).all()
            found = []
            for r in rows:
                others = conn.execute(
                    select(User.name)
                    .join(UserAddress, UserAddress.user_id == User.id)
                    .where(and_(UserAddress.address == r.address, User.id != user_id))
                    .order_by(User.name_key)
                    .limit(20)
                )
                found.append(
                    AddressRow(
                        r.address,
                        int(r.first_seen),
                        int(r.last_seen),
                        int(r[3]),
                        tuple(str(o[0]) for o in others),
                    )
                )
            return found

    # ------------------------------------------------------------------ reports

    def report(
        self,
        reporter_id: int,
        target_id: int,
        reason: str,
        text: str,
        now: int,
        *,
        table_id: str | None = None,
        entry_seq: int | None = None,
    ) -> int:
        """A player's report of another (or of one chat line): its id.  The same line
        reported again by the same player is the same report."""
        if reason not in REPORT_REASONS:
            raise ModerationError(f"a report's reason is one of {', '.join(REPORT_REASONS)}")
        text = _text(text, "a report")
        if reporter_id == target_id:
            raise ModerationError("you cannot report yourself", "forbidden")
        with self.engine.begin() as conn:
            if conn.execute(select(User.id).where(User.id == target_id)).first() is None:
                raise ModerationError("no such player", "not_found")
            same = conn.execute(
                select(Report.id).where(
                    and_(
                        Report.reporter_id == reporter_id,
                        Report.target_id == target_id,
                        Report.status == "open",
                        Report.table_id.is_(None)
                        if table_id is None
                        else Report.table_id == table_id,
                        Report.entry_seq.is_(None)
                        if entry_seq is None
                        else Report.entry_seq == entry_seq,
                    )
                )
            ).first()
            if same is not None:
                return int(same[0])
            mine = conn.execute(
                select(func.count())
                .select_from(Report)
                .where(and_(Report.reporter_id == reporter_id, Report.status == "open"))
            ).scalar_one()
            if mine >= MAX_OPEN_REPORTS:
                raise ModerationError(
                    "you have too many reports waiting for a moderator; wait for them",
                    "rate_limited",
                )
            return int(
                conn.execute(
                    insert(Report)
                    .values(
                        reporter_id=reporter_id,
                        target_id=target_id,
                        table_id=table_id,
                        entry_seq=entry_seq,
                        reason=reason,
                        text=text,
                        at=now,
                        status="open",
                    )
                    .returning(Report.id)
                ).scalar_one()
            )

    def reports(self, status: str = "open", limit: int = 100) -> list[ReportRow]:
        """Reports in a status, oldest first."""
        return self._reports(Report.status == status, limit)

    def report_row(self, report_id: int) -> ReportRow | None:
        """One report (any status)."""
        found = self._reports(Report.id == report_id, 1)
        return found[0] if found else None

    def _reports(self, where: Any, limit: int) -> list[ReportRow]:
        query = (
            select(
                Report.id,
                Report.at,
                _Reporter.name.label("reporter"),
                Report.target_id,
                _Target.name.label("target"),
                Report.table_id,
                Report.entry_seq,
                Report.reason,
                Report.text,
                Report.status,
            )
            .join(_Target, _Target.id == Report.target_id)
            .outerjoin(_Reporter, _Reporter.id == Report.reporter_id)
            .where(where)
            .order_by(Report.at, Report.id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [
                ReportRow(
                    r.id,
                    int(r.at),
                    r.reporter,
                    r.target_id,
                    r.target,
                    r.table_id,
                    r.entry_seq,
                    r.reason,
                    r.text,
                    r.status,
                )
                for r in conn.execute(query)
            ]

    def close_report(self, report_id: int, status: str, *, by: int | None, now: int) -> None:
        """Mark an open report ``resolved`` or ``dismissed``."""
        if status not in ("resolved", "dismissed"):
            raise ModerationError("a report is resolved or dismissed")
        with self.engine.begin() as conn:
            row = conn.execute(
                select(Report.target_id, Report.table_id).where(
                    and_(Report.id == report_id, Report.status == "open")
                )
            ).first()
            if row is None:
                raise ModerationError("no such open report", "not_found")
            conn.execute(
                update(Report)
                .where(Report.id == report_id)
                .values(status=status, handled_by=by, handled_at=now)
            )
            action = "resolve-report" if status == "resolved" else "dismiss-report"
            _log(
                conn, now, by, action, target=row.target_id, table_id=row.table_id, report=report_id
            )

    # ------------------------------------------------------------------ blocks

    def block(self, blocker_id: int, blocked_id: int, now: int) -> None:
        """``blocker`` takes no challenge and no chat from ``blocked`` any more."""
        if blocker_id == blocked_id:
            raise ModerationError("you cannot block yourself", "forbidden")
        with self.engine.begin() as conn:
            if conn.execute(select(User.id).where(User.id == blocked_id)).first() is None:
                raise ModerationError("no such player", "not_found")
            count = conn.execute(
                select(func.count()).select_from(Block).where(Block.blocker_id == blocker_id)
            ).scalar_one()
            if count >= MAX_BLOCKS:
                raise ModerationError(f"you may block at most {MAX_BLOCKS} players")
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(Block).values(blocker_id=blocker_id, blocked_id=blocked_id, at=now)
                    )
            except IntegrityError:
                pass  # blocked already

    def unblock(self, blocker_id: int, blocked_id: int) -> None:
        """Lift a block."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(Block).where(
                    and_(Block.blocker_id == blocker_id, Block.blocked_id == blocked_id)
                )
            )

    def blocked_by(self, blocker_id: int) -> frozenset[int]:
        """The accounts ``blocker`` blocks."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(Block.blocked_id).where(Block.blocker_id == blocker_id))
            return frozenset(int(r[0]) for r in rows)

    def blocks(self, blocker_id: int, blocked_id: int) -> bool:
        """Whether ``blocker`` blocks ``blocked``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(Block.at).where(
                    and_(Block.blocker_id == blocker_id, Block.blocked_id == blocked_id)
                )
            ).first()
            return row is not None

    def between(self, one: int, other: int) -> bool:
        """Whether either account blocks the other (such a pair is never seated together
        by the site: docs/moderation.md), in one query.

        >>> from gammon.storage import Database, Store
        >>> db = Database("sqlite://"); db.migrate(); store = Store(db); mod = Moderation(db)
        >>> a, b = (store.create_user(n, "h", guest=False, balance=0, now=1).id for n in "ab")
        >>> mod.between(a, b), mod.block(b, a, 2), mod.between(a, b), mod.between(b, a)
        (False, None, True, True)
        >>> db.close()
        """
        with self.engine.connect() as conn:
            row = conn.execute(
                select(Block.at)
                .where(
                    or_(
                        and_(Block.blocker_id == one, Block.blocked_id == other),
                        and_(Block.blocker_id == other, Block.blocked_id == one),
                    )
                )
                .limit(1)
            ).first()
            return row is not None

    # ------------------------------------------------------------------ the log

    def log(
        self,
        action: str,
        *,
        by: int | None,
        now: int,
        target: int | None = None,
        table_id: str | None = None,
        **detail: Any,
    ) -> None:
        """Write one line of the moderation log on its own (an action the table's actor
        did: removing a chat line, closing a table)."""
        with self.engine.begin() as conn:
            _log(conn, now, by, action, target=target, table_id=table_id, **detail)

    def mod_log(self, limit: int = 100, target: int | None = None) -> list[LogRow]:
        """The moderation log, newest first (one account's, with ``target``)."""
        moderator = aliased(User)
        subject = aliased(User)
        query = (
            select(
                ModLog.id,
                ModLog.at,
                moderator.name.label("moderator"),
                ModLog.action,
                subject.name.label("target"),
                ModLog.table_id,
                ModLog.detail,
            )
            .outerjoin(moderator, moderator.id == ModLog.moderator_id)
            .outerjoin(subject, subject.id == ModLog.target_user)
            .order_by(ModLog.at.desc(), ModLog.id.desc())
            .limit(limit)
        )
        if target is not None:
            query = query.where(ModLog.target_user == target)
        with self.engine.connect() as conn:
            return [
                LogRow(
                    r.id,
                    int(r.at),
                    r.moderator,
                    r.action,
                    r.target,
                    r.table_id,
                    json.loads(r.detail or "{}"),
                )
                for r in conn.execute(query)
            ]

    # ------------------------------------------------------------------ void a result

    def void_result(self, result_id: int, *, by: int | None, now: int, reason: str = "") -> str:
        """Void a result: not rated any more, every rating of its pool recomputed
        exactly (:func:`recompute_pool`).  Returns its table's id."""
        reason = _text(reason, "a reason")
        with self.engine.begin() as conn:
            row = conn.execute(
                select(Result.table_id, Result.pool, Result.rated, Result.voided, Result.user0)
                .where(Result.id == result_id)
                .with_for_update()
            ).first()
            if row is None:
                raise ModerationError("no such result", "not_found")
            if row.voided:
                raise ModerationError("this result is voided already", "stale")
            conn.execute(update(Result).where(Result.id == result_id).values(voided=True))
            if row.rated:
                recompute_pool(conn, row.pool)
            _log(
                conn,
                now,
                by,
                "void-result",
                table_id=row.table_id,
                result=result_id,
                reason=reason,
            )
            return str(row.table_id)

    def result_of(self, table_id: str) -> int | None:
        """The id of a table's result (None: none)."""
        with self.engine.connect() as conn:
            value = conn.execute(select(Result.id).where(Result.table_id == table_id)).scalar()
        return int(value) if value is not None else None
