"""A table's journal append on PostgreSQL: one statement against a transaction, same run.

    .venv/bin/python benchmarks/journal_append.py [--postgres-url URL] [--appends 2000]
        [--rounds 3] [--writers 1]

Every action of a table is one ``Store.append`` (docs/server.md).  On PostgreSQL an
action's append (no money moved, no result recorded) is one statement committed on its
own, on connections that stay in autocommit: one round trip.  The reference is the
same append as a transaction (``BEGIN``, ``UPDATE``, ``INSERT``, ``COMMIT``), which
money and results still use.  Each round times ``--appends`` appends of each kind, in
turn, on a fresh schema of ``--postgres-url``, from ``--writers`` threads (each on its
own table), and prints the latencies and the ratio of the means.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from gammon.storage.db import Database
from gammon.storage.store import Store, TableUpdate
from server_load import postgres_schema


def timed(store: Store, owner: int, name: str, appends: int, writers: int) -> list[float]:
    """Milliseconds of each append, from ``writers`` threads, each on a table of its own."""
    latencies: list[float] = []
    lock = threading.Lock()

    def write(table: str) -> None:
        store.create_table(table, owner, "{}", False, 0, "created", "{}")
        mine = []
        for seq in range(2, 2 + appends // writers):
            began = time.perf_counter()
            store.append(table, seq, "action", '{"a": 1}', seq, TableUpdate(status="playing"))
            mine.append((time.perf_counter() - began) * 1000)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=write, args=(f"{name}{n}",)) for n in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(latencies)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--postgres-url", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--appends", type=int, default=2000, help="appends of each kind a round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--writers", type=int, default=1, help="threads appending at once")
    args = parser.parse_args(argv)
    with postgres_schema(args.postgres_url) as url:
        db = Database(url)
        db.migrate()
        store = Store(db)
        single = db.single
        owner = store.create_user("bench", None, guest=True, balance=0, now=0).id
        means: dict[str, list[float]] = {"one statement": [], "transaction": []}
        for n in range(args.rounds):
            for kind in ("transaction", "one statement"):
                store._single = single if kind == "one statement" else None
                ms = timed(store, owner, f"r{n}{kind[0]}", args.appends, args.writers)
                means[kind].append(statistics.mean(ms))
                print(
                    f"round {n + 1} {kind:>13}: {len(ms)} appends, mean {means[kind][-1]:.3f} ms, "
                    f"p50 {ms[len(ms) // 2]:.3f}, p99 {ms[int(len(ms) * 0.99)]:.3f}, "
                    f"max {ms[-1]:.3f}"
                )
        db.close()
    one, tx = statistics.median(means["one statement"]), statistics.median(means["transaction"])
    print(f"median mean: one statement {one:.3f} ms, transaction {tx:.3f} ms: {tx / one:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
