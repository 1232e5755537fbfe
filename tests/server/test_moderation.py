"""Moderation over real HTTP and WebSockets (issue #30): only moderators reach /mod and
its actions; each action works and writes the moderation log; a muted player cannot
chat; a removed line goes for everyone at once and after a reload; a blocked player can
neither challenge the blocker nor be read by them, and two accounts one of which blocks the
other are seated together by no path but a tournament (a table's seat, a challenge, a
rematch: blocks made after the challenge or the match hold too); a banned account cannot sign in and
its session dies; a banned address cannot make a guest, sign in or create a table."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator

import httpx
import pytest

from gammon.server.community.moderation import REFRESH
from gammon.storage import Database, Standings
from gammon.storage.moderation import Moderation
from serverkit import Player, RunningServer, resign, start_pair, wait_state

PASSWORD = "correct horse battery"


@pytest.fixture
def mod_db(server: RunningServer) -> Iterator[Moderation]:
    """The server's database, as the operator's ``gammon admin`` reaches it."""
    db = Database(server.settings.database_url)
    yield Moderation(db)
    db.close()


def _moderator(make: Callable[[], Player], mod_db: Moderation) -> Player:
    m = make()
    mod_db.grant(m.name, by=None, now=1)
    return m


def _form(p: Player, path: str, **fields: str) -> httpx.Response:
    return p.http.post(path, data={"csrf_token": p.csrf, **fields})


def _actions(mod_db: Moderation) -> list[str]:
    return [line.action for line in mod_db.mod_log(500)]


GETS = ["/mod", "/mod/flags", "/mod/log", "/mod/users/anyone", "/mod/users?name=x"]
POSTS = [
    "/mod/users/anyone/mute",
    "/mod/users/anyone/ban",
    "/mod/users/anyone/unban",
    "/mod/addresses/ban",
    "/mod/reports/1/mute-remove",
    "/mod/chat/abc/2/remove",
    "/mod/tables/abc/close",
    "/mod/results/1/void",
]


def test_only_moderators_reach_the_moderation_pages_and_actions(
    server: RunningServer, members: Callable[[], Player], mod_db: Moderation
) -> None:
    visitor = Player(server)
    guest = Player(server).guest()
    member = members()
    before = _actions(mod_db)
    try:
        for who in (visitor, guest, member):
            for path in GETS:
                assert who.http.get(path).status_code == 403, (who.name, path)
            csrf = who.csrf or who.http.get("/api/session").json()["csrf"]
            for path in POSTS:
                r = who.http.post(
                    path, data={"csrf_token": csrf, "hours": "1", "address": "1.2.3.4"}
                )
                assert r.status_code == 403, (who.name, path, r.text[:200])
        assert "moderators" in member.http.get("/mod").text
    finally:
        visitor.close()
        guest.close()
    assert _actions(mod_db) == before  # nothing was done
    moderator = _moderator(members, mod_db)
    for path in GETS[:4]:
        assert moderator.http.get(path).status_code in (200, 404), path
    assert moderator.http.get("/mod").status_code == 200


def test_mute_ban_and_address_ban_work_and_are_logged(
    server: RunningServer, members: Callable[[], Player], mod_db: Moderation
) -> None:
    m = _moderator(members, mod_db)
    t = members()
    assert _form(m, f"/mod/users/{t.name}/mute", hours="2", reason="insults").status_code == 303
    sanctions = mod_db.sanctions_by_name(t.name)
    assert sanctions is not None and sanctions.muted_until is not None
    assert 'data-testid="muted"' in m.http.get(f"/mod/users/{t.name}").text
    assert _form(m, f"/mod/users/{t.name}/unmute").status_code == 303
    # a ban ends the account's session and refuses its sign-in
    assert t.http.get("/api/session").json()["user"]["name"] == t.name
    assert _form(m, f"/mod/users/{t.name}/ban", reason="spam").status_code == 303
    assert t.http.get("/api/session").json()["user"] is None
    again = Player(server)
    try:
        page = again.http.get("/signin").text
        token = re.search(r'name="csrf_token" value="([^"]+)"', page)
        assert token is not None
        r = again.http.post(
            "/signin", data={"csrf_token": token[1], "username": t.name, "password": PASSWORD}
        )
        assert r.status_code == 403 and "banned" in r.text
        assert _form(m, f"/mod/users/{t.name}/unban").status_code == 303
        r = again.http.post(
            "/signin", data={"csrf_token": token[1], "username": t.name, "password": PASSWORD}
        )
        assert r.status_code == 303
    finally:
        again.close()
    # bad input changes nothing
    assert _form(m, f"/mod/users/{t.name}/mute", hours="soon").status_code == 400
    assert _form(m, "/mod/addresses/ban", address="not an address").status_code == 400
    log = mod_db.mod_log(500)
    mine = [(line.action, line.moderator) for line in log if line.target == t.name]
    assert mine == [("unban", m.name), ("ban", m.name), ("unmute", m.name), ("mute", m.name)]
    # the moderator's pages show the account's addresses (sign-in and sockets note them)
    assert "127.0.0.1" in m.http.get(f"/mod/users/{t.name}").text


def test_a_banned_address_cannot_make_a_guest_sign_up_or_create(
    server: RunningServer, members: Callable[[], Player], mod_db: Moderation
) -> None:
    m = _moderator(members, mod_db)
    member = members()
    assert _form(m, "/mod/addresses/ban", address="127.0.0.0/8").status_code == 303
    visitor = Player(server)
    try:
        token = visitor.http.get("/api/session").json()["csrf"]
        r = visitor.http.post("/api/guest", json={}, headers={"X-CSRF-Token": token})
        assert r.status_code == 403 and r.json()["error"]["code"] == "banned"
        r = member.post("/api/tables", {"match_length": 1})
        assert r.status_code == 403 and r.json()["error"]["code"] == "banned"
        r = member.post("/api/challenges", {"opponent": m.name, "match_length": 1})
        assert r.status_code == 403 and r.json()["error"]["code"] == "banned"
    finally:
        assert _form(m, "/mod/addresses/unban", address="127.0.0.0/8").status_code == 303
        visitor.close()
    assert member.post("/api/tables", {"match_length": 1}).status_code == 201
    assert _actions(mod_db)[:2] == ["unban-address", "ban-address"]


def test_a_muted_player_cannot_chat_and_a_removed_line_goes_for_everyone(
    server: RunningServer, members: Callable[[], Player], mod_db: Moderation
) -> None:
    m = _moderator(members, mod_db)
    pair = start_pair(members, match_length=3)
    (_, b), (wa, wb) = pair.players, pair.sockets
    watcher = members()
    wc = watcher.connect(pair.table)
    assert wa.reply({"type": "chat", "text": "you are an idiot"})["type"] == "ack"
    line = wb.until(lambda msg: msg.get("kind") == "chat")
    seq = line["version"]
    wc.until(lambda msg: msg.get("kind") == "chat")
    r = b.post("/api/reports", {"table": pair.table, "seq": seq, "reason": "abuse"})
    assert r.status_code == 201, r.text
    report = r.json()["report"]
    queue = m.http.get("/mod").text
    assert "you are an idiot" in queue and 'data-testid="reported-line"' in queue
    assert _form(m, f"/mod/reports/{report}/mute-remove").status_code == 303
    for ws in (wa, wb, wc):
        gone = ws.until(lambda msg: msg.get("kind") == "chat_removed")
        assert gone["data"]["seq"] == seq
    # a reload: the line is not in the table's state any more
    fresh = b.connect(pair.table, last_version=0)
    state = wait_state(fresh, lambda s: True)
    assert all(c["version"] != seq for c in state.get("chat", []))
    # the author is muted: their line is refused, the others' still pass
    refused = wa.reply({"type": "chat", "text": "still here"})
    assert refused["type"] == "error" and refused["code"] == "muted"
    assert wb.reply({"type": "chat", "text": "gg"})["type"] == "ack"
    assert {"mute", "remove-chat", "resolve-report"} <= set(_actions(mod_db)[:3])
    assert m.http.get("/mod").text.count("data-report=") == 0


def test_a_blocked_player_cannot_challenge_and_is_not_read(
    server: RunningServer, members: Callable[[], Player]
) -> None:
    pair = start_pair(members, match_length=3)
    (a, b), (wa, wb) = pair.players, pair.sockets
    assert _form(b, f"/@/{a.name}/block", on="1").status_code == 303
    r = a.post("/api/challenges", {"opponent": b.name, "match_length": 1})
    assert r.status_code == 403 and "does not take your challenges" in r.text
    r = b.post("/api/challenges", {"opponent": a.name, "match_length": 1})  # nor the blocker
    assert r.status_code == 403 and "one of you blocks the other" in r.text
    # the blocker's socket (open before the block) gets the version, not the line
    assert wa.reply({"type": "chat", "text": "hello?"})["type"] == "ack"
    event = wb.until(lambda msg: msg.get("kind") == "chat")
    assert event["data"] == {"hidden": True}
    fresh = b.connect(pair.table, last_version=0)
    state = wait_state(fresh, lambda s: True)
    assert [c["text"] for c in state.get("chat", [])] == []
    assert _form(b, f"/@/{a.name}/block", on="0").status_code == 303
    assert a.post("/api/challenges", {"opponent": b.name, "match_length": 1}).status_code == 201


def test_close_a_table_and_void_a_rated_result(
    server: RunningServer, members: Callable[[], Player], mod_db: Moderation
) -> None:
    m = _moderator(members, mod_db)
    staked = start_pair(members, match_length=0, stake=1, cube_limit=8)
    a = staked.players[0]
    held = a.http.get("/api/session").json()["user"]["held"]
    assert held > 0
    assert _form(m, f"/mod/tables/{staked.table}/close").status_code == 303
    end = staked.ws(0).until(lambda msg: msg.get("kind") == "end")
    assert end["data"]["reason"] == "closed" and end["data"]["winner"] is None
    assert a.http.get("/api/session").json()["user"]["held"] == 0  # escrow released
    assert _form(m, f"/mod/tables/{staked.table}/close").status_code == 409
    # a rated 1-point match, won by a resignation, then voided
    rated = start_pair(members, match_length=1, rated=True)
    resign(rated)
    rated.ws(0).until(lambda msg: msg.get("kind") == "end")
    result = mod_db.result_of(rated.table)
    assert result is not None
    standings = Standings(Database(server.settings.database_url))
    ids = [p.http.get("/api/session").json()["user"]["name"] for p in rated.players]
    assert standings.result_rated(rated.table) is True
    assert _form(m, f"/mod/results/{result}/void", reason="test").status_code == 303
    assert standings.result_rated(rated.table) is False
    assert standings.rating_changes(rated.table) == []
    profile = rated.players[0].http.get(f"/@/{ids[0]}").text
    assert "No rated match yet." in profile
    assert _form(m, f"/mod/results/{result}/void").status_code == 409
    assert _actions(mod_db)[:2] == ["void-result", "close-table"]


def test_the_header_links_moderators_to_their_pages_with_the_open_reports(
    server: RunningServer, members: Callable[[], Player], mod_db: Moderation
) -> None:
    """Only a moderator's header has the Moderation link; its badge is the number of open
    reports, counted again once a moderator handles one.  Before: no link at all."""
    member = members()
    guest = Player(server).guest()
    visitor = Player(server)
    try:
        for who in (member, guest, visitor):
            assert 'data-testid="nav-mod"' not in who.http.get("/").text, who.name
    finally:
        guest.close()
        visitor.close()
    moderator = _moderator(members, mod_db)
    # granted by the command line: the header knows within REFRESH (5 s) seconds
    deadline = time.monotonic() + REFRESH + 2
    while not re.search(r'<a href="/mod" id="nav-mod"', moderator.http.get("/watch").text):
        assert time.monotonic() < deadline, "no Moderation link in the moderator's header"
        time.sleep(0.2)
    target = members()
    ids = []
    for reporter in (members(), members()):
        r = reporter.post("/api/reports", {"user": target.name, "reason": "spam"})
        assert r.status_code == 201, r.text
        ids.append(r.json()["report"])
    assert _form(moderator, f"/mod/reports/{ids[0]}/dismiss").status_code == 303
    page = moderator.http.get("/").text
    badge = re.search(r'data-testid="mod-badge">(\d+)<span class="sr-only"> open reports', page)
    assert badge is not None, page[:3000]
    assert int(badge[1]) == len(mod_db.reports("open", 10_000)) >= 1


def test_no_path_seats_a_blocker_with_the_blocked(members: Callable[[], Player]) -> None:
    """Each path that seats two accounts together refuses them once either blocks the other,
    the block made after the path began (a challenge waiting, a match over): an open
    table's seat (form, API), accepting a challenge, a rematch asked for or joined."""
    pair = start_pair(members, match_length=1)
    a, b = pair.players
    resign(pair)
    wait_state(pair.ws(0), lambda s: s["table"]["status"] == "finished")
    challenge = a.post("/api/challenges", {"opponent": b.name, "match_length": 3})
    assert challenge.status_code == 201
    asked = a.http.post(f"/tables/{pair.table}/rematch", data={"csrf_token": a.csrf})
    assert asked.status_code == 303  # a rematch offered, its seat kept for b
    rematch = asked.headers["location"].rsplit("/", 1)[1]
    open_table = a.create(match_length=1)["id"]
    assert _form(a, f"/@/{b.name}/block", on="1").status_code == 303  # a blocks b now

    refused = "cannot play together: one of you blocks the other"
    r = b.post(f"/api/challenges/{challenge.json()['challenge']['id']}/accept", {})
    assert r.status_code == 403 and refused in r.text, r.text
    for table in (open_table, rematch):
        r = b.sit(table, 1)
        assert r.status_code == 403 and refused in r.text, (table, r.text)
        r = b.http.post(f"/tables/{table}/sit", data={"csrf_token": b.csrf, "seat": "1"})
        assert r.status_code == 403 and refused in r.text
        assert b.http.get(f"/api/tables/{table}").json()["seats"][1] is None
    r = b.http.post(f"/tables/{pair.table}/rematch", data={"csrf_token": b.csrf})
    assert r.status_code == 403 and refused in r.text
    assert b.http.get("/api/challenges").json()["incoming"][0]["status"] == "pending"
    # lifted, the same paths work again
    assert _form(a, f"/@/{b.name}/block", on="0").status_code == 303
    assert b.sit(open_table, 1).status_code == 200


def test_a_profile_offers_report_and_block_or_unblock(
    server: RunningServer, members: Callable[[], Player]
) -> None:
    """Another member's profile has Report and Block (Unblock once blocked, and says
    so); one's own profile, a guest and a visitor have neither.  Before: Block and
    Unblock side by side, whatever the state."""
    me, other = members(), members()
    page = me.http.get(f"/@/{other.name}").text
    assert 'data-action="report"' in page and 'data-action="block"' in page
    assert 'data-action="unblock"' not in page
    assert _form(me, f"/@/{other.name}/block", on="1").status_code == 303
    page = me.http.get(f"/@/{other.name}").text
    assert 'data-action="unblock"' in page and 'data-testid="blocked"' in page
    assert 'data-action="block"' not in page
    assert _form(me, f"/@/{other.name}/block", on="0").status_code == 303
    assert 'data-action="block"' in me.http.get(f"/@/{other.name}").text
    assert 'data-testid="report-block"' not in me.http.get(f"/@/{me.name}").text
    guest, visitor = Player(server).guest(), Player(server)
    try:
        for who in (guest, visitor):
            assert 'data-testid="report-block"' not in who.http.get(f"/@/{other.name}").text
    finally:
        guest.close()
        visitor.close()
