"""``Database.write``: a journal append runs at once on SQLite, never waits on the loop."""

from __future__ import annotations

import asyncio
import gc
import itertools
import json
import sqlite3
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="the storage tests need the server extra")

from sqlalchemy import Engine, text
from sqlalchemy.exc import OperationalError

from gammon.storage import ConflictError, Database, Store, TableUpdate
from serverkit import run_async


def _journal(store: Store, table_id: str) -> list[tuple[int, str]]:
    return [(e.seq, e.kind) for e in store.entries(table_id)]


def _table(store: Store, table_id: str) -> None:
    user = store.create_user(f"u{table_id}", None, guest=True, balance=0, now=0)
    store.create_table(table_id, user.id, "{}", False, 0, "created", "{}")


def test_a_write_runs_at_once_on_the_callers_thread(db: Database) -> None:
    """On an SQLite file the append runs where it is awaited (no hand-off to the
    database thread and back); on PostgreSQL it goes to the pool's threads."""
    store = Store(db)
    _table(store, "W1")
    threads: list[int] = []

    def append(seq: int, *, engine: Engine) -> None:
        threads.append(threading.get_ident())
        store.append("W1", seq, "chat", json.dumps({"n": seq}), seq, TableUpdate(), engine=engine)

    async def main() -> int:
        for seq in (2, 3, 4):
            await db.write(append, seq)
        return threading.get_ident()

    loop_thread = run_async(main)
    assert _journal(store, "W1") == [(1, "created"), (2, "chat"), (3, "chat"), (4, "chat")]
    if db.is_sqlite:
        assert threads == [loop_thread] * 3 and (db.writes_now, db.writes_deferred) == (3, 0)
    else:
        assert loop_thread not in threads and (db.writes_now, db.writes_deferred) == (0, 3)


def test_a_conflict_is_raised_and_not_tried_again(db: Database) -> None:
    store = Store(db)
    _table(store, "W2")

    async def main() -> None:
        await db.write(store.append, "W2", 2, "chat", "{}", 1, TableUpdate())
        with pytest.raises(ConflictError):
            await db.write(store.append, "W2", 2, "chat", "{}", 2, TableUpdate())

    run_async(main)
    assert _journal(store, "W2") == [(1, "created"), (2, "chat")]


def test_a_locked_database_never_holds_the_event_loop(tmp_path: Path) -> None:
    """Another connection (a second process, a long transaction) holds SQLite's write
    lock for 1 s: the append gives way at once, waits on the database thread, and is
    committed whole when the lock goes, while the loop keeps answering."""
    path = tmp_path / "locked.db"
    db = Database(f"sqlite:///{path}")
    db.migrate()
    store = Store(db)
    _table(store, "W3")
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        other.execute("BEGIN IMMEDIATE")
        release = threading.Timer(1.0, other.execute, args=("COMMIT",))
        ticks: list[float] = []

        async def ticker(stop: asyncio.Event) -> None:
            while not stop.is_set():
                ticks.append(time.perf_counter())
                await asyncio.sleep(0.01)

        async def main() -> float:
            stop = asyncio.Event()
            beat = asyncio.create_task(ticker(stop))
            await asyncio.sleep(0.05)
            began = time.perf_counter()
            await db.write(store.append, "W3", 2, "chat", "{}", 1, TableUpdate())
            stop.set()
            await beat
            return time.perf_counter() - began

        release.start()
        waited = run_async(main)
    finally:
        other.close()
        db.close()
    assert waited >= 0.8, "the append went through while the lock was held"
    gaps = [b - a for a, b in itertools.pairwise(ticks)]
    assert max(gaps) < 0.5, f"the event loop stalled {max(gaps):.3f} s"
    assert (db.writes_now, db.writes_deferred) == (0, 1)
    reopened = Database(f"sqlite:///{path}")
    try:
        assert _journal(Store(reopened), "W3") == [(1, "created"), (2, "chat")]
    finally:
        reopened.close()


def test_a_memory_database_writes_on_its_thread() -> None:
    """A memory database has one connection: the database thread's, never shared."""
    db = Database("sqlite://")
    db.migrate()
    store = Store(db)
    _table(store, "W4")
    try:
        run_async(lambda: db.write(store.append, "W4", 2, "chat", "{}", 1, TableUpdate()))
        assert (db.writes_now, db.writes_deferred) == (0, 1)
        assert _journal(store, "W4") == [(1, "created"), (2, "chat")]
    finally:
        db.close()


def _sqlite_error(message: str, code: int) -> OperationalError:
    orig = sqlite3.OperationalError(message)
    orig.sqlite_errorcode = code  # type: ignore[attr-defined]
    return OperationalError("COMMIT", {}, orig)


def test_a_commit_sqlite_refused_as_busy_runs_again(tmp_path: Path) -> None:
    """SQLite refusing a commit as busy or locked ("cannot commit transaction - SQL
    statements in progress", seen under the parallel test load) rolled the transaction back
    whole: the work runs again instead of answering the user an internal error. Any other
    error is raised at once."""
    db = Database(f"sqlite:///{tmp_path / 'busy.db'}")
    calls: list[int] = []

    def refused_once() -> str:
        calls.append(1)
        if len(calls) == 1:
            raise _sqlite_error("cannot commit transaction - SQL statements in progress", 5)
        return "done"

    def broken() -> str:
        calls.append(2)
        raise _sqlite_error("no such table: nowhere", 1)

    try:
        assert run_async(lambda: db.run(refused_once)) == "done"
        assert calls == [1, 1]
        with pytest.raises(OperationalError, match="no such table"):
            run_async(lambda: db.run(broken))
        assert calls == [1, 1, 2]
    finally:
        db.close()


def test_a_result_read_halfway_does_not_freeze_its_pooled_connection(tmp_path: Path) -> None:
    """A result read halfway and kept alive by a reference cycle (an exception's traceback
    holding its frame: freed only by the garbage collector) leaves its statement running,
    and a running statement pins its connection's read snapshot.  Before the pool closed a
    returned connection's cursors, whoever took that connection next saw the database as
    it was (a session just created was not found: ``csrf`` refused a new guest's first
    table under the test suite's load) and could not write."""
    db = Database(f"sqlite:///{tmp_path / 'stale.db'}")
    with db.engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY)"))
        conn.execute(text("INSERT INTO t VALUES (1), (2), (3)"))

    class RefusedError(Exception):
        kept: BaseException | None = None

    def read_halfway_then_refuse() -> None:
        with db.engine.connect() as conn:
            rows = conn.execute(text("SELECT id FROM t"))
            assert rows.fetchone() is not None  # one row of three: still running
            try:
                raise RefusedError("refused halfway")
            except RefusedError as exc:
                exc.kept = exc  # exc -> traceback -> this frame -> rows: a cycle

    collecting = gc.isenabled()
    gc.disable()
    try:
        read_halfway_then_refuse()
        with db.engine.connect() as leaky:  # the pool's one connection: the leaky one
            with db.engine.begin() as other:  # so the write goes through a new one
                other.execute(text("INSERT INTO t VALUES (4)"))
            assert leaky.execute(text("SELECT count(*) FROM t")).scalar() == 4
        with db.engine.begin() as conn:
            conn.execute(text("INSERT INTO t VALUES (5)"))
    finally:
        if collecting:
            gc.enable()
        gc.collect()
        db.close()
