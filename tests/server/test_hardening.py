"""What an attacker tried (issue #9): money, long journals, option bounds, clocks, floods.

Each test here failed before the fix it covers.  The PostgreSQL variants run when
``GAMMON_TEST_SERVICES=1`` (CI sets it).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

from gammon.server.infra.clock import now_ms
from serverkit import (
    TLS,
    Pair,
    Player,
    RunningServer,
    play_move,
    postgres_schema,
    run_async,
    start_pair,
    start_server,
    wait_state,
)
from serverkit import test_settings as settings_for

Make = Callable[[], Player]
T = TypeVar("T")


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RunningServer]:
    """A server on SQLite, and one on PostgreSQL when the services are there."""
    tmp = tmp_path_factory.mktemp("db")
    if request.param == "sqlite":
        running = start_server(settings_for(tmp))
        yield running
        running.stop()
        return
    with postgres_schema() as url:
        running = start_server(settings_for(tmp, database_url=url))
        yield running
        running.stop()


# ---------------------------------------------------------------- money


def test_one_balance_cannot_cover_ten_staked_tables(any_db_server: RunningServer) -> None:
    server = any_db_server
    # ten tables whose largest loss in a game is 1000 (stake 125 x cube limit 8 x Oin 1)
    hosts = [Player(server).guest() for _ in range(10)]
    tables = [h.create(stake=125, cube_limit=8, end_setting="oin")["id"] for h in hosts]
    guest = Player(server).guest()
    barrier = threading.Barrier(len(tables))

    def sit(table: str) -> tuple[int, str]:
        barrier.wait()
        r = guest.sit(table, 1)
        body = r.json()
        return r.status_code, body["error"]["code"] if "error" in body else "ok"

    with ThreadPoolExecutor(len(tables)) as pool:
        results = list(pool.map(sit, tables))
    assert sorted(results) == [(200, "ok")] + [(409, "insufficient_balance")] * 9, results
    ledger = guest.http.get("/api/me/ledger").json()
    assert ledger["balance"] == 1000 and ledger["held"] == 1000
    holds = [line for line in ledger["ledger"] if line["reason"] == "hold"]
    assert len(holds) == 1 and holds[0]["amount"] == 0 and holds[0]["held"] == 1000
    # leaving the table before its match gives the escrow back; then another table may hold it
    seated = next(t for t, (code, _) in zip(tables, results, strict=True) if code == 200)
    assert guest.post(f"/api/tables/{seated}/leave", {}).status_code == 200
    again = guest.http.get("/api/me/ledger").json()
    assert again["held"] == 0 and again["ledger"][0]["reason"] == "release"
    other = next(t for t in tables if t != seated)
    assert guest.sit(other, 1).status_code == 200
    for p in (*hosts, guest):
        p.close()


def test_the_escrow_is_settled_game_by_game(players: Make, server: RunningServer) -> None:
    pair = start_pair(players, stake=5, cube_limit=2, end_setting="oin")  # holds 10 each
    a, b = pair.players
    for p in (a, b):
        assert p.http.get("/api/session").json()["user"]["held"] == 10
    seat = pair.to_act()
    loser = pair.players[seat]
    ws = pair.ws(seat)
    assert ws.reply({"type": "abandon"})["type"] == "ack"  # the abandoner loses 1 x 5
    wait_state(ws, lambda s: len(s["match"]["games"]) == 1 and s["table"]["escrow"] == [10, 10])
    me = loser.http.get("/api/me/ledger").json()
    assert (me["balance"], me["held"]) == (995, 10)
    lines = [(x["reason"], x["amount"], x["balance"], x["held"]) for x in me["ledger"][:3]]
    # newest first: the loss releases its escrow, then is paid, then the escrow is held
    # again; no line shows more held than the balance
    assert lines == [("hold", 0, 995, 10), ("game", -5, 995, 5), ("release", 0, 1000, 5)]
    for p in (a, b):
        assert p.post(f"/api/tables/{pair.table}/leave", {}).status_code in (200, 409)
    for p in (a, b):
        assert p.http.get("/api/session").json()["user"]["held"] == 0


def test_opposite_settlements_do_not_deadlock(tmp_path: Path) -> None:
    """Twenty settlements between the same two users, half of them in each direction,
    all at once, on PostgreSQL: rows are locked in user-id order (and a deadlock victim
    would be retried), so every one commits."""
    from gammon.storage import Database

    with postgres_schema() as url:
        db = Database(url, pool_size=20)
        try:
            _opposite_settlements(db)
        finally:
            db.close()


def _opposite_settlements(db: Any) -> None:
    from gammon.storage import Store, TableUpdate

    db.migrate()
    store = Store(db)
    x = store.create_user("xavier", None, guest=False, balance=1000, now=1)
    y = store.create_user("yvonne", None, guest=False, balance=1000, now=1)
    for i in range(20):
        store.create_table(f"t{i:011d}", x.id, "{}", False, 1, "created", "{}")
    barrier = threading.Barrier(20)

    def settle(i: int) -> None:
        winner, loser = (x, y) if i % 2 else (y, x)
        lines = ((winner.id, 3, "game", 1), (loser.id, -3, "game", 1))
        barrier.wait()
        store.append(f"t{i:011d}", 2, "action", "{}", 2, TableUpdate(ledger=lines))

    async def run_all() -> None:
        await asyncio.gather(*(db.run(settle, i) for i in range(20)))

    run_async(run_all)
    assert store.balances([x.id, y.id]) == {x.id: 1000, y.id: 1000}
    assert len(store.ledger(x.id)) == 21


# ---------------------------------------------------------------- long journals


def _drop_a_game(pair: Pair) -> None:
    """The player on turn doubles and the other drops: a game in two actions."""
    from serverkit import turn_of

    turn_of(pair, pair.to_act())
    seat = pair.to_act()
    games = len(pair.ws(0).state["match"]["games"])
    assert pair.ws(seat).reply({"type": "double"})["type"] == "ack"
    wait_state(pair.ws(1 - seat), lambda s: s["match"]["game"]["phase"] == "doubled")
    assert pair.ws(1 - seat).reply({"type": "drop"})["type"] == "ack"
    wait_state(pair.ws(0), lambda s: len(s["match"]["games"]) == games + 1)
    pair.settle()


def test_a_long_journal_opens_as_one_snapshot(players: Make) -> None:
    pair = start_pair(players)  # a money session
    for _ in range(3):
        _drop_a_game(pair)
    talker = pair.ws(0)
    before = talker.version
    for i in range(600):
        talker.send({"type": "chat", "text": f"line {i}"})
    # every line is in (a quiet moment alone may come while some are still on their way)
    wait_state(talker, lambda s: s["version"] == before + 600, timeout=30)
    pair.settle()
    version = talker.version
    viewer = players()
    ws = viewer.connect(pair.table, last_version=0)  # what a fresh page sends
    snapshot = ws.recv()
    assert snapshot["type"] == "state" and snapshot["version"] == version
    assert "resync" not in snapshot
    # the move list's history: the current game (the 4th), from the action that ended
    # the 3rd (issue #20: a snapshot stays small however long the session)
    assert snapshot["history_game"] == 4
    kinds = [h["kind"] for h in snapshot["history"]]
    assert kinds[0] == "action" and "start" not in kinds
    events = [e["kind"] for h in snapshot["history"] for e in h["data"].get("events", [])]
    assert events.count("game_over") == 1 and events.count("game_started") == 1
    assert len(snapshot["chat"]) == 50 and snapshot["chat"][-1]["text"] == "line 599"
    ws.settle(0.5)
    # nothing replayed (the presence message tells the players about the new viewer)
    assert [m["type"] for m in ws.seen if m["type"] != "presence"] == ["welcome", "state"]
    # the earlier games come by page: each from its first entry through the one ending it
    for game in (1, 2, 3):
        page = ws.reply({"type": "history", "game": game})
        assert page["games"] == 4 and page["version"] == version
        over = [
            e["data"]["game"]
            for h in page["history"]
            for e in h["data"].get("events", [])
            if e["kind"] == "game_over"
        ]
        assert over[-1] == game and len(over) == (1 if game == 1 else 2)
    assert ws.reply({"type": "history", "game": 1})["history"][0]["kind"] == "start"
    # a client far behind is sent a snapshot too, marked as a resync
    late = viewer.connect(pair.table, last_version=5)
    again = late.recv()
    assert again["type"] == "state" and again["resync"] is True and "history" in again
    # and one a few versions behind still gets exactly what it missed
    near = viewer.connect(pair.table, last_version=version - 3)
    missed = [near.recv() for _ in range(3)]
    assert [m["version"] for m in missed] == [version - 2, version - 1, version]
    assert "state" in missed[-1] and "state" not in missed[0]


def test_event_states_leave_chat_out_and_joins_send_presence(players: Make) -> None:
    pair = start_pair(players, match_length=3)
    for i in range(60):
        pair.ws(0).send({"type": "chat", "text": f"hello {i} " + "x" * 400})
    wait_state(pair.ws(1), lambda s: s["version"] >= 60, timeout=20)
    pair.settle()
    seat = pair.to_act()
    ws = pair.ws(seat)
    before = len(ws.seen)

    if ws.state["match"]["game"]["phase"] == "moving":
        play_move(pair)
    else:
        assert ws.reply({"type": "roll"})["type"] == "ack"
    action = next(m for m in ws.seen[before:] if m.get("kind") == "action")
    assert "chat" not in action["state"]
    assert len(json.dumps(action)) < 12_000  # the 60 chat lines would be over 25,000
    # a spectator joining is one small presence message to the players, not a state each
    before = [len(p.seen) for p in pair.sockets]
    watcher = players()
    watcher.connect(pair.table)
    wait_state(pair.ws(0), lambda s: s["spectators"]["count"] == 1)
    pair.settle()
    for p, start in zip(pair.sockets, before, strict=True):
        new = p.seen[start:]
        assert [m["type"] for m in new] == ["presence"], new
        assert len(json.dumps(new[0])) < 300


def test_sockets_per_address_are_limited(tmp_path: Path) -> None:
    server = start_server(settings_for(tmp_path, max_sockets=3))
    try:
        host = Player(server).guest()
        table = host.create(match_length=1)["id"]
        open_ = [host.connect(table) for _ in range(3)]
        from websockets.sync.client import connect

        extra = connect(f"{server.ws_url}/ws/table/{table}", open_timeout=10, legacy=True)
        msg = json.loads(extra.recv(timeout=10))
        assert msg["code"] == "rate_limited" and "at most 3" in msg["message"]
        from websockets.exceptions import ConnectionClosed

        with pytest.raises(ConnectionClosed) as closed:
            extra.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        extra.close()
        # closing one frees its place
        open_[0].close()
        deadline = time.monotonic() + 10
        while True:
            try:
                host.connect(table)
                break
            except AssertionError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        host.close()
    finally:
        server.stop()


def test_a_reader_too_slow_is_dropped_by_size() -> None:
    from gammon.server.table.connection import OUTBOX_BYTES, Connection

    class Silent:
        """A socket whose client never reads: sends never finish."""

        def __init__(self) -> None:
            self.closed: int | None = None

        async def send_text(self, text: str) -> None:
            await asyncio.sleep(3600)

        async def close(self, code: int, reason: str) -> None:
            self.closed = code

    async def scenario() -> Connection:
        conn = Connection(Silent(), None)  # type: ignore[arg-type]
        chunk = "x" * (OUTBOX_BYTES // 4)
        for _ in range(6):
            conn.send(chunk)
        return conn

    conn = run_async(scenario)
    assert conn.closing  # 6 x a quarter of the cap: dropped long before 256 messages


# ---------------------------------------------------------------- options, clocks


def test_out_of_range_options_are_refused_by_the_api_and_the_form(
    players: Make, server: RunningServer
) -> None:
    p = players()
    r = p.post("/api/tables", {"automatic_doubles": 10**18})
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_options"
    assert "automatic_doubles must be 0..12" in r.json()["error"]["message"]
    r = p.post("/api/tables", {"stake": 10**12, "cube_limit": 2})
    assert r.status_code == 400 and "too large" in r.json()["error"]["message"]
    r = p.http.post("/tables", data={"csrf_token": p.csrf, "automatic_doubles": "99"})
    assert r.status_code == 400 and 'data-code="invalid_options"' in r.text
    assert p.http.get("/healthz").json()["ok"] is True  # nothing got stuck


def test_a_restart_does_not_charge_the_clock(tmp_path: Path, players: Make) -> None:
    settings = settings_for(tmp_path, reconnect_grace=5.0)
    first = start_server(settings)
    a, b = Player(first).guest(), Player(first).guest()
    clock = {"delay": 1, "reserve_base": 8, "reserve_per_point": 0}
    seats = iter((a, b))
    pair = start_pair(lambda: next(seats), match_length=1, clock=clock)
    state = pair.ws(0).state
    running = state["clock"]["running"]
    assert running is not None and state["clock"]["reserve"] == [8.0, 8.0]
    version = state["version"]
    for p in (a, b):
        for ws in p.sockets:
            ws.close()
        p.sockets.clear()
    first.stop()
    time.sleep(3)  # the server is down for 3 s: they must not count
    second = start_server(settings)
    try:
        for p in (a, b):
            p.server = second
            cookies = dict(p.http.cookies)
            p.http.close()
            import httpx

            p.http = httpx.Client(verify=TLS, base_url=second.url, timeout=20, cookies=cookies)
        ws = a.connect(pair.table, last_version=version)
        resume = ws.recv()  # the one entry the restart made
        assert resume["kind"] == "resume" and resume["data"] == {"grace": 5000}
        after = resume["state"]
        assert after["clock"]["reserve"] == [8.0, 8.0] and after["clock"]["running"] == running
        left = after["clock"]["deadline"] - now_ms()
        assert left > (5 + 1 + 8 - 1.5) * 1000, left  # grace + delay + the whole reserve
    finally:
        for p in (a, b):
            p.close()
        second.stop()


def test_a_player_who_stalls_without_a_clock_forfeits(tmp_path: Path) -> None:
    server = start_server(settings_for(tmp_path, idle_limit=1.0))
    try:
        made: list[Player] = []

        def make() -> Player:
            made.append(Player(server).guest())
            return made[-1]

        pair = start_pair(make, match_length=5)
        staller = pair.to_act()
        state = pair.ws(0).state
        assert state["inactivity"]["seat"] == staller
        assert 0 < state["inactivity"]["deadline"] - now_ms() <= 1000
        end = wait_state(pair.ws(0), lambda s: s["table"]["status"] == "finished", timeout=10)
        assert end["table"]["result"]["reason"] == "idle"
        assert end["table"]["result"]["winner"] == 1 - staller  # the one who waited wins
        assert end["table"]["result"]["by"] == staller
        for p in made:
            p.close()
    finally:
        server.stop()


# ---------------------------------------------------------------- the small ones


def test_seeds_given_before_the_start_are_in_the_start(
    players: Make, server: RunningServer
) -> None:
    a, b = players(), players()
    table = a.create(match_length=1)["id"]
    wa = a.connect(table, seed="seed-a")  # in the hello, while the table waits
    wa.recv()
    assert b.sit(table, 1).status_code == 200
    start = wa.until(lambda m: m.get("kind") == "start")
    assert start["data"]["seeds_given"] == [True, False]
    assert start["data"]["your_seed"] == "seed-a"
    assert start["state"]["dice"]["seeds_given"] == [True, False]
    # the opponent's view of the start does not show it
    wb = b.connect(table, last_version=0, seed=None)
    snapshot = wb.recv()
    assert "seed-a" not in json.dumps(snapshot)
    # the log shows no client seed before the dice lock
    log = a.http.get(f"/matches/{table}/log").text
    header = json.loads(log.splitlines()[0])
    assert header["dice"]["client_seeds"] == ["", ""]


def test_a_session_ended_elsewhere_closes_its_socket_at_the_next_recheck(
    any_db_server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Signed out through another process (its row deleted from the database): the socket
    is closed with 4401 within a second of its next re-check, which runs in the
    background with every other socket due (one query), never in an action's way."""
    import gammon.server.community.auth as auth_module
    import gammon.server.web.ws as ws_module
    from gammon.storage import Database, Store

    monkeypatch.setattr(ws_module, "SESSION_RECHECK", 0.4)
    monkeypatch.setattr(auth_module, "RECHECK_GATHER", 0.2)
    server = any_db_server
    p, q = Player(server).guest(), Player(server).guest()
    table = p.create(match_length=1)["id"]
    ws, other = p.connect(table), q.connect(table)
    ws.recv()
    other.recv()
    asked = []
    store = Store(Database(server.settings.database_url))
    live_sessions = store.live_sessions

    def counted(hashes: list[str], now: int) -> dict[str, int]:
        asked.append(len(hashes))
        return live_sessions(hashes, now)

    monkeypatch.setattr(server.app.state.gammon.infra.store, "live_sessions", counted)
    time.sleep(0.5)
    assert ws.reply({"type": "chat", "text": "both due"})["type"] == "ack"
    assert other.reply({"type": "chat", "text": "both due"})["type"] == "ack"
    time.sleep(0.4)
    assert asked == [2]  # both sockets in one query, and both still signed in
    store.delete_session(auth_module.token_hash(p.http.cookies["gammon_session"]))
    started = time.monotonic()
    time.sleep(0.5)  # both due again: the next message queues their check
    assert (
        ws.reply({"type": "chat", "text": "still acked: checked in the background"})["type"]
        == "ack"
    )
    assert other.reply({"type": "chat", "text": "me too"})["type"] == "ack"
    err = ws.until(lambda m: m.get("type") == "error")
    assert err["code"] == "auth_required"
    assert ws.close_code() == 4401
    assert time.monotonic() - started < 3
    assert other.reply({"type": "chat", "text": "still signed in"})["type"] == "ack"
    assert asked[:2] == [2, 2], asked
    for socket in (ws, other):
        socket.close()
    for player in (p, q):
        player.http.close()
    store.db.close()


def test_lone_surrogates_are_bad_json_not_internal(players: Make) -> None:
    p = players()
    table = p.create(match_length=1)["id"]
    ws = p.connect(table)
    ws.recv()
    ws.send('{"type": "chat", "text": "\\ud800"}')
    err = ws.until(lambda m: m.get("type") == "error")
    assert err["code"] == "bad_json" and "surrogate" in err["message"]
    assert ws.reply({"type": "chat", "text": "\U0001f3b2 fine"})["type"] == "ack"
    r = p.http.post(
        "/api/tables",
        content=b'{"variant": "\\udc00"}',
        headers={"Content-Type": "application/json", "X-CSRF-Token": p.csrf},
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"


def test_a_socket_stops_acting_after_sign_out(players: Make) -> None:
    p = players()
    table = p.create(match_length=1)["id"]
    ws = p.connect(table)
    ws.recv()
    assert ws.reply({"type": "chat", "text": "before"})["type"] == "ack"
    r = p.http.post("/signout", data={"csrf_token": p.csrf})
    assert r.status_code == 303
    # signed out through this process: refused at once, no database query
    ws.send({"type": "chat", "text": "after", "id": "x"})
    err = ws.until(lambda m: m.get("type") == "error")
    assert err["code"] == "auth_required"
    assert ws.close_code() == 4401
