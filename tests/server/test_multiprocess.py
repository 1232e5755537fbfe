"""Two ``gammon serve`` processes sharing one PostgreSQL and one Redis: players on
different processes play each other (required in CI: GAMMON_TEST_SERVICES=1)."""

from __future__ import annotations

import json

import pytest

from serverkit import REDIS_URL, Pair, Player, ServeProcess, postgres_schema, wait_state

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def test_players_on_two_processes_play_each_other() -> None:
    with postgres_schema() as url:
        args = ("--database-url", url, "--redis-url", REDIS_URL, "--sync-interval", "0.5")
        one = ServeProcess(*args)
        two = ServeProcess(*args)
        try:
            a = Player(one.server()).guest()
            b = Player(two.server()).guest()
            table = a.create(match_length=3)["id"]
            wa = a.connect(table, seed="a")
            assert b.sit(table, 1).status_code == 200  # on the other process
            wb = b.connect(table, seed="b")
            pair = Pair(table, (a, b), (wa, wb))
            for ws in (wa, wb):
                wait_state(
                    ws,
                    lambda s: s["match"] is not None and s["match"]["game"]["phase"] != "opening",
                )
            for _ in range(12):
                for ws in (wa, wb):
                    ws.settle(0.15)
                state = wa.state
                assert state is not None
                if state["table"]["status"] != "playing":
                    break
                seat = pair.to_act()
                ws = pair.ws(seat)
                wait_state(
                    ws,
                    lambda s, seat=seat: (
                        bool(s["you"]["allowed"]) and s["you"]["allowed"] != ["abandon"]
                    ),
                )
                assert ws.state is not None
                allowed = ws.state["you"]["allowed"]
                if "move" in allowed:
                    msg = {"type": "move", "move": ws.state["match"]["moves"][0]["move"]}
                elif "roll" in allowed:
                    msg = {"type": "roll"}
                else:
                    msg = {"type": "take"}
                reply = ws.reply({**msg, "version": ws.state["version"]})
                assert reply["type"] == "ack" or reply["code"] == "stale", reply
            for ws in (wa, wb):
                ws.settle(0.5)
            assert wa.version == wb.version > 10
            assert wa.state is not None and wb.state is not None
            board = wa.state["match"]["game"]["position_id"]
            assert wb.state["match"]["game"]["position_id"] == board
            # each process saw every version once, in order (checked by WS.recv), and the
            # chat of one reaches the other
            assert wb.reply({"type": "chat", "text": "from two"})["type"] == "ack"
            line = wa.until(lambda m: m.get("kind") == "chat")
            assert line["data"]["text"] == "from two"
            log = a.http.get(f"/matches/{table}/log").text.splitlines()
            assert json.loads(log[0])["players"] == [a.name, b.name]
            a.close()
            b.close()
        finally:
            one.stop()
            two.stop()


def test_an_entry_whose_announcement_was_lost_arrives_by_the_journal_check() -> None:
    """Pub/sub may drop a message: every ``--sync-interval`` a process asks the versions of
    all the tables it holds (one query for all) and reads what it missed.  Here an entry
    is written to the journal with no announcement at all."""
    from gammon.storage import Database, Store, TableUpdate

    with postgres_schema() as url:
        args = ("--database-url", url, "--redis-url", REDIS_URL, "--sync-interval", "0.5")
        one = ServeProcess(*args)
        try:
            a = Player(one.server()).guest()
            tables = [a.create(match_length=3)["id"] for _ in range(3)]
            sockets = [a.connect(table, seed="a") for table in tables]
            db = Database(url)
            try:
                store = Store(db)
                for table, ws in zip(tables, sockets, strict=True):
                    version = store.version(table)
                    wait_state(ws, lambda s, version=version: s["version"] == version)
                    line = {"name": "ghost", "seat": None, "text": f"to {table}", "user": 0}
                    store.append(table, version + 1, "chat", json.dumps(line), 1, TableUpdate())
            finally:
                db.close()
            for table, ws in zip(tables, sockets, strict=True):
                chat = ws.until(lambda m: m.get("kind") == "chat", timeout=10)
                assert chat["data"]["text"] == f"to {table}"
            a.close()
        finally:
            one.stop()
