"""A burst of allowed costly reads, and how late the server answers a quick request meanwhile.

    .venv/bin/python benchmarks/read_burst.py [--server-src OLD/src --server-src src]
        [--clients 64] [--bursts 8] [--path match] [--pause 3]

A token bucket bounds how many costly reads (docs/server.md, "The costly reads") a site
serves a second, not when: ``--clients`` clients, each from a loopback address of its own
(127.0.0.2, 127.0.0.3, ...: none is past its own allowance), ask for the same page at the
same moment, ``--bursts`` times, ``--pause`` seconds apart (3: the site's bucket refills in between).  A
probe asks for ``/healthz`` (a constant: the event loop's own delay and the HTTP round
trip) every 10 ms throughout, from 127.0.0.1.  Printed for each server: the probe's
latency outside the bursts and during them (p50, p99, max), how long a burst took to be
served whole, and what the clients were answered.  ``--server-src DIR`` (repeatable) runs
the server from another commit's ``src`` in the same invocation, one after the other on
one database, for a before/after comparison; the ratio of the probe's p99 during the
bursts to the first server's ends the output.

The page asked for: ``match``, the long session's ``/matches/{id}`` (its ``--games`` games
listed, 80 by default),
or ``lists``, the watch page.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from journalkit import write_long_session  # type: ignore[import-not-found]  # in tests/
from server_load import percentile, server_process

#: Seconds between two bursts, by default (the site's bucket of match pages refills in 2 s).
PAUSE = 3.0
#: Seconds between two of the probe's requests.
PROBE_EVERY = 0.01


@dataclass(frozen=True)
class Result:
    """One server's figures: the probe's latencies (seconds) inside and outside the
    bursts, each burst's time to be served whole, and the clients' answers by status."""

    inside: list[float]
    outside: list[float]
    took: list[float]
    answers: dict[int, int]


async def _probe(url: str, stop: asyncio.Event, marks: list[tuple[float, float]]) -> None:
    """Ask ``/healthz`` every ``PROBE_EVERY`` seconds: (when asked, seconds to answer)."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        while not stop.is_set():
            asked = time.perf_counter()
            await client.get("/healthz")
            marks.append((asked, time.perf_counter() - asked))
            await asyncio.sleep(max(0.0, PROBE_EVERY - (time.perf_counter() - asked)))


async def _burst(
    clients: list[httpx.AsyncClient], path: str, answers: collections.Counter[int]
) -> float:
    """Every client asks for ``path`` at once: the seconds until the last is answered."""
    began = time.perf_counter()
    replies = await asyncio.gather(*(c.get(path) for c in clients), return_exceptions=True)
    for r in replies:
        answers[r.status_code if isinstance(r, httpx.Response) else -1] += 1
    return time.perf_counter() - began


async def _measure(url: str, path: str, clients: int, bursts: int, pause: float) -> Result:
    transports = [
        httpx.AsyncHTTPTransport(local_address=f"127.0.0.{2 + n}") for n in range(clients)
    ]
    pool = [httpx.AsyncClient(base_url=url, timeout=60, transport=t) for t in transports]
    marks: list[tuple[float, float]] = []
    answers: collections.Counter[int] = collections.Counter()
    spans: list[tuple[float, float]] = []
    try:
        for c in pool:  # connections opened before the bursts (a keep-alive client's)
            await c.get("/healthz")
        stop = asyncio.Event()
        probe = asyncio.create_task(_probe(url, stop, marks))
        await asyncio.sleep(pause)
        for _ in range(bursts):
            began = time.perf_counter()
            took = await _burst(pool, path, answers)
            spans.append((began, began + took))
            await asyncio.sleep(pause)
        stop.set()
        await probe
    finally:
        for c in pool:
            await c.aclose()
    inside = sorted(s for at, s in marks if any(a <= at <= b for a, b in spans))
    outside = sorted(s for at, s in marks if all(not a - 0.5 <= at <= b + 0.5 for a, b in spans))
    return Result(inside, outside, sorted(b - a for a, b in spans), dict(sorted(answers.items())))


def _ms(values: list[float]) -> str:
    if not values:
        return "none"
    return (
        f"p50 {percentile(values, 0.5):.1f} ms, p99 {percentile(values, 0.99):.1f} ms, "
        f"max {values[-1] * 1000:.1f} ms ({len(values)})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--server-src", action="append", default=None, metavar="DIR")
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--bursts", type=int, default=8)
    parser.add_argument("--path", choices=("match", "lists"), default="match")
    parser.add_argument("--pause", type=float, default=PAUSE, help="seconds between bursts")
    parser.add_argument("--games", type=int, default=80, help="games of the long session")
    args = parser.parse_args(argv)
    if not 1 <= args.clients <= 250:
        parser.error("--clients must be 1..250 (one loopback address each)")
    sources: list[str | None] = list(args.server_src or [None])
    with tempfile.TemporaryDirectory() as tmp:
        database = f"sqlite:///{tmp}/burst.db"
        long = write_long_session(database, args.games)
        path = f"/matches/{long.table_id}" if args.path == "match" else "/watch"
        print(
            f"{args.bursts} bursts of {args.clients} clients (an address each) asking {path} "
            f"at once, {args.pause:g} s apart; a probe asks /healthz every {PROBE_EVERY * 1000:.0f} ms"
        )
        first: float | None = None
        for source in sources:
            with server_process(database, [], 50, source) as (url, _pid):
                result = asyncio.run(_measure(url, path, args.clients, args.bursts, args.pause))
            print(f"server from {source or 'src'}:")
            print(f"  probe outside the bursts: {_ms(result.outside)}")
            print(f"  probe during the bursts:  {_ms(result.inside)}")
            print(f"  a burst served whole in:  {_ms(result.took)}")
            print(f"  the clients' answers (HTTP status: count): {result.answers}")
            p99 = percentile(result.inside, 0.99)
            if first is None:
                first = p99
            else:
                print(f"  probe p99 during the bursts against the first server: {p99 / first:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
