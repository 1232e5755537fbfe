"""What an attacker tried (issue #20): the lows, heavy requests, long tables, restarts.

Each test here failed before the fix it covers.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from serverkit import Player, start_server, wait_state
from serverkit import test_settings as settings_for

Make = Callable[[], Player]


# ---------------------------------------------------------------- the lows


def test_rematch_honours_the_create_limit(tmp_path: Path) -> None:
    """A rematch makes a table: past ``--create-limit`` it is refused (429) like any other."""
    server = start_server(settings_for(tmp_path, create_limit=3.0))  # a burst of 6
    try:
        p = Player(server).guest()  # 1
        table = p.create(opponent="bot", bot_level="beginner")["id"]  # 2
        statuses = []
        for _ in range(8):
            assert p.post(f"/api/tables/{table}/leave", {}).status_code == 200  # forfeits
            r = p.http.post(
                f"/tables/{table}/rematch", data={"csrf_token": p.csrf}, follow_redirects=False
            )
            statuses.append(r.status_code)
            if r.status_code != 303:
                break
            table = r.headers["location"].rsplit("/", 1)[-1]
        assert statuses == [303, 303, 303, 303, 429], statuses
        p.close()
    finally:
        server.stop()


def test_a_roll_waits_for_the_seed_of_a_player_who_just_sat(players: Make) -> None:
    """The lobby flow: B sits over HTTP (the match starts), then B's page says hello with
    its seed; A's roll in between must not lock the dice without B's seed."""
    a, b = players(), players()
    table = a.create()["id"]
    wa = a.connect(table, seed="seed-a")
    assert b.sit(table, 1).status_code == 200
    wa.send({"type": "roll", "id": "r1"})  # at once, before B's hello
    wb = b.connect(table, seed="seed-b")
    reply = wa.until(lambda m: m.get("id") == "r1")
    # the roll waited for B's seed: made then, or refused because the server's own
    # roll-off (due once both seeds are in) came first
    assert reply["type"] == "ack" or reply["code"] == "illegal_action", reply
    for ws in (wa, wb):
        state = wait_state(ws, lambda s: s["dice"] is not None and s["dice"]["locked"])
        assert state["dice"]["client_seeds"] == ["seed-a", "seed-b"]


def test_integers_that_are_not_ascii_digits_are_invalid_options(players: Make) -> None:
    """``"--5"`` and ``"²"`` pass :meth:`str.isdigit`: a clean 400, never a 500."""
    p = players()
    for bad in ("--5", "²", "5-", "٣"):
        r = p.post("/api/tables", {"match_length": bad})
        assert r.status_code == 400, (bad, r.status_code)
        assert r.json()["error"]["code"] == "invalid_options"
        r = p.http.post("/tables", data={"csrf_token": p.csrf, "match_length": bad})
        assert r.status_code == 400 and 'data-code="invalid_options"' in r.text, bad
    assert p.post("/api/tables", {"match_length": " 3 "}).status_code == 201
