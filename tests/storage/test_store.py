"""The store on SQLite and on PostgreSQL: schema, accounts, sessions, the journal, the ledger."""

from __future__ import annotations

import json
import threading

import pytest

pytest.importorskip("sqlalchemy", reason="the storage tests need the server extra")

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import delete, inspect

from gammon.storage import (
    ConflictError,
    Database,
    ImportLimitError,
    ImportListing,
    ImportRow,
    Store,
    TableUpdate,
)
from gammon.storage.models import Base, User


def test_migrations_build_exactly_the_models(db: Database) -> None:
    assert db.schema_revision() == "0011"
    with db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []
    db.migrate()  # idempotent


def test_users_names_are_unique_in_any_case(store: Store) -> None:
    ann = store.create_user("Ann", "hash", guest=False, balance=1000, now=5)
    assert store.user_by_name("ANN") == ann and store.user(ann.id) == ann
    with pytest.raises(ConflictError) as taken:
        store.create_user("ann", None, guest=True, balance=0, now=6)
    assert taken.value.code == "username_taken"
    lines = store.ledger(ann.id)
    assert [(line.amount, line.balance, line.reason) for line in lines] == [(1000, 1000, "opening")]
    guest = store.create_user("guest-1a2b3c", None, guest=True, balance=50, now=7)
    upgraded = store.register_guest(guest.id, "Bea", "hash2")
    assert (upgraded.name, upgraded.guest, upgraded.balance) == ("Bea", False, 50)
    with pytest.raises(ConflictError):
        store.register_guest(guest.id, "ANN", "hash3")


def test_sessions_expire_and_end(store: Store) -> None:
    user = store.create_user("cid", None, guest=True, balance=0, now=0)
    store.create_session("h" * 64, user.id, "csrf", now=0, expires_at=100)
    live = store.session("h" * 64, now=50)
    assert live is not None and live.user.id == user.id and live.csrf == "csrf"
    assert store.session("h" * 64, now=100) is None
    assert store.delete_expired_sessions(now=200) == 1
    store.create_session("k" * 64, user.id, "c2", now=0, expires_at=100)
    store.delete_session("k" * 64)
    assert store.session("k" * 64, now=1) is None


def test_journal_appends_in_order_with_its_changes(store: Store) -> None:
    a = store.create_user("ann", None, guest=True, balance=100, now=0)
    b = store.create_user("bob", None, guest=True, balance=100, now=0)
    store.create_table("T1", a.id, "{}", False, 1, "created", json.dumps({"by": "ann"}))
    store.append("T1", 2, "start", "{}", 2, TableUpdate(status="playing", server_seed="ab" * 32))
    game = TableUpdate(ledger=((a.id, 4, "game", 1), (b.id, -4, "game", 1)))
    store.append("T1", 3, "action", "{}", 3, game)
    assert store.balances([a.id, b.id]) == {a.id: 104, b.id: 96}
    assert store.ledger(b.id)[0].balance == 96 and store.ledger(b.id)[0].table_id == "T1"
    # a second writer of version 3 loses, and none of its changes are kept
    with pytest.raises(ConflictError):
        store.append("T1", 3, "action", "{}", 4, game)
    assert store.balances([a.id, b.id]) == {a.id: 104, b.id: 96}
    table = store.table("T1")
    assert table is not None and (table.version, table.status) == (3, "playing")
    assert store.server_seed("T1") == "ab" * 32
    loaded = store.load("T1")
    assert loaded is not None and [e.seq for e in loaded[1]] == [1, 2, 3]
    assert [e.kind for e in store.entries("T1", after=1)] == ["start", "action"]
    assert store.table_ids("playing") == ["T1"] and store.version("T1") == 3


def test_an_appends_bump_and_entry_are_one_statement_and_all_or_nothing(store: Store) -> None:
    """An action's append (no money, no result) is one statement on PostgreSQL, committed
    on its own (one round trip where BEGIN, UPDATE, INSERT, COMMIT were four); on either
    database a stale version or an entry already there changes nothing.  Its connections
    stay in autocommit: a checkout switches nothing and a return sends nothing (the
    switch and the reset were four more calls into the driver per append)."""
    from sqlalchemy import event, insert

    from gammon.storage.models import Entry

    user = store.create_user("one", None, guest=True, balance=0, now=0)
    store.create_table("ONE", user.id, "{}", False, 0, "created", "{}")
    queries: list[str] = []

    def count(conn: object, cursor: object, statement: str, *args: object) -> None:
        queries.append(statement)

    engines = [e for e in (store.engine, store.db.single) if e is not None]
    for engine in engines:
        event.listen(engine, "before_cursor_execute", count)
    try:
        store.append("ONE", 2, "chat", '{"text": "hi"}', 5, TableUpdate(status="playing"))
    finally:
        for engine in engines:
            event.remove(engine, "before_cursor_execute", count)
    if store.db.dialect == "postgresql":
        assert len(queries) == 1 and queries[0].startswith("WITH bumped AS"), queries
        assert store.db.single is not None
        with store.db.single.connect() as conn:
            assert conn.connection.dbapi_connection.autocommit
    table = store.table("ONE")
    assert table is not None and (table.version, table.status) == (2, "playing")
    assert [(e.seq, e.kind, e.data, e.at) for e in store.entries("ONE", after=1)] == [
        (2, "chat", '{"text": "hi"}', 5)
    ]
    # a writer that thinks the table is at version 3
    with pytest.raises(ConflictError, match="no longer at version 3"):
        store.append("ONE", 4, "chat", "{}", 6, TableUpdate(status="finished"))
    # an entry 3 written behind the table's back: the bump is taken back with the insert
    with store.engine.begin() as conn:
        conn.execute(insert(Entry).values(table_id="ONE", seq=3, kind="x", data="{}", at=0))
    with pytest.raises(ConflictError, match="already has entry 3"):
        store.append("ONE", 3, "chat", "{}", 6, TableUpdate(status="finished"))
    table = store.table("ONE")
    assert table is not None and (table.version, table.status) == (2, "playing")


def test_the_versions_of_many_tables_come_in_few_queries(store: Store) -> None:
    """A process with Redis checks every table it holds now and then: at once, not a
    query per table (1,000 tables were 1,000 queries every 5 s)."""
    from sqlalchemy import event

    from gammon.storage.store import VERSIONS_BATCH

    user = store.create_user("many", None, guest=True, balance=0, now=0)
    ids = [f"V{i}" for i in range(VERSIONS_BATCH + 3)]
    for i, table_id in enumerate(ids):
        store.create_table(table_id, user.id, "{}", False, 0, "created", "{}")
        if i % 2:
            store.append(table_id, 2, "chat", "{}", 1, TableUpdate())
    queries: list[str] = []
    engine = store.engine

    def count(conn: object, cursor: object, statement: str, *args: object) -> None:
        queries.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        found = store.versions([*ids, "nope"])
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert found == {t: 1 + i % 2 for i, t in enumerate(ids)}
    assert len([q for q in queries if "tables" in q]) == 2, queries
    assert store.versions([]) == {}


def test_racing_writers_never_fork_a_journal(store: Store) -> None:
    user = store.create_user("racer", None, guest=True, balance=0, now=0)
    store.create_table("RACE", user.id, "{}", False, 0, "created", "{}")
    wins: list[tuple[int, int]] = []
    lock = threading.Lock()

    def writer(name: int) -> None:
        for _ in range(30):
            version = store.version("RACE")
            assert version is not None
            try:
                store.append("RACE", version + 1, "chat", json.dumps({"w": name}), 0, TableUpdate())
            except ConflictError:
                continue
            with lock:
                wins.append((version + 1, name))

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seqs = [e.seq for e in store.entries("RACE")]
    assert seqs == list(range(1, len(seqs) + 1))
    assert sorted(v for v, _ in wins) == seqs[1:]


def test_listing_and_counts(store: Store) -> None:
    u = store.create_user("lister", None, guest=True, balance=0, now=0)
    store.create_table("PUB", u.id, "{}", False, 1, "created", "{}")
    store.create_table("PRIV", u.id, "{}", True, 2, "created", "{}")
    assert [t.id for t in store.list_tables(["waiting"])] == ["PUB"]
    assert {t.id for t in store.list_tables(["waiting"], public_only=False)} == {"PUB", "PRIV"}
    assert store.count_tables() == {"waiting": 2}


def test_imported_matches_belong_to_their_owner_up_to_a_cap(store: Store) -> None:
    ann = store.create_user("ann", None, guest=True, balance=0, now=1).id
    bea = store.create_user("bea", None, guest=True, balance=0, now=1).id
    warnings = json.dumps([{"line": 7, "game": 1, "message": "line 7: ...", "exact": False}])

    def row(key: str, owner: int, at: int) -> ImportRow:
        return ImportRow(
            key, owner, f"{key}.mat", "mat", at, '{"type": "header"}\n', warnings, "[1]", at, "{}"
        )

    for i in range(5):
        store.imports.add(row(f"a{i}", ann, 100 + i % 3), cap=5)
    with pytest.raises(ImportLimitError) as full:
        store.imports.add(row("a5", ann, 200), cap=5)
    assert full.value.code == "too_many_imports" and "at most 5" in str(full.value)
    assert store.imports.count(ann) == 5 and store.imports.get("a5", ann) is None
    store.imports.add(row("b0", bea, 150), cap=5)  # the cap is each player's
    assert store.imports.get("a0", ann) == row("a0", ann, 100)
    assert store.imports.get("a0", bea) is None and store.imports.get("b0", ann) is None
    # newest first (the key breaks ties), two a page; a page past the last is the last
    pages = [store.imports.page(ann, n, size=2) for n in (1, 2, 3, 9)]
    assert [[r.id for r in p.rows] for p in pages] == [["a2", "a4"], ["a1", "a3"], ["a0"], ["a0"]]
    assert {(p.number, p.pages, p.total) for p in pages[2:]} == {(3, 3, 5)}
    assert store.imports.page(bea, 1).rows[0] == ImportListing("b0", "b0.mat", "mat", 150, 150)
    assert (store.imports.page(9999, 1).pages, store.imports.page(9999, 1).rows) == (1, ())
    # deleting one makes room; only its owner may delete it
    assert not store.imports.delete("a0", bea) and store.imports.delete("a0", ann)
    store.imports.add(row("a5", ann, 200), cap=5)
    # an account's imports go with it
    with store.engine.begin() as conn:
        conn.execute(delete(User).where(User.id == ann))
    assert store.imports.count(ann) == 0 and store.imports.count(bea) == 1


def test_two_uploads_at_once_cannot_both_take_the_last_place(store: Store) -> None:
    ann = store.create_user("ann", None, guest=True, balance=0, now=1).id
    barrier = threading.Barrier(6)
    outcomes: list[str] = []

    def upload(i: int) -> None:
        barrier.wait()
        try:
            store.imports.add(
                ImportRow(f"k{i}", ann, "m.mat", "mat", i, "{}\n", "[]", "[]", 1, "{}"), 3
            )
            outcomes.append("kept")
        except ImportLimitError:
            outcomes.append("refused")

    threads = [threading.Thread(target=upload, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["kept"] * 3 + ["refused"] * 3
    assert store.imports.count(ann) == 3


def test_rollouts_are_kept_per_subject_and_decision(db: Database, store: Store) -> None:
    """Migration 0007's ``rollouts``: one row per decision of a subject, replaced when the
    same decision is rolled out again, listed per subject, deleted with it."""
    rollouts = store.rollouts
    assert rollouts.get("tableA", "12:checker") is None
    rollouts.put("tableA", "12:checker", '{"trials_done": 144}', 1)
    rollouts.put("tableA", "31:response", '{"trials_done": 72}', 2)
    rollouts.put("tableB", "12:checker", '{"trials_done": 36}', 3)
    rollouts.put("tableA", "12:checker", '{"trials_done": 288}', 4)
    assert rollouts.get("tableA", "12:checker") == '{"trials_done": 288}'
    assert rollouts.of_subject("tableA") == {
        "12:checker": '{"trials_done": 288}',
        "31:response": '{"trials_done": 72}',
    }
    assert rollouts.count() == 3
    assert rollouts.delete("tableA") == 2
    assert rollouts.of_subject("tableA") == {}
    assert rollouts.get("tableB", "12:checker") == '{"trials_done": 36}'
    with db.engine.connect() as conn:
        columns = {c["name"] for c in inspect(conn).get_columns("rollouts")}
    assert columns == {"subject", "decision", "data", "created_at"}
