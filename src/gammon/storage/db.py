"""The database connection: engine set-up, migrations, and a worker pool for queries.

Queries are plain synchronous SQLAlchemy Core; the server runs them on the
database's own threads (:meth:`Database.run`) so that the event loop never
waits on a disk or a socket.  SQLite gets one writer thread (SQLite has one
writer anyway), WAL journaling and ``synchronous=NORMAL``: a committed
transaction survives the process being killed (the OS has the WAL pages); only
a power cut may lose the last commits.  Checkpoints run on a thread of their
own, so no commit waits for one.  PostgreSQL gets a pool (connections are not
pinged before use: a dead one is replaced and the query run again).

>>> db = Database("sqlite://")
>>> db.migrate()
>>> db.schema_revision()
'0007'
>>> db.close()
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from importlib import resources
from typing import Any, Final, TypeVar

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import DBAPIError
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


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    # checkpoints (which wait for the disk) run on their own thread, not in a commit
    cursor.execute("PRAGMA wal_autocheckpoint=0")
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
        if self.is_sqlite:
            memory = self.url in ("sqlite://", "sqlite:///:memory:")
            self.engine: Engine = create_engine(
                self.url,
                connect_args={"check_same_thread": False},
                poolclass=StaticPool if memory else None,
            )
            event.listen(self.engine, "connect", _sqlite_pragmas)
            workers = 1
            self._checkpointer = None if memory else _Checkpointer(self.engine)
        else:
            self.engine = create_engine(
                self.url, pool_size=pool_size, max_overflow=pool_size, pool_recycle=1800
            )
            workers = pool_size
            self._checkpointer = None
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
        failure runs again too (a few times, after a short random pause).
        """
        loop = asyncio.get_running_loop()
        for attempt in range(_RETRIES + 1):
            try:
                return await loop.run_in_executor(self._executor, partial(fn, *args))
            except DBAPIError as exc:
                state = getattr(exc.orig, "sqlstate", None)
                if exc.connection_invalidated and attempt == 0:
                    log.warning("database connection lost (%s); trying again", exc.orig)
                elif state in _RETRY_STATES and attempt < _RETRIES:
                    log.info("transaction rolled back (%s); trying again", state)
                    await asyncio.sleep(random.uniform(0.005, 0.02) * 2**attempt)
                else:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

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
        if self._checkpointer is not None:
            self._checkpointer.stop()
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        self.engine.dispose()
