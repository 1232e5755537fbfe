"""Rematches: ``POST /tables/{id}/rematch`` and ``GET /api/tables/{id}/rematch`` (issue #11)."""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable

import pytest

from gammon.server.web import rematch_id
from serverkit import Player, RunningServer, resign, start_pair, wait_state

Make = Callable[[], Player]

#: The module (``gammon.server.web.rematch`` is also the name of its view function).
rematch_module = importlib.import_module("gammon.server.web.rematch")


def _ask(player: Player, table: str) -> tuple[int, str]:
    r = player.http.post(
        f"/tables/{table}/rematch", data={"csrf_token": player.csrf}, follow_redirects=False
    )
    return r.status_code, r.headers.get("location", "") or r.text


def test_both_players_meet_at_one_rematch_table(players: Make, server: RunningServer) -> None:
    pair = start_pair(players, match_length=1, end_setting="mars", cube_limit=8)
    a, b = pair.players
    assert _ask(a, pair.table)[0] == 409  # not over yet
    assert a.http.get(f"/api/tables/{pair.table}/rematch").json() == {"table": None}

    seat = pair.to_act()
    ws = pair.ws(seat)
    state = wait_state(ws, lambda s: "resign" in s["you"]["allowed"])
    assert ws.reply({"type": "resign", "level": 2, "version": state["version"]})["type"] == "ack"
    other = pair.ws(1 - seat)
    state = wait_state(other, lambda s: "accept_resign" in s["you"]["allowed"])
    assert other.reply({"type": "accept_resign", "version": state["version"]})["type"] == "ack"
    wait_state(ws, lambda s: s["table"]["status"] == "finished")

    stranger = players()
    assert _ask(stranger, pair.table)[0] == 403

    status, location = _ask(a, pair.table)
    new = rematch_id(pair.table)
    assert (status, location) == (303, f"/table/{new}")
    offer = b.http.get(f"/api/tables/{pair.table}/rematch").json()["table"]
    assert offer["id"] == new and offer["status"] == "waiting"
    assert offer["options"]["end_setting"] == "mars" and offer["options"]["cube_limit"] == 8
    assert offer["seats"][0]["name"] == a.name and offer["seats"][1] is None

    assert _ask(b, pair.table) == (303, f"/table/{new}")
    assert _ask(a, pair.table) == (303, f"/table/{new}")  # asking again changes nothing
    table = a.http.get(f"/api/tables/{new}").json()
    assert [s["name"] for s in table["seats"]] == [a.name, b.name]
    assert table["status"] == "playing"
    assert a.http.get("/api/tables/AAAAAAAAAAAA/rematch").status_code == 404


# ---------------------------------------------------------------- the seat kept (#30 9d)


def _finished_pair(make: Make) -> tuple[str, Player, Player]:
    """A 1-point match between two players, over (resigned); its table, both players."""
    pair = start_pair(make, match_length=1)
    resign(pair)
    wait_state(pair.ws(0), lambda s: s["table"]["status"] == "finished")
    return pair.table, *pair.players


def test_the_rematch_keeps_its_seat_for_the_previous_opponent(members: Make) -> None:
    """Three accounts: A and B played, A asks for the rematch; C, with the link, is refused
    the free seat (by the API, the form and the socket) while B takes it (before: C sat)."""
    old, a, b = _finished_pair(members)
    c = members()
    status, location = _ask(a, old)
    new = rematch_id(old)
    assert (status, location) == (303, f"/table/{new}")
    r = c.sit(new, 1)
    assert r.status_code == 409, r.text
    error = r.json()["error"]
    assert error["code"] == "seat_reserved"
    assert error["message"].startswith(f"seat 1 is kept for {b.name}, the previous opponent")
    r = c.http.post(f"/tables/{new}/sit", data={"csrf_token": c.csrf, "seat": "1"})
    assert r.status_code == 409 and 'data-code="seat_reserved"' in r.text
    ws = c.connect(new)
    assert ws.reply({"type": "sit", "seat": 1})["code"] == "seat_reserved"
    assert _ask(c, old)[0] == 403  # not a player of the old table
    assert c.post(f"/api/tables/{old}/rematch/decline", {}).status_code == 403
    table = c.http.get(f"/api/tables/{new}").json()
    assert table["status"] == "waiting" and table["seats"][1] is None  # nothing changed
    assert _ask(b, old) == (303, f"/table/{new}")
    table = c.http.get(f"/api/tables/{new}").json()
    assert [s["name"] for s in table["seats"]] == [a.name, b.name]
    assert table["status"] == "playing"


def test_the_previous_opponent_may_decline_the_rematch(members: Make) -> None:
    """B declines: the rematch table, waiting for B, is closed; nobody can sit there."""
    old, a, b = _finished_pair(members)
    c = members()
    assert _ask(a, old)[0] == 303
    new = rematch_id(old)
    assert a.post(f"/api/tables/{old}/rematch/decline", {}).status_code == 403  # the asker
    r = b.post(f"/api/tables/{old}/rematch/decline", {})
    assert r.status_code == 200, r.text
    assert r.json()["table"]["status"] == "finished"
    assert c.sit(new, 1).json()["error"]["code"] == "table_finished"
    assert b.post(f"/api/tables/{old}/rematch/decline", {}).status_code == 409


def test_the_kept_seat_opens_after_the_hold(members: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once ``REMATCH_HOLD`` has run out, the seat is free for anyone."""
    monkeypatch.setattr(rematch_module, "REMATCH_HOLD", 1.0)
    old, a, _b = _finished_pair(members)
    c = members()
    assert _ask(a, old)[0] == 303
    new = rematch_id(old)
    assert c.sit(new, 1).json()["error"]["code"] == "seat_reserved"
    time.sleep(1.1)
    r = c.sit(new, 1)
    assert r.status_code == 200, r.text
    assert [s["name"] for s in r.json()["table"]["seats"]] == [a.name, c.name]
