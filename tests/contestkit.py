"""Helpers of the challenge and tournament tests: signed-up players, tournament forms."""

from __future__ import annotations

import re
import secrets
import time
from typing import Any

from serverkit import Player


def signed_up(player: Player, name: str | None = None) -> Player:
    """Turn a guest player into a signed-up account."""
    name = name or f"p{secrets.token_hex(4)}"
    r = player.http.post(
        "/signup",
        data={"csrf_token": player.csrf, "username": name, "password": "correct-horse"},
    )
    assert r.status_code == 303, r.text
    player.csrf = player.http.get("/api/session").json()["csrf"]
    player.name = name
    return player


def form(player: Player, path: str, **fields: Any) -> Any:
    """POST a form as the player (its CSRF token added); the response."""
    return player.http.post(path, data={"csrf_token": player.csrf, **fields})


def create_tournament(player: Player, **fields: Any) -> int:
    """Create a tournament through the form; its id."""
    values = {"name": "Test cup", "format": "knockout", "match_length": "1", "max_players": "4"}
    r = form(player, "/tournaments", **{**values, **fields})
    assert r.status_code == 303, r.text
    found = re.fullmatch(r"/tournaments/(\d+)", r.headers["location"])
    assert found, r.headers["location"]
    return int(found.group(1))


def add_bots(player: Player, tournament: int, count: int, level: str = "beginner") -> None:
    for _ in range(count):
        r = form(player, f"/tournaments/{tournament}/bots", level=level)
        assert r.status_code == 303, r.text


def tournament(player: Player, tournament_id: int) -> dict[str, Any]:
    r = player.http.get(f"/api/tournaments/{tournament_id}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def wait_tournament(
    player: Player, tournament_id: int, pred: Any, timeout: float = 90
) -> dict[str, Any]:
    """Poll the tournament's JSON until ``pred`` holds."""
    end = time.monotonic() + timeout
    while True:
        data = tournament(player, tournament_id)
        if pred(data):
            return data
        if time.monotonic() > end:
            raise AssertionError(f"the tournament never got there: {data}")
        time.sleep(0.2)


class UserSocket:
    """A player's ``/ws/user`` socket."""

    def __init__(self, player: Player) -> None:
        from websockets.sync.client import connect

        cookie = "; ".join(f"{k}={v}" for k, v in player.http.cookies.items())
        self.conn = connect(
            f"{player.server.ws_url}/ws/user",
            additional_headers={"Cookie": cookie} if cookie else None,
            open_timeout=10,
            legacy=True,
        )
        self.seen: list[dict[str, Any]] = []

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        import json

        msg: dict[str, Any] = json.loads(self.conn.recv(timeout=timeout))
        self.seen.append(msg)
        return msg

    def until(self, pred: Any, timeout: float = 10) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, end - time.monotonic()))
            if pred(msg):
                return msg

    def close(self) -> None:
        self.conn.close()
