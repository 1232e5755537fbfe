"""Notifications and correspondence play (#33 H18, docs/notifications.md): notices made by
challenges, a tournament's round starting, a rematch offered and correspondence turns reach
the player's user socket and inbox; a
correspondence table survives a restart with its deadline, waits with no actor in memory,
and the sweep times the late player out."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from contestkit import UserSocket, add_bots, create_tournament, tournament
from gammon.server.web import rematch_id
from gammon.storage import Database, Store, TableUpdate
from gammon.storage.inbox import Inbox
from gammon.storage.turns import Turns
from serverkit import TLS, Pair, Player, resign, start_pair, start_server, wait_state
from serverkit import test_settings as settings_for

#: A correspondence clock whose "days" are a few seconds (more than the restart takes).
CLOCK = {"delay": 10, "reserve_base": 0, "reserve_per_point": 0, "correspondence": True}


def test_a_challenge_reaches_the_inbox_and_the_user_socket(
    players: Callable[[], Player],
) -> None:
    ann, bob = players(), players()
    news = UserSocket(bob)
    try:
        first = news.until(lambda m: m["type"] == "inbox")
        assert first == {"type": "inbox", "unread": 0}
        r = ann.post("/api/challenges", {"opponent": bob.name, "match_length": 3})
        assert r.status_code == 201
        pushed = news.until(lambda m: m["type"] == "inbox" and "item" in m)
        assert pushed["unread"] == 1 and pushed["item"]["kind"] == "challenge"
        assert pushed["item"]["data"] == {
            "challenge": r.json()["challenge"]["id"],
            "from": ann.name,
            "length": 3,
        }
        inbox = bob.http.get("/api/inbox").json()
        assert inbox["unread"] == 1 and inbox["items"][0]["kind"] == "challenge"
        assert ann.http.get("/api/inbox").json()["unread"] == 0  # the challenger has none
        page = bob.http.get("/inbox")
        assert page.status_code == 200 and ann.name in page.text
        # bad input: a clear error, nothing marked
        r = bob.post("/api/inbox/read", {"ids": ["x"]})
        assert r.status_code == 400 and bob.http.get("/api/inbox").json()["unread"] == 1
        r = ann.post("/api/inbox/read", {"ids": [inbox["items"][0]["id"]]})  # not hers
        assert r.json() == {"read": 0} and bob.http.get("/api/inbox").json()["unread"] == 1
        assert bob.post("/api/inbox/read", {}).json() == {"read": 1}
        assert news.until(lambda m: m["type"] == "inbox")["unread"] == 0
    finally:
        news.close()


def test_a_round_starting_and_a_rematch_offer_reach_the_inbox_and_the_user_socket(
    members: Callable[[], Player],
) -> None:
    """A tournament's round starts (its creator registered, a bot filling it): the creator's
    user socket gets the ``round`` notice, which /api/inbox keeps and /inbox shows; a match
    over, one player offers a rematch: the other's socket gets the ``rematch`` notice."""
    boss = members()
    news = UserSocket(boss)
    try:
        assert news.until(lambda m: m["type"] == "inbox") == {"type": "inbox", "unread": 0}
        tid = create_tournament(boss, name="Notice cup", max_players="2", play="on")
        add_bots(boss, tid, 1)
        pushed = news.until(lambda m: m["type"] == "inbox" and "item" in m, timeout=20)
        item = pushed["item"]
        assert item["kind"] == "round" and pushed["unread"] == 1
        t = tournament(boss, tid)
        table = t["rounds"][0][0]["table"]
        assert item["data"] == {
            "tournament": tid,
            "name": "Notice cup",
            "round": 1,  # the first (rounds count from 1)
            "table": table,
            "opponent": "gammon-bot 1",
        }
        kept = boss.http.get("/api/inbox").json()
        assert [(i["kind"], i["data"]["table"]) for i in kept["items"]] == [("round", table)]
        page = boss.http.get("/inbox").text
        assert "Round 1 of the tournament" in page and f"/table/{table}" in page
    finally:
        news.close()

    pair = start_pair(members, match_length=1)
    a, b = pair.players
    resign(pair)
    wait_state(pair.ws(0), lambda s: s["table"]["status"] == "finished")
    news = UserSocket(b)
    try:
        news.until(lambda m: m["type"] == "inbox")
        r = a.http.post(f"/tables/{pair.table}/rematch", data={"csrf_token": a.csrf})
        assert r.status_code == 303
        pushed = news.until(lambda m: m["type"] == "inbox" and "item" in m)
        assert pushed["item"]["kind"] == "rematch" and pushed["unread"] == 1
        assert pushed["item"]["data"] == {"table": rematch_id(pair.table), "from": a.name}
        assert b.http.get("/api/inbox").json()["items"][0]["kind"] == "rematch"
        assert a.http.get("/api/inbox").json()["unread"] == 0  # the one who asked: none
    finally:
        news.close()


def test_an_inbox_keeps_the_newest_notices(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'inbox.db'}")
    db.migrate()
    try:
        store, inbox = Store(db), Inbox(db)
        ann = store.create_user("ann", None, guest=True, balance=0, now=1)
        for n in range(260):
            inbox.add(ann.id, "challenge", json.dumps({"n": n}), n)
        items = inbox.items(ann.id, 1000)
        assert len(items) == 200 and json.loads(items[0].data) == {"n": 259}
        assert json.loads(items[-1].data) == {"n": 60} and inbox.unread(ann.id) == 200
    finally:
        db.close()


def _corr_pair(a: Player, b: Player) -> Pair:
    table = a.create(match_length=3, clock=CLOCK)["id"]
    wa = a.connect(table, seed="a")
    assert b.sit(table, 1).status_code == 200
    wb = b.connect(table, seed="b")
    for ws in (wa, wb):  # a correspondence opening is rolled at once
        wait_state(
            ws, lambda s: s["match"] is not None and s["match"]["game"]["phase"] != "opening"
        )
    pair = Pair(table, (a, b), (wa, wb))
    pair.settle()
    return pair


def _move(ws: Any, seat: int) -> None:
    state = wait_state(
        ws,
        lambda s: (
            s["you"]["seat"] == seat
            and ("move" in s["you"]["allowed"] or "roll" in s["you"]["allowed"])
        ),
    )
    if "roll" in state["you"]["allowed"]:
        assert ws.reply({"type": "roll", "version": state["version"]})["type"] == "ack"
        state = wait_state(ws, lambda s: "move" in s["you"]["allowed"])
    move = state["match"]["moves"][0]["move"]
    reply = ws.reply({"type": "move", "move": move, "version": state["version"]})
    assert reply["type"] == "ack", reply


def _row(url: str, table: str) -> tuple[str, int | None, int | None]:
    db = Database(url)
    try:
        with db.engine.connect() as conn:
            from sqlalchemy import text

            row = conn.execute(
                text("SELECT status, wake_at, turn_user FROM tables WHERE id = :id"), {"id": table}
            ).one()
            return str(row[0]), row[1], row[2]
    finally:
        db.close()


def _copies(url: str, table: str, count: int) -> None:
    """``count`` more correspondence tables, dormant like ``table`` (its journal copied)."""
    db = Database(url)
    try:
        store = Store(db)
        loaded = store.load(table)
        assert loaded is not None
        row, entries = loaded
        later = int(time.time() * 1000) + 86_400_000
        turn_user = _row(url, table)[2]  # the same player's move as on ``table``
        for n in range(count):
            new = f"corr{n:08d}"
            store.create_table(new, None, row.options, False, 1, "created", entries[0].data)
            for e in entries[1:]:
                change = TableUpdate(status="playing") if e.kind == "start" else TableUpdate()
                if e is entries[-1]:
                    change = TableUpdate(wake_at=later, turn_user=turn_user)
                store.append(new, e.seq, e.kind, e.data, e.at, change)
        assert len(Turns(db).awake()) == 0
    finally:
        db.close()


def test_a_correspondence_game_survives_a_restart(tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    url = settings.database_url
    first = start_server(settings)
    a, b = Player(first).guest(), Player(first).guest()
    try:
        pair = _corr_pair(a, b)
        mover = pair.to_act()
        _move(pair.ws(mover), mover)
        pair.settle()
        waiting = 1 - mover
        status, wake_at, turn_user = _row(url, pair.table)
        assert status == "playing" and wake_at is not None and turn_user is not None
        their = pair.players[waiting]
        inbox = their.http.get("/api/inbox").json()
        assert [i["kind"] for i in inbox["items"]] == ["your_turn"]
        assert inbox["turns"][0]["table"] == pair.table
        assert pair.players[mover].http.get("/api/inbox").json()["turns"] == []
        for ws in pair.sockets:
            ws.close()
    finally:
        first.stop()
    _copies(url, pair.table, 500)
    second = start_server(settings_for(tmp_path))
    try:
        ctx = second.app.state.gammon
        assert ctx.table.hub.actors == {}  # 501 correspondence tables waiting: none loaded
        ctx.table.hub.evict_after = 0.2
        for p in (a, b):
            p.server = second
            cookies = dict(p.http.cookies)
            p.http.close()
            import httpx

            p.http = httpx.Client(verify=TLS, base_url=second.url, timeout=20, cookies=cookies)
        # the lobby lists the dormant games (no actor, so no score) and the waiting player's
        lobby = pair.players[waiting].http.get("/")
        assert lobby.status_code == 200 and 'data-testid="lobby-your-turn"' in lobby.text
        assert f'data-table="{pair.table}"' in lobby.text
        assert 'data-testid="lobby-your-turn"' not in pair.players[mover].http.get("/").text
        ws = pair.players[waiting].connect(pair.table)
        _move(ws, waiting)  # a correspondence move after the restart
        ws.close()
        deadline = time.monotonic() + 5
        while pair.table in ctx.table.hub.actors and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pair.table not in ctx.table.hub.actors  # waiting days: forgotten meanwhile
        status, wake_at, _ = _row(url, pair.table)
        assert status == "playing" and wake_at is not None
        ctx.table.sweep.interval = 0.2
        deadline = time.monotonic() + 25
        while _row(url, pair.table)[0] != "finished" and time.monotonic() < deadline:
            time.sleep(0.1)
        table = a.http.get(f"/api/tables/{pair.table}").json()
        assert table["status"] == "finished", table
        assert _row(url, pair.table)[1:] == (None, None)
        assert len([t for t in ctx.table.hub.actors if t.startswith("corr")]) == 0
    finally:
        a.close()
        b.close()
        second.stop()


@pytest.mark.parametrize("delay", [0, 7 * 86400])
def test_correspondence_clock_bounds(players: Callable[[], Player], delay: int) -> None:
    a = players()
    good = a.post("/api/tables", {"match_length": 1, "clock": {**CLOCK, "delay": delay}})
    assert good.status_code == 201
    bad = a.post("/api/tables", {"match_length": 1, "clock": {**CLOCK, "delay": delay + 8 * 86400}})
    assert bad.status_code == 400
    live = a.post(
        "/api/tables",
        {"match_length": 1, "clock": {**CLOCK, "correspondence": False, "delay": 2 * 86400}},
    )
    assert live.status_code == 400


@pytest.mark.postgres
@pytest.mark.redis
def test_a_notice_reaches_a_socket_on_another_process() -> None:
    """Bob's page is open on process two; Ann challenges him on process one: his user
    socket there gets the ``inbox`` message (through Redis), and the inbox is shared."""
    from serverkit import REDIS_URL, ServeProcess, postgres_schema

    with postgres_schema() as url:
        args = ("--database-url", url, "--redis-url", REDIS_URL)
        one, two = ServeProcess(*args), ServeProcess(*args)
        try:
            ann = Player(one.server()).guest()
            bob = Player(two.server()).guest()
            news = UserSocket(bob)
            assert news.until(lambda m: m["type"] == "inbox") == {"type": "inbox", "unread": 0}
            r = ann.post("/api/challenges", {"opponent": bob.name, "match_length": 5})
            assert r.status_code == 201, r.text
            pushed = news.until(lambda m: m["type"] == "inbox" and "item" in m)
            assert pushed["unread"] == 1 and pushed["item"]["data"]["from"] == ann.name
            assert bob.http.get("/api/inbox").json()["unread"] == 1
            news.close()
            ann.close()
            bob.close()
        finally:
            one.stop()
            two.stop()
