"""Results, match lists, ratings and leaderboards on SQLite and PostgreSQL (issue #17)."""

from __future__ import annotations

import itertools

import pytest

pytest.importorskip("sqlalchemy", reason="the storage tests need the server extra")

from gammon.match.ratings import RatedPlayer, rate
from gammon.storage import Database, MatchResult, ResultSeat, Standings, Store, TableUpdate

_tables = itertools.count(1)


def finish(
    store: Store,
    seats: tuple[ResultSeat, ResultSeat],
    winner: int | None,
    *,
    at: int,
    length: int = 3,
    rated: bool = True,
    variant: str = "standard",
) -> str:
    """A table that ends with this result; returns its id."""
    table = f"t{next(_tables):011d}"
    store.create_table(table, seats[0].user_id, "{}", False, at - 1, "created", "{}")
    score = (length, 0) if winner == 0 else (0, length)
    result = MatchResult(variant, length, seats, winner, score, rated, "match_over")
    store.append(table, 2, "end", "{}", at, TableUpdate(status="finished", outcome=result))
    return table


def test_ratings_follow_the_formula_pool_by_pool(db: Database) -> None:
    store, standings = Store(db), Standings(db)
    ann = store.create_user("ann", "h", guest=False, balance=0, now=1)
    bob = store.create_user("bob", "h", guest=False, balance=0, now=1)
    seats = (ResultSeat(ann.id, "ann", "user"), ResultSeat(bob.id, "bob", "user"))
    a, b = RatedPlayer(), RatedPlayer()
    for i, (winner, length) in enumerate([(0, 3), (0, 5), (1, 1), (0, 7)]):
        finish(store, seats, winner, at=100 + i, length=length)
        w, lo = (a, b) if winner == 0 else (b, a)
        change = rate(w, lo, length)
        a, b = (change.winner, change.loser) if winner == 0 else (change.loser, change.winner)
    finish(store, seats, 1, at=200, variant="tavla")  # its own pool
    finish(store, seats, 1, at=201, rated=False)  # casual: listed, not rated
    (ann_bg, ann_tavla) = sorted(standings.ratings(ann.id), key=lambda r: r.pool)
    assert (ann_bg.pool, ann_bg.matches, ann_bg.wins, ann_bg.losses) == ("backgammon", 4, 3, 1)
    assert ann_bg.rating == pytest.approx(a.rating) and ann_bg.experience == a.experience == 16
    assert ann_tavla.pool == "tavla" and ann_tavla.losses == 1
    series = standings.rating_series(bob.id, "backgammon")
    assert series[0][1] == 1500.0 and series[-1][1] == pytest.approx(b.rating) and len(series) == 5
    assert standings.record(ann.id) == {
        "wins": 3,
        "losses": 3,
        "other": 0,
        "error": None,
        "analysed": 0,
    }
    board = standings.leaderboard("backgammon")
    assert [row.name for row in board] == ["ann", "bob"]
    assert standings.leaderboard("tavla") == []  # one rated match: not yet listed


def test_ratings_in_one_pool_for_seeding(db: Database) -> None:
    store, standings = Store(db), Standings(db)
    ann = store.create_user("ann", "h", guest=False, balance=0, now=1)
    bob = store.create_user("bob", "h", guest=False, balance=0, now=1)
    cat = store.create_user("cat", "h", guest=False, balance=0, now=1)
    seats = (ResultSeat(ann.id, "ann", "user"), ResultSeat(bob.id, "bob", "user"))
    finish(store, seats, 0, at=100, length=5)
    finish(store, seats, 1, at=101, variant="plakoto")
    backgammon = standings.ratings_in("backgammon", [ann.id, bob.id, cat.id])
    change = rate(RatedPlayer(), RatedPlayer(), 5)
    assert backgammon == {
        ann.id: pytest.approx(change.winner.rating),
        bob.id: pytest.approx(change.loser.rating),
    }  # cat has no rating there: left out, seeded after the rated players
    plakoto = standings.ratings_in("plakoto", [ann.id, bob.id])
    assert plakoto[bob.id] > 1500 > plakoto[ann.id]
    assert standings.ratings_in("backgammon", []) == {}


def test_keyset_pages_cover_the_list_once_in_order_and_filter(db: Database) -> None:
    store, standings = Store(db), Standings(db)
    ann = store.create_user("ann", "h", guest=False, balance=0, now=1)
    bob = store.create_user("bob", "h", guest=False, balance=0, now=1)
    cat = store.create_user("cat", "h", guest=False, balance=0, now=1)
    vs_bob = (ResultSeat(ann.id, "ann", "user"), ResultSeat(bob.id, "bob", "user"))
    vs_cat = (ResultSeat(cat.id, "cat", "user"), ResultSeat(ann.id, "ann", "user"))
    vs_bot = (ResultSeat(ann.id, "ann", "user"), ResultSeat(None, "gammon-bot", "bot"))
    made = []
    for i in range(23):
        seats = (vs_bob, vs_cat, vs_bot)[i % 3]
        at = 1000 + (i // 2)  # two matches end in the same millisecond: the id breaks ties
        made.append(finish(store, seats, i % 2, at=at, rated=seats is not vs_bot))
    pages, before = [], None
    while True:
        rows = standings.history(ann.id, before=before, limit=5)
        if not rows:
            break
        pages.append([r.table_id for r in rows])
        before = (rows[-1].ended_at, rows[-1].result_id)
    assert [len(p) for p in pages] == [5, 5, 5, 5, 3]
    assert [t for page in pages for t in page] == made[::-1]
    against_cat = standings.history(ann.id, opponent_id=cat.id, limit=50)
    assert [r.table_id for r in against_cat] == made[1::3][::-1]
    assert {(r.opponent, r.opponent_account) for r in against_cat} == {("cat", "cat")}
    bots = [r for r in standings.history(ann.id, limit=50) if r.opponent_kind == "bot"]
    assert len(bots) == 7 and all(r.opponent_account is None and not r.rated for r in bots)
    losses = standings.history(ann.id, outcome="loss", limit=50)
    assert losses and all(r.outcome == "loss" and r.score[0] < r.score[1] for r in losses)
    assert standings.history(ann.id, variant="tavla") == []


def test_error_rates_average_once_per_match(db: Database) -> None:
    store, standings = Store(db), Standings(db)
    ann = store.create_user("ann", "h", guest=False, balance=0, now=1)
    bob = store.create_user("bob", "h", guest=False, balance=0, now=1)
    seats = (ResultSeat(ann.id, "ann", "user"), ResultSeat(bob.id, "bob", "user"))
    one = finish(store, seats, 0, at=10)
    two = finish(store, seats, 1, at=11)
    standings.record_error_rates(one, [4.0, 9.0])
    standings.record_error_rates(two, [8.0, 1.0])
    standings.record_error_rates(two, [6.0, 1.0])  # analysed again: replaces, not added
    record = standings.record(ann.id)
    assert record["analysed"] == 2 and record["error"] == pytest.approx(5.0)
    assert standings.history(ann.id)[0].error == pytest.approx(6.0)
    assert standings.record(bob.id)["error"] == pytest.approx(5.0)
    standings.record_error_rates("t-unknown", [1.0, 1.0])  # no result: nothing to keep


def test_the_rating_graph_ends_on_the_current_rating(db: Database) -> None:
    """Issue #33: a match settled later with an earlier time (taken before its transaction
    committed) is the graph's last point, the player's rating now (not the stale one)."""
    store, standings = Store(db), Standings(db)
    ann = store.create_user("ann", "h", guest=False, balance=0, now=1)
    bob = store.create_user("bob", "h", guest=False, balance=0, now=1)
    seats = (ResultSeat(ann.id, "ann", "user"), ResultSeat(bob.id, "bob", "user"))
    finish(store, seats, 0, at=200, length=5)
    finish(store, seats, 1, at=150, length=1)  # settled second, its time taken earlier
    (now,) = standings.ratings(ann.id)
    series = standings.rating_series(ann.id, "backgammon")
    assert len(series) == 3 and series[0][1] == 1500.0
    assert series[-1][1] == pytest.approx(now.rating)
    assert series[1][1] > series[-1][1]  # won the first, lost the second
