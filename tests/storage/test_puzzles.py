"""The training's store (#33 H17) on SQLite and PostgreSQL: puzzles harvested from a real
analysis (tests/data/analysis/*.errors.json: bgsage's and the plakoto net's, trimmed to the
decisions that lost 0.04 or more), answers that move both ratings exactly once, the next
puzzle of each set, and a player's error-rate trend."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from gammon.storage import Database, MatchResult, ResultSeat, Standings, Store, TableUpdate
from gammon.storage.puzzles import (
    PER_MATCH,
    PUZZLE_ERROR,
    SHARED,
    START_RATING,
    Puzzles,
    Seat,
    elo,
    puzzles_of,
)

DATA = Path(__file__).parents[1] / "data" / "analysis"


def _analysis(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{name}.errors.json").read_text("utf-8"))
    return data


def _users(store: Store, *names: str) -> list[int]:
    return [store.create_user(n, "h", guest=False, balance=0, now=1).id for n in names]


def test_a_stored_analysis_gives_each_player_their_worst_errors_and_the_shared_set(
    db: Database, store: Store
) -> None:
    ann, bob = _users(store, "ann", "bob")
    data = _analysis("standard-7")
    every = [d for g in data["games"] for d in g["decisions"]]
    errors = [d for d in every if d["error"] >= PUZZLE_ERROR]
    assert len(errors) < len(every)  # the doubtful ones (0.04..0.08) are left out
    puzzles = Puzzles(db.engine)
    seats = (Seat(ann, "user"), Seat(bob, "user"))
    made = puzzles.harvest("t1", data, seats, True, 100)
    mine = {p: [d for d in errors if d["player"] == p] for p in (0, 1)}
    expected = min(PER_MATCH, len(mine[0])) + min(PER_MATCH, len(mine[1])) + PER_MATCH
    assert made == expected
    assert puzzles.harvest("t1", data, seats, True, 200) == 0  # once, however often analysed
    waiting, total, shared = puzzles.counts(ann)
    assert waiting == total == min(PER_MATCH, len(mine[0]))
    assert shared == {"standard": PER_MATCH}
    # Ann's worst first; its answers, equities and the move played are the analysis'
    first = puzzles.next_mine(ann)
    worst = max(mine[0], key=lambda d: d["error"])
    assert first is not None and first.scope == f"u{ann}" and first.owner_id == ann
    assert (first.position_id, first.dice, first.played, first.best) == (
        worst["position_id"],
        worst["dice"],
        worst["played"],
        worst["best"],
    )
    assert first.error == pytest.approx(worst["error"])
    assert first.candidates[0] == (worst["best"], pytest.approx(worst["equity_best"]))
    assert (worst["played"], pytest.approx(worst["equity_played"])) in first.candidates


def test_a_cube_error_is_a_cube_puzzle_with_its_equities(db: Database, store: Store) -> None:
    (ann,) = _users(store, "ann")
    data = _analysis("standard-7")
    Puzzles(db.engine).harvest("t1", data, (Seat(ann, "user"), Seat(None, "bot")), False, 1)
    cube = [p for p in puzzles_of(data) if p["kind"] == "cube"]
    assert cube and cube[0]["player"] == 0
    with db.engine.connect() as conn:
        from sqlalchemy import select

        from gammon.storage.puzzle_models import Puzzle

        row = conn.execute(select(Puzzle.id).where(Puzzle.kind == "cube")).scalar_one()
    p = Puzzles(db.engine).get(row)
    assert p is not None and p.played == "double" and p.best == "no double" and p.dice is None
    assert [a for a, _ in p.candidates] == ["no double", "double"]
    assert p.candidates[0][1] - p.candidates[1][1] == pytest.approx(p.error)
    # 2-0 to 7 for the doubler (game 2, after winning game 1's 2 points), the cube centred
    assert p.cube["score"] == [2, 0] and p.cube["owner"] is None and p.cube["length"] == 7
    assert p.cube["equities"]["double_pass"] == 1.0


def test_private_tables_guests_and_bots_give_no_shared_or_own_puzzles(
    db: Database, store: Store
) -> None:
    guest = store.create_user("guest-1", None, guest=True, balance=0, now=1).id
    puzzles = Puzzles(db.engine)
    assert (
        puzzles.harvest(
            "t1", _analysis("standard-7"), (Seat(guest, "guest"), Seat(None, "bot")), False, 1
        )
        == 0
    )
    assert puzzles.counts(guest) == (0, 0, {})


def test_a_net_analysis_gives_puzzles_in_its_variant(db: Database, store: Store) -> None:
    (ann,) = _users(store, "ann")
    puzzles = Puzzles(db.engine)
    puzzles.harvest("p1", _analysis("plakoto-1"), (Seat(ann, "user"), Seat(None, "bot")), True, 1)
    _waiting, _total, shared = puzzles.counts(ann)
    assert shared == {"plakoto": PER_MATCH}
    found = puzzles.next_shared(ann, START_RATING, "plakoto")
    assert found is not None and found.variant == "plakoto" and found.xgid == "" and found.dice
    assert puzzles.next_shared(ann, START_RATING, "standard") is None


def test_an_answer_moves_both_ratings_once_and_exactly(db: Database, store: Store) -> None:
    ann, bob = _users(store, "ann", "bob")
    puzzles = Puzzles(db.engine)
    puzzles.harvest("t1", _analysis("standard-7"), (Seat(None, "bot"), Seat(None, "bot")), True, 1)
    p = puzzles.next_shared(ann, START_RATING, None)
    assert p is not None and p.shared and p.rating == START_RATING
    done = puzzles.answer(ann, p.id, p.best, True, 0.0, 10)
    assert (done.first, done.rated, done.rating_before, done.rating_after) == (
        True,
        True,
        1500.0,
        1516.0,
    )
    assert done.puzzle_rating == 1484.0
    # answering again changes nothing, right or wrong
    again = puzzles.answer(ann, p.id, p.played, False, 0.1, 11)
    assert (again.first, again.rated, again.rating_after, again.puzzle_rating) == (
        False,
        False,
        1516.0,
        1484.0,
    )
    assert puzzles.attempt(ann, p.id) == (p.best, True)
    # Bob fails it: he loses what the puzzle wins, by Elo at K=32
    missed = puzzles.answer(bob, p.id, p.played, False, p.error, 12)
    expected = elo(1500.0, 1484.0, False)
    assert missed.rating_after == pytest.approx(
        expected[0]
    ) and missed.puzzle_rating == pytest.approx(expected[1])
    assert round(missed.rating_after, 4) == 1483.2637
    assert puzzles.player(ann) == (1516.0, 1, 1) and puzzles.player(bob)[1:] == (1, 0)
    row = puzzles.get(p.id)
    assert row is not None and (row.attempts, row.solved) == (2, 1)
    assert row.rating == pytest.approx(expected[1])
    # the next shared puzzle is another one (answered ones are not offered again)
    nxt = puzzles.next_shared(ann, 1516.0, None)
    assert nxt is not None and nxt.id != p.id


def test_own_mistakes_are_practice_and_come_back_when_missed(db: Database, store: Store) -> None:
    (ann,) = _users(store, "ann")
    puzzles = Puzzles(db.engine)
    puzzles.harvest("t1", _analysis("standard-7"), (Seat(ann, "user"), Seat(None, "bot")), False, 1)
    seen = []
    while (p := puzzles.next_mine(ann)) is not None and p.id not in seen:
        seen.append(p.id)
        right = len(seen) > 1  # the first is missed
        done = puzzles.answer(ann, p.id, p.best if right else p.played, right, None, len(seen))
        assert done.first and not done.rated and done.rating_after == START_RATING
    waiting, total, _shared = puzzles.counts(ann)
    assert waiting == 0 and len(seen) == total
    # once every one is answered, the one missed comes back
    assert p is not None and p.id == seen[0]
    assert puzzles.player(ann) == (START_RATING, total, total - 1)


def test_racing_answers_of_one_player_count_once(db: Database, store: Store) -> None:
    (ann,) = _users(store, "ann")
    puzzles = Puzzles(db.engine)
    puzzles.harvest("t1", _analysis("standard-7"), (Seat(None, "bot"), Seat(None, "bot")), True, 1)
    p = puzzles.next_shared(ann, START_RATING, None)
    assert p is not None
    results: list[Any] = []

    def go(i: int) -> None:
        try:
            results.append(puzzles.answer(ann, p.id, p.best, True, 0.0, i))
        except Exception as exc:  # a lost race may only be refused, never counted twice
            results.append(exc)

    threads = [threading.Thread(target=go, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    firsts = [r for r in results if not isinstance(r, Exception) and r.first]
    assert len(firsts) == 1
    assert puzzles.player(ann) == (1516.0, 1, 1)
    row = puzzles.get(p.id)
    assert row is not None and (row.attempts, row.rating) == (1, 1484.0)


def test_the_error_trend_lists_analysed_matches_oldest_first(db: Database, store: Store) -> None:
    ann, bob = _users(store, "ann", "bob")
    standings = Standings(db)
    for i, rates in enumerate(([12.5, 20.0], None, [8.0, 3.5])):
        table = f"t{i}"
        store.create_table(table, ann, "{}", False, 1, "created", "{}")
        seats = (ResultSeat(ann, "ann", "user"), ResultSeat(bob, "bob", "user"))
        won = MatchResult(
            "standard", 3, seats, winner=i % 2, score=(3, 1), rated=False, reason="match_over"
        )
        store.append(table, 2, "end", "{}", 10 + i, TableUpdate(status="finished", outcome=won))
        if rates is not None:
            standings.record_error_rates(table, rates)
    trend = Puzzles(db.engine).error_trend(bob)
    assert [(t.table_id, t.opponent, t.error_rate) for t in trend] == [
        ("t0", "ann", 20.0),
        ("t2", "ann", 3.5),
    ]
    assert [t.error_rate for t in Puzzles(db.engine).error_trend(ann, limit=1)] == [8.0]
    assert SHARED == "shared"


def test_the_migration_upgrades_a_populated_database_and_downgrades(tmp_path: Path) -> None:
    from alembic import command
    from sqlalchemy import inspect

    db = Database(f"sqlite:///{tmp_path / 'm.db'}")
    cfg = db._alembic_config()
    try:
        with db.engine.connect() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0009")
            conn.commit()
        (ann,) = _users(Store(db), "ann")  # a database with an account in it
        db.migrate()
        assert {"puzzles", "puzzle_attempts", "puzzle_players"} <= set(
            inspect(db.engine).get_table_names()
        )
        Puzzles(db.engine).harvest(
            "t1", _analysis("standard-7"), (Seat(ann, "user"), Seat(None, "bot")), False, 1
        )
        with db.engine.connect() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0009")
            conn.commit()
        assert not {"puzzles", "puzzle_attempts", "puzzle_players"} & set(
            inspect(db.engine).get_table_names()
        )
        assert Store(db).user(ann) is not None
    finally:
        db.close()
