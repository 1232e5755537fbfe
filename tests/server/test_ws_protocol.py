"""The WebSocket protocol end to end: every message type, every error code (docs/protocol.md).

A real uvicorn server on 127.0.0.1 and real WebSocket clients.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from websockets.exceptions import ConnectionClosed

from gammon.server.protocol import PROTOCOL_VERSION
from serverkit import (
    Pair,
    Player,
    RunningServer,
    play_move,
    start_pair,
    turn_of,
    until_phase,
    wait_state,
)

Make = Callable[[], Player]


def codes(ws: Any, messages: list[Any]) -> list[str]:
    out = []
    for m in messages:
        reply = ws.reply(m) if isinstance(m, dict) else None
        if reply is None:
            ws.send(m)
            reply = ws.until(lambda r: r["type"] == "error")
        out.append(reply.get("code", reply["type"]))
    return out


def test_hello_welcome_and_state(players: Make) -> None:
    a = players()
    table = a.create(match_length=3)
    ws = a.connect(table["id"], seed=None)
    welcome = ws.seen[0]
    assert welcome["protocol"] == PROTOCOL_VERSION and welcome["you"] == {"seat": 0, "name": a.name}
    state = ws.recv()
    assert state["type"] == "state" and state["version"] == 2
    assert state["table"]["status"] == "waiting" and state["match"] is None
    assert state["table"]["seats"][0]["name"] == a.name and state["table"]["seats"][1] is None
    assert state["you"]["can_sit"] == [False, False] and state["you"]["can_leave"]
    assert ws.reply({"type": "ping"})["type"] == "pong"


def test_before_hello_and_bad_protocol(players: Make) -> None:
    a = players()
    table = a.create()["id"]
    ws = a.connect(table, hello=False)
    ws.send({"type": "roll"})
    assert ws.recv()["code"] == "hello_required"
    ws.send({"type": "hello", "protocol": 99})
    error = ws.recv()
    assert error["code"] == "protocol_version"
    assert ws.close_code() == 4400


def test_unknown_table_closes_4404(players: Make, server: RunningServer) -> None:
    a = players()
    ws = a.connect("AAAAAAAAAAAA", hello=False)
    assert ws.recv()["code"] == "not_found"
    assert ws.close_code() == 4404


def test_malformed_messages(players: Make) -> None:
    a = players()
    ws = a.connect(a.create()["id"])
    ws.recv()
    got = codes(
        ws,
        [
            "not json",
            "[1, 2]",
            b"\x00\x01",
            json.dumps({"type": "fly"}),
            json.dumps({"type": "move"}),
            json.dumps({"type": "roll", "extra": 1}),
            json.dumps({"type": "resign", "level": 4}),
            json.dumps({"type": "roll", "id": {"x": 1}}),
            json.dumps({"type": "hello", "protocol": 1}),
            json.dumps({"type": "chat", "text": "x" * 5000}),
            "[" * 3000,
        ],
    )
    assert got == [
        "bad_json",
        "bad_json",
        "bad_json",
        "bad_message",
        "bad_message",
        "bad_message",
        "bad_message",
        "bad_message",
        "bad_message",
        "too_large",
        "bad_json",
    ]
    assert ws.reply({"type": "ping"})["type"] == "pong"


def test_forged_messages(players: Make) -> None:
    pair = start_pair(players, match_length=3)
    seat = pair.to_act()
    ws = pair.ws(seat)
    version = ws.state["version"]
    assert ws.reply({"type": "move", "move": "8/5 6/5", "player": 1 - seat})["code"] == "forbidden"
    assert ws.reply({"type": "roll", "dice": "66"})["code"] == "forbidden"
    assert ws.reply({"type": "timeout"})["code"] == "forbidden"
    other = pair.ws(1 - seat)
    assert other.reply({"type": "move", "move": "8/5 6/5"})["code"] == "illegal_action"
    pair.settle()
    assert ws.state["version"] == version


def test_roll_move_and_every_state_field(players: Make) -> None:
    pair = start_pair(players, match_length=3)
    seat = pair.to_act()
    ws, other = pair.ws(seat), pair.ws(1 - seat)
    state = ws.state
    match = state["match"]
    assert match["game"]["phase"] == "moving" and match["game"]["turn"] == seat
    # each legal move is its text and its steps (the page builds clicks from them)
    assert match["moves"] and all(set(m) == {"move", "steps"} for m in match["moves"])
    assert match["step_options"] is None and match["moves_omitted"] is False
    assert other.state["match"]["moves"] is None and other.state["match"]["step_options"] is None
    assert sum(match["game"]["board"][0]) == 15 and sum(match["game"]["board"][1]) == 15
    assert state["dice"]["locked"] and state["dice"]["client_seeds"] == ["seed-a", "seed-b"]
    assert state["dice"]["server_seed"] is None and len(state["dice"]["commitment"]) == 64
    assert state["dice"]["your_seed"] == ("seed-a" if seat == 0 else "seed-b")
    opening = next(e for e in ws.seen if e.get("kind") == "action")
    assert opening["data"]["reason"] == "auto_roll" and opening["data"]["by"] == "server"
    assert opening["data"]["events"][0]["kind"] == "opening_roll"
    move = match["moves"][-1]
    ack = ws.reply({"type": "move", "move": move["move"], "version": state["version"]})
    assert ack["type"] == "ack" and ack["version"] == state["version"] + 1
    event = [m for m in ws.seen if m.get("type") == "event"][-1]
    assert event["kind"] == "action" and event["data"]["events"][0]["kind"] == "moved"
    assert event["data"]["events"][0]["data"]["move"] == move["move"]
    pair.settle()
    assert other.version == ws.version


def test_steps_click_to_move(players: Make) -> None:
    pair = start_pair(players, match_length=3)
    seat = pair.to_act()
    ws = pair.ws(seat)
    first = ws.state["match"]["moves"][0]["steps"][0]
    reply = ws.reply({"type": "steps", "played": [first[:3]]})
    assert reply["type"] == "steps" and reply["played"] == [first[:3]]
    path = [first[:3]]
    while not reply["complete"]:
        nxt = reply["steps"][0]
        path.append(nxt[:3])
        reply = ws.reply({"type": "steps", "played": path})
    assert reply["move"] in {m["move"] for m in ws.state["match"]["moves"]}
    assert ws.reply({"type": "steps", "played": [[3, 24, 1]]})["code"] == "illegal_move"
    assert pair.ws(1 - seat).reply({"type": "steps", "played": []})["code"] == "illegal_action"
    assert ws.reply({"type": "move", "move": reply["move"]})["type"] == "ack"


def test_illegal_and_unreadable_moves(players: Make) -> None:
    pair = start_pair(players, match_length=3)
    ws = pair.ws(pair.to_act())
    assert ws.reply({"type": "move", "move": "24/1"})["code"] == "illegal_move"
    assert ws.reply({"type": "move", "move": "hello there"})["code"] == "invalid_notation"
    assert ws.reply({"type": "double"})["code"] == "illegal_action"
    assert ws.reply({"type": "move", "move": "x", "version": 1})["code"] == "stale"


def test_double_take_and_drop(players: Make) -> None:
    pair = start_pair(players, match_length=5)
    play_move(pair)
    doubler = pair.to_act()
    ws, taker = pair.ws(doubler), pair.ws(1 - doubler)
    assert "double" in ws.state["you"]["allowed"]
    assert ws.reply({"type": "double"})["type"] == "ack"
    state = wait_state(taker, lambda s: s["match"]["game"]["phase"] == "doubled")
    assert (
        state["you"]["allowed"][:2] == ["take", "drop"]
        and state["match"]["game"]["doubled_by"] == doubler
    )
    assert taker.reply({"type": "beaver"})["code"] == "illegal_action"
    assert taker.reply({"type": "take"})["type"] == "ack"
    state = wait_state(ws, lambda s: s["match"]["game"]["cube"]["value"] == 2)
    assert state["match"]["game"]["cube"]["owner"] == 1 - doubler
    turn_of(pair, 1 - doubler)
    owner_ws = pair.ws(1 - doubler)
    wait_state(owner_ws, lambda s: "double" in s["you"]["allowed"])
    assert owner_ws.reply({"type": "double"})["type"] == "ack"
    dropper = pair.ws(doubler)
    wait_state(dropper, lambda s: s["match"]["game"]["phase"] == "doubled")
    assert dropper.reply({"type": "drop"})["type"] == "ack"
    state = wait_state(dropper, lambda s: s["match"]["games"])
    assert state["match"]["games"][0] == {
        "number": 1,
        "variant": "standard",
        "winner": 1 - doubler,
        "points": 2,
        "result": 1,
        "reason": "drop",
        "cube": 2,
    }


def test_beaver_and_raccoon(players: Make) -> None:
    pair = start_pair(players, beaver=True, raccoon=True)
    play_move(pair)
    doubler = pair.to_act()
    ws, other = pair.ws(doubler), pair.ws(1 - doubler)
    assert ws.reply({"type": "double"})["type"] == "ack"
    wait_state(other, lambda s: "beaver" in s["you"]["allowed"])
    assert other.reply({"type": "beaver"})["type"] == "ack"
    wait_state(ws, lambda s: "raccoon" in s["you"]["allowed"])
    assert ws.reply({"type": "raccoon"})["type"] == "ack"
    state = wait_state(other, lambda s: s["match"]["game"]["phase"] == "raccooned")
    assert state["match"]["game"]["cube"]["value"] == 8
    assert other.reply({"type": "take"})["type"] == "ack"


def test_resign_reject_accept(players: Make) -> None:
    pair = start_pair(players, match_length=3)
    seat = pair.to_act()
    ws, other = pair.ws(seat), pair.ws(1 - seat)
    assert other.reply({"type": "resign", "level": 1})["code"] == "illegal_action"
    assert ws.reply({"type": "resign", "level": 1})["type"] == "ack"
    state = wait_state(other, lambda s: s["match"]["game"]["phase"] == "resigning")
    assert state["match"]["game"]["resign"] == {"level": 1, "by": seat}
    assert other.reply({"type": "reject_resign"})["type"] == "ack"
    wait_state(ws, lambda s: s["match"]["game"]["phase"] == "moving")
    assert ws.reply({"type": "resign", "level": 2})["type"] == "ack"
    wait_state(other, lambda s: s["match"]["game"]["phase"] == "resigning")
    assert other.reply({"type": "accept_resign"})["type"] == "ack"
    state = wait_state(other, lambda s: s["match"]["games"])
    assert state["match"]["score"][1 - seat] == 2


def test_abandon_by_the_waiting_player(players: Make) -> None:
    pair = start_pair(players, match_length=1)
    seat = pair.to_act()
    other = pair.ws(1 - seat)
    assert "abandon" in other.state["you"]["allowed"]
    assert other.reply({"type": "abandon"})["type"] == "ack"
    state = wait_state(other, lambda s: s["table"]["status"] == "finished")
    assert state["table"]["result"]["reason"] == "match_over"
    assert state["table"]["result"]["winner"] == seat
    seed = state["dice"]["server_seed"]
    assert seed is not None and len(seed) == 64
    assert other.reply({"type": "roll"})["code"] == "table_finished"


def test_chat_is_escaped_and_spectators_watch(players: Make, server: RunningServer) -> None:
    pair = start_pair(players, match_length=3)
    watcher = players()
    ws = watcher.connect(pair.table)
    state = ws.recv()
    assert state["you"]["seat"] is None and state["match"]["moves"] is None
    assert state["dice"].get("your_seed") is None
    assert ws.reply({"type": "roll"})["code"] == "not_seated"
    assert ws.reply({"type": "client_seed", "seed": "x"})["code"] == "not_seated"
    assert ws.reply({"type": "chat", "text": " <b>hi</b>\x00 "})["type"] == "ack"
    event = pair.ws(0).until(lambda m: m.get("kind") == "chat")
    assert event["data"]["text"] == "<b>hi</b>" and event["data"]["html"] == "&lt;b&gt;hi&lt;/b&gt;"
    assert "user" not in event["data"] and event["data"]["seat"] is None
    # the players see who watches: named viewers by name, visitors without a session counted
    seen = wait_state(pair.ws(0), lambda s: s["spectators"]["count"] == 1)
    assert seen["spectators"] == {"count": 1, "names": [watcher.name]}
    anonymous = Player(server)
    anon_ws = anonymous.connect(pair.table)
    assert anon_ws.recv()["spectators"] == {"count": 2, "names": [watcher.name]}
    assert anon_ws.reply({"type": "chat", "text": "hi"})["code"] == "auth_required"
    assert anon_ws.reply({"type": "sit", "seat": 0})["code"] == "auth_required"
    anonymous.close()
    wait_state(pair.ws(1), lambda s: s["spectators"]["count"] == 1)
    watcher.close()
    wait_state(pair.ws(1), lambda s: s["spectators"] == {"count": 0, "names": []})


def test_visitors_chat_where_the_table_allows(players: Make) -> None:
    """Issue #18: "visitors may chat if the table allows" (``spectator_chat``): on by default
    at a casual table; the creator may turn it off, and then a visitor's line is refused with
    ``chat_closed`` and changes nothing, while the players still chat."""
    # a casual table: on by default, a visitor chats
    pair = start_pair(players, match_length=3)
    assert pair.ws(0).state is not None
    assert pair.ws(0).state["table"]["options"]["spectator_chat"] is True
    visitor = players()
    ws = visitor.connect(pair.table)
    state = ws.recv()
    assert state["you"]["seat"] is None and state["you"]["can_chat"] is True
    assert ws.reply({"type": "chat", "text": "nice roll"})["type"] == "ack"
    line = pair.ws(0).until(lambda m: m.get("kind") == "chat")
    assert line["data"]["text"] == "nice roll" and line["data"]["seat"] is None

    # a table whose creator closed the chat to visitors
    closed = start_pair(players, match_length=3, spectator_chat=False)
    seated = closed.ws(0)
    assert seated.state is not None and seated.state["you"]["can_chat"] is True
    assert seated.state["table"]["options"]["spectator_chat"] is False
    other = players()
    wv = other.connect(closed.table)
    state = wv.recv()
    assert state["you"]["seat"] is None and state["you"]["can_chat"] is False
    before = state["version"]
    refused = wv.reply({"type": "chat", "text": "take it!"})
    assert refused["type"] == "error" and refused["code"] == "chat_closed", refused
    assert "only the players" in refused["message"]
    # nothing changed: the players still chat, and their line is the next version
    assert seated.reply({"type": "chat", "text": "gl"})["type"] == "ack"
    line = wv.until(lambda m: m.get("kind") == "chat")
    assert line["data"]["text"] == "gl" and line["data"]["seat"] == 0
    assert line["version"] == before + 1
    assert closed.ws(1).reply({"type": "chat", "text": "hf"})["type"] == "ack"
    # a snapshot holds only the players' lines
    snapshot = players().connect(closed.table, last_version=0).recv()
    assert [c["text"] for c in snapshot["chat"]] == ["gl", "hf"]


def test_rated_and_staked_tables_keep_the_chat_to_the_players_by_default(
    players: Make, server: RunningServer
) -> None:
    owner = players()
    staked = owner.create(stake=1, cube_limit=8)
    assert staked["options"]["spectator_chat"] is False
    opened = owner.create(stake=1, cube_limit=8, spectator_chat=True)
    assert opened["options"]["spectator_chat"] is True
    assert owner.create(match_length=1)["options"]["spectator_chat"] is True
    bad = owner.post("/api/tables", {"match_length": 1, "spectator_chat": "maybe"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_options"


def test_seeds_and_commitment_before_the_first_roll(players: Make) -> None:
    a, b = players(), players()
    table = a.create(match_length=1)["id"]
    wa = a.connect(table, seed=None)
    wa.recv()
    assert b.sit(table, 1).status_code == 200
    start = wa.until(lambda m: m.get("kind") == "start")
    assert len(start["data"]["commitment"]) == 64
    assert wa.state["dice"]["locked"] is False and wa.state["you"]["seed_needed"]
    assert wa.reply({"type": "client_seed", "seed": "a:b"})["code"] == "invalid_seed"
    assert wa.reply({"type": "client_seed", "seed": "x" * 129})["code"] == "invalid_seed"
    assert wa.reply({"type": "client_seed", "seed": "mine"})["type"] == "ack"
    wb = b.connect(table, seed=None)
    wb.recv()
    seed_event = [m for m in wb.seen if m.get("kind") == "seed"]
    assert seed_event == [] or "seed" not in seed_event[0]["data"]
    # nothing sent before the end reveals the server seed
    text = json.dumps(wa.seen + wb.seen)
    assert 'server_seed": "' not in text.replace('"server_seed": null', "")
    assert wb.reply({"type": "roll"})["type"] == "ack"  # explicit roll: seat 1's seed is empty
    state = wait_state(wb, lambda s: s["dice"]["locked"])
    assert state["dice"]["client_seeds"] == ["mine", ""]
    assert wa.reply({"type": "client_seed", "seed": "late"})["code"] == "seeds_locked"


def test_sit_leave_and_seat_errors(players: Make) -> None:
    a, b, c = players(), players(), players()
    table = a.create(match_length=1)["id"]
    ws = a.connect(table)
    ws.recv()
    assert ws.reply({"type": "sit", "seat": 1})["code"] == "already_seated"
    wb = b.connect(table)
    wb.recv()
    assert wb.reply({"type": "sit", "seat": 0})["code"] == "seat_taken"
    assert wb.reply({"type": "leave"})["code"] == "not_seated"
    assert wb.reply({"type": "roll"})["code"] == "not_seated"
    assert ws.reply({"type": "roll"})["code"] == "not_started"
    assert ws.reply({"type": "leave"})["type"] == "ack"
    state = wait_state(ws, lambda s: s["table"]["status"] == "finished")
    assert state["table"]["result"]["reason"] == "closed"
    assert c.sit(table, 0).json()["error"]["code"] == "table_finished"


def test_leaving_a_match_forfeits_it(players: Make) -> None:
    pair = start_pair(players, match_length=5)
    play_move(pair)
    leaver = pair.ws(0)
    assert leaver.reply({"type": "leave"})["type"] == "ack"
    state = wait_state(pair.ws(1), lambda s: s["table"]["status"] == "finished")
    result = state["table"]["result"]
    assert result["reason"] == "left" and result["winner"] == 1
    kinds = [
        (m["kind"], m["data"].get("reason")) for m in pair.ws(1).seen if m.get("type") == "event"
    ]
    assert ("action", "leave") in kinds


def test_resume_from_last_version(players: Make) -> None:
    pair = start_pair(players, match_length=5)
    if pair.to_act() == 1:
        play_move(pair)
    until_phase(pair, ("moving",))
    if pair.to_act() == 0:
        play_move(pair)
        until_phase(pair, ("moving",))
    assert pair.to_act() == 1
    a = pair.players[0]
    seen_version = pair.ws(0).version
    pair.ws(0).close()
    mover = pair.ws(1)
    move = mover.state["match"]["moves"][0]["move"]
    assert mover.reply({"type": "move", "move": move})["type"] == "ack"
    mover.settle()
    now = mover.version
    assert now > seen_version
    ws = a.connect(pair.table, last_version=seen_version)
    got = [ws.recv() for _ in range(now - seen_version)]
    assert [m["version"] for m in got] == list(range(seen_version + 1, now + 1))
    assert all(m["type"] == "event" for m in got)
    assert "state" in got[-1] and all("state" not in m for m in got[:-1])
    assert got[-1]["state"]["version"] == now
    ahead = a.connect(pair.table, last_version=now + 50)
    state = ahead.recv()
    assert state["type"] == "state" and state["resync"] is True and state["version"] == now


def test_rate_limit(server: RunningServer) -> None:
    from serverkit import start_server, test_settings

    slow = start_server(test_settings(_tmp(server), rate_limit=2.0, rate_burst=3))
    try:
        p = Player(slow).guest()
        ws = p.connect(p.create()["id"])
        ws.recv()
        for _ in range(8):
            ws.send({"type": "ping"})
        replies = [ws.recv() for _ in range(4)]
        assert any(r.get("code") == "rate_limited" for r in replies)
        assert _flood(ws) == 4429
        p.close()
    finally:
        slow.stop()


def _flood(ws: Any) -> int | None:
    """Send pings until the server closes the socket; its close code."""
    try:
        for _ in range(200):
            ws.send({"type": "ping"})
        return ws.close_code()  # type: ignore[no-any-return]
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd is not None else None


def _tmp(server: RunningServer) -> Any:
    import tempfile
    from pathlib import Path

    return Path(tempfile.mkdtemp(prefix="gammon-test-"))


def test_a_session_ends_when_a_loss_leaves_too_little_escrow(
    players: Make, server: RunningServer
) -> None:
    import secrets

    from gammon.server.community.auth import token_hash
    from gammon.server.infra.clock import now_ms

    ctx = server.app.state.gammon
    poor = Player(server)
    user = ctx.infra.store.create_user("poorly", None, guest=False, balance=2, now=now_ms())
    token = secrets.token_urlsafe(16)
    ctx.infra.store.create_session(
        token_hash(token), user.id, "csrf-poor-token", now_ms(), now_ms() + 10**8
    )
    poor.http.cookies.set("gammon_session", token)
    poor.csrf = "csrf-poor-token"
    rich = players()
    table = rich.create(stake=1, cube_limit=2, end_setting="oin")["id"]
    r = poor.sit(table, 1)
    assert r.status_code == 200, r.text
    # the table's largest loss in a game (1 x 2 x 1) is held while the player sits
    held = ctx.infra.store.user(user.id)
    assert (held.balance, held.held) == (2, 2)
    pair = Pair(table, (rich, poor), (rich.connect(table, seed="r"), poor.connect(table, seed="p")))
    for ws in pair.sockets:
        wait_state(
            ws, lambda s: s["match"] is not None and s["match"]["game"]["phase"] != "opening"
        )
    pair.settle()
    assert pair.ws(1).state["table"]["escrow"][1] == 2
    # the poor player drops a double: the loss uses 1 of its escrow, and its balance of 1
    # cannot hold the table's 2 again: the session ends after the game, settled
    turn_of(pair, 0)
    assert pair.ws(0).reply({"type": "double"})["type"] == "ack"
    wait_state(pair.ws(1), lambda s: s["match"]["game"]["phase"] == "doubled")
    assert pair.ws(1).reply({"type": "drop"})["type"] == "ack"
    state = wait_state(pair.ws(1), lambda s: s["table"]["status"] == "finished")
    assert state["table"]["result"]["reason"] == "balance"
    assert state["table"]["escrow"] == [0, 0]
    assert state["match"]["ledger"] == [
        {"game": 1, "player": 0, "amount": 1},
        {"game": 1, "player": 1, "amount": -1},
    ]
    ledger = poor.http.get("/api/me/ledger").json()
    assert ledger["balance"] == 1
    lines = [(x["reason"], x["amount"], x["balance"], x["held"]) for x in ledger["ledger"]]
    # newest first: the loss releases the escrow it uses, then is paid (never more held
    # than the balance), then the rest is released as the session ends
    assert lines == [
        ("release", 0, 1, 0),
        ("game", -1, 1, 1),
        ("release", 0, 2, 1),
        ("hold", 0, 2, 2),
        ("opening", 2, 2, 0),
    ]
    after = ctx.infra.store.user(user.id)
    assert (after.balance, after.held) == (1, 0)
    poor.close()
