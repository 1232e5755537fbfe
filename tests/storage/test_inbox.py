"""The inbox on SQLite and PostgreSQL (docs/notifications.md): the newest 200 kept, an
unread notice replaced by its equal, marking read per player."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("sqlalchemy", reason="the storage tests need the server extra")

from gammon.storage import Database, Store
from gammon.storage.inbox import Inbox


def test_an_inbox_is_bounded_and_read_per_player(db: Database) -> None:
    store, inbox = Store(db), Inbox(db)
    ann = store.create_user("ann", None, guest=True, balance=0, now=1)
    bob = store.create_user("bob", None, guest=True, balance=0, now=1)
    for n in range(230):
        inbox.add(ann.id, "challenge", json.dumps({"n": n}), n)
    items = inbox.items(ann.id, 1000)
    assert len(items) == 200 and [json.loads(i.data)["n"] for i in items[:2]] == [229, 228]
    assert json.loads(items[-1].data) == {"n": 30}
    for at in (5, 6, 7):  # the same table's turn, unread: one notice
        inbox.add(bob.id, "your_turn", '{"table":"t1"}', at)
    assert [(i.kind, i.at) for i in inbox.items(bob.id)] == [("your_turn", 7)]
    assert inbox.mark_read(ann.id, [items[0].id, inbox.items(bob.id)[0].id], 9) == 1
    assert inbox.unread(ann.id) == 199 and inbox.unread(bob.id) == 1
    assert inbox.mark_read(bob.id, None, 9) == 1
    inbox.add(bob.id, "your_turn", '{"table":"t1"}', 10)  # a read one is not replaced
    assert len(inbox.items(bob.id)) == 2
    assert inbox.mark_read(bob.id, None, 11) == 1 and inbox.unread(bob.id) == 0
