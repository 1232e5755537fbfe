"""The database connection: engine set-up, migrations, and a worker pool for queries.

Queries are plain synchronous SQLAlchemy Core; the server runs them on the
database's own threads (:meth:`Database.run`) so that the event loop never
waits on a disk or a socket.  SQLite gets one writer thread (SQLite has one
writer anyway); its short hot writes (a journal append) run at once on the
caller's thread through a connection that never waits for a lock, and go to the
thread only when the database is locked (:meth:`Database.write`).  SQLite has
WAL journaling and ``synchronous=NORMAL``: a committed
transaction survives the process being killed (the OS has the WAL pages); only
a power cut may lose the last commits.  Checkpoints run on a thread of their
own, so no commit waits for one.  PostgreSQL gets a pool (connections are not
pinged before use: a dead one is replaced and the query run again).

>>> db = Database("sqlite://")
>>> db.migrate()
>>> db.schema_revision() >= "0011"   # the newest migration (0011 or later)
True
>>> db.close()
"""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from importlib import resources
from typing import Any, Final, TypeVar

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.pool import StaticPool

__all__ = ["Database", "normalize_url"]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Any number: the key of the PostgreSQL advisory lock held while migrating, so that
#: several servers starting at once migrate one after the other.
_MIGRATION_LOCK: Final = 7_261_854_019
#: PostgreSQL's serialization_failure and deadlock_detected: the transaction was rolled
#: back whole and may simply run again.
_RETRY_STATES: Final = frozenset({"40001", "40P01"})
_RETRIES: Final = 4


def normalize_url(url: str) -> str:
    """Pick gammon's drivers: ``postgresql://`` and ``postgres://`` use psycopg 3.

    >>> normalize_url("postgresql://localhost/test")
    'postgresql+psycopg://localhost/test'
    >>> normalize_url("sqlite:///./gammon.db")
    'sqlite:///./gammon.db'
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _no_waiting(dbapi_connection: Any, _record: Any) -> None:
    """The connection of :meth:`Database.write`: a locked database fails at once."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=0")
    cursor.close()


def _busy(exc: OperationalError) -> bool:
    """Whether SQLite refused because another connection holds a lock (SQLITE_BUSY or
    SQLITE_LOCKED, extended codes included)."""
    code = getattr(exc.orig, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in (5, 6)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    # checkpoints (which wait for the disk) run on their own thread, not in a commit
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.close()


class _TrackedConnection(sqlite3.Connection):
    """An SQLite connection that knows its cursors, so that it goes back to the pool with
    none of their statements still running (:func:`_close_cursors`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.open_cursors: weakref.WeakSet[sqlite3.Cursor] = weakref.WeakSet()

    def cursor(self, *args: Any, **kwargs: Any) -> sqlite3.Cursor:  # type: ignore[override]
        made: sqlite3.Cursor = super().cursor(*args, **kwargs)
        self.open_cursors.add(made)
        return made


def _close_cursors(dbapi_connection: Any, _record: Any) -> None:
    """A connection checked back into the pool: close the cursors still open on it.

    A result read halfway keeps its statement running, and a running statement keeps the
    connection's read snapshot: until the result is freed, every query made on that
    connection (by whoever takes it from the pool next) sees the database as it was, and
    its writes fail as busy.  A result held by a reference cycle (an exception's
    traceback holding the frame that held the result) is freed only by the garbage
    collector, which the server runs every two minutes (``gammon.server.run``).  Seen as a
    session just created and then not found (``csrf`` refused a new guest's first table)
    and as commits refused ("SQL statements in progress") under the test suite's load.
    """
    if isinstance(dbapi_connection, _TrackedConnection):
        for cursor in list(dbapi_connection.open_cursors):
            cursor.close()


class _Checkpointer:
    """Copies SQLite's WAL into the database file in the background, every ``interval`` s.

    With ``wal_autocheckpoint=0`` no commit ever waits for a checkpoint's fsync;
    PASSIVE checkpoints never block writers.
    """

    def __init__(self, engine: Engine, interval: float = 1.0) -> None:
        self._engine = engine
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="gammon-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                with self._engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception as exc:  # a busy database: try again next time
                log.debug("checkpoint skipped: %s", exc)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)


class Database:
    """An engine for ``url`` and the threads that run its queries."""

    def __init__(self, url: str, *, pool_size: int = 8) -> None:
        self.url = normalize_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        #: The engine of :meth:`write`'s immediate path (SQLite files only).
        self._now: Engine | None = None
        #: PostgreSQL's engine in autocommit, for one-statement writes (None on SQLite).
        self.single: Engine | None = None
        #: How many :meth:`write` calls ran at once and how many went to the thread.
        self.writes_now = 0
        self.writes_deferred = 0
        if self.is_sqlite:
            memory = self.url in ("sqlite://", "sqlite:///:memory:")
            # a file's connections are each taken by one user at a time: each goes back
            # with no statement running (a memory database's one connection is shared)
            args: dict[str, Any] = {"check_same_thread": False}
            if not memory:
                args["factory"] = _TrackedConnection
            self.engine: Engine = create_engine(
                self.url, connect_args=args, poolclass=StaticPool if memory else None
            )
            event.listen(self.engine, "connect", _sqlite_pragmas)
            workers = 1
            self._checkpointer = None if memory else _Checkpointer(self.engine)
            if not memory:  # one connection of its own (a memory database has just one)
                event.listen(self.engine, "checkin", _close_cursors)
                self._now = create_engine(self.url, connect_args=args, poolclass=StaticPool)
                event.listen(self._now, "connect", _sqlite_pragmas)
                event.listen(self._now, "connect", _no_waiting)
                event.listen(self._now, "checkin", _close_cursors)
        else:
            self.engine = create_engine(
                self.url, pool_size=pool_size, max_overflow=pool_size, pool_recycle=1800
            )
            # statements committed each on its own (a journal append): connections that
            # stay in autocommit, so that a checkout switches nothing and a return resets
            # nothing (no transaction is ever left open on them)
            self.single = create_engine(
                self.url,
                pool_size=pool_size,
                max_overflow=0,
                pool_recycle=1800,
                pool_reset_on_return=None,
                isolation_level="AUTOCOMMIT",
            )
            workers = pool_size
            self._checkpointer = None
        self._now_lock = threading.Lock()
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="gammon-db")

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` on a database thread and wait for it.

        A connection found dead (the database restarted) is replaced and ``fn`` runs
        once more; journal appends stay safe, since a repeated one conflicts.  A
        transaction PostgreSQL rolled back as a deadlock victim or a serialization
        failure runs again too (a few times, after a short random pause), and so does one
        SQLite refused as busy or locked (its commit refused while a statement was in
        progress: the transaction was rolled back whole, nothing was written).
        """
        loop = asyncio.get_running_loop()
        for attempt in range(_RETRIES + 1):
            try:
                return await loop.run_in_executor(self._executor, partial(fn, *args))
            except DBAPIError as exc:
                state = getattr(exc.orig, "sqlstate", None)
                if exc.connection_invalidated and attempt == 0:
                    log.warning("database connection lost (%s); trying again", exc.orig)
                elif attempt < _RETRIES and (
                    state in _RETRY_STATES
                    or (isinstance(exc, OperationalError) and self.is_sqlite and _busy(exc))
                ):
                    log.info("transaction rolled back (%s); trying again", state or exc.orig)
                    await asyncio.sleep(random.uniform(0.005, 0.02) * 2**attempt)
                else:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a short write ``fn(*args, engine=...)``, at once when that cannot wait.

        On an SQLite file, ``fn`` runs right here, on the caller's (the event loop's)
        thread, through a connection whose ``busy_timeout`` is 0: a journal append is
        about 0.1 ms of work, less than handing it to the database thread and back
        (measured with ``benchmarks/server_load.py``: see docs/server.md).  When another
        connection holds the write lock (the database thread in a long transaction,
        another process), SQLite refuses at once, the transaction is rolled back whole,
        and ``fn`` runs on the database thread, which may wait.  Elsewhere (PostgreSQL,
        a memory database, a second thread already writing here) this is
        :meth:`run`.  ``fn`` must take the engine to use as the keyword ``engine``.
        Either way the caller yields to the loop once before it goes on.
        """
        if self._now is not None and self._now_lock.acquire(blocking=False):
            try:
                done = [fn(*args, engine=self._now)]
            except OperationalError as exc:
                if not _busy(exc):
                    raise
                done = []
            finally:
                self._now_lock.release()
            if done:
                self.writes_now += 1
                # a turn for the others, as the round trip to the thread gave: a table
                # flooded with messages must not run them all before anyone else
                await asyncio.sleep(0)
                return done[0]
        self.writes_deferred += 1
        return await self.run(partial(fn, engine=self.engine), *args)

    def _alembic_config(self) -> Config:
        cfg = Config()
        location = resources.files("gammon.storage") / "migrations"
        cfg.set_main_option("script_location", str(location))
        return cfg

    def migrate(self) -> None:
        """Bring the schema up to the newest migration (safe with several servers)."""
        cfg = self._alembic_config()
        with self.engine.connect() as connection:
            if self.dialect == "postgresql":
                connection.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _MIGRATION_LOCK})
                connection.commit()
            try:
                cfg.attributes["connection"] = connection
                command.upgrade(cfg, "head")
                connection.commit()
            finally:
                if self.dialect == "postgresql":
                    connection.execute(
                        text("SELECT pg_advisory_unlock(:k)"), {"k": _MIGRATION_LOCK}
                    )
                    connection.commit()
        log.info("database schema at revision %s (%s)", self.schema_revision(), self.dialect)

    def schema_revision(self) -> str | None:
        """The Alembic revision the database is at (None before any migration)."""
        with self.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()

    def close(self) -> None:
        """Stop the worker threads and close every connection."""
        self._executor.shutdown(wait=True)
        for extra in (self._now, self.single):
            if extra is not None:
                extra.dispose()
        if self._checkpointer is not None:
            self._checkpointer.stop()
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        self.engine.dispose()
