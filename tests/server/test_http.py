"""HTTP: pages, forms with CSRF, accounts and sessions, the JSON API, downloads."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from gammon.match import Roll
from gammon.match.fairdice import verify_rolls
from gammon.match.record import read_log
from gammon.server.community.auth import token_hash
from serverkit import (
    TLS,
    Player,
    RunningServer,
    play_move,
    start_pair,
    start_server,
    until_phase,
    wait_state,
)

Make = Callable[[], Player]


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match, "no CSRF field in the page"
    return match.group(1)


def browser(server: RunningServer) -> httpx.Client:
    return httpx.Client(verify=TLS, base_url=server.url, timeout=20, follow_redirects=False)


def test_lobby_has_every_table_option(server: RunningServer) -> None:
    with browser(server) as web:
        page = web.get("/")
        assert page.status_code == 200
        for name in (
            "variant",
            "match_length",
            "stake",
            "cube",
            "cube_limit",
            "crawford",
            "jacoby",
            "beaver",
            "raccoon",
            "automatic_doubles",
            "end_setting",
            "draw_last_roll",
            "first_move",
            "clock",
            "clock_delay",
            "clock_reserve_base",
            "clock_reserve_per_point",
            "seat",
            "opponent",
            "private",
            "spectator_chat",
        ):
            assert f'name="{name}"' in page.text, name
        assert page.headers["x-frame-options"] == "DENY"
        french = web.get("/?lang=fr")
        assert "Tables ouvertes" in french.text and 'lang="fr"' in french.text
        assert "Tables ouvertes" in web.get("/").text  # remembered
        assert "Sala" in web.get("/", params={"lang": "it"}).text
        assert "script-src 'self'" in page.headers["content-security-policy"]
        cookie = page.headers["set-cookie"]
        assert "gammon_csrf=" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie


def test_sign_up_sign_in_sign_out(server: RunningServer) -> None:
    ctx = server.app.state.gammon
    with browser(server) as web:
        token = csrf_of(web.get("/signup").text)
        r = web.post(
            "/signup", data={"username": "ann", "password": "correct horse", "csrf_token": token}
        )
        assert r.status_code == 303, r.text
        cookie = r.headers["set-cookie"]
        assert "gammon_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
        session_token = web.cookies["gammon_session"]
        assert ctx.infra.store.session(token_hash(session_token), 0) is not None
        assert ctx.infra.store.session(session_token, 0) is None  # only the hash is stored
        account = web.get("/account")
        assert (
            account.status_code == 200
            and "1000" in account.text
            and "Starting balance" in account.text
        )
        r = web.post("/signout", data={"csrf_token": csrf_of(account.text)})
        assert r.status_code == 303
        assert web.get("/account").status_code == 303
    with browser(server) as web:
        token = csrf_of(web.get("/signin").text)
        bad = web.post(
            "/signin", data={"username": "ann", "password": "wrong one!", "csrf_token": token}
        )
        assert bad.status_code == 401 and 'data-code="bad_credentials"' in bad.text
        ok = web.post(
            "/signin", data={"username": "ANN", "password": "correct horse", "csrf_token": token}
        )
        assert ok.status_code == 303


def test_sign_up_errors(server: RunningServer) -> None:
    with browser(server) as web:
        token = csrf_of(web.get("/signup").text)
        cases = {
            "x": ("long enough", "invalid_username"),
            "guest-abc": ("long enough", "invalid_username"),
            "bob_ok": ("short", "weak_password"),
        }
        for name, (password, code) in cases.items():
            r = web.post(
                "/signup", data={"username": name, "password": password, "csrf_token": token}
            )
            assert r.status_code == 400 and f'data-code="{code}"' in r.text, (name, r.status_code)
        r = web.post(
            "/signup", data={"username": "taken1", "password": "long enough", "csrf_token": token}
        )
        assert r.status_code == 303
    with browser(server) as web:
        token = csrf_of(web.get("/signup").text)
        r = web.post(
            "/signup", data={"username": "TAKEN1", "password": "long enough", "csrf_token": token}
        )
        assert r.status_code == 409 and 'data-code="username_taken"' in r.text


def test_csrf_is_required(server: RunningServer) -> None:
    with browser(server) as web:
        web.get("/")
        r = web.post("/signup", data={"username": "eve", "password": "long enough"})
        assert r.status_code == 403 and 'data-code="csrf"' in r.text
        token = csrf_of(web.get("/signup").text)
        r = web.post(
            "/signup",
            data={"username": "eve", "password": "long enough", "csrf_token": token},
            headers={"Origin": "https://evil.example"},
        )
        assert r.status_code == 403
        r = web.post("/api/guest", content=b"{}", headers={"Content-Type": "text/plain"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf"
        r = web.post("/api/guest", json={}, headers={"X-CSRF-Token": "nope"})
        assert r.status_code == 403


def test_guest_plays_then_signs_up_keeping_history(server: RunningServer) -> None:
    with browser(server) as web:
        token = csrf_of(web.get("/").text)
        r = web.post(
            "/tables",
            data={"csrf_token": token, "match_length": "3", "cube": "on", "crawford": "on"},
        )
        assert r.status_code == 303 and r.headers["location"].startswith("/table/")
        table_id = r.headers["location"].rsplit("/", 1)[1]
        page = web.get(f"/table/{table_id}")
        assert f'data-table="{table_id}"' in page.text and 'data-ws="/ws/table/' in page.text
        assert 'src="/static/game/main.js"' in page.text
        name = web.get("/api/session").json()["user"]["name"]
        assert name.startswith("guest-")
        token = csrf_of(web.get("/signup").text)
        r = web.post(
            "/signup",
            data={"username": "was_guest", "password": "long enough", "csrf_token": token},
        )
        assert r.status_code == 303
        me = web.get("/api/session").json()["user"]
        assert me == {"name": "was_guest", "guest": False, "balance": 1000, "held": 0}
        table = web.get(f"/api/tables/{table_id}").json()
        assert table["seats"][0]["name"] == "guest-" + name[6:]  # the seat keeps its name


def test_create_table_form_reads_every_option(server: RunningServer) -> None:
    with browser(server) as web:
        token = csrf_of(web.get("/").text)
        form = {
            "csrf_token": token,
            "variant": "nackgammon",
            "match_length": "0",
            "stake": "2",
            "cube": "on",
            "cube_limit": "8",
            "jacoby": "on",
            "beaver": "on",
            "raccoon": "on",
            "automatic_doubles": "2",
            "end_setting": "mars",
            "draw_last_roll": "on",
            "first_move": "alternate",
            "clock": "on",
            "clock_delay": "5",
            "clock_reserve_base": "30",
            "clock_reserve_per_point": "10",
            "seat": "1",
            "private": "on",
            "spectator_chat": "on",  # ticked by the creator (a staked table's default is off)
        }
        r = web.post("/tables", data=form)
        assert r.status_code == 303, r.text
        table = web.get(f"/api/tables/{r.headers['location'].rsplit('/', 1)[1]}").json()
        assert table["options"] == {
            "variant": "nackgammon",
            "match_length": 0,
            "stake": 2,
            "cube": True,
            "cube_limit": 8,
            "crawford": False,
            "jacoby": True,
            "beaver": True,
            "raccoon": True,
            "automatic_doubles": 2,
            "end_setting": "mars",
            "draw_last_roll": True,
            "first_move": "alternate",
            "opening": "play",  # the variant's custom: the form has no field for it
            "clock": {"delay": 5.0, "reserve_base": 30.0, "reserve_per_point": 10.0},
            "rated": False,
            "spectator_chat": True,
        }
        assert table["private"] is True and table["seats"][1] is not None
        assert table["id"] not in web.get("/").text  # private: not listed
        token = csrf_of(web.get("/").text)  # the guest's session has its own token
        bad = web.post("/tables", data={**form, "csrf_token": token, "match_length": "5"})
        assert bad.status_code == 400 and 'data-code="invalid_options"' in bad.text


def test_api_errors(players: Make, server: RunningServer) -> None:
    p = players()
    assert (
        p.post("/api/tables", {"match_length": 7, "beaver": True}).json()["error"]["code"]
        == "invalid_options"
    )
    assert p.post("/api/tables", {"colour": "red"}).json()["error"]["code"] == "bad_message"
    assert (
        p.post("/api/tables", {"stake": 10, "cube_limit": 64}).json()["error"]["code"]
        == "insufficient_balance"
    )
    assert p.http.get("/api/tables/nope").status_code == 404
    assert p.sit("AAAAAAAAAAAA", 0).status_code == 404
    r = p.http.post(
        "/api/tables",
        content=b"{bad",
        headers={"Content-Type": "application/json", "X-CSRF-Token": p.csrf},
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
    anonymous = Player(server)
    r = anonymous.http.get("/api/me/ledger")
    assert r.status_code == 401 and r.json()["error"]["code"] == "auth_required"
    assert (
        anonymous.http.get("/no/such/page", headers={"Accept": "application/json"}).json()["error"][
            "code"
        ]
        == "not_found"
    )
    anonymous.close()


def test_lobby_lists_open_and_live_tables(players: Make, server: RunningServer) -> None:
    a = players()
    waiting = a.create(match_length=3)["id"]
    pair = start_pair(players, match_length=3)
    listing = a.http.get("/api/tables").json()
    assert waiting in {t["id"] for t in listing["open"]}
    assert pair.table in {t["id"] for t in listing["live"]}
    assert pair.table in a.http.get("/watch").text
    assert f"/tables/{waiting}/sit" in a.http.get("/").text


def test_downloads_and_dice_verification(players: Make) -> None:
    a = players()
    table = a.create(match_length=1)["id"]
    assert a.http.get(f"/matches/{table}/log").status_code == 409
    pair = start_pair(players, match_length=1)
    log = read_log(pair.players[0].http.get(f"/matches/{pair.table}/log").text)
    assert log.server_seed is None and log.dice is not None
    assert log.dice.client_seeds == ("seed-a", "seed-b")
    loser = pair.ws(0)
    assert loser.reply({"type": "abandon"})["type"] == "ack"
    wait_state(loser, lambda s: s["table"]["status"] == "finished")
    r = pair.players[1].http.get(f"/matches/{pair.table}/log")
    assert r.headers["content-disposition"] == f'attachment; filename="gammon-{pair.table}.jsonl"'
    log = read_log(r.text)
    assert log.server_seed is not None and log.dice is not None
    rolls = [a.dice for a in log.actions if isinstance(a, Roll)]
    check = verify_rolls(
        log.dice.commitment, log.server_seed, log.dice.match_id, log.dice.client_seeds, rolls
    )
    assert check.ok, check.message
    page = pair.players[1].http.get(f"/matches/{pair.table}")
    assert log.server_seed in page.text and f"/matches/{pair.table}/verify" in page.text
    mat = pair.players[1].http.get(f"/matches/{pair.table}/mat")
    assert mat.status_code == 200 and "1 point match" in mat.text.lower()
    verify = pair.players[1].http.get(f"/matches/{pair.table}/verify")
    assert f'data-log="/matches/{pair.table}/log"' in verify.text


def test_a_match_page_is_rendered_once_for_every_visitor(
    players: Make, server: RunningServer
) -> None:
    """A match page's content (every game listed) is rendered once per table version and
    language and kept: visitors looping on a long match's page cost a lookup (issue 30:
    the attack's loopers on an 80-game page held the event loop rendering it)."""
    pair = start_pair(players, match_length=1)
    loser = pair.ws(0)
    assert loser.reply({"type": "abandon"})["type"] == "ack"
    wait_state(loser, lambda s: s["table"]["status"] == "finished")
    kept = server.app.state.gammon.infra.kept
    before = kept.computed
    url = f"/matches/{pair.table}"
    pages = [pair.players[i % 2].http.get(url) for i in range(6)]
    with httpx.Client(verify=TLS, base_url=server.url, timeout=20) as anonymous:
        pages.append(anonymous.get(url))
        french = anonymous.get(url + "?lang=fr")
    assert all(p.status_code == 200 for p in [*pages, french])
    assert kept.computed - before == 2  # English once, French once
    games = [re.search(r'<table class="list" id="games">.*?</table>', p.text, re.S) for p in pages]
    assert all(g is not None for g in games) and len({g.group(0) for g in games if g}) == 1
    assert "Partie" in french.text or "partie" in french.text


def test_healthz_and_protocol(server: RunningServer) -> None:
    with browser(server) as web:
        assert web.get("/healthz").json() == {"ok": True, "protocol": 1}
        assert web.get("/api/protocol").json()["protocol"] == 1


def test_creations_per_address_are_limited(tmp_path: Path) -> None:
    """Guests, accounts and tables: past ``create_limit`` a 429 and nothing is created."""
    from serverkit import test_settings  # imported here: pytest would collect it as a test

    server = start_server(test_settings(tmp_path, create_limit=1.0))  # a burst of 2
    db = tmp_path / "gammon.db"

    def count(table: str) -> int:
        with sqlite3.connect(db) as con:
            return int(con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])

    try:
        first = Player(server).guest()  # 1: a guest
        first.create()  # 2: a table
        users, tables = count("users"), count("tables")
        third = Player(server)
        r = third.http.post("/api/guest", json={}, headers=third._csrf_headers(anonymous=True))
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        r = first.post("/api/tables", {"match_length": 1})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        with browser(server) as web:
            token = csrf_of(web.get("/").text)
            r = web.post("/tables", data={"csrf_token": token, "match_length": "3"})
            assert r.status_code == 429
            token = csrf_of(web.get("/signup").text)
            r = web.post(
                "/signup", data={"username": "late", "password": "long enough", "csrf_token": token}
            )
            assert r.status_code == 429 and "wait a minute" in r.text
        assert (count("users"), count("tables")) == (users, tables)
        third.close()
        first.close()
    finally:
        server.stop()


def test_a_finished_match_is_analysed(players: Make) -> None:
    pytest.importorskip("bgsage", reason="analysis needs the bot extra (bgsage)")
    pair = start_pair(players, match_length=1)  # one abandon ends it, whatever the board
    a = pair.players[0]
    for _ in range(6):  # a few moves, so that there is something to judge
        until_phase(pair, ("moving",))
        play_move(pair)
    # not while the match is played: the analysis would be a hint
    r = a.http.get(f"/api/tables/{pair.table}/analysis")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    assert f"/matches/{pair.table}/analysis" not in a.http.get(f"/matches/{pair.table}").text
    seat = pair.to_act()
    assert pair.ws(seat).reply({"type": "abandon"})["type"] == "ack"
    wait_state(pair.ws(0), lambda s: s["table"]["status"] == "finished")
    r = a.http.get(f"/api/tables/{pair.table}/analysis")
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["schema"] == 1 and data["level"] == "expert" and data["match_length"] == 1
    assert data["players"] == [p.name for p in pair.players]
    assert sum(len(g["graph"]) for g in data["games"]) >= 6
    assert [x["games"] for x in data["luck_adjusted"]] == [1, 1]
    assert a.http.get(f"/api/tables/{pair.table}/analysis").json() == data  # kept
    page = a.http.get(f"/matches/{pair.table}")
    assert f'href="/matches/{pair.table}/analysis"' in page.text
    html = a.http.get(f"/matches/{pair.table}/analysis", params={"lang": "fr"})
    assert html.status_code == 200
    # the analysis board: the stored analysis is in the page, with its French texts
    found = re.search(r'id="ab-analysis">(.*?)</script>', html.text)
    assert found and json.loads(found.group(1)) == data
    assert 'id="ab-board"' in html.text and "Résultat corrigé de la chance" in html.text
    replay = a.http.get(f"/api/tables/{pair.table}/replay").json()
    # a tied opening roll (a roll-off) is a step of its own before the first move
    kinds = [s["kind"] for s in replay if s["kind"] != "rolloff"]
    assert kinds[:2] == ["start", "move"], kinds
    r = a.http.get(f"/api/tables/{pair.table}/analysis", params={"level": "nope"})
    assert r.status_code == 400 and "level must be expert or world-class or grandmaster" in r.text
    # the grandmaster's analysis is only made on demand (POST .../deep)
    r = a.http.get(f"/api/tables/{pair.table}/analysis", params={"level": "grandmaster"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_analysed"
    assert a.http.get("/api/tables/nosuchtable/analysis").status_code == 404


def test_the_lobby_form_can_close_the_chat_to_visitors(server: RunningServer) -> None:
    """The lobby's "visitors may chat" box: a hidden ``off`` comes first and the ticked box's
    ``on`` after it (the last value wins), so an unticked box closes the chat."""
    with browser(server) as web:
        page = web.get("/").text
        hidden = page.index('<input type="hidden" name="spectator_chat" value="off">')
        assert hidden < page.index('name="spectator_chat" value="on"')
        for sent, chat in ((["off"], False), (["off", "on"], True)):
            token = csrf_of(web.get("/").text)
            form = [("csrf_token", token), ("match_length", "3"), ("cube", "on")]
            form += [("spectator_chat", value) for value in sent]
            r = web.post(
                "/tables",
                content="&".join(f"{k}={v}" for k, v in form),
                headers={"Content-Type": "application/x-www-form-urlencoded"},
            )
            assert r.status_code == 303, r.text
            table = web.get(f"/api/tables/{r.headers['location'].rsplit('/', 1)[1]}").json()
            assert table["options"]["spectator_chat"] is chat, sent
