"""Challenges (issue #17): a challenge reaches the other player at once on their user socket,
accepting seats both at a new table and sends both there, declines and withdrawals, the
guests setting, the rate limit; across two processes through Redis."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from contestkit import UserSocket, form, signed_up
from gammon.server.challenges import RATE_BURST
from serverkit import (
    REDIS_URL,
    Player,
    RunningServer,
    ServeProcess,
    postgres_schema,
    wait_state,
)


def test_a_challenge_is_seen_at_once_and_accepting_seats_both(
    players: Callable[[], Player],
) -> None:
    ann, bob = signed_up(players()), signed_up(players())
    ann_news, bob_news = UserSocket(ann), UserSocket(bob)
    try:
        assert ann_news.recv() == {"type": "challenges", "incoming": [], "outgoing": []}
        assert bob_news.recv()["incoming"] == []
        r = ann.post(
            "/api/challenges", {"opponent": bob.name.upper(), "match_length": 3, "seat": 1}
        )
        assert r.status_code == 201, r.text
        challenge = r.json()["challenge"]
        assert challenge["from"] == ann.name and challenge["to"] == bob.name
        news = bob_news.recv()
        assert news["type"] == "challenge" and news["event"] == "new"
        assert [c["id"] for c in news["incoming"]] == [challenge["id"]]
        assert news["incoming"][0]["options"]["match_length"] == 3
        assert ann_news.recv()["outgoing"][0]["id"] == challenge["id"]
        # the badge's count is on every page's socket; the page lists it too
        assert challenge["id"] in bob.http.get("/challenges").text
        # only the challenged player may accept
        assert ann.post(f"/api/challenges/{challenge['id']}/accept", {}).status_code == 404
        r = bob.post(f"/api/challenges/{challenge['id']}/accept", {})
        assert r.status_code == 200, r.text
        table = r.json()["table"]
        for news_socket in (ann_news, bob_news):
            accepted = news_socket.until(lambda m: m.get("event") == "accepted")
            assert accepted["challenge"]["table"] == table and accepted["incoming"] == []
        # both seated, in the chosen seats, and the match under way
        ws = bob.connect(table, seed="b")
        state = wait_state(ws, lambda s: s["table"]["status"] == "playing")
        assert [s["name"] for s in state["table"]["seats"]] == [bob.name, ann.name]
        assert state["table"]["private"] is True
        # accepting again gives the same table; a decline now is stale
        assert bob.post(f"/api/challenges/{challenge['id']}/accept", {}).json()["table"] == table
        r = bob.post(f"/api/challenges/{challenge['id']}/decline", {})
        assert r.status_code == 409 and r.json()["error"]["code"] == "stale"
    finally:
        ann_news.close()
        bob_news.close()


def test_decline_and_withdraw_tell_both(players: Callable[[], Player]) -> None:
    ann, bob = signed_up(players()), signed_up(players())
    ann_news = UserSocket(ann)
    try:
        ann_news.recv()
        first = ann.post("/api/challenges", {"opponent": bob.name}).json()["challenge"]["id"]
        ann_news.until(lambda m: m.get("event") == "new")
        # the page's form declines as the socket's notice does
        r = form(bob, f"/challenges/{first}/decline")
        assert r.status_code == 303
        declined = ann_news.until(lambda m: m.get("event") == "declined")
        assert declined["outgoing"] == [] and declined["challenge"]["status"] == "declined"
        second = ann.post("/api/challenges", {"opponent": bob.name}).json()["challenge"]["id"]
        assert bob.post(f"/api/challenges/{second}/withdraw", {}).status_code == 404
        assert ann.post(f"/api/challenges/{second}/withdraw", {}).status_code == 200
        assert bob.http.get("/api/challenges").json()["incoming"] == []
        r = bob.post(f"/api/challenges/{second}/accept", {})
        assert r.status_code == 409 and r.json()["error"]["code"] == "stale"
    finally:
        ann_news.close()


def test_refusals(players: Callable[[], Player]) -> None:
    ann, bob = signed_up(players()), signed_up(players())
    guest = players()
    r = ann.post("/api/challenges", {"opponent": "nobody-is-called-this"})
    assert r.status_code == 404
    r = ann.post("/api/challenges", {"opponent": ann.name})
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    # a guest may challenge until the player refuses guests on the account page
    assert guest.post("/api/challenges", {"opponent": bob.name}).status_code == 201
    assert form(bob, "/account/challenges", refuse_guests="on").status_code == 303
    assert 'name="refuse_guests" checked' in bob.http.get("/account").text
    r = guest.post("/api/challenges", {"opponent": bob.name})
    assert r.status_code == 403 and "guests" in r.json()["error"]["message"]
    assert ann.post("/api/challenges", {"opponent": bob.name}).status_code == 201
    assert form(bob, "/account/challenges").status_code == 303  # unticked: guests again
    assert guest.post("/api/challenges", {"opponent": bob.name}).status_code == 201
    # the options are checked like a table's
    r = ann.post("/api/challenges", {"opponent": bob.name, "match_length": 5, "beaver": True})
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_options"


def test_challenges_are_rate_limited(players: Callable[[], Player]) -> None:
    ann, bob = signed_up(players()), signed_up(players())
    codes = [ann.post("/api/challenges", {"opponent": bob.name}).status_code for _ in range(8)]
    assert codes[:RATE_BURST] == [201] * RATE_BURST
    assert set(codes[RATE_BURST:]) == {429}


def test_challenging_the_bot_makes_its_table(players: Callable[[], Player]) -> None:
    ann = signed_up(players())
    r = form(ann, "/challenges", against="bot", bot_level="beginner", match_length="1")
    assert r.status_code == 303 and r.headers["location"].startswith("/table/")
    table = r.headers["location"].rsplit("/", 1)[1]
    seats = ann.http.get(f"/api/tables/{table}").json()["seats"]
    assert seats[0]["name"] == ann.name and seats[1]["kind"] == "bot"


def test_the_user_socket_needs_a_session(server: RunningServer) -> None:
    anonymous = Player(server)
    sock = UserSocket(anonymous)
    with pytest.raises(ConnectionClosed) as closed:
        sock.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    anonymous.close()


@pytest.mark.postgres
@pytest.mark.redis
def test_a_challenge_crosses_processes_through_redis(tmp_path: Path) -> None:
    with postgres_schema() as url:
        one = ServeProcess("--database-url", url, "--redis-url", REDIS_URL)
        two = ServeProcess("--database-url", url, "--redis-url", REDIS_URL)
        try:
            ann = signed_up(Player(one.server()).guest())
            bob = signed_up(Player(two.server()).guest())
            news = UserSocket(bob)
            news.recv()
            made = ann.post("/api/challenges", {"opponent": bob.name}).json()["challenge"]
            assert news.until(lambda m: m.get("event") == "new")["incoming"][0]["id"] == made["id"]
            ann_news = UserSocket(ann)
            ann_news.recv()
            table = bob.post(f"/api/challenges/{made['id']}/accept", {}).json()["table"]
            accepted = ann_news.until(lambda m: m.get("event") == "accepted")
            assert accepted["challenge"]["table"] == table
            news.close()
            ann_news.close()
            ann.close()
            bob.close()
        finally:
            one.stop()
            two.stop()
