"""Moderation's queries on SQLite and PostgreSQL (issue #30): roles, sanctions, address
bans, addresses seen, reports, blocks, the log, and voiding a rated result with its pool's
ratings recomputed exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy", reason="the storage tests need the server extra")

from sqlalchemy import select

from gammon.storage import Database, MatchResult, ResultSeat, Standings, Store, TableUpdate
from gammon.storage.models import Rating, RatingChange
from gammon.storage.moderation import Moderation, ModerationError


def _finish(
    store: Store, table: str, seats: tuple[ResultSeat, ResultSeat], winner: int, at: int, n: int
) -> None:
    store.create_table(table, seats[0].user_id, "{}", False, at - 1, "created", "{}")
    score = (n, 0) if winner == 0 else (0, n)
    result = MatchResult("standard", n, seats, winner, score, True, "match_over")
    store.append(table, 2, "end", "{}", at, TableUpdate(status="finished", outcome=result))


#: Four rated matches among three players: (table, seats by name, winner, length).
MATCHES = [
    ("tA", ("ann", "bob"), 0, 3),
    ("tB", ("bob", "cat"), 0, 5),
    ("tC", ("ann", "cat"), 1, 1),
    ("tD", ("bob", "ann"), 1, 7),
]


def _settle(db: Database, tables: list[str]) -> dict[str, int]:
    store = Store(db)
    ids = {
        n: store.create_user(n, "h", guest=False, balance=0, now=1).id
        for n in ("ann", "bob", "cat")
    }
    for i, (table, (a, b), winner, n) in enumerate(MATCHES):
        if table in tables:
            seats = (ResultSeat(ids[a], a, "user"), ResultSeat(ids[b], b, "user"))
            _finish(store, table, seats, winner, 100 + 10 * i, n)
    return ids


def _ratings(db: Database, ids: dict[str, int]) -> dict[str, tuple[Any, ...]]:
    names = {v: k for k, v in ids.items()}
    with db.engine.connect() as conn:
        rows = conn.execute(
            select(
                Rating.user_id,
                Rating.pool,
                Rating.rating,
                Rating.experience,
                Rating.matches,
                Rating.wins,
                Rating.losses,
                Rating.updated_at,
            )
        ).all()
    return {names[r[0]]: tuple(r[1:]) for r in rows}


def _changes(db: Database, ids: dict[str, int]) -> list[tuple[Any, ...]]:
    names = {v: k for k, v in ids.items()}
    with db.engine.connect() as conn:
        rows = conn.execute(
            select(
                RatingChange.table_id,
                RatingChange.user_id,
                RatingChange.at,
                RatingChange.rating_before,
                RatingChange.rating_after,
                RatingChange.experience,
            ).order_by(RatingChange.id)
        ).all()
    return [(r[0], names[r[1]], *r[2:]) for r in rows]


def test_voiding_a_result_gives_exactly_the_ratings_of_a_site_without_it(
    db: Database, tmp_path: Path
) -> None:
    ids = _settle(db, ["tA", "tB", "tC", "tD"])
    before = _ratings(db, ids)
    mod = Moderation(db)
    result_b = mod.result_of("tB")
    assert result_b is not None
    assert mod.void_result(result_b, by=None, now=500, reason="collusion") == "tB"
    fresh = Database(f"sqlite:///{tmp_path / 'fresh.db'}")
    fresh.migrate()
    try:
        fresh_ids = _settle(fresh, ["tA", "tC", "tD"])
        # exact float equality: the same function, the same order, the same inputs
        assert _ratings(db, ids) == _ratings(fresh, fresh_ids)
        assert _changes(db, ids) == _changes(fresh, fresh_ids)
    finally:
        fresh.close()
    assert _ratings(db, ids) != before
    # the pages: B is not rated in anyone's history, and has no rating change
    standings = Standings(db)
    row = next(h for h in standings.history(ids["bob"]) if h.table_id == "tB")
    assert (row.rated, row.delta) == (False, None)
    assert standings.result_rated("tB") is False and standings.result_rated("tA") is True
    board = {r.name: r.matches for r in standings.leaderboard("backgammon", min_matches=1)}
    assert board == {"ann": 3, "bob": 2, "cat": 1}
    (line,) = mod.mod_log()
    assert (line.action, line.table_id, line.detail["reason"]) == ("void-result", "tB", "collusion")
    with pytest.raises(ModerationError, match="voided already") as err:
        mod.void_result(result_b, by=None, now=501)
    assert err.value.code == "stale" and isinstance(err.value, ValueError)


def test_a_player_whose_only_rated_match_is_voided_has_no_rating(db: Database) -> None:
    ids = _settle(db, ["tA", "tB"])
    mod = Moderation(db)
    result_b = mod.result_of("tB")
    assert result_b is not None
    mod.void_result(result_b, by=None, now=500)
    assert set(_ratings(db, ids)) == {"ann", "bob"}  # cat played only B


def test_roles_sanctions_and_the_log(db: Database) -> None:
    store, mod = Store(db), Moderation(db)
    ann = store.create_user("ann", "h", guest=False, balance=0, now=1)
    bob = store.create_user("bob", "h", guest=False, balance=0, now=1)
    guest = store.create_user("guest-1", None, guest=True, balance=0, now=1)
    assert mod.grant("ANN", by=None, now=2).moderator
    with pytest.raises(ModerationError, match="guest"):
        mod.grant("guest-1", by=None, now=2)
    with pytest.raises(ModerationError, match="no account") as err:
        mod.grant("nobody", by=None, now=2)
    assert err.value.code == "not_found"
    mod.mute(bob.id, 1000, by=ann.id, now=3, reason="insults")
    s = mod.sanctions(bob.id)
    assert s is not None and s.muted(999) and not s.muted(1000)
    store.create_session("h1", bob.id, "c", 3, 10_000)
    store.create_session("h2", bob.id, "c", 3, 10_000)
    assert mod.ban(bob.id, None, by=ann.id, now=4, reason="spam") == 2
    assert store.session("h1", 5) is None and store.session("h2", 5) is None
    s = mod.sanctions(bob.id)
    assert s is not None and s.banned(10**15) and s.ban_reason == "spam"
    with pytest.raises(ModerationError, match="moderator cannot be banned"):
        mod.ban(ann.id, None, by=None, now=4)
    mod.unban(bob.id, by=ann.id, now=5)
    s = mod.sanctions(bob.id)
    assert s is not None and not s.banned(6)
    mod.revoke("ann", by=None, now=6)
    assert mod.moderators() == []
    log = mod.mod_log()
    assert [r.action for r in log] == ["revoke", "unban", "ban", "mute", "grant"]
    assert log[3].moderator == "ann" and log[3].target == "bob" and log[3].detail["until"] == 1000
    assert [r.action for r in mod.mod_log(target=guest.id)] == []


def test_address_bans_and_addresses_seen(db: Database) -> None:
    store, mod = Store(db), Moderation(db)
    ann = store.create_user("ann", "h", guest=False, balance=0, now=1)
    bob = store.create_user("bob", "h", guest=False, balance=0, now=1)
    assert mod.ban_address("203.0.113.7/24", None, by=ann.id, now=2) == "203.0.113.0/24"
    mod.ban_address("198.51.100.9", 50, by=ann.id, now=2)
    assert mod.address_bans(10) == ["198.51.100.9", "203.0.113.0/24"]
    assert mod.address_bans(60) == ["203.0.113.0/24"]  # the other one ran out
    with pytest.raises(ModerationError, match="not an IP address") as err:
        mod.ban_address("not-an-address", None, by=None, now=2)
    assert err.value.code == "bad_message"
    mod.unban_address("203.0.113.0/24", by=ann.id, now=3)
    with pytest.raises(ModerationError, match="is not banned"):
        mod.unban_address("203.0.113.0/24", by=ann.id, now=3)
    # at most one write per account and address per interval
    assert mod.seen(ann.id, "192.0.2.1", 1000, every=600) is True
    assert mod.seen(ann.id, "192.0.2.1", 1300, every=600) is False
    assert mod.seen(ann.id, "192.0.2.1", 1600, every=600) is True
    assert mod.seen(bob.id, "192.0.2.1", 1700, every=600) is True
    (row,) = mod.addresses(ann.id)
    assert (row.address, row.count, row.first_seen, row.last_seen, row.others) == (
        "192.0.2.1",
        2,
        1000,
        1600,
        ("bob",),
    )


def test_reports_blocks_and_chat_lines(db: Database) -> None:
    store, mod = Store(db), Moderation(db)
    ann = store.create_user("ann", "h", guest=False, balance=0, now=1)
    bob = store.create_user("bob", "h", guest=False, balance=0, now=1)
    store.create_table("t1", ann.id, "{}", False, 1, "created", "{}")
    for seq in range(2, 16):
        who = ann if seq % 2 else bob
        data = {"name": who.name, "seat": 0, "text": f"line {seq}", "html": "", "user": who.id}
        store.append("t1", seq, "chat", json.dumps(data), seq, TableUpdate())
    store.append("t1", 16, "chat_removed", json.dumps({"seq": 9}), 16, TableUpdate())
    first = mod.report(bob.id, ann.id, "abuse", "rude", 20, table_id="t1", entry_seq=9)
    assert mod.report(bob.id, ann.id, "abuse", "again", 21, table_id="t1", entry_seq=9) == first
    whole = mod.report(bob.id, ann.id, "cheating", "", 22)
    assert whole != first
    with pytest.raises(ModerationError, match="yourself"):
        mod.report(bob.id, bob.id, "abuse", "", 22)
    with pytest.raises(ModerationError, match="reason"):
        mod.report(bob.id, ann.id, "ugly", "", 22)
    assert [r.id for r in mod.reports()] == [first, whole]
    around = mod.chat_around("t1", 9)
    assert [c.seq for c in around] == [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
    assert [c.seq for c in around if c.removed] == [9]
    assert [c.seq for c in mod.chat_of(ann.id, limit=3)] == [15, 13, 11]
    line = mod.chat_line("t1", 9)
    assert line is not None and line.user == ann.id and line.text == "line 9"
    mod.close_report(first, "resolved", by=ann.id, now=30)
    with pytest.raises(ModerationError, match="no such open report"):
        mod.close_report(first, "dismissed", by=ann.id, now=31)
    assert [r.id for r in mod.reports()] == [whole]
    report = mod.report_row(first)
    assert report is not None and report.status == "resolved"
    mod.block(bob.id, ann.id, 40)
    mod.block(bob.id, ann.id, 41)  # again: nothing more
    assert mod.blocks(bob.id, ann.id) and not mod.blocks(ann.id, bob.id)
    assert mod.blocked_by(bob.id) == frozenset({ann.id})
    mod.unblock(bob.id, ann.id)
    assert mod.blocked_by(bob.id) == frozenset()


def test_the_open_reports_of_one_player_are_bounded(db: Database) -> None:
    store, mod = Store(db), Moderation(db)
    ann = store.create_user("ann", "h", guest=False, balance=0, now=1)
    bob = store.create_user("bob", "h", guest=False, balance=0, now=1)
    for seq in range(20):
        mod.report(bob.id, ann.id, "spam", "", seq, table_id="t", entry_seq=seq)
    with pytest.raises(ModerationError, match="too many reports") as err:
        mod.report(bob.id, ann.id, "spam", "", 99, table_id="t", entry_seq=99)
    assert err.value.code == "rate_limited"
