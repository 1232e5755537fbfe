"""Rematches: ``POST /tables/{id}/rematch`` and ``GET /api/tables/{id}/rematch`` (issue #11)."""

from __future__ import annotations

from collections.abc import Callable

from gammon.server.web import rematch_id
from serverkit import Player, RunningServer, start_pair, wait_state

Make = Callable[[], Player]


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
