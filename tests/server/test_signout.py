"""Sign-out closes the user socket (issue #30 item 9c): the ``/ws/user`` sockets opened
with the session are closed with 4401 at once, in this process and (through Redis) in
every other one; the same account's other sessions keep theirs.

Before: the user socket stayed open after sign-out, still receiving the account's news.

A moderator's ban closes every socket of the banned account, its user sockets and its
table sockets, in every process within about a second (issue #30, H9).  Before: the ban
closed the table sockets of the moderator's process only; the user sockets stayed open,
and another process's table sockets closed at their next session check (up to 15 s).
"""

from __future__ import annotations

import time

import pytest
from websockets.sync.client import connect

from gammon.storage import Database
from gammon.storage.moderation import Moderation
from serverkit import (
    REDIS_URL,
    WS,
    Player,
    RunningServer,
    ServeProcess,
    member,
    need_services,
    postgres_schema,
)

PASSWORD = "correct horse battery"


def _user_socket(player: Player, server: RunningServer | None = None) -> WS:
    """``player``'s user socket (on ``server``, by default the player's own), past its
    first message."""
    server = server or player.server
    cookie = "; ".join(f"{k}={v}" for k, v in player.http.cookies.items())
    ws = WS(
        connect(
            f"{server.ws_url}/ws/user",
            additional_headers={"Cookie": cookie},
            open_timeout=10,
            legacy=True,
        )
    )
    player.sockets.append(ws)
    assert ws.recv()["type"] == "challenges"
    return ws


def _signed_in_again(server: RunningServer, name: str) -> Player:
    """A second session of the account ``name`` (another browser)."""
    other = Player(server).guest()
    r = other.http.post(
        "/signin", data={"csrf_token": other.csrf, "username": name, "password": PASSWORD}
    )
    assert r.status_code == 303, r.text
    other.csrf = other.http.get("/api/session").json()["csrf"]
    return other


def _sign_out(player: Player) -> None:
    r = player.http.post("/signout", data={"csrf_token": player.csrf}, follow_redirects=False)
    assert r.status_code == 303, r.text


def _pongs(ws: WS) -> bool:
    ws.send('{"type":"ping"}')  # the text the page sends
    return ws.until(lambda m: m.get("type") == "pong")["type"] == "pong"


def test_sign_out_closes_the_sessions_user_sockets(server: RunningServer) -> None:
    """One process: both user sockets of the session close (4401), the account's other
    session keeps its socket."""
    alice = member(server)
    elsewhere = _signed_in_again(server, alice.name)
    try:
        first, second = _user_socket(alice), _user_socket(alice)
        kept = _user_socket(elsewhere)
        _sign_out(alice)
        assert first.close_code(timeout=5) == 4401
        assert second.close_code(timeout=5) == 4401
        assert _pongs(kept)
    finally:
        alice.close()
        elsewhere.close()


@pytest.mark.postgres
@pytest.mark.redis
def test_sign_out_on_one_process_closes_the_user_socket_on_another() -> None:
    """Two processes sharing PostgreSQL and Redis: the user socket served by process two
    closes when the session signs out on process one."""
    need_services()
    with postgres_schema() as url:
        args = ("--database-url", url, "--redis-url", REDIS_URL)
        one, two = ServeProcess(*args), ServeProcess(*args)
        try:
            alice = member(one.server())
            elsewhere = _signed_in_again(two.server(), alice.name)
            there = _user_socket(alice, two.server())
            here = _user_socket(alice)
            kept = _user_socket(elsewhere)
            _sign_out(alice)  # on process one
            assert here.close_code(timeout=5) == 4401
            assert there.close_code(timeout=5) == 4401
            assert _pongs(kept)
            alice.close()
            elsewhere.close()
        finally:
            one.stop()
            two.stop()


def _grant(database_url: str, name: str) -> None:
    """Make ``name`` a moderator, as the operator's ``gammon admin`` does."""
    db = Database(database_url)
    try:
        Moderation(db).grant(name, by=None, now=1)
    finally:
        db.close()


def _ban(moderator: Player, name: str) -> None:
    r = moderator.http.post(
        f"/mod/users/{name}/ban", data={"csrf_token": moderator.csrf, "reason": "spam"}
    )
    assert r.status_code == 303, r.text


def _closed_soon(ws: WS, within: float) -> int | None:
    """The close code of ``ws``, which must close within ``within`` seconds."""
    start = time.monotonic()
    try:
        code = ws.close_code(timeout=within)
    except TimeoutError:
        raise AssertionError(f"the socket stayed open {within} s") from None
    assert time.monotonic() - start <= within
    return code


def test_a_ban_closes_the_accounts_user_and_table_sockets(server: RunningServer) -> None:
    """One process: the banned account's user socket and table socket close (4401) at
    once; the moderator's own sockets stay open."""
    moderator, target = member(server), member(server)
    try:
        _grant(server.settings.database_url, moderator.name)
        table = target.create()
        at_table = target.connect(table["id"])
        user = _user_socket(target)
        kept = _user_socket(moderator)
        _ban(moderator, target.name)
        assert _closed_soon(user, 2) == 4401
        assert _closed_soon(at_table, 2) == 4401
        assert _pongs(kept)
    finally:
        moderator.close()
        target.close()


@pytest.mark.postgres
@pytest.mark.redis
def test_a_ban_on_one_process_closes_the_sockets_on_another() -> None:
    """Two processes sharing PostgreSQL and Redis: a ban made on process one closes the
    banned account's table socket and user socket served by process two within ~1 s."""
    need_services()
    with postgres_schema() as url:
        args = ("--database-url", url, "--redis-url", REDIS_URL)
        one, two = ServeProcess(*args), ServeProcess(*args)
        try:
            moderator = member(one.server())
            _grant(url, moderator.name)
            target = member(two.server())
            table = target.create()
            at_table = target.connect(table["id"])
            user = _user_socket(target)
            kept = _user_socket(moderator)
            _ban(moderator, target.name)  # on process one
            assert _closed_soon(user, 1.5) == 4401
            assert _closed_soon(at_table, 1.5) == 4401
            assert _pongs(kept)
            moderator.close()
            target.close()
        finally:
            one.stop()
            two.stop()
