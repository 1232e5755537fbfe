"""Helpers for the server tests: a real uvicorn server on 127.0.0.1 and scripted clients.

Each player has its own HTTP client (its own cookies) and real WebSockets
(``websockets.sync``), so the tests exercise exactly what a browser does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import ssl
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from gammon.server import create_app
from gammon.server.infra.settings import Settings
from gammon.server.run import WS_MAX_FRAME, bind

_T = TypeVar("_T")

SERVICES = os.environ.get("GAMMON_TEST_SERVICES") == "1"
POSTGRES_URL = os.environ.get(
    "GAMMON_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("GAMMON_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
#: The TLS settings every test client shares (``verify=TLS``).  The clients speak plain HTTP
#: to 127.0.0.1, but httpx builds a TLS context for each new client, loading certifi's
#: certificates (29 ms of CPU each: 33 s of a run of tests/server); one context serves all.
TLS = ssl.create_default_context()


@dataclass
class RunningServer:
    """A server running in a thread of the test process."""

    url: str
    settings: Settings
    app: Any
    server: uvicorn.Server
    thread: threading.Thread

    @property
    def ws_url(self) -> str:
        return "ws" + self.url[4:]

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


def start_server(settings: Settings) -> RunningServer:
    """Start the app under uvicorn on a free loopback port; wait until it answers."""
    sock = bind("127.0.0.1", 0)
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        log_config=None,
        lifespan="on",
        ws_max_size=WS_MAX_FRAME,
        timeout_graceful_shutdown=2,
        ws_per_message_deflate=settings.ws_compression,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    host, port = sock.getsockname()[:2]
    return RunningServer(f"http://{host}:{port}", settings, app, server, thread)


#: The argon2id cost of the tests' password hashes: the same hash as the site's, at its
#: smallest settings (5-13 ms instead of 140-170 ms of CPU a sign-up or sign-in; the suite signs
#: up hundreds of accounts).  tests/server/test_units.py checks the site's defaults.
CHEAP_PASSWORDS: dict[str, int] = {
    "password_memory": 8192,
    "password_passes": 1,
    "password_lanes": 1,
}


def test_settings(tmp_path: Path, **changes: Any) -> Settings:
    """Settings for tests: a fresh SQLite file, no bot delay, generous rate limits."""
    base = Settings(
        database_url=f"sqlite:///{tmp_path / 'gammon.db'}",
        bot_delay=0.0,
        bot_workers=0,
        rate_limit=100_000.0,
        rate_burst=100_000,
        create_limit=100_000.0,
        list_limit=100_000.0,
        starting_balance=1000,
        # fresh accounts play rated matches at once, as often as a test needs
        # (tests/server/test_fair_rated.py checks the site's defaults)
        rated_min_age=0.0,
        rated_min_matches=0,
        rated_pair_limit=0,
        **CHEAP_PASSWORDS,
    )
    return base.with_(**changes)


KEPT_FIELDS = ("moves", "moves_omitted", "forced", "step_options")


def with_kept_moves(previous: dict[str, Any] | None, state: dict[str, Any]) -> dict[str, Any]:
    """``state``, with the legal moves of ``previous`` where it says ``moves_kept`` (an
    event that did not change them), as a page applies it."""
    match = state.get("match")
    if not match or not match.get("moves_kept"):
        return state
    assert previous is not None and previous["match"] is not None, "moves kept from nothing"
    kept = {k: previous["match"][k] for k in KEPT_FIELDS}
    assert kept["moves"] is not None or kept["moves_omitted"], "moves kept from no moves"
    rest = {k: v for k, v in match.items() if k != "moves_kept"}
    return {**state, "match": {**rest, **kept}}


class WS:
    """A player's WebSocket to one table, with helpers to wait for messages."""

    def __init__(self, conn: ClientConnection) -> None:
        self.conn = conn
        self.version = 0
        self.state: dict[str, Any] | None = None
        self.seen: list[dict[str, Any]] = []

    def send(self, obj: Any) -> None:
        self.conn.send(obj if isinstance(obj, str | bytes) else json.dumps(obj))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        msg = json.loads(self.conn.recv(timeout=timeout))
        self.seen.append(msg)
        if msg.get("type") == "event":
            assert msg["version"] == self.version + 1 or self.version == 0, (msg, self.version)
            self.version = msg["version"]
            if "state" in msg:
                self.state = with_kept_moves(self.state, msg["state"])
            elif msg["kind"] == "chat" and self.state is not None:
                # a chat line changes nothing else: the state is at its version
                self.state = {**self.state, "version": msg["version"]}
        elif msg.get("type") == "state":
            self.version = msg["version"]
            self.state = msg
        elif msg.get("type") == "presence" and self.state is not None:
            # who is online and who watches, as a page applies it
            seats = [
                {**seat, "online": online} if seat is not None else None
                for seat, online in zip(self.state["table"]["seats"], msg["online"], strict=True)
            ]
            self.state = {
                **self.state,
                "spectators": msg["spectators"],
                "table": {**self.state["table"], "seats": seats},
            }
        return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message; last: {self.seen[-3:]}")
            msg = self.recv(timeout=left)
            if pred(msg):
                return msg

    def reply(self, obj: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
        """Send a message with an id and return the ack/error/steps/hint/history/pong answering it."""
        ident = f"m{time.monotonic_ns()}"
        self.send({**obj, "id": ident})
        return self.until(
            lambda m: (
                m.get("id") == ident
                and m.get("type") in ("ack", "error", "steps", "hint", "history", "pong")
            ),
            timeout,
        )

    def settle(self, quiet: float = 0.3) -> None:
        """Read until nothing arrives for ``quiet`` seconds."""
        while True:
            try:
                self.recv(timeout=quiet)
            except TimeoutError:
                return

    def close(self) -> None:
        self.conn.close()

    def close_code(self, timeout: float = 10) -> int | None:
        """Read until the server closes the socket; its close code."""
        from websockets.exceptions import ConnectionClosed

        end = time.monotonic() + timeout
        try:
            while time.monotonic() < end:
                self.recv(timeout=end - time.monotonic())
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd is not None else None
        raise AssertionError("the socket stayed open")


@dataclass
class Player:
    """A scripted browser: an HTTP client with its own cookies, and WebSockets."""

    server: RunningServer
    http: httpx.Client = field(init=False)
    csrf: str = ""
    name: str = ""
    sockets: list[WS] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.http = httpx.Client(verify=TLS, base_url=self.server.url, timeout=20)

    def guest(self) -> Player:
        r = self.http.post("/api/guest", json={}, headers=self._csrf_headers(anonymous=True))
        assert r.status_code == 200, r.text
        self.csrf = r.json()["csrf"]
        self.name = r.json()["user"]["name"]
        return self

    def _csrf_headers(self, anonymous: bool = False) -> dict[str, str]:
        if anonymous and not self.csrf:
            token = self.http.get("/api/session").json()["csrf"]
            return {"X-CSRF-Token": token}
        return {"X-CSRF-Token": self.csrf}

    def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return self.http.post(path, json=body, headers=self._csrf_headers())

    def create(self, **options: Any) -> dict[str, Any]:
        r = self.post("/api/tables", options)
        assert r.status_code == 201, r.text
        table: dict[str, Any] = r.json()["table"]
        return table

    def sit(self, table_id: str, seat: int) -> httpx.Response:
        return self.post(f"/api/tables/{table_id}/sit", {"seat": seat})

    def connect(
        self,
        table_id: str,
        last_version: int | None = None,
        seed: str | None = "s",
        hello: bool = True,
    ) -> WS:
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        conn = connect(
            f"{self.server.ws_url}/ws/table/{table_id}",
            additional_headers={"Cookie": cookie} if cookie else None,
            open_timeout=10,
            max_size=2**22,
            legacy=True,
        )
        ws = WS(conn)
        self.sockets.append(ws)
        if hello:
            msg: dict[str, Any] = {"type": "hello", "protocol": 1, "last_version": last_version}
            if seed is not None:
                msg["client_seed"] = seed
            ws.send(msg)
            welcome = ws.recv()
            assert welcome["type"] == "welcome", welcome
            if last_version is not None:
                ws.version = last_version
        return ws

    def close(self) -> None:
        for ws in self.sockets:
            with contextlib.suppress(Exception):
                ws.close()
        self.http.close()


def my_turn_or_finished(state: dict[str, Any]) -> bool:
    """For :func:`wait_state`: the table is finished, or this seat may act (more than
    abandon)."""
    allowed = state["you"]["allowed"]
    return state["table"]["status"] == "finished" or (bool(allowed) and allowed != ["abandon"])


def wait_state(
    ws: WS, pred: Callable[[dict[str, Any]], bool], timeout: float = 10
) -> dict[str, Any]:
    """Read until the newest state satisfies ``pred``; return that state."""
    if ws.state is not None and pred(ws.state):
        return ws.state
    ws.until(lambda m: ws.state is not None and pred(ws.state), timeout)
    assert ws.state is not None
    return ws.state


@dataclass
class Pair:
    """Two seated players with their sockets, at a started match."""

    table: str
    players: tuple[Player, Player]
    sockets: tuple[WS, WS]

    def ws(self, seat: int) -> WS:
        return self.sockets[seat]

    def settle(self, quiet: float = 0.1) -> None:
        """Read both sockets until neither has had a message for ``quiet`` seconds (waited
        for together: one socket after the other made every settle wait twice)."""
        last = time.monotonic()
        while True:
            got = False
            for ws in self.sockets:
                try:
                    ws.recv(timeout=0.005)
                    got = True
                except TimeoutError:
                    pass
            now = time.monotonic()
            if got:
                last = now
            elif now - last >= quiet:
                return

    def to_act(self) -> int:
        state = self.sockets[0].state
        assert state is not None and state["match"] is not None
        seats = state["match"]["to_act"]
        assert len(seats) == 1, seats
        return int(seats[0])


def member(server: RunningServer) -> Player:
    """A player signed up with an account (a guest first, as a browser does)."""
    player = Player(server).guest()
    name = f"m{secrets.token_hex(5)}"
    r = player.http.post(
        "/signup",
        data={"csrf_token": player.csrf, "username": name, "password": "correct horse battery"},
    )
    assert r.status_code == 303, r.text
    session = player.http.get("/api/session").json()
    assert session["user"] == {**session["user"], "name": name, "guest": False}
    player.csrf, player.name = session["csrf"], name
    return player


def run_async(coroutine: Callable[[], Coroutine[Any, Any, _T]]) -> _T:
    """Run a coroutine on a loop of its own thread (the browser tests' Playwright keeps
    a loop running in the test worker's own thread)."""
    result: list[_T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(coroutine()))
        except BaseException as exc:  # handed to the test's thread
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return result[0]


def start_pair(make: Callable[[], Player], **options: Any) -> Pair:
    """A table with ``options``, both players seated and connected, the opening rolled."""
    a, b = make(), make()
    table = a.create(**options)["id"]
    wa = a.connect(table, seed="seed-a")
    r = b.sit(table, 1)
    assert r.status_code == 200, r.text
    wb = b.connect(table, seed="seed-b")
    for ws in (wa, wb):
        wait_state(
            ws, lambda s: s["match"] is not None and s["match"]["game"]["phase"] != "opening"
        )
    pair = Pair(table, (a, b), (wa, wb))
    pair.settle()
    return pair


def play_move(pair: Pair) -> dict[str, Any]:
    """The player to move plays its first legal move; returns the ack."""
    seat = pair.to_act()
    ws = pair.ws(seat)
    wait_state(ws, lambda s: s["match"]["game"]["phase"] == "moving" and s["you"]["seat"] == seat)
    assert ws.state is not None
    move = ws.state["match"]["moves"][0]["move"]
    reply = ws.reply({"type": "move", "move": move, "version": ws.state["version"]})
    assert reply["type"] == "ack", reply
    pair.settle()
    return reply


def until_phase(pair: Pair, phases: tuple[str, ...], limit: int = 200) -> dict[str, Any]:
    """Play first legal moves (and roll when asked) until the game reaches one of ``phases``."""
    for _ in range(limit):
        pair.settle()
        state = pair.sockets[0].state
        assert state is not None
        if state["match"]["game"]["phase"] in phases or state["table"]["status"] != "playing":
            return state
        seat = pair.to_act()
        ws = pair.ws(seat)
        assert ws.state is not None
        phase = ws.state["match"]["game"]["phase"]
        if phase == "moving":
            play_move(pair)
        elif phase == "turn":
            assert ws.reply({"type": "roll"})["type"] == "ack"
        else:
            raise AssertionError(f"cannot go on from {phase}")
    raise AssertionError("the phase never came")


def turn_of(
    pair: Pair, seat: int, limit: int = 200, *, phases: tuple[str, ...] = ("turn",)
) -> None:
    """Play on (first legal moves, rolls) until ``seat`` is on turn, before rolling; with
    ``phases=("turn", "moving")`` its move to make will do too (where the server rolls by
    itself, as in a 1-point match, a turn never waits before the roll)."""
    for _ in range(limit):
        state = until_phase(pair, phases)
        if state["table"]["status"] != "playing":
            raise AssertionError("the match ended first")
        if pair.to_act() == seat:
            return
        if state["match"]["game"]["phase"] == "moving":
            play_move(pair)
            continue
        reply = pair.ws(1 - seat).reply({"type": "roll"})
        assert reply["type"] == "ack", reply
        pair.settle()
    raise AssertionError(f"seat {seat} never came on turn")


def resign(pair: Pair, level: int = 1) -> int:
    """The player to act resigns the game at ``level``, the other accepts; the resigner."""
    seat = pair.to_act()
    ws, other = pair.ws(seat), pair.ws(1 - seat)
    state = wait_state(ws, lambda s: "resign" in s["you"]["allowed"])
    reply = ws.reply({"type": "resign", "level": level, "version": state["version"]})
    assert reply["type"] == "ack", reply
    state = wait_state(other, lambda s: "accept_resign" in s["you"]["allowed"])
    reply = other.reply({"type": "accept_resign", "version": state["version"]})
    assert reply["type"] == "ack", reply
    return seat


SERVICES_REASON = (
    "needs PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379: "
    "set GAMMON_TEST_SERVICES=1 (CI does) to run it"
)


def need_services() -> None:
    """Skip unless GAMMON_TEST_SERVICES=1 (then PostgreSQL and Redis must be there)."""
    import pytest

    if not SERVICES:
        pytest.skip(SERVICES_REASON)


@contextlib.contextmanager
def postgres_schema() -> Iterator[str]:
    """A database URL whose tables live in a fresh PostgreSQL schema, dropped afterwards."""
    import secrets

    import psycopg

    need_services()
    schema = f"gammon_test_{secrets.token_hex(6)}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{POSTGRES_URL}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


class ServeProcess:
    """``gammon serve`` as a separate process (for restarts, SIGKILL and several processes)."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        import subprocess
        import sys

        # as test_settings: fresh accounts play rated matches at once, as often as needed
        rated = ("GAMMON_RATED_MIN_AGE", "GAMMON_RATED_MIN_MATCHES", "GAMMON_RATED_PAIR_LIMIT")
        cheap = {f"GAMMON_{k.upper()}": str(v) for k, v in CHEAP_PASSWORDS.items()}
        full_env = {**dict.fromkeys(rated, "0"), **cheap, **os.environ, **(env or {})}
        full_env.pop("GAMMON_PORT", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gammon", "serve", "--port", "0", "--bot-delay", "0", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=full_env,
        )
        self.output: list[str] = []
        self.url = ""
        deadline = time.monotonic() + 60
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.output.append(line)
            if line.startswith("gammon: serving on "):
                self.url = line.split()[-1]
                break
        if not self.url:
            self.proc.kill()
            raise RuntimeError("gammon serve did not start:\n" + "".join(self.output))
        self._drain = threading.Thread(target=self._read, daemon=True)
        self._drain.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        self.proc.kill()
        self.proc.wait(timeout=10)
        self._close()

    def _close(self) -> None:
        self._drain.join(timeout=10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()

    def stop(self) -> None:
        """SIGTERM and wait."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except Exception:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self._close()

    def server(self) -> RunningServer:
        """A handle that :class:`Player` can use (no app object: it is another process)."""
        return RunningServer(self.url, Settings(), None, None, None)  # type: ignore[arg-type]
