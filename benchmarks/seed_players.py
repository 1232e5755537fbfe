"""Fill a gammon database with players and finished matches, fast (for benchmarks).

    .venv/bin/python benchmarks/seed_players.py sqlite:///big.db --players 100000 --results 1000000

Migrates the database, then bulk-inserts ``--players`` accounts and ``--results``
finished matches between them, in time order: each with its ``results`` row, one
``history`` row per account at the table, and for a rated match both players'
``rating_changes`` and final ``ratings`` and every player's totals, computed with the real FIBS formula
(``gammon.match.ratings.rate``), so every page shows consistent figures.  A tenth of
the matches are against a bot, 40% are casual; 80% are standard backgammon.  Players
are drawn with a skewed distribution, so a few play thousands of matches and most a
handful; the first player, ``heavy``, plays one match in a hundred (the deep pages of
the benchmark).

PostgreSQL is filled with ``COPY``; SQLite with ``executemany`` on one transaction.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from gammon.match.ratings import RatedPlayer, rate, rating_pool
from gammon.storage import Database
from gammon.storage.models import History, Rating, RatingChange

#: The tables whose secondary indexes are dropped while filling, then built again.
_INDEXED = (History, Rating, RatingChange)

#: The variants drawn for the matches, and their weights.
_VARIANTS = (("standard", 80), ("nackgammon", 5), ("tavla", 5), ("portes", 5), ("plakoto", 5))
_LENGTHS = (1, 3, 5, 7, 9, 11)
_T0 = 1_700_000_000_000


@dataclass
class Seeded:
    """What was written (counts, and the heavy player's name)."""

    players: int = 0
    results: int = 0
    history: int = 0
    rating_changes: int = 0
    ratings: int = 0
    player_records: int = 0
    heavy: str = "heavy"
    seconds: float = 0.0
    names: list[str] = field(default_factory=list)


def _rows(players: int, results: int, seed: int) -> Iterator[tuple[str, Any]]:
    """``(table, row)`` for every row, users first, in insertion order."""
    rng = random.Random(seed)
    for uid in range(1, players + 1):
        name = "heavy" if uid == 1 else f"p{uid:06d}"
        yield "users", (uid, name, name.lower(), "x", False, 1000, 0, _T0)
    variants = [v for v, _ in _VARIANTS]
    weights = [w for _, w in _VARIANTS]
    now: dict[tuple[int, str], RatedPlayer] = {}
    counts: dict[tuple[int, str], list[int]] = {}

    def player() -> int:
        if rng.random() < 0.01:
            return 1
        # skewed to the low ids: player k plays about 1/sqrt(k) as often as player 2
        return 2 + int((players - 1) * rng.random() ** 2) % (players - 1)

    change_id = 0
    records: dict[int, list[int]] = {}
    for rid in range(1, results + 1):
        at = _T0 + rid * 30_000
        variant = rng.choices(variants, weights)[0]
        pool = rating_pool(variant)
        length = rng.choice(_LENGTHS)
        u0 = player()
        bot = rng.random() < 0.1
        u1 = None if bot else player()
        if u1 == u0:
            u1 = u0 % players + 1
        winner = rng.randrange(2)
        rated = not bot and rng.random() < 0.6
        score = [length, rng.randrange(length)] if winner == 0 else [rng.randrange(length), length]
        table_id = f"s{rid:011d}"
        yield (
            "results",
            (
                rid,
                table_id,
                variant,
                pool,
                length,
                u0,
                u1,
                f"p{u0}",
                f"p{u1}" if u1 else "gammon-bot (expert)",
                "user",
                "bot" if bot else "user",
                winner,
                score[0],
                score[1],
                rated,
                at,
                "match_over",
                None,
                None,
            ),
        )
        for seat, uid in enumerate((u0, u1)):
            if uid is None:
                continue
            other = u1 if seat == 0 else u0
            outcome = "win" if winner == seat else "loss"
            records.setdefault(uid, [0, 0])[0 if outcome == "win" else 1] += 1
            yield "history", (uid, at, rid, seat, variant, other, outcome)
        if rated:
            assert u1 is not None
            w, l_ = (u0, u1) if winner == 0 else (u1, u0)
            before_w = now.get((w, pool), RatedPlayer())
            before_l = now.get((l_, pool), RatedPlayer())
            change = rate(before_w, before_l, length)
            for uid, before, after, won in (
                (w, before_w, change.winner, 1),
                (l_, before_l, change.loser, 0),
            ):
                now[(uid, pool)] = after
                c = counts.setdefault((uid, pool), [0, 0, 0, 0])
                c[0] += 1
                c[1 + (1 - won)] += 1
                c[3] = at
                change_id += 1
                yield (
                    "rating_changes",
                    (
                        change_id,
                        table_id,
                        uid,
                        pool,
                        at,
                        before.rating,
                        after.rating,
                        after.experience,
                    ),
                )
    for uid, (wins, losses) in sorted(records.items()):
        yield "player_records", (uid, wins, losses, 0, 0, 0.0)
    for (uid, pool), rp in now.items():
        matches, wins, losses, at = counts[(uid, pool)]
        yield "ratings", (uid, pool, rp.rating, rp.experience, matches, wins, losses, at)


_COLUMNS = {
    "users": "id, name, name_key, password_hash, guest, balance, held, created_at",
    "results": "id, table_id, variant, pool, match_length, user0, user1, name0, name1, kind0, "
    "kind1, winner, score0, score1, rated, ended_at, reason, error0, error1",
    "history": "user_id, ended_at, result_id, seat, variant, opponent_id, outcome",
    "rating_changes": "id, table_id, user_id, pool, at, rating_before, rating_after, experience",
    "player_records": "user_id, wins, losses, others, analysed, error_sum",
    "ratings": "user_id, pool, rating, experience, matches, wins, losses, updated_at",
}


#: The field of :class:`Seeded` that counts each table's rows.
_COUNTERS = {name: "players" if name == "users" else name for name in _COLUMNS}


def seed(url: str, players: int, results: int, seed: int = 1) -> Seeded:
    """Migrate ``url`` and fill it (it must hold no players yet)."""
    start = time.perf_counter()
    db = Database(url, pool_size=1)
    db.migrate()
    done = Seeded(heavy="heavy")
    buffers: dict[str, list[Any]] = {name: [] for name in _COLUMNS}
    # the secondary indexes are built once at the end (a sort), not row by row
    indexes = [index for model in _INDEXED for index in model.__table__.indexes]
    with db.engine.begin() as conn:
        for index in indexes:
            index.drop(conn)
    raw = db.engine.raw_connection()
    try:
        cursor = raw.cursor()
        if db.dialect == "sqlite":
            cursor.execute("PRAGMA synchronous=OFF")
            cursor.execute("PRAGMA foreign_keys=OFF")
            cursor.execute("PRAGMA cache_size=-1000000")  # 1 GB
        else:
            cursor.execute("SET maintenance_work_mem = '512MB'")

        def flush(name: str) -> None:
            rows = buffers[name]
            if not rows:
                return
            columns = _COLUMNS[name]
            if db.dialect == "postgresql":
                with cursor.copy(f"COPY {name} ({columns}) FROM STDIN") as copy:  # type: ignore[attr-defined]
                    for row in rows:
                        copy.write_row(row)
            else:
                marks = ", ".join("?" for _ in columns.split(","))
                cursor.executemany(f"INSERT INTO {name} ({columns}) VALUES ({marks})", rows)
            counter = _COUNTERS[name]
            setattr(done, counter, getattr(done, counter) + len(rows))
            rows.clear()

        order = list(_COLUMNS)
        for name, row in _rows(players, results, seed):
            buffers[name].append(row)
            if len(buffers[name]) >= 50_000:
                # a row may refer to rows of the tables before it: flush those first
                for earlier in order[: order.index(name) + 1]:
                    flush(earlier)
        for name in order:
            flush(name)
        if db.dialect == "postgresql":
            for name in ("results", "rating_changes"):
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                    f"(SELECT max(id) FROM {name}))"
                )
            cursor.execute("SELECT setval(pg_get_serial_sequence('users', 'id'), %s)", (players,))
        raw.commit()
    finally:
        raw.close()
    with db.engine.begin() as conn:
        for index in indexes:
            index.create(conn)
        conn.exec_driver_sql("ANALYZE")  # the planner's statistics of the new rows
    db.close()
    done.seconds = time.perf_counter() - start
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", help="database URL (sqlite:///FILE or postgresql://...)")
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    done = seed(args.url, args.players, args.results, args.seed)
    print(
        f"{done.players} players, {done.results} results, {done.history} history rows, "
        f"{done.rating_changes} rating changes, {done.ratings} ratings in {done.seconds:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
