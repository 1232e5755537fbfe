"""Fuzzing: random WebSocket messages and HTTP requests never crash anything and never
change state by themselves.  ``GAMMON_FUZZ_MESSAGES`` sets how many WebSocket messages
are sent (CI: 10,000; locally a few hundred)."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gammon.server.protocol import ACTION_TYPES
from gammon.server.table.actor import TableActor
from serverkit import TLS, Player, RunningServer, start_pair

MESSAGES = int(os.environ.get("GAMMON_FUZZ_MESSAGES", "400"))
BATCH = 50
Make = Callable[[], Player]

TYPES = sorted(
    {
        *ACTION_TYPES,
        "hello",
        "ping",
        "client_seed",
        "steps",
        "chat",
        "sit",
        "leave",
        "timeout",
        "fly",
    }
)
FIELDS = [
    "move",
    "level",
    "version",
    "player",
    "seed",
    "played",
    "text",
    "seat",
    "dice",
    "protocol",
    "id",
    "x",
]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
plausible = {
    "move": st.sampled_from(
        ["8/5 6/5", "24/18 13/11", "13/8 13/11", "pass", "bar/22", "6/off", "zz", ""]
    ),
    "level": st.integers(0, 4),
    "version": st.integers(-1, 40),
    "player": st.integers(-1, 2),
    "seed": st.text(max_size=140),
    "played": st.lists(st.lists(st.integers(-1, 26), min_size=3, max_size=3), max_size=5),
    "text": st.text(max_size=600),
    "seat": st.integers(-1, 2),
    "dice": st.sampled_from(["66", "31", 11]),
    "protocol": st.integers(0, 2),
    "id": st.one_of(st.integers(), st.text(max_size=70)),
    "x": json_values,
}


@st.composite
def messages(draw: st.DrawFn) -> str | bytes:
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.text(max_size=200))
    if kind == 1:
        return draw(st.binary(max_size=100))
    if kind == 2:
        return json.dumps(draw(json_values))
    if kind == 3:
        return "x" * draw(st.integers(4000, 5000))
    msg: dict[str, Any] = {"type": draw(st.sampled_from(TYPES))}
    for name in draw(st.lists(st.sampled_from(FIELDS), max_size=3, unique=True)):
        msg[name] = draw(plausible[name] if kind > 5 else json_values)
    return json.dumps(msg)


# The server runs in a thread of this process and uses ``random`` (reconnect jitter,
# bots) while Hypothesis draws; that is not randomness inside a strategy.
@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisDeprecationWarning")
def test_fuzz_websocket_messages(players: Make, server: RunningServer) -> None:
    pair = start_pair(players, match_length=7, clock=None)
    ws = pair.ws(pair.to_act())
    watcher = pair.players[1 - pair.to_act()].connect(pair.table)
    sent = 0
    examples = max(1, MESSAGES // BATCH)

    @settings(
        max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None
    )
    @given(st.lists(messages(), min_size=BATCH, max_size=BATCH))
    def run(batch: list[str | bytes]) -> None:
        nonlocal sent
        before = len(ws.seen)
        for raw in batch:
            ws.send(raw)
        sent += len(batch)
        ws.send({"type": "ping", "id": "fence"})
        ws.until(lambda m: m.get("id") == "fence" and m["type"] == "pong", timeout=30)
        replies = ws.seen[before:]
        # every event caused by this client is acknowledged; everything refused is an error
        acks = [m for m in replies if m["type"] == "ack"]
        player_events = [
            m
            for m in replies
            if m["type"] == "event"
            and (m["kind"] in ("chat", "seed", "sit", "leave") or m["data"].get("by") == "player")
        ]
        assert len(player_events) <= len(acks)
        assert all(m.get("code") != "internal" for m in replies)

    run()
    assert sent >= MESSAGES - BATCH
    # the server is alive and the table's journal replays to the state it holds
    assert ws.reply({"type": "ping"})["type"] == "pong"
    # both sockets reach the table's last version (a pong can overtake the events of
    # actions still queued at the table, so read until the two agree, within a bound)
    actor = server.app.state.gammon.table.hub.actors[pair.table]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        assert actor.state is not None
        last = actor.state.version
        for sock in (ws, watcher):
            sock.settle(0.1)
        if ws.version == watcher.version == last == actor.state.version:
            break
    assert watcher.state is not None and ws.state is not None
    assert watcher.version == ws.version or ws.state["table"]["status"] == "finished"
    fresh = TableActor(server.app.state.gammon.table.hub, pair.table)
    assert _load_in_thread(fresh)
    assert fresh.state == actor.state


def test_journal_replays_to_the_live_state(players: Make, server: RunningServer) -> None:
    pair = start_pair(players, match_length=3)
    ws = pair.ws(pair.to_act())
    for text in ["8/5 6/5", "junk", "13/11"]:
        ws.send({"type": "move", "move": text})
    ws.send({"type": "chat", "text": "<i>hello</i>"})
    ws.settle(0.3)
    hub = server.app.state.gammon.table.hub
    live = hub.actors[pair.table]
    fresh = TableActor(hub, pair.table)
    assert _load_in_thread(fresh)
    assert fresh.state == live.state
    assert [r.events for r in fresh.records] == [r.events for r in live.records]


async def _load(actor: Any) -> bool:
    return bool(await actor.load())


def _load_in_thread(actor: Any) -> bool:
    """Load a table actor on a fresh event loop in its own thread.

    Playwright's sync API (the browser tests, which may run earlier in the same
    worker) leaves an event loop running in the main thread, where asyncio.run
    would refuse to start.
    """
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, _load(actor)).result()


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(verify=TLS, base_url=server.url, timeout=20) as c:
        yield c


http_paths = st.sampled_from(
    [
        "/",
        "/watch",
        "/signin",
        "/signup",
        "/signout",
        "/account",
        "/tables",
        "/table/x",
        "/matches/AAAAAAAAAAAA/log",
        "/api/guest",
        "/api/tables",
        "/api/tables/AAAAAAAAAAAA/sit",
        "/api/session",
        "/api/me/ledger",
        "/healthz",
        "/ws/table/x",
        "/static/../../etc/passwd",
        "/%00",
        "/api/tables/%2e%2e",
    ]
)


@settings(
    max_examples=int(os.environ.get("GAMMON_FUZZ_HTTP", "150")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)
@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS"]),
    path=http_paths | st.text(min_size=1, max_size=40).map(lambda t: "/" + t),
    body=st.one_of(
        st.none(), st.binary(max_size=300), json_values.map(lambda v: json.dumps(v).encode())
    ),
    ctype=st.sampled_from(
        [
            "application/json",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
            "text/plain",
            "",
        ]
    ),
    cookie=st.sampled_from(
        ["", "gammon_session=abc", "gammon_csrf=" + "a" * 30, "gammon_session=" + "x" * 300]
    ),
    csrf=st.sampled_from(["", "a" * 30, "wrong"]),
)
def test_fuzz_http_requests(
    client: httpx.Client,
    method: str,
    path: str,
    body: bytes | None,
    ctype: str,
    cookie: str,
    csrf: str,
) -> None:
    headers = {"Content-Type": ctype, "Cookie": cookie, "X-CSRF-Token": csrf}
    client.cookies.clear()
    try:
        r = client.request(
            method, path, content=body, headers={k: v for k, v in headers.items() if v}
        )
    except httpx.InvalidURL:
        return
    assert r.status_code < 500, (method, path, r.status_code, r.text[:300])
