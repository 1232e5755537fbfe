"""Load test of ``gammon serve``: N concurrent matches played through real WebSockets.

The players are SCRIPTED RANDOM-LEGAL PLAYERS (not the bot): each picks a random
action among those the server says it may take (a random legal move, an
occasional double, take or drop), after a think time.  Everything goes through
the real protocol on loopback: HTTP to make guests and tables, one WebSocket per
player, each action acknowledged only after it is committed to the database.

Reported: actions per second (committed actions acknowledged to the players)
and the p50/p90/p99/max latency of an action, from sending it to receiving its
``ack``.  It starts its own server process on 127.0.0.1 and stops it at the end;
every loop is bounded by ``--duration``.

    .venv/bin/python benchmarks/server_load.py --matches 200 --duration 30
    .venv/bin/python benchmarks/server_load.py --database postgres \\
        --postgres-url postgresql://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from server_attack import keep_moves

#: Seconds at the start of the play left out of the "after the first seconds" figures: all
#: the players connect, get their snapshots and roll at the same moment.
WARM_UP = 5.0
#: A client event loop late by more than this (seconds) is counted as a stall.
CLIENT_STALL = 0.02


@dataclass
class Stats:
    """Latencies (seconds) of acknowledged actions and counts of what happened."""

    latencies: list[float] = field(default_factory=list)
    #: Seconds from a player's action being sent to its opponent's socket receiving the
    #: event it made: what the other player waits for (through Redis when ``--split``).
    news: list[float] = field(default_factory=list)
    #: When each of those actions was sent, in seconds since the play began.
    sent_at: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    games: int = 0
    events: int = 0
    #: CPU seconds the server process used while the matches were played.
    server_cpu: float = float("nan")
    #: CPU seconds the database and Redis used while playing, by process name.
    service_cpu: dict[str, float] = field(default_factory=dict)
    #: CPU seconds the client processes used while playing.
    client_cpu: float = 0.0
    #: Share of the machine's CPU time the hypervisor gave to other machines meanwhile.
    steal: float = float("nan")
    #: Stalls of the client processes' own event loops over :data:`CLIENT_STALL` (seconds):
    #: an acknowledgement read late there reads as the server's latency.
    client_stalls: list[float] = field(default_factory=list)


def steal_ticks() -> tuple[int, int]:
    """(stolen, total) CPU ticks of the whole machine so far (Linux /proc/stat; zeros
    elsewhere): on a virtual machine, the time other guests had this machine's cores."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    except (OSError, ValueError):
        return 0, 0
    return fields[7], sum(fields)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its finished children (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(f) for f in fields[11:15]) / ticks


#: The services the servers use on this machine, by process name (``comm``).
SERVICES = ("postgres", "redis-server")


def service_ticks() -> dict[int, tuple[str, int]]:
    """Each running service process's (name, user + system CPU ticks) by pid (Linux /proc;
    empty elsewhere): a database on the same cores takes its CPU from the server's."""
    out: dict[int, tuple[str, int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            head, tail = stat.read_text().rsplit(")", 1)
        except OSError:
            continue
        name = head.split("(", 1)[1]
        if name in SERVICES:
            fields = tail.split()
            out[int(stat.parent.name)] = (name, int(fields[11]) + int(fields[12]))
    return out


def service_seconds(before: dict[int, tuple[str, int]]) -> dict[str, float]:
    """CPU seconds each service used since ``before`` (processes started since count whole)."""
    ticks = os.sysconf("SC_CLK_TCK")
    used: dict[str, float] = {}
    for pid, (name, now) in service_ticks().items():
        then = before.get(pid, (name, 0))[1]
        used[name] = used.get(name, 0.0) + (now - then) / ticks
    return used


#: ``gammon`` under cProfile, the statistics written to ``argv[1]`` when it stops (uvicorn
#: raises SIGTERM again after its graceful shutdown: the handler set before it dumps).  It
#: counts the process's CPU time, not the wall clock: on a shared machine the time spent
#: waiting for a core would otherwise land on whatever function was running.
_PROFILED = """
import cProfile, signal, sys, time
from gammon.cli import main
profile = cProfile.Profile(time.process_time)
def stop(signum, frame):
    profile.disable()
    profile.dump_stats(sys.argv[1])
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
profile.enable()
main(sys.argv[2:])
stop(0, None)
"""


@contextlib.contextmanager
def server_process(
    database_url: str,
    extra: list[str],
    sockets: int,
    source: str | None = None,
    profile: str | None = None,
    cpus: set[int] | None = None,
) -> Iterator[tuple[str, int]]:
    """``gammon serve`` on 127.0.0.1, a free port; yields its address and pid.

    Every player of the benchmark comes from 127.0.0.1: the server is told to allow
    ``sockets`` WebSockets and any number of new guests and tables from there.
    ``source``: run the ``gammon`` of that source folder (another commit's ``src``).
    ``profile``: run it under cProfile, its statistics written to that file at the end.
    ``cpus``: the CPUs it may run on (its threads, started later, inherit them).
    """
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = source
    runner = ["-c", _PROFILED, profile] if profile else ["-m", "gammon"]
    proc = subprocess.Popen(
        [
            sys.executable,
            *runner,
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--database-url",
            database_url,
            "--log-level",
            "warning",
            "--create-limit",
            "1000000",
            "--max-sockets",
            str(sockets),
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    if cpus is not None:
        os.sched_setaffinity(proc.pid, cpus)
    reader: threading.Thread | None = None
    try:
        assert proc.stdout is not None
        url = ""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            if line.startswith("gammon: serving on "):
                url = line.split()[-1]
                break
        if not url:
            raise RuntimeError("the server did not start")
        # its warnings must never fill the pipe and stall it: read on a thread, and counted
        reader = threading.Thread(target=_keep_log, args=(proc.stdout,), daemon=True)
        reader.start()
        yield url, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if reader is not None:  # the server is gone: its output ends, then the reader
            reader.join(timeout=10)
        if proc.stdout is not None and (reader is None or not reader.is_alive()):
            proc.stdout.close()  # (closed under a reader still reading, it raised there)


#: The servers' log lines of the current run (``--log-level warning``: its warnings and
#: errors), by their text with the numbers taken out, each with how often it came.
SERVER_LOG: collections.Counter[str] = collections.Counter()


def _keep_log(stream: IO[str]) -> None:
    """Count a server's log lines until it closes its output (or the stream is closed)."""
    with contextlib.suppress(ValueError, OSError):
        _count_lines(stream)


#: ``--stalls``: where the servers' event loops were held (the innermost frame of the
#: stack the watchdog logged, then gammon's innermost three) -> (stalls, milliseconds held).
STALLS: dict[str, tuple[int, int]] = {}
_HELD = re.compile(r"event loop held (\d+) ms in:")


def _count_lines(stream: IO[str]) -> None:
    held: int | None = None
    frames: list[str] = []
    for line in stream:
        if held is not None:
            if line.startswith("  "):  # a frame of the stall's stack
                frames.append(line.strip())
                continue
            _stalled(held, frames)
            held, frames = None, []
        found = _HELD.search(line)
        if found:
            held = int(found.group(1))
            continue
        # the time stamp off, and the numbers and identifiers (table ids) made alike
        text = re.sub(r"^[\d-]+ [\d:,]+ ", "", line.strip())
        SERVER_LOG[re.sub(r"\b(?=\w*[a-z])(?=\w*[A-Z\d])\w{6,}\b|\d+", "N", text)[:160]] += 1


@contextlib.contextmanager
def postgres_schema(base_url: str) -> Iterator[str]:
    """A fresh schema in ``base_url``'s database, dropped afterwards."""
    import psycopg

    schema = f"gammon_bench_{secrets.token_hex(4)}"
    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{base_url}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(base_url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@contextlib.asynccontextmanager
async def guest(url: str) -> AsyncIterator[tuple[httpx.AsyncClient, str]]:
    """An HTTP client signed in as a new guest, and its CSRF token."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        token = (await client.get("/api/session")).json()["csrf"]
        r = await client.post("/api/guest", json={}, headers={"X-CSRF-Token": token})
        r.raise_for_status()
        yield client, r.json()["csrf"]


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A random legal action for this player, or None when it is not its decision."""
    allowed = [a for a in state["you"]["allowed"] if a not in ("abandon", "resign")]
    if not allowed:
        return None
    if "move" in allowed:
        moves = state["match"]["moves"] or []
        if not moves:
            return None
        return {"type": "move", "move": rng.choice(moves)["move"]}
    if "take" in allowed:
        return {"type": "take" if rng.random() < 0.8 else "drop"}
    if "accept_resign" in allowed:
        return {"type": "accept_resign"}
    if "double" in allowed and rng.random() < 0.05:
        return {"type": "double"}
    if "roll" in allowed:
        return {"type": "roll"}
    return None


async def player(
    url: str,
    client: httpx.AsyncClient,
    table: str,
    stats: Stats,
    stop_at: float,
    think: float,
    seed: int,
    began: float,
    seat: _Seat,
) -> None:
    """Play one seat until ``stop_at`` (a connection lost counts as an error)."""
    rng = random.Random(seed)
    cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    ws_url = "ws" + url[4:] + f"/ws/table/{table}"
    try:
        async with connect(ws_url, additional_headers={"Cookie": cookie}, max_size=2**22) as ws:
            hello = {"type": "hello", "protocol": 1, "last_version": None, "client_seed": str(seed)}
            await ws.send(orjson.dumps(hello).decode())
            await _play(ws, rng, stats, stop_at, think, began, seat)
    except (OSError, WebSocketException) as exc:
        name = f"connection lost ({type(exc).__name__})"
        stats.errors[name] = stats.errors.get(name, 0) + 1


@dataclass
class _News:
    """A match's actions by (seat, version): when the mover sent each one that was
    acknowledged, and when each seat received each event, until the two are paired."""

    sent: dict[tuple[int, int], float] = field(default_factory=dict)
    heard: dict[tuple[int, int], float] = field(default_factory=dict)

    def acked(self, seat: int, version: int, sent_at: float, stats: Stats) -> None:
        heard = self.heard.pop((1 - seat, version), None)
        if heard is None:
            self.sent[(seat, version)] = sent_at
        else:
            stats.news.append(heard - sent_at)

    def event(self, seat: int, version: int, at: float, stats: Stats) -> None:
        sent = self.sent.pop((1 - seat, version), None)
        if sent is None:
            self.heard[(seat, version)] = at
        else:
            stats.news.append(at - sent)


@dataclass
class _Seat:
    """One player's view: the newest state, the action awaiting its ack, and a wake-up."""

    index: int = 0
    news: _News = field(default_factory=_News)
    state: dict[str, Any] | None = None
    pending: tuple[str, float] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)


async def _read(ws: ClientConnection, seat: _Seat, stats: Stats, began: float) -> None:
    """Read everything the server sends, keeping ``seat`` current; a close raises."""
    while True:
        msg = orjson.loads(await ws.recv())
        kind = msg.get("type")
        if kind == "event":
            stats.events += 1
            seat.news.event(seat.index, msg["version"], time.perf_counter(), stats)
            for e in msg["data"].get("events", ()):
                if e["kind"] == "game_over":
                    stats.games += 1
            if "state" in msg:
                seat.state = keep_moves(seat.state, msg["state"])
        elif kind == "state":
            seat.state = msg
        elif kind == "ack" and seat.pending is not None and msg.get("id") == seat.pending[0]:
            stats.latencies.append(time.perf_counter() - seat.pending[1])
            stats.sent_at.append(seat.pending[1] - began)
            seat.news.acked(seat.index, msg["version"], seat.pending[1], stats)
            seat.pending = None
        elif kind == "error":
            stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
            if seat.pending is not None and msg.get("id") == seat.pending[0]:
                seat.pending = None
        seat.changed.set()


async def _act(ws: ClientConnection, seat: _Seat, rng: random.Random, think: float) -> None:
    """Act whenever it is this player's decision, after thinking, on the newest state."""
    counter = 0
    while True:
        await seat.changed.wait()
        seat.changed.clear()
        state = seat.state
        if seat.pending is not None or state is None or state["table"]["status"] != "playing":
            continue
        if choose(state, rng) is None:
            continue
        if think:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        state = seat.state  # what arrived while thinking counts
        assert state is not None
        action = choose(state, rng)
        if action is None:
            continue
        counter += 1
        ident = f"a{counter}"
        seat.pending = (ident, time.perf_counter())
        reply = {**action, "id": ident, "version": state["version"]}
        await ws.send(orjson.dumps(reply).decode())


async def _play(
    ws: ClientConnection,
    rng: random.Random,
    stats: Stats,
    stop_at: float,
    think: float,
    began: float,
    seat: _Seat,
) -> None:
    """Play on one socket until ``stop_at`` (``time.monotonic()``; ``began``:
    ``time.perf_counter()`` when the play began).

    One task reads, so that every message is parsed once as it comes, with no timer per
    message; the other acts.  A client that spent more CPU per message than the server
    took the server's core on this 2-core machine, and its delays read as the server's.
    """
    tasks = [
        asyncio.create_task(_read(ws, seat, stats, began)),
        asyncio.create_task(_act(ws, seat, rng, think)),
    ]
    try:
        done, _ = await asyncio.wait(
            tasks, timeout=max(0.0, stop_at - time.monotonic()), return_when="FIRST_COMPLETED"
        )
        for task in done:
            task.result()  # a lost connection is the caller's error
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def run(
    urls: list[str],
    matches: int,
    duration: float,
    think: float,
    pids: list[int] | None = None,
    processes: int = 1,
    cpus: set[int] | None = None,
    split: bool = False,
) -> Stats:
    """Play ``matches`` money sessions for ``duration`` s from ``processes`` client processes
    (on ``cpus`` if given)."""
    import multiprocessing

    shares = [matches // processes + (i < matches % processes) for i in range(processes)]
    ctx = multiprocessing.get_context("spawn")
    # every client process sets its tables up, then all of them (and the meter) meet here
    # and play from the same moment
    start = ctx.Barrier(sum(1 for share in shares if share) + 1)
    window: list[float] = []
    used: dict[str, float] = {}

    def measure() -> None:  # the servers' CPU during the play only
        start_at = _started(start, matches)
        if not pids:
            return
        time.sleep(max(0.0, start_at - time.time()))
        before = sum(cpu_seconds(pid) for pid in pids)
        stolen = steal_ticks()
        services = service_ticks()
        time.sleep(duration)
        window.append(sum(cpu_seconds(pid) for pid in pids) - before)
        used.update(service_seconds(services))
        after = steal_ticks()
        if after[1] > stolen[1]:
            window.append((after[0] - stolen[0]) / (after[1] - stolen[1]))

    meter = threading.Thread(target=measure, daemon=True)
    meter.start()
    with ctx.Pool(processes, initializer=_meet_at, initargs=(start,)) as pool:
        parts = pool.starmap(
            _client_process,
            [
                (urls, share, i, duration, think, cpus, split)
                for i, share in enumerate(shares)
                if share
            ],
        )
    stats = Stats()
    for part in parts:
        stats.latencies += part.latencies
        stats.news += part.news
        stats.sent_at += part.sent_at
        stats.events += part.events
        stats.games += part.games
        stats.client_cpu += part.client_cpu
        stats.client_stalls += part.client_stalls
        for code, n in part.errors.items():
            stats.errors[code] = stats.errors.get(code, 0) + n
    meter.join(timeout=duration + 60)
    if window:
        stats.server_cpu = window[0]
    if len(window) > 1:
        stats.steal = window[1]
    # a service the run did not use (Redis beside SQLite) is left out
    stats.service_cpu = {name: sec for name, sec in used.items() if sec >= 0.01 * duration}
    return stats


#: Seconds from the moment every client process has set its tables up to the play.
START_LEAD = 0.5
#: The barrier of :func:`run`, in a client process (under "barrier").
_START: dict[str, Any] = {}


def _meet_at(barrier: Any) -> None:
    """A client process's initializer: the barrier its play starts at."""
    _START["barrier"] = barrier


def _started(barrier: Any, matches: int) -> float:
    """Wait at ``barrier`` until every client process is set up; the time the play starts."""
    barrier.wait(timeout=120 + matches)  # a client process that died breaks it for all
    return time.time() + START_LEAD


def _client_process(
    urls: list[str],
    matches: int,
    index: int,
    duration: float,
    think: float,
    cpus: set[int] | None,
    split: bool,
) -> Stats:
    if cpus is not None:
        os.sched_setaffinity(0, cpus)
    return asyncio.run(_clients(urls, matches, index, duration, think, split))


def cpu_split(servers: int) -> tuple[list[set[int]], set[int]]:
    """``--pin``: one CPU for each server process, the rest for the clients, which play
    the part of players on other machines and must not take a server's core."""
    available = sorted(os.sched_getaffinity(0))
    if servers >= len(available):
        raise SystemExit(
            f"--pin needs more CPUs ({len(available)}) than server processes ({servers})"
        )
    return [{cpu} for cpu in available[:servers]], set(available[servers:])


_Player = tuple[str, httpx.AsyncClient, str, int, _Seat]


async def _clients(
    urls: list[str],
    matches: int,
    index: int,
    duration: float,
    think: float,
    split: bool = False,
) -> Stats:
    """One client process: set up its tables, wait for the common start, play (``split``:
    the two players of a match on different server processes, else on the same one)."""
    stats = Stats()
    async with contextlib.AsyncExitStack() as stack:
        sem = asyncio.Semaphore(20)

        async def setup(i: int) -> list[_Player]:
            url = urls[i % len(urls)]
            other = urls[(i + 1) % len(urls)] if split else url
            try:
                return await _setup_one(url, other, i)
            except (httpx.HTTPError, OSError) as exc:  # a server that does not answer
                name = f"set-up failed ({type(exc).__name__})"
                stats.errors[name] = stats.errors.get(name, 0) + 1
                return []

        async def _setup_one(url: str, other: str, i: int) -> list[_Player]:
            async with sem:
                a, a_csrf = await stack.enter_async_context(guest(url))
                b, b_csrf = await stack.enter_async_context(guest(other))
                r = await a.post(
                    "/api/tables", json={"cube_limit": 64}, headers={"X-CSRF-Token": a_csrf}
                )
                r.raise_for_status()
                table = r.json()["table"]["id"]
                r = await b.post(
                    f"/api/tables/{table}/sit", json={"seat": 1}, headers={"X-CSRF-Token": b_csrf}
                )
                r.raise_for_status()
                news = _News()  # shared by the two seats
                return [
                    (url, a, table, 2 * i, _Seat(0, news)),
                    (other, b, table, 2 * i + 1, _Seat(1, news)),
                ]

        started = time.monotonic()
        groups = await asyncio.gather(*(setup(index * 100_000 + i) for i in range(matches)))
        print(f"set up {matches} tables in {time.monotonic() - started:.1f} s", file=sys.stderr)
        start_at = await asyncio.to_thread(_started, _START["barrier"], matches)
        await asyncio.sleep(max(0.0, start_at - time.time()))
        stop_at = time.monotonic() + duration
        # 200 players' states in one process: with the collector on, its pauses (up to
        # ~90 ms) held every player's acknowledgements, which then read as server latency
        gc.collect()
        gc.freeze()
        gc.disable()
        began = time.perf_counter()
        cpu = time.process_time()
        watch = asyncio.create_task(_watch_loop(stats, stop_at))
        try:
            await asyncio.gather(
                *(
                    player(url, client, table, stats, stop_at, think, seed, began, seat)
                    for group in groups
                    for url, client, table, seed, seat in group
                )
            )
        finally:
            gc.enable()
            gc.unfreeze()
            watch.cancel()
        stats.client_cpu = time.process_time() - cpu
    return stats


async def _watch_loop(stats: Stats, stop_at: float, tick: float = 0.005) -> None:
    """Record how late this client process's event loop wakes up, past CLIENT_STALL."""
    while time.monotonic() < stop_at:
        asked = time.perf_counter()
        await asyncio.sleep(tick)
        late = time.perf_counter() - asked - tick
        if late > CLIENT_STALL:
            stats.client_stalls.append(late)


def percentile(latencies: list[float], p: float) -> float:
    """The ``p`` quantile of ``latencies`` (seconds) in milliseconds (nan if none)."""
    lat = sorted(latencies)
    return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")


def summarize(label: str, runs: list[Stats], duration: float) -> None:
    """One line per run and their median: on a virtual machine the same code's p99 moves
    with the neighbours' load (the steal), so one run is not a figure."""
    print(f"{label}, {len(runs)} runs:")
    for i, stats in enumerate(runs, 1):
        n = len(stats.latencies)
        cpu = stats.server_cpu / n * 1000 if n else float("nan")
        print(
            f"  run {i}: {n / duration:.1f} actions/s, p50 {percentile(stats.latencies, 0.5):.1f} "
            f"ms, p99 {percentile(stats.latencies, 0.99):.1f} ms, server CPU {cpu:.2f} ms per "
            f"action, steal {stats.steal * 100:.1f}%, client stalls {len(stats.client_stalls)}"
        )
    p99s = sorted(percentile(stats.latencies, 0.99) for stats in runs)
    print(
        f"  p99: median {statistics.median(p99s):.1f} ms, best {p99s[0]:.1f} ms, "
        f"worst {p99s[-1]:.1f} ms"
    )


def _stalled(held: int, frames: list[str]) -> None:
    """One stall the watchdog logged: counted by its innermost frames (site-packages and
    the standard library shortened)."""
    others = [f for f in frames if f.startswith("[")]  # other threads, then the loop's
    frames = [f for f in frames if not f.startswith(("[", "other threads"))]
    short = [re.sub(r"^\S*/(site-packages|python3\.\d+|src)/", "", f) for f in frames]
    ours = [f for f in short if f.startswith(("gammon/", "starlette/", "jinja2/", "uvicorn/"))][-4:]
    where = " < ".join(reversed(ours + short[-1:] if short[-1:] != ours[-1:] else ours))
    if others:
        where += " || " + " | ".join(re.sub(r"/\S*/", "", f) for f in others)
    n, total = STALLS.get(where, (0, 0))
    STALLS[where] = (n + 1, total + held)


def report_stalls() -> None:
    """``--stalls``: the places the servers' loops were held longest in the run just
    played (then forgotten)."""
    if STALLS:
        rows = sorted(STALLS.items(), key=lambda row: -row[1][1])
        total = sum(ms for _, ms in STALLS.values())
        count = sum(n for n, _ in STALLS.values())
        print(f"  event loop held: {count} stalls, {total} ms in all; the longest in total:")
        for where, (n, ms) in rows[:6]:
            print(f"    {ms:6d} ms {n:4d}x  {where[:500]}")
    STALLS.clear()


def report_log() -> None:
    """The servers' warnings and errors of the run just played (then forgotten): a server
    that logs on every action is slow for that reason, whatever else it does."""
    if SERVER_LOG:
        print(f"  server log lines: {SERVER_LOG.total()}, most frequent:")
        for text, count in SERVER_LOG.most_common(4):
            print(f"    {count:6d}  {text}")
    SERVER_LOG.clear()


def timeline(stats: Stats) -> None:
    """Each second of the play: actions sent in it and their latency quantiles."""
    seconds: dict[int, list[float]] = {}
    for latency, at in zip(stats.latencies, stats.sent_at, strict=True):
        seconds.setdefault(int(at), []).append(latency)
    print("  second  actions  p50 ms  p99 ms  max ms")
    for second in sorted(seconds):
        lat = seconds[second]
        print(
            f"  {second:6d}  {len(lat):7d}  {percentile(lat, 0.5):6.1f}  "
            f"{percentile(lat, 0.99):6.1f}  {max(lat) * 1000:6.1f}"
        )


def report(label: str, stats: Stats, duration: float) -> None:
    """Print one result line block."""
    lat = stats.latencies
    n = len(lat)

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{label}:")
    print(f"  load average (1, 5, 15 min) at the end: {load}")
    print(f"  actions acknowledged: {n} in {duration:.0f} s = {n / duration:.1f} actions/s")
    print(
        f"  action latency (send -> ack): p50 {percentile(lat, 0.5):.1f} ms, p90 {percentile(lat, 0.9):.1f} ms, "
        f"p99 {percentile(lat, 0.99):.1f} ms, max {(max(lat) * 1000 if n else float('nan')):.1f} ms, "
        f"mean {(statistics.fmean(lat) * 1000 if n else float('nan')):.1f} ms"
    )
    steady = sorted(
        latency for latency, at in zip(stats.latencies, stats.sent_at, strict=True) if at >= WARM_UP
    )
    if steady:
        m = len(steady)
        print(
            f"  after the first {WARM_UP:.0f} s (every player sits down at once): {m} actions, "
            f"p50 {steady[m // 2] * 1000:.1f} ms, p99 {steady[min(m - 1, int(0.99 * m))] * 1000:.1f} ms"
        )
    if stats.news:
        print(
            f"  the opponent's news (action sent -> the other socket has its event): "
            f"p50 {percentile(stats.news, 0.5):.1f} ms, p99 {percentile(stats.news, 0.99):.1f} "
            f"ms, max {max(stats.news) * 1000:.1f} ms ({len(stats.news)} actions)"
        )
    print(f"  events received: {stats.events}, games finished: {stats.games}")
    if n and stats.server_cpu == stats.server_cpu:
        print(
            f"  server CPU: {stats.server_cpu:.1f} s = {stats.server_cpu / duration * 100:.0f}% "
            f"of one core (all server processes), {stats.server_cpu / n * 1000:.2f} ms per action"
        )
    if stats.steal == stats.steal:
        # a virtual machine's neighbours: the same code needs more CPU per action when high
        print(f"  steal (CPU time the hypervisor gave elsewhere): {stats.steal * 100:.1f}%")
    for name, seconds in stats.service_cpu.items():
        print(f"  {name} CPU: {seconds:.1f} s = {seconds / duration * 100:.0f}% of one core")
    print(
        f"  client CPU: {stats.client_cpu:.1f} s = {stats.client_cpu / duration * 100:.0f}% of one core"
    )
    stalls = stats.client_stalls
    print(
        f"  client event-loop stalls over {CLIENT_STALL * 1000:.0f} ms: {len(stalls)}"
        + (f" (longest {max(stalls) * 1000:.0f} ms)" if stalls else "")
    )
    if stats.errors:
        print(f"  errors: {dict(sorted(stats.errors.items()))}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200, help="concurrent matches (default 200)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of play (default 30)")
    parser.add_argument(
        "--think",
        type=float,
        default=0.5,
        help="mean seconds a scripted player thinks before acting (default 0.5; 0 = flat out)",
    )
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgres", "both"),
        default="sqlite",
        help="which database",
    )
    parser.add_argument(
        "--postgres-url",
        default=os.environ.get(
            "GAMMON_BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
        ),
        help="PostgreSQL database to use (a fresh schema is made and dropped)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="gammon serve processes sharing the database (over 1 needs --redis-url)",
    )
    parser.add_argument(
        "--redis-url",
        default="redis://127.0.0.1:6379/0",
        help="Redis for several server processes (default redis://127.0.0.1:6379/0)",
    )
    parser.add_argument(
        "--clients", type=int, default=2, help="client processes sharing the players (default 2)"
    )
    parser.add_argument(
        "--url",
        help="use this already running server instead of starting one (loopback addresses only)",
    )
    parser.add_argument(
        "--server-src",
        action="append",
        help="run the server from this source folder (e.g. another commit's src, checked out "
        "with git worktree); repeat to compare commits in one run (default: this gammon)",
    )
    parser.add_argument(
        "--attack",
        action="store_true",
        help="also play the matches while the bounded attack of issue #20 runs (20 sockets "
        "on acey-deucey steps, 4 clients looping on a long match's .mat, 10 acey-deucey "
        "tables against the world-class bot), after a run without it",
    )
    parser.add_argument(
        "--attack-lists",
        action="store_true",
        help="with --attack: 4 more clients loop on the lobby's and the watch page's lists",
    )
    parser.add_argument(
        "--attack-costly",
        action="store_true",
        help="with --attack: 4 more clients loop on an imported match's replay and 20 "
        "spectators ask the long session's history pages at the allowed rate (issue #30)",
    )
    parser.add_argument(
        "--attack-addresses",
        type=int,
        default=1,
        help="with --attack: every HTTP looper of the attack runs from each of this many "
        "loopback addresses, 127.0.0.2 and on (default 1: all from 127.0.0.1)",
    )
    parser.add_argument("--profile", help="cProfile the (first) server into this file")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="give each server process a CPU of its own and the clients the others (they "
        "stand for players on other machines; needs more CPUs than --processes)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="play each configuration this many times, each on a fresh database and "
        "servers, and print the runs side by side with their median p99 (default 1)",
    )
    parser.add_argument(
        "--stalls",
        type=float,
        default=0.0,
        metavar="MS",
        help="have the servers log every event-loop stall of MS milliseconds or more with "
        "where it was held (gammon serve --stall-log), and print the places held longest",
    )
    parser.add_argument(
        "--timeline",
        action="store_true",
        help="also print each second's actions and latency (p50, p99, max) by when they "
        "were sent, to tell a steady tail from a stall",
    )
    parser.add_argument(
        "--split",
        action="store_true",
        help="seat the two players of each match on different server processes (with "
        "--processes 2 or more), so that every action reaches the opponent through Redis",
    )
    args = parser.parse_args()
    if args.url is not None:
        from urllib.parse import urlsplit

        if urlsplit(args.url).hostname not in ("127.0.0.1", "localhost", "::1"):
            parser.error("--url must be a loopback address")
    if not 1 <= args.matches <= 2000 or not 1 <= args.duration <= 3600:
        parser.error("--matches must be 1..2000 and --duration 1..3600")
    if not 1 <= args.processes <= 16 or not 1 <= args.clients <= 16:
        parser.error("--processes and --clients must be 1..16")
    if not 1 <= args.repeat <= 20:
        parser.error("--repeat must be 1..20")
    if (args.attack_lists or args.attack_costly or args.attack_addresses != 1) and not args.attack:
        parser.error("--attack-lists, --attack-costly and --attack-addresses add to --attack")
    if not 1 <= args.attack_addresses <= 200:
        parser.error("--attack-addresses must be 1..200")
    if args.pin and args.url is not None:
        parser.error("--pin places the servers it starts: not with --url")
    if args.pin and args.processes >= len(os.sched_getaffinity(0)):
        parser.error("--pin needs more CPUs than --processes")
    runs = ["sqlite", "postgres"] if args.database == "both" else [args.database]
    print(
        f"{args.matches} concurrent money sessions, scripted random-legal players "
        f"(think {args.think} s), {args.duration:.0f} s, {os.cpu_count()} CPUs"
        + (", each server on a CPU of its own, the clients on the others" if args.pin else ""),
    )
    if args.url is not None:
        stats = run([args.url], args.matches, args.duration, args.think, None, args.clients)
        report(args.url, stats, args.duration)
        return 0
    sources: list[str | None] = list(args.server_src or [None])
    for db in runs:
        for source in sources:
            for attacked in (False, True) if args.attack else (False,):
                label = db if args.processes == 1 else f"{db}, {args.processes} processes + Redis"
                if args.split and args.processes > 1:
                    label += ", each match's players on two processes"
                if source is not None:
                    label += f", server from {source}"
                if attacked:
                    label += ", under attack"
                runs_done = []
                for i in range(args.repeat):
                    stats = _one_run(args, db, source, attacked)
                    report(
                        label if args.repeat == 1 else f"{label}, run {i + 1}", stats, args.duration
                    )
                    report_stalls()
                    report_log()
                    if args.timeline:
                        timeline(stats)
                    runs_done.append(stats)
                if args.repeat > 1:
                    summarize(label, runs_done, args.duration)
    return 0


def _one_run(args: argparse.Namespace, db: str, source: str | None, attacked: bool) -> Stats:
    """Start the servers on a fresh database, play, stop them."""
    with contextlib.ExitStack() as stack:
        if db == "sqlite":
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            url = f"sqlite:///{Path(folder) / 'load.db'}"
        else:
            url = stack.enter_context(postgres_schema(args.postgres_url))
        targets = None
        if attacked:
            from server_attack import prepare

            targets = prepare(url)
        extra = ["--redis-url", args.redis_url] if args.processes > 1 else []
        if args.stalls:
            extra += ["--stall-log", str(args.stalls / 1000)]
        sockets = 4 * args.matches + 100  # both players of each match, and the attackers
        server_cpus, client_cpus = (
            cpu_split(args.processes) if args.pin else ([None] * args.processes, None)
        )
        servers = [
            stack.enter_context(
                server_process(
                    url, extra, sockets, source, args.profile if i == 0 else None, server_cpus[i]
                )
            )
            for i in range(args.processes)
        ]
        addresses = [address for address, _ in servers]
        if args.attack:  # with or without the attack: a quiet bot table is measured
            from server_attack import Extras, attacking

            extras = Extras(args.attack_lists, args.attack_costly, args.attack_addresses)
            stack.enter_context(attacking(addresses[0], targets, extras, client_cpus))
        return run(
            addresses,
            args.matches,
            args.duration,
            args.think,
            [pid for _, pid in servers],
            args.clients,
            client_cpus,
            args.split,
        )


if __name__ == "__main__":
    sys.exit(main())
