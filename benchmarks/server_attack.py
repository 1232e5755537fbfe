"""The bounded attack of issue #20, for ``server_load.py --attack``.

Run against the server while the benchmark's matches are played, from a process of
its own: 4 clients looping on the ``.mat`` download of a long money session (80 games,
written to the database before the server starts), 20 sockets asking ``steps`` at an
acey-deucey 1-2 (a position where each answer costs up to seconds), and 10
acey-deucey tables against the world-class bot, whose human side plays at once; and, with
``lists`` (``--attack-lists``, beyond the issue's attack), 4 clients looping on the lobby's
and the watch page's lists (every table of the benchmark listed: before they were shared
and rationed, ~12 ms of the server's CPU each).  With ``costly`` (``--attack-costly``, the
issue #30 figures): 4 clients looping on an imported match's replay (the long session's
``.mat`` imported by a guest), 4 clients looping on the long session's match page
(``/matches/{id}``: its 80 games listed), and 20 spectators of the long session asking
``history`` pages of its 80 games at the rate a socket is allowed.  With ``addresses`` over 1
(``--attack-addresses 16``), every HTTP looper above runs from each of that many loopback
addresses (127.0.0.2, 127.0.0.3, ...: the server sees them as different clients).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

TESTS = Path(__file__).resolve().parents[1] / "tests"


@dataclass(frozen=True)
class Targets:
    """The tables the attack uses: a long session's id, and an acey-deucey table at a 1-2
    with its mover's session cookie."""

    long_table: str
    acey_table: str
    acey_cookies: tuple[str, str]
    #: a shorter session (20 games), whose ``.mat`` is imported (the long one's is over
    #: the import's 1 MB)
    import_table: str = ""


def prepare(database_url: str) -> Targets:
    """Write the attack's tables to the database (before the server starts)."""
    sys.path.insert(0, str(TESTS))
    from gammon.server.community.auth import SESSION_COOKIE
    from journalkit import write_long_session  # type: ignore[import-not-found]  # in tests/

    long = write_long_session(database_url, 80)
    options = {"variant": "acey-deucey", "cube": False}
    acey = write_long_session(database_url, 0, plies=30, options=options, final_roll=(1, 2), seed=0)
    cookies = tuple(f"{SESSION_COOKIE}={token}" for token in acey.tokens)
    short = write_long_session(database_url, 20)
    return Targets(long.table_id, acey.table_id, (cookies[0], cookies[1]), short.table_id)


@dataclass(frozen=True)
class Extras:
    """The attackers beyond the issue #20 attack: the lists' loopers, the costly GETs and
    messages of issue #30, and how many loopback addresses the HTTP loopers come from."""

    lists: bool = False
    costly: bool = False
    addresses: int = 1


@contextlib.contextmanager
def attacking(
    url: str,
    targets: Targets | None,
    extras: Extras | None = None,
    cpus: set[int] | None = None,
) -> Iterator[None]:
    """The attack (``targets`` None: none) and a quiet bot table measuring its bot's
    replies run in a process of their own for as long as the block runs; the replies'
    p50 and p99 are printed at the end.  ``cpus``: the CPUs it may use (``--pin``: the
    clients', for the attackers stand for other machines too)."""
    context = multiprocessing.get_context("spawn")
    halt = context.Event()
    args = (url, targets, halt, extras or Extras())
    proc = context.Process(target=_attack, args=args, daemon=True)
    proc.start()
    if cpus is not None and proc.pid is not None:
        os.sched_setaffinity(proc.pid, cpus)
    try:
        yield
    finally:
        halt.set()
        proc.join(timeout=60)
        if proc.is_alive():
            proc.terminate()
            proc.join(timeout=10)


class _Halt:
    """Whether the attack should stop (set by the benchmark's process)."""

    def __init__(self, event: Any) -> None:
        self._event = event

    def __call__(self) -> bool:
        return bool(self._event.is_set())


def _attack(url: str, targets: Targets | None, halt: Any, extras: Extras) -> None:
    started, cpu = time.monotonic(), time.process_time()
    asyncio.run(_attackers(url, targets, _Halt(halt), extras))
    used, took = time.process_time() - cpu, time.monotonic() - started
    print(f"  the attackers' own CPU: {used:.1f} s = {100 * used / took:.0f}% of one core")


def _address(n: int, extras: Extras) -> str | None:
    """The loopback address of the ``n``-th HTTP looper (None: the default, 127.0.0.1)."""
    return None if extras.addresses <= 1 else f"127.0.0.{2 + n % extras.addresses}"


async def _attackers(url: str, targets: Targets | None, halted: _Halt, extras: Extras) -> None:
    replies: list[float] = []
    attackers = []
    if targets is not None:
        loopers = max(4, extras.addresses)  # of each kind: one per address at least
        mat = f"/matches/{targets.long_table}/mat"
        attackers = [
            *(_pages(url, mat, halted, _address(n, extras)) for n in range(loopers)),
            *(_steps(url, targets, halted) for _ in range(20)),
            *(_bot_table(url, halted) for _ in range(10)),
        ]
        if extras.lists:
            attackers += [
                _pages(url, path, halted, _address(n, extras))
                for path in ("/watch", "/lobby/tables")
                for n in range(loopers // 2 if extras.addresses <= 1 else loopers)
            ]
        if extras.costly:
            cookies, replay = await _imported(url, f"/matches/{targets.import_table}/mat")
            attackers += [
                _pages(url, replay, halted, _address(n, extras), cookies) for n in range(loopers)
            ]
            page = f"/matches/{targets.long_table}"
            attackers += [_pages(url, page, halted, _address(n, extras)) for n in range(loopers)]
            attackers += [_history(url, targets.long_table, halted) for _ in range(20)]
    probe = _bot_table(url, halted, "standard", "expert", replies)
    results = await asyncio.gather(probe, *attackers, return_exceptions=True)
    failed = [r for r in results if isinstance(r, BaseException)]
    if failed:
        print(f"attack: {len(failed)} client(s) stopped early: {failed[0]!r}", file=sys.stderr)


async def _pages(
    url: str,
    path: str,
    halted: _Halt,
    address: str | None = None,
    cookies: dict[str, str] | None = None,
) -> None:
    """A client asking for ``path`` over and over (from ``address``, with ``cookies``)."""
    transport = httpx.AsyncHTTPTransport(local_address=address) if address else None
    async with httpx.AsyncClient(
        base_url=url, timeout=120, transport=transport, cookies=cookies
    ) as client:
        while not halted():
            with contextlib.suppress(httpx.HTTPError):
                await client.get(path)


async def _imported(url: str, mat: str) -> tuple[dict[str, str], str]:
    """A guest imports the long session's ``.mat``: its cookies and the replay's path."""
    async with httpx.AsyncClient(base_url=url, timeout=300) as client:
        token = (await client.get("/api/session")).json()["csrf"]
        r = await client.post("/api/guest", json={}, headers={"X-CSRF-Token": token})
        csrf = r.json()["csrf"]
        data = (await client.get(mat)).content
        sent = await client.post(
            "/import",
            data={"csrf_token": csrf},
            files={"file": ("long.mat", data, "application/octet-stream")},
        )
        where = sent.headers.get("location", "")
        if not where.startswith("/imports/"):
            raise RuntimeError(f"the import failed: {sent.status_code} {sent.text[:200]}")
        return dict(client.cookies.items()), f"/api{where}/replay"


async def _history(url: str, table: str, halted: _Halt) -> None:
    """A spectator of ``table`` asking its games' history pages, one after the other, at
    the rate a socket is allowed (10 a second)."""
    async with connect(_ws_url(url, table), max_size=2**24) as ws:
        state = await _hello(ws)
        games = max(1, int(state.get("history_game") or 1))
        n = 0

        async def drain() -> None:
            with contextlib.suppress(Exception):
                async for _ in ws:
                    pass

        reader = asyncio.ensure_future(drain())
        try:
            while not halted():
                n += 1
                game = 1 + n % games
                await ws.send(json.dumps({"type": "history", "game": game, "id": f"h{n}"}))
                await asyncio.sleep(0.1)
        finally:
            reader.cancel()


def _ws_url(url: str, table: str) -> str:
    return "ws" + url[4:] + f"/ws/table/{table}"


async def _hello(ws: ClientConnection, seed: str | None = None) -> dict[str, Any]:
    hello: dict[str, Any] = {"type": "hello", "protocol": 1, "last_version": None}
    if seed is not None:
        hello["client_seed"] = seed
    await ws.send(json.dumps(hello))
    while True:
        msg: dict[str, Any] = json.loads(await ws.recv())
        if msg["type"] == "state":
            return msg


def keep_moves(previous: dict[str, Any] | None, state: dict[str, Any]) -> dict[str, Any]:
    """``state``, with the legal moves of ``previous`` where it says ``moves_kept`` (the
    server sends the mover its moves once per decision)."""
    match = state.get("match")
    if not match or not match.get("moves_kept") or previous is None or not previous["match"]:
        return state
    kept = {k: previous["match"][k] for k in ("moves", "moves_omitted", "forced", "step_options")}
    return {**state, "match": {**match, **kept}}


@dataclass
class _Seen:
    """What a player saw: the newest state, and when the bot's first action came."""

    state: dict[str, Any]
    bot: float | None = None

    def see(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "event":
            if self.bot is None and msg["data"].get("by") == "bot":
                self.bot = time.monotonic()
            if "state" in msg:
                self.state = keep_moves(self.state, msg["state"])
        elif msg["type"] == "state":
            self.state = msg


async def _answer(
    ws: ClientConnection, message: dict[str, Any], ident: str, seen: _Seen | None = None
) -> dict[str, Any]:
    """Send ``message``; its answer (``seen``: what came meanwhile)."""
    await ws.send(json.dumps({**message, "id": ident}))
    given_up = time.monotonic() + 10
    while True:
        try:
            msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
        except TimeoutError:
            if time.monotonic() > given_up:
                return {"type": "error", "code": "no_answer"}
            continue
        if seen is not None:
            seen.see(msg)
        if msg.get("id") == ident:
            return msg
        if msg["type"] == "error" and msg["code"] == "rate_limited":  # dropped: no answer
            await asyncio.sleep(0.2)
            return msg


async def _steps(url: str, targets: Targets, halted: _Halt) -> None:
    """One socket of the acey-deucey mover asking ``steps`` over and over."""
    for cookie in targets.acey_cookies:
        async with connect(
            _ws_url(url, targets.acey_table),
            additional_headers={"Cookie": cookie},
            max_size=2**22,
        ) as ws:
            state = await _hello(ws)
            if state["you"]["seat"] != state["match"]["game"]["turn"]:
                continue  # the other player moves
            firsts = [[s[:3]] for s in state["match"]["step_options"]["steps"]]
            played: list[list[list[int]]] = [[], *firsts]
            n = 0
            while not halted():
                await _answer(ws, {"type": "steps", "played": played[n % len(played)]}, f"s{n}")
                n += 1
            return


async def _bot_table(
    url: str,
    halted: _Halt,
    variant: str = "acey-deucey",
    level: str = "world-class",
    replies: list[float] | None = None,
) -> None:
    """A guest playing against a bot, acting at once (``replies``: the seconds from each
    of its actions to the bot's next, measured)."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        token = (await client.get("/api/session")).json()["csrf"]
        r = await client.post("/api/guest", json={}, headers={"X-CSRF-Token": token})
        csrf = r.json()["csrf"]
        options = {"variant": variant, "opponent": "bot", "bot_level": level}
        r = await client.post("/api/tables", json=options, headers={"X-CSRF-Token": csrf})
        table = r.json()["table"]["id"]
        cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    async with connect(
        _ws_url(url, table), additional_headers={"Cookie": cookie}, max_size=2**22
    ) as ws:
        seen = _Seen(await _hello(ws, "attacker"))
        n = 0
        while not halted() and seen.state["table"]["status"] == "playing":
            n += 1
            message = await _decide(ws, seen.state, n)
            acted = time.monotonic()
            seen.bot = None
            if message is not None:
                await _answer(ws, {**message, "version": seen.state["version"]}, f"a{n}", seen)
            while not _asked(seen.state) and not halted():
                with contextlib.suppress(TimeoutError):
                    seen.see(json.loads(await asyncio.wait_for(ws.recv(), 1.0)))
            if replies is not None and message is not None and seen.bot is not None:
                replies.append(seen.bot - acted)
        if replies is not None:
            _print_replies(replies)  # now: closing the socket may wait on a busy server


def _print_replies(replies: list[float]) -> None:
    """The quiet table's bot replies: the first apart (it may wait for the bot workers to
    start, when it is the server's first bot decision), then p50 and p99 of the others."""
    if not replies:
        return
    first, rest = replies[0], sorted(replies[1:])
    line = (
        f"  a quiet table's bot (expert, 0.6 s pause): {len(replies)} replies, first {first:.2f} s"
    )
    if rest:
        p50, p99 = (rest[min(len(rest) - 1, int(q * len(rest)))] for q in (0.5, 0.99))
        line += f"; the others p50 {p50:.2f} s, p99 {p99:.2f} s, max {rest[-1]:.2f} s"
    print(line, flush=True)


def _asked(state: dict[str, Any]) -> bool:
    """Whether a state asks this player for something (or the table is over)."""
    allowed = [a for a in state["you"]["allowed"] if a not in ("abandon", "resign")]
    return bool(allowed) or state["table"]["status"] != "playing"


async def _decide(ws: ClientConnection, state: dict[str, Any], n: int) -> dict[str, Any] | None:
    allowed = state["you"]["allowed"]
    if "move" in allowed:
        match = state["match"]
        if match["moves"]:
            return {"type": "move", "move": match["moves"][0]["move"]}
        options = match["step_options"]  # moves left out (thousands): step by step
        played: list[list[int]] = []
        while not options["complete"] and options["steps"]:
            played.append(options["steps"][0][:3])
            options = await _answer(ws, {"type": "steps", "played": played}, f"p{n}.{len(played)}")
            if options["type"] != "steps":
                return None
        return {"type": "move", "move": options["move"]} if options.get("move") else None
    for kind in ("roll", "take", "accept_resign", "reject_resign", "drop"):
        if kind in allowed:
            return {"type": kind}
    return None
