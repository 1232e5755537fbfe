"""Challenges and tournaments in the store, on SQLite and PostgreSQL: the guarded steps
happen once even when several threads (processes) race for them."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from gammon.storage import (
    ChallengeStore,
    Database,
    RegistrationError,
    Store,
    TournamentStore,
)


def _race(n: int, fn: Callable[[int], Any]) -> list[Any]:
    """Run ``fn(i)`` in ``n`` threads at once; each result or exception."""
    results: list[Any] = [None] * n
    start = threading.Barrier(n)

    def run(i: int) -> None:
        start.wait()
        try:
            results[i] = fn(i)
        except Exception as exc:
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_the_last_place_goes_to_one_entrant(db: Database, store: Store) -> None:
    tours = TournamentStore(db)
    users = [store.create_user(f"u{i}", "x", guest=False, balance=0, now=1) for i in range(8)]
    tid = tours.create("Cup", users[0].id, "knockout", "{}", 3, None, 60, now=1)
    tours.register(tid, users[0].id, "u0", None, now=2)
    tours.register(tid, None, "gammon-bot 1", "beginner", now=2)
    results = _race(6, lambda i: tours.register(tid, users[i + 1].id, f"u{i + 1}", None, 3))
    won = [r for r in results if isinstance(r, int)]
    assert len(won) == 1
    assert all(
        isinstance(r, RegistrationError) and r.code == "seat_taken" for r in results if r not in won
    )
    assert len(tours.entrants(tid)) == 3 == tours.tournament(tid).entrants  # type: ignore[union-attr]
    with pytest.raises(RegistrationError):
        tours.register(tid, users[0].id, "u0", None, now=4)


def test_steps_happen_once(db: Database, store: Store) -> None:
    tours = TournamentStore(db)
    ann = store.create_user("ann", "x", guest=False, balance=0, now=1)
    tid = tours.create("Cup", ann.id, "knockout", "{}", 4, None, 60, now=1)
    a, b, c = (tours.register(tid, None, f"gammon-bot {i}", "beginner", now=2) for i in range(3))
    first = [(1, 0, a, None, a, "bye"), (1, 1, b, c, None, None)]
    assert _race(4, lambda _i: tours.start(tid, {a: 1, b: 2, c: 3}, first, now=3)).count(True) == 1
    assert tours.unregister(tid, a) is False  # started: nobody leaves
    assert [p.reason for p in tours.pairings(tid)] == ["bye", None]
    done = _race(4, lambda i: tours.finish_pairing(tid, 1, 1, (b, c)[i % 2], "match_over", 4))
    assert done.count(True) == 1
    final = [(2, 0, a, tours.pairings(tid)[1].winner, None, None)]
    assert _race(4, lambda _i: tours.advance(tid, 1, final, now=5)).count(True) == 1
    assert [(p.round, p.slot) for p in tours.pairings(tid)] == [(1, 0), (1, 1), (2, 0)]
    tours.set_table(tid, 2, 0, "t" * 12)
    assert tours.pairings(tid)[2].table_id == "t" * 12
    assert tours.finish_pairing(tid, 2, 0, a, "match_over", now=6)
    assert _race(4, lambda _i: tours.finish(tid, a, now=7)).count(True) == 1
    row = tours.tournament(tid)
    assert row is not None and (row.status, row.winner, row.round) == ("finished", a, 2)
    assert tours.won_by(ann.id) == []  # a bot won
    assert tours.listing(("finished",))[0].id == tid


def test_one_answer_to_a_challenge(db: Database, store: Store) -> None:
    challenges = ChallengeStore(db)
    ann = store.create_user("ann", "x", guest=False, balance=0, now=1)
    bob = store.create_user("bob", "x", guest=False, balance=0, now=1)
    challenges.create("c1", ann.id, bob.id, "{}", 1, now=2)
    assert challenges.pending_from(ann.id) == 1
    answers = _race(6, lambda i: challenges.answer("c1", ("accepted", "declined")[i % 2], "t", 3))
    assert answers.count(True) == 1
    assert challenges.incoming(bob.id) == [] and challenges.pending_from(ann.id) == 0
    row = challenges.challenge("c1")
    assert row is not None and row.status in ("accepted", "declined") and row.seat == 1
    assert not challenges.refuses_guests(bob.id)
    _race(4, lambda i: challenges.set_refuse_guests(bob.id, True))
    assert challenges.refuses_guests(bob.id)
    challenges.set_refuse_guests(bob.id, False)
    assert not challenges.refuses_guests(bob.id)
