"""Profile and leaderboard page times with 100,000 players and 1,000,000 matches.

    .venv/bin/python benchmarks/profile_pages.py --database both --players 100000 --results 1000000

Seeds a fresh database (``seed_players.py``: SQLite in a temporary file, PostgreSQL in
a fresh schema of ``--postgres-url``), starts the site on it (uvicorn in a thread,
as ``gammon serve`` runs it) and requests each page ``--requests`` times over HTTP on
loopback, one at a time, timing each from the request to the last byte:

* ``profile``: a random player's ``/@/<name>`` (ratings, graphs, first page of matches);
* ``profile deep``: the most active player's list at a random depth, through the
  keyset cursor (``?before=``), thousands of matches down;
* ``profile filtered``: a random player's losses at standard backgammon, and the most
  active player's matches against one opponent;
* ``leaderboard``: ``/leaderboard`` for the backgammon pool and for tavla.

It prints p50 and p95 per page (the goal: p95 under 100 ms).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import uvicorn
from sqlalchemy import text

from gammon.server import create_app
from gammon.server.infra.settings import Settings
from gammon.server.run import bind
from gammon.storage import Database
from seed_players import seed
from server_load import postgres_schema


@contextlib.contextmanager
def serving(url: str) -> Iterator[str]:
    """The site on database ``url``, in a thread; yields its base URL."""
    sock = bind("127.0.0.1", 0)
    settings = Settings(database_url=url, bot_workers=0, rate_limit=1e9, rate_burst=10**9)
    server = uvicorn.Server(uvicorn.Config(create_app(settings), log_config=None, lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.01)
    host, port = sock.getsockname()[:2]
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)


def cursors(url: str, name: str, every: int = 97) -> list[str]:
    """Keyset cursors spread over a player's whole list (not timed)."""
    db = Database(url, pool_size=1)
    try:
        with db.engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT h.ended_at, h.result_id FROM history h JOIN users u "
                    "ON u.id = h.user_id WHERE u.name = :n ORDER BY h.ended_at DESC, "
                    "h.result_id DESC"
                ),
                {"n": name},
            ).all()
    finally:
        db.close()
    return [f"{r[0]}.{r[1]}" for r in rows[every::every]]


def percentile(values: list[float], p: float) -> float:
    """The ``p`` percentile (nearest rank) of ``values``.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([1.0, 2.0, 3.0, 4.0], 0.95)
    (2.0, 4.0)
    """
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(p * len(ordered) + 0.5) - 1))]


def time_pages(
    base: str, url: str, players: int, requests: int, rng: random.Random
) -> dict[str, list[float]]:
    """Milliseconds of each request, per page."""
    deep = cursors(url, "heavy")
    some = lambda: f"p{rng.randrange(2, players + 1):06d}"  # noqa: E731
    pages: dict[str, Callable[[], tuple[str, dict[str, str]]]] = {
        "profile": lambda: (f"/@/{some()}", {}),
        "profile deep": lambda: ("/@/heavy", {"before": rng.choice(deep)}),
        "profile filtered": lambda: rng.choice(
            [
                (f"/@/{some()}", {"result": "loss", "variant": "standard"}),
                ("/@/heavy", {"opponent": f"p{rng.randrange(2, 200):06d}"}),
            ]
        ),
        "leaderboard": lambda: ("/leaderboard", {"pool": rng.choice(["backgammon", "tavla"])}),
    }
    times: dict[str, list[float]] = {name: [] for name in pages}
    with httpx.Client(base_url=base, timeout=30) as web:
        for make in pages.values():  # warm up: connections, caches, templates
            for _ in range(5):
                path, params = make()
                web.get(path, params=params)
        for _ in range(requests):
            for name, make in pages.items():
                path, params = make()
                start = time.perf_counter()
                r = web.get(path, params=params)
                times[name].append((time.perf_counter() - start) * 1000)
                assert r.status_code == 200, (path, params, r.status_code)
    return times


def run(url: str, label: str, players: int, results: int, requests: int) -> None:
    done = seed(url, players, results)
    print(
        f"{label}: seeded {done.players} players, {done.results} results, "
        f"{done.history} history rows, {done.rating_changes} rating changes in "
        f"{done.seconds:.0f} s",
        flush=True,
    )
    with serving(url) as base:
        times = time_pages(base, url, players, requests, random.Random(7))
    for name, values in times.items():
        print(
            f"  {name:<17} p50 {percentile(values, 0.5):6.1f} ms   "
            f"p95 {percentile(values, 0.95):6.1f} ms   ({len(values)} requests)",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=200, help="per page")
    parser.add_argument("--postgres-url", default="postgresql://postgres@127.0.0.1:5432/test")
    args = parser.parse_args(argv)
    if args.database in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite:///{Path(folder) / 'profiles.db'}"
            run(url, "SQLite", args.players, args.results, args.requests)
    if args.database in ("postgresql", "both"):
        with postgres_schema(args.postgres_url) as url:
            run(url, "PostgreSQL", args.players, args.results, args.requests)
    return 0


if __name__ == "__main__":
    sys.exit(main())
