"""Repositories: every query the server makes, as synchronous methods.

The server calls them through :meth:`gammon.storage.Database.run`.  A table's
journal is appended with optimistic concurrency: entry ``seq`` is written only
if the table's version is still ``seq - 1`` (otherwise :class:`ConflictError`),
so several server processes sharing one database never fork a journal.

>>> import json
>>> from gammon.storage import Database
>>> db = Database("sqlite://"); db.migrate(); store = Store(db)
>>> alice = store.create_user("alice", None, guest=True, balance=100, now=1)
>>> store.create_table("t1", alice.id, "{}", False, 1, "created", "{}")
>>> store.append("t1", 2, "chat", json.dumps({"text": "hi"}), 2, TableUpdate())
>>> store.append("t1", 2, "chat", "{}", 3, TableUpdate())
Traceback (most recent call last):
...
gammon.storage.store.ConflictError: table t1 is no longer at version 1
>>> [(e.seq, e.kind) for e in store.entries("t1")]
[(1, 'created'), (2, 'chat')]
>>> db.close()
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final

from sqlalchemy import Engine, TextClause, and_, case, delete, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError

from gammon.errors import GammonError
from gammon.storage.analyses import Analyses
from gammon.storage.db import Database
from gammon.storage.imports import Imports
from gammon.storage.models import Entry, Ledger, SessionToken, Table, User
from gammon.storage.rollouts import Rollouts
from gammon.storage.standings import MatchResult, record_result

__all__ = [
    "ConflictError",
    "EntryRow",
    "InsufficientFundsError",
    "LedgerLine",
    "SessionInfo",
    "Store",
    "TableRow",
    "TableUpdate",
    "UserRow",
]


class ConflictError(GammonError):
    """A write lost a race: the journal moved on, or a unique name is taken."""

    def __init__(self, message: str, code: str = "conflict") -> None:
        super().__init__(message)
        self.code = code


class InsufficientFundsError(GammonError):
    """Escrow refused: the balance not already held elsewhere does not cover it."""

    code = "insufficient_balance"


@dataclass(frozen=True, slots=True)
class UserRow:
    """An account.  ``held`` is the part of ``balance`` in escrow at staked tables."""

    id: int
    name: str
    guest: bool
    balance: int
    password_hash: str | None
    created_at: int
    held: int = 0

    @property
    def available(self) -> int:
        """What the user may still stake: the balance not held in escrow."""
        return self.balance - self.held


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """A live session and its user."""

    user: UserRow
    csrf: str
    expires_at: int


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table as listed (``server_seed`` is private: never send it before the end)."""

    id: str
    created_at: int
    created_by: int | None
    options: str
    private: bool
    status: str
    version: int
    seats: str
    server_seed: str | None
    finished_at: int | None
    result: str | None


@dataclass(frozen=True, slots=True)
class EntryRow:
    """One journal entry."""

    seq: int
    kind: str
    data: str
    at: int


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One line of a user's ledger."""

    id: int
    at: int
    amount: int
    balance: int
    reason: str
    table_id: str | None
    game: int | None
    held: int = 0


@dataclass(frozen=True, slots=True)
class TableUpdate:
    """What else changes with a journal entry, in the same transaction.

    ``None`` fields stay as they are.  ``ledger`` lines are ``(user_id, amount,
    reason, game)``: each moves that user's balance and is written to the ledger.
    ``holds`` are ``(user_id, change, game)``: a positive change takes that much
    into escrow, only if the user's balance not yet held covers it (else
    :class:`InsufficientFundsError` and nothing is written); a negative one gives
    escrow back.  Rows are locked in user-id order, so two settlements between the
    same users never deadlock.  ``outcome`` (with the ``end`` entry) records the
    table's result and, for a rated match, both ratings
    (:func:`gammon.storage.standings.record_result`).
    """

    status: str | None = None
    seats: str | None = None
    server_seed: str | None = None
    finished_at: int | None = None
    result: str | None = None
    ledger: tuple[tuple[int, int, str, int | None], ...] = field(default=())
    holds: tuple[tuple[int, int, int | None], ...] = field(default=())
    outcome: MatchResult | None = None
    #: A correspondence table's deadline and the user whose move it is (0: none; None:
    #: unchanged): ``tables.wake_at`` and ``tables.turn_user`` (docs/notifications.md).
    wake_at: int | None = None
    turn_user: int | None = None


def _user(row: Any) -> UserRow:
    return UserRow(
        row.id,
        row.name,
        bool(row.guest),
        int(row.balance),
        row.password_hash,
        row.created_at,
        int(row.held),
    )


def _table(row: Any) -> TableRow:
    return TableRow(
        row.id,
        row.created_at,
        row.created_by,
        row.options,
        bool(row.private),
        row.status,
        row.version,
        row.seats,
        row.server_seed,
        row.finished_at,
        row.result,
    )


#: Tables whose versions one query asks (:meth:`Store.versions`).
VERSIONS_BATCH: Final = 500

_USER_COLUMNS = (
    User.id,
    User.name,
    User.guest,
    User.balance,
    User.password_hash,
    User.created_at,
    User.held,
)


_TABLE_COLUMNS = tuple(Table.__table__.columns)
_INSERT_ENTRY: Final = text(
    "INSERT INTO entries (table_id, seq, kind, data, at) VALUES (:table_id, :seq, :kind, :data, :at)"
)


@lru_cache(maxsize=64)
def _bump_version(columns: tuple[str, ...]) -> TextClause:
    """``UPDATE tables SET version = :seq, <columns> WHERE id = :id AND version = :prev``."""
    sets = ", ".join(["version = :seq", *(f"{c} = :{c}" for c in columns)])
    return text(f"UPDATE tables SET {sets} WHERE id = :id AND version = :prev")


@lru_cache(maxsize=64)
def _bump_and_insert(columns: tuple[str, ...]) -> TextClause:
    """The version bump and the entry in one statement (PostgreSQL): the entry is
    inserted only if the bump found the table at ``:prev``, so the row count is 1 or 0."""
    bump = _bump_version(columns).text
    return text(
        f"WITH bumped AS ({bump} RETURNING id) INSERT INTO entries (table_id, seq, kind, "
        "data, at) SELECT id, :seq, :kind, :data, :at FROM bumped"
    )


class Store:
    """Every query of the server, on one :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine
        #: PostgreSQL's connections in autocommit, for :meth:`append`'s one statement
        #: (None on SQLite, whose appends are already on the loop's thread).
        self._single: Engine | None = db.single
        #: The imported matches (:class:`gammon.storage.imports.Imports`).
        self.imports = Imports(db.engine)
        #: The finished analyses (:class:`gammon.storage.analyses.Analyses`).
        self.analyses = Analyses(db.engine)
        #: The decisions rolled out (:class:`gammon.storage.rollouts.Rollouts`).
        self.rollouts = Rollouts(db.engine)

    # ------------------------------------------------------------------ users

    def create_user(
        self, name: str, password_hash: str | None, *, guest: bool, balance: int, now: int
    ) -> UserRow:
        """A new account with its opening balance; ``username_taken`` if the name exists."""
        try:
            with self.engine.begin() as conn:
                user_id = conn.execute(
                    insert(User)
                    .values(
                        name=name,
                        name_key=name.lower(),
                        password_hash=password_hash,
                        guest=guest,
                        balance=balance,
                        created_at=now,
                    )
                    .returning(User.id)
                ).scalar_one()
                if balance:
                    conn.execute(
                        insert(Ledger).values(
                            user_id=user_id,
                            at=now,
                            amount=balance,
                            balance=balance,
                            reason="opening",
                            table_id=None,
                            game=None,
                        )
                    )
        except IntegrityError:
            raise ConflictError(f"the user name {name!r} is taken", "username_taken") from None
        return UserRow(user_id, name, guest, balance, password_hash, now)

    def user(self, user_id: int) -> UserRow | None:
        """The account with this id."""
        with self.engine.connect() as conn:
            row = conn.execute(select(*_USER_COLUMNS).where(User.id == user_id)).first()
        return _user(row) if row is not None else None

    def user_by_name(self, name: str) -> UserRow | None:
        """The account with this name, in any case."""
        with self.engine.connect() as conn:
            row = conn.execute(select(*_USER_COLUMNS).where(User.name_key == name.lower())).first()
        return _user(row) if row is not None else None

    def register_guest(self, user_id: int, name: str, password_hash: str) -> UserRow:
        """Turn a guest into a signed-up account, keeping its balance and ledger."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    update(User)
                    .where(User.id == user_id)
                    .values(
                        name=name, name_key=name.lower(), password_hash=password_hash, guest=False
                    )
                )
        except IntegrityError:
            raise ConflictError(f"the user name {name!r} is taken", "username_taken") from None
        user = self.user(user_id)
        assert user is not None
        return user

    def available(self, user_ids: Sequence[int]) -> dict[int, int]:
        """What some users may still stake: balance less escrow."""
        if not user_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(User.id, User.balance, User.held).where(User.id.in_(user_ids))
            )
            return {row.id: int(row.balance) - int(row.held) for row in rows}

    def balances(self, user_ids: Sequence[int]) -> dict[int, int]:
        """The balances of some users."""
        if not user_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(User.id, User.balance).where(User.id.in_(user_ids)))
            return {row.id: int(row.balance) for row in rows}

    def ledger(self, user_id: int, limit: int = 200) -> list[LedgerLine]:
        """A user's ledger, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    Ledger.id,
                    Ledger.at,
                    Ledger.amount,
                    Ledger.balance,
                    Ledger.reason,
                    Ledger.table_id,
                    Ledger.game,
                    Ledger.held,
                )
                .where(Ledger.user_id == user_id)
                .order_by(Ledger.id.desc())
                .limit(limit)
            )
            return [
                LedgerLine(
                    r.id,
                    r.at,
                    int(r.amount),
                    int(r.balance),
                    r.reason,
                    r.table_id,
                    r.game,
                    int(r.held),
                )
                for r in rows
            ]

    # ------------------------------------------------------------------ sessions

    def create_session(
        self, token_hash: str, user_id: int, csrf: str, now: int, expires_at: int
    ) -> None:
        """Store a new session (by the hash of its token)."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(SessionToken).values(
                    token_hash=token_hash,
                    user_id=user_id,
                    csrf=csrf,
                    created_at=now,
                    expires_at=expires_at,
                )
            )

    def session(self, token_hash: str, now: int) -> SessionInfo | None:
        """The live session with this token hash, and its user."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(*_USER_COLUMNS, SessionToken.csrf, SessionToken.expires_at)
                .join(SessionToken, SessionToken.user_id == User.id)
                .where(and_(SessionToken.token_hash == token_hash, SessionToken.expires_at > now))
            ).first()
        if row is None:
            return None
        return SessionInfo(_user(row), row.csrf, row.expires_at)

    def delete_session(self, token_hash: str) -> None:
        """Sign out."""
        with self.engine.begin() as conn:
            conn.execute(delete(SessionToken).where(SessionToken.token_hash == token_hash))

    def delete_expired_sessions(self, now: int) -> int:
        """Remove expired sessions; returns how many."""
        with self.engine.begin() as conn:
            result = conn.execute(delete(SessionToken).where(SessionToken.expires_at <= now))
            return int(result.rowcount)

    # ------------------------------------------------------------------ tables

    def create_table(
        self,
        table_id: str,
        created_by: int | None,
        options: str,
        private: bool,
        now: int,
        kind: str,
        data: str,
    ) -> None:
        """A new waiting table whose journal starts with entry 1 (``kind``, ``data``)."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(Table).values(
                    id=table_id,
                    created_at=now,
                    created_by=created_by,
                    options=options,
                    private=private,
                    status="waiting",
                    version=1,
                    seats="[null, null]",
                    server_seed=None,
                    finished_at=None,
                    result=None,
                )
            )
            conn.execute(
                insert(Entry).values(table_id=table_id, seq=1, kind=kind, data=data, at=now)
            )

    def append(
        self,
        table_id: str,
        seq: int,
        kind: str,
        data: str,
        at: int,
        change: TableUpdate,
        *,
        engine: Engine | None = None,
    ) -> None:
        """Commit journal entry ``seq`` and its ``change``, or raise :class:`ConflictError`.

        This is the hot path of the server (one call per action), so it runs plain SQL
        statements compiled once; the server calls it through
        :meth:`~gammon.storage.db.Database.write`, which passes the ``engine`` to use
        (default: the store's).
        """
        params: dict[str, Any] = {"id": table_id, "seq": seq, "prev": seq - 1}
        columns = []
        for name in ("status", "seats", "server_seed", "finished_at", "result"):
            value = getattr(change, name)
            if value is not None:
                params[name] = value
                columns.append(name)
        for name in ("wake_at", "turn_user"):
            value = getattr(change, name)
            if value is not None:
                params[name] = value or None  # 0: no longer any
                columns.append(name)
        engine = engine or self.engine
        single = self._single if engine is self.engine else None
        if single is not None and not (change.ledger or change.holds or change.outcome):
            # most actions: one statement committed on its own, one round trip where a
            # transaction takes four (BEGIN, UPDATE, INSERT, COMMIT)
            params.update(kind=kind, data=data, at=at)
            try:
                with single.connect() as conn:
                    done = conn.execute(_bump_and_insert(tuple(columns)), params).rowcount
            except IntegrityError:
                raise ConflictError(f"table {table_id} already has entry {seq}") from None
            if done != 1:
                raise ConflictError(f"table {table_id} is no longer at version {seq - 1}")
            return
        statement = _bump_version(tuple(columns))
        try:
            with engine.begin() as conn:
                if conn.execute(statement, params).rowcount != 1:
                    raise ConflictError(f"table {table_id} is no longer at version {seq - 1}")
                conn.execute(
                    _INSERT_ENTRY,
                    {"table_id": table_id, "seq": seq, "kind": kind, "data": data, "at": at},
                )
                _settle(conn, table_id, at, change)
                if change.outcome is not None:
                    record_result(conn, table_id, at, change.outcome)
        except IntegrityError:
            raise ConflictError(f"table {table_id} already has entry {seq}") from None

    def hold(self, user_id: int, amount: int, at: int, table_id: str | None = None) -> None:
        """Take ``amount`` into escrow outside a journal entry (tests and tools)."""
        with self.engine.begin() as conn:
            _settle(conn, table_id, at, TableUpdate(holds=((user_id, amount, None),)))

    def table(self, table_id: str) -> TableRow | None:
        """A table's row, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(*_TABLE_COLUMNS).where(Table.id == table_id)).first()
        return _table(row) if row is not None else None

    def load(self, table_id: str) -> tuple[TableRow, list[EntryRow]] | None:
        """A table and its whole journal, read in one transaction."""
        with self.engine.begin() as conn:
            row = conn.execute(select(*_TABLE_COLUMNS).where(Table.id == table_id)).first()
            if row is None:
                return None
            entries = conn.execute(
                select(Entry.seq, Entry.kind, Entry.data, Entry.at)
                .where(Entry.table_id == table_id)
                .order_by(Entry.seq)
            )
            return _table(row), [EntryRow(e.seq, e.kind, e.data, e.at) for e in entries]

    def entries(self, table_id: str, after: int = 0) -> list[EntryRow]:
        """Journal entries after version ``after``, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(Entry.seq, Entry.kind, Entry.data, Entry.at)
                .where(and_(Entry.table_id == table_id, Entry.seq > after))
                .order_by(Entry.seq)
            )
            return [EntryRow(e.seq, e.kind, e.data, e.at) for e in rows]

    def version(self, table_id: str) -> int | None:
        """A table's newest version."""
        with self.engine.connect() as conn:
            value = conn.execute(select(Table.version).where(Table.id == table_id)).scalar()
        return int(value) if value is not None else None

    def versions(self, table_ids: Sequence[str]) -> dict[str, int]:
        """The newest version of each of these tables (the unknown ones left out), in a
        query per :data:`VERSIONS_BATCH` tables: a process checks all it holds at once."""
        found: dict[str, int] = {}
        with self.engine.connect() as conn:
            for start in range(0, len(table_ids), VERSIONS_BATCH):
                batch = list(table_ids[start : start + VERSIONS_BATCH])
                rows = conn.execute(select(Table.id, Table.version).where(Table.id.in_(batch)))
                found.update((str(row[0]), int(row[1])) for row in rows)
        return found

    def live_sessions(self, token_hashes: Sequence[str], now: int) -> dict[str, int]:
        """The user of each of these sessions that is still live (the others left out), in a
        query per :data:`VERSIONS_BATCH`: a process checks its sockets' sessions at once."""
        found: dict[str, int] = {}
        with self.engine.connect() as conn:
            for start in range(0, len(token_hashes), VERSIONS_BATCH):
                batch = list(token_hashes[start : start + VERSIONS_BATCH])
                rows = conn.execute(
                    select(SessionToken.token_hash, SessionToken.user_id).where(
                        and_(SessionToken.token_hash.in_(batch), SessionToken.expires_at > now)
                    )
                )
                found.update((str(row[0]), int(row[1])) for row in rows)
        return found

    def server_seed(self, table_id: str) -> str | None:
        """A table's secret dice seed (server side only)."""
        with self.engine.connect() as conn:
            value = conn.execute(select(Table.server_seed).where(Table.id == table_id)).scalar()
        return str(value) if value is not None else None

    def list_tables(
        self, statuses: Sequence[str], *, public_only: bool = True, limit: int = 100
    ) -> list[TableRow]:
        """Tables in some statuses, newest first."""
        query = select(*_TABLE_COLUMNS).where(Table.status.in_(statuses))
        if public_only:
            query = query.where(Table.private.is_(False))
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(Table.created_at.desc()).limit(limit))
            return [_table(r) for r in rows]

    def table_ids(self, status: str) -> list[str]:
        """The ids of every table in a status."""
        with self.engine.connect() as conn:
            return list(conn.execute(select(Table.id).where(Table.status == status)).scalars())

    def count_tables(self) -> dict[str, int]:
        """How many tables are in each status."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(Table.status, func.count()).group_by(Table.status))
            return {status: int(n) for status, n in rows}


def _settle(conn: Any, table_id: str | None, at: int, change: TableUpdate) -> None:
    """Apply a change's ledger lines and escrow, user by user in id order."""
    users = sorted({line[0] for line in change.ledger} | {hold[0] for hold in change.holds})
    for user_id in users:
        # releases first, then payments, then new holds: every line's ``held`` is
        # covered by its ``balance`` (a loss is paid out of the escrow it releases)
        for uid, amount, game in change.holds:
            if uid == user_id and amount < 0:
                _hold(conn, user_id, at, amount, table_id, game)
        for uid, amount, reason, game in change.ledger:
            if uid != user_id:
                continue
            row = conn.execute(
                update(User)
                .where(User.id == user_id)
                .values(balance=User.balance + amount)
                .returning(User.balance, User.held)
            ).one()
            _line(conn, user_id, at, amount, row, reason, table_id, game)
        for uid, amount, game in change.holds:
            if uid == user_id and amount > 0:
                _hold(conn, user_id, at, amount, table_id, game)


def _hold(
    conn: Any, user_id: int, at: int, amount: int, table_id: str | None, game: int | None
) -> None:
    """Hold (``amount`` > 0) or release (< 0) some of a user's balance, with its line."""
    if amount > 0:
        row = conn.execute(
            update(User)
            .where(and_(User.id == user_id, User.balance - User.held >= amount))
            .values(held=User.held + amount)
            .returning(User.balance, User.held)
        ).first()
        if row is None:
            have = conn.execute(select(User.balance, User.held).where(User.id == user_id)).first()
            balance, held = (int(have.balance), int(have.held)) if have else (0, 0)
            extra = f" ({held} of it is held at other staked tables)" if held else ""
            raise InsufficientFundsError(
                f"a balance of {balance}{extra} does not cover the {amount} "
                f"this table holds in escrow"
            )
    else:
        row = conn.execute(
            update(User)
            .where(User.id == user_id)
            .values(held=case((User.held + amount < 0, 0), else_=User.held + amount))
            .returning(User.balance, User.held)
        ).one()
    _line(conn, user_id, at, 0, row, "hold" if amount > 0 else "release", table_id, game)


def _line(
    conn: Any,
    user_id: int,
    at: int,
    amount: int,
    row: Any,
    reason: str,
    table_id: str | None,
    game: int | None,
) -> None:
    conn.execute(
        insert(Ledger).values(
            user_id=user_id,
            at=at,
            amount=amount,
            balance=int(row.balance),
            held=int(row.held),
            reason=reason,
            table_id=table_id,
            game=game,
        )
    )
